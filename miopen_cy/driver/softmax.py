"""softmax: MIOpenDriver's softmax forward and backward (fast, accurate, log; instance or channel mode)."""
import numpy as np

from miopen_cy.reference import softmax as softmax_ref
from .buffers import HostTensor, data_rng, library_call
from .flags import SOFTMAX_FLAGS, UsageError, check_iters, directions, parse_flags
from .layer import open_layer, run_direction
from .report import EXIT_OK, EXIT_VERIFY_FAILED


def cmd_softmax(args, report):
    o, _ = parse_flags("softmax", SOFTMAX_FLAGS, args)
    info = check_iters(o)
    algo, mode = o["algorithm"], o["mode"]
    if algo not in (0, 1, 2):
        raise UsageError(f"-a {algo}: fast (0), accurate (1) or logsoftmax (2)")
    if mode not in (0, 1):
        raise UsageError(f"-m {mode}: instance (0) or channel (1)")
    alpha, beta = o["alpha"], o["beta"]
    fwd, bwd = directions(o["forw"], "softmax")
    lens, layout, device = open_layer(o, report, info, layout=True)
    h = device.handle
    x, y, dy, dx = (HostTensor(lens, layout=layout) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    rng = data_rng()
    x_data = rng.random(lens).astype(np.float32)
    dy_data = (0.001 * (rng.random(lens) - 0.5)).astype(np.float32)
    # With beta != 0 the outputs blend in their previous contents: give them known data.
    y0 = rng.random(lens).astype(np.float32)
    dx0 = rng.random(lens).astype(np.float32)
    x.set(x_data)
    dy.set(dy_data)
    names = ["fast", "accurate", "log"]
    report.record.update(subcommand="softmax", device=h.device, problem={
        "x": lens, "layout": layout, "algorithm": names[algo], "mode": ["instance", "channel"][mode],
        "alpha": alpha, "beta": beta})
    fwd_api, bwd_api = library_call("softmaxForward_V2"), library_call("softmaxBackward_V2")
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * 4
    ref_y = softmax_ref.forward(x_data, algo, mode)

    def fwd_call():
        if beta != 0:
            device.refill(y, by, y0)
        fwd_api(h, alpha, xd, bx, beta, yd, by, algo, mode)

    if fwd:
        run_direction(report, o, device, "fwd", "Forward Softmax", "softmax-fwd", fwd_call, (y, by),
                      nbytes, nbytes,
                      lambda: alpha * ref_y + (beta * y0 if beta != 0 else 0.0), 1e-6)
    if bwd:
        # Backward takes the exact forward output (alpha 1, beta 0) as its y.
        y.set(ref_y.astype(np.float32))
        by = device.put(y)
        y_used = y.get()

        def bwd_call():
            if beta != 0:
                device.refill(dx, bdx, dx0)
            bwd_api(h, alpha, yd, by, dyd, bdy, beta, dxd, bdx, algo, mode)

        run_direction(report, o, device, "bwd", "Backward Softmax", "softmax-bwd", bwd_call, (dx, bdx),
                      2 * nbytes, nbytes,
                      lambda: alpha * softmax_ref.backward_from_output(y_used, dy_data, algo, mode)
                      + (beta * dx0 if beta != 0 else 0.0), 1e-6)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
