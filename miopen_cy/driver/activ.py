"""activ: MIOpenDriver's activation forward and backward (the ten miopenActivationMode_t modes), in fp32
(activ), fp16 (activfp16) or bf16 (activbfp16, ours beyond MIOpen)."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import activation as activ_ref
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, as64, tolerance
from .flags import ACTIV_FLAGS, UsageError, check_iters, directions, parse_flags
from .layer import open_layer, run_direction
from .report import EXIT_OK, EXIT_VERIFY_FAILED

ACTIV_NAMES = activ_ref.NAMES


def cmd_activ(args, report, dtype=FP32, name="activ"):
    o, given = parse_flags(name, ACTIV_FLAGS, args)
    info = check_iters(o)
    mode = o["mode"]
    if not 0 <= mode <= 9:
        raise UsageError(f"-m {mode}: activation modes are 0..9 ({', '.join(f'{i} {n}' for i, n in enumerate(ACTIV_NAMES))})")
    if "power" in given:
        if "gamma" in given and o["gamma"] != o["power"]:
            raise UsageError(f"-P {o['power']} and -G {o['gamma']} contradict: -P is the old name of -G")
        o["gamma"] = o["power"]
    a, b, g = o["alpha"], o["beta"], o["gamma"]
    fwd, bwd = directions(o["forw"], "activation")
    lens, layout, device = open_layer(o, report, info, layout=True)
    h = device.handle
    x, y, dy, dx = (HostTensor(lens, layout=layout, dtype=dtype) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    ad = library_call("ActivationDescriptor")()
    library_call("setActivationDescriptor")(ad, mode, a, b, g)
    rng = data_rng()
    # POWER needs a positive base for fractional powers: MIOpenDriver's U(0, 1) there, U(-1, 1)
    # elsewhere so that both sides of RELU-like kinks are exercised.
    x_data = dtype.store(rng.random(lens) if mode == 6 else 2.0 * rng.random(lens) - 1.0)
    dy_data = dtype.store(0.001 * (rng.random(lens) - 0.5))
    x.set(x_data)
    dy.set(dy_data)
    report.record.update(subcommand="activ", device=h.device, problem={
        "x": lens, "layout": layout, "type": dtype.name, "mode": mode, "mode_name": ACTIV_NAMES[mode], "alpha": a, "beta": b, "gamma": g})
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * dtype.itemsize
    tol = tolerance("activ", dtype, 1e-6)
    fwd_call = lambda: mi.activationForward(h, ad, 1.0, xd, bx, 0.0, yd, by)
    if fwd:
        run_direction(report, o, device, "fwd", "Forward Activation", "activ-fwd", fwd_call, (y, by),
                      nbytes, nbytes,
                      lambda: activ_ref.forward(mode, a, b, g, as64(x_data)), tol)
    if bwd:
        if not fwd:
            fwd_call()
        bwd_call = lambda: mi.activationBackward(h, ad, 1.0, yd, by, dyd, bdy, xd, bx, 0.0, dxd, bdx)
        run_direction(report, o, device, "bwd", "Backward Activation", "activ-bwd", bwd_call, (dx, bdx),
                      3 * nbytes, nbytes,
                      lambda: activ_ref.backward(mode, a, b, g, as64(x_data), as64(dy_data)), tol)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
