"""softmax: MIOpenDriver's softmax forward and backward (fast, accurate, log; instance or channel mode),
in fp32 (softmax), fp16 (softmaxfp16) or bf16 (softmaxbfp16, ours beyond MIOpen)."""
import numpy as np

from miopen_cy.reference import softmax as softmax_ref
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, as64, tolerance
from .flags import SOFTMAX_FLAGS, UsageError, check_iters, directions, parse_flags
from .layer import open_layer, run_direction
from .report import EXIT_OK, EXIT_VERIFY_FAILED


def cmd_softmax(args, report, dtype=FP32, name="softmax"):
    o, _ = parse_flags(name, SOFTMAX_FLAGS, args)
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
    x, y, dy, dx = (HostTensor(lens, layout=layout, dtype=dtype) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    rng = data_rng()
    x_data = dtype.store(rng.random(lens))
    dy_data = dtype.store(0.001 * (rng.random(lens) - 0.5))
    # With beta != 0 the outputs blend in their previous contents: give them known data.
    y0 = dtype.store(rng.random(lens))
    dx0 = dtype.store(rng.random(lens))
    x.set(x_data)
    dy.set(dy_data)
    names = ["fast", "accurate", "log"]
    report.record.update(subcommand="softmax", device=h.device, problem={
        "x": lens, "layout": layout, "type": dtype.name, "algorithm": names[algo], "mode": ["instance", "channel"][mode],
        "alpha": alpha, "beta": beta})
    fwd_api, bwd_api = library_call("softmaxForward_V2"), library_call("softmaxBackward_V2")
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * dtype.itemsize
    ref_y = softmax_ref.forward(as64(x_data), algo, mode)
    tol = tolerance("softmax", dtype, 1e-6)

    def fwd_call():
        if beta != 0:
            device.refill(y, by, y0)
        fwd_api(h, alpha, xd, bx, beta, yd, by, algo, mode)

    if fwd:
        run_direction(report, o, device, "fwd", "Forward Softmax", "softmax-fwd", fwd_call, (y, by),
                      nbytes, nbytes,
                      lambda: alpha * ref_y + (beta * as64(y0) if beta != 0 else 0.0), tol)
    if bwd:
        # Backward takes the exact forward output (alpha 1, beta 0) as its y.
        y.set(dtype.store(ref_y))
        by = device.put(y)
        y_used = y.get()

        def bwd_call():
            if beta != 0:
                device.refill(dx, bdx, dx0)
            bwd_api(h, alpha, yd, by, dyd, bdy, beta, dxd, bdx, algo, mode)

        run_direction(report, o, device, "bwd", "Backward Softmax", "softmax-bwd", bwd_call, (dx, bdx),
                      2 * nbytes, nbytes,
                      lambda: alpha * softmax_ref.backward_from_output(as64(y_used), as64(dy_data), algo, mode)
                      + (beta * as64(dx0) if beta != 0 else 0.0), tol)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
