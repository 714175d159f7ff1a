"""lrn: MIOpenDriver's local response normalization forward and backward (within or across channels),
in fp32 (lrn), fp16 (lrnfp16) or bf16 (lrnbfp16, ours beyond MIOpen)."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import lrn as lrn_ref
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, as64, tolerance
from .flags import LRN_FLAGS, UsageError, check_iters, directions, parse_flags
from .layer import open_layer, run_direction
from .report import EXIT_OK, EXIT_VERIFY_FAILED


def cmd_lrn(args, report, dtype=FP32, name="lrn"):
    o, _ = parse_flags(name, LRN_FLAGS, args)
    info = check_iters(o)
    modes = {"within": 0, "within_channel": 0, "cross": 1, "cross_channel": 1}
    if o["mode"] not in modes:
        raise UsageError(f"-m {o['mode']!r}: the LRN mode is within or cross")
    mode = modes[o["mode"]]
    if o["lrnN"] < 1:
        raise UsageError(f"-N {o['lrnN']}: the window must be >= 1")
    fwd, bwd = directions(o["forw"], "LRN")
    lens, _, device = open_layer(o, report, info)
    h = device.handle
    x, y, dy, dx = (HostTensor(lens, dtype=dtype) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    ld = library_call("LRNDescriptor")()
    N, A, B, K = o["lrnN"], o["alpha"], o["beta"], o["lrnK"]
    library_call("setLRNDescriptor")(ld, mode, N, A, B, K)
    rng = data_rng()
    x_data = dtype.store(rng.random(lens))
    dy_data = dtype.store(0.001 * (rng.random(lens) - 0.5))
    x.set(x_data)
    dy.set(dy_data)
    ws_size = library_call("LRNGetWorkSpaceSize")(yd)
    ws = device.workspace(ws_size) if bwd else None
    report.record.update(subcommand="lrn", device=h.device, problem={
        "x": lens, "type": dtype.name, "mode": ["within", "cross"][mode], "lrnN": N, "alpha": A, "beta": B, "lrnK": K})
    if o["printconv"]:
        report.say(f"LRN: {['within', 'cross'][mode]}-channel x {'x'.join(map(str, lens))}, N {N}, "
                   f"alpha {A:g}, beta {B:g}, K {K:g}")
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * dtype.itemsize
    fwd_call = lambda: mi.LRNForward(h, ld, 1.0, xd, bx, 0.0, yd, by, bwd, ws)
    if fwd:
        run_direction(report, o, device, "fwd", "Forward LRN", "lrn-fwd", fwd_call, (y, by),
                      nbytes, nbytes,
                      lambda: lrn_ref.forward(as64(x_data), mode, N, A, B, K)[0],
                      tolerance("lrn", dtype, 1e-6))
    if bwd:
        if not fwd:
            fwd_call()
        bwd_call = lambda: mi.LRNBackward(h, ld, 1.0, yd, by, dyd, bdy, xd, bx, 0.0, dxd, bdx, ws)
        run_direction(report, o, device, "bwd", "Backward LRN", "lrn-bwd", bwd_call, (dx, bdx),
                      3 * nbytes, nbytes,
                      lambda: lrn_ref.backward(as64(x_data), as64(dy_data), mode, N, A, B, K),
                      tolerance("lrn", dtype, 1e-5))
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
