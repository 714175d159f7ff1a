"""Depthwise and grouped convolution on the GPU, solver by solver, against cuDNN in one process.

For each depthwise/grouped layer of bench_conv's EXTRA set (batch 32) and each direction, every
listed solver is forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) and run in immediate mode; each run
is timed with CUDA events (median and min of --repeat runs after a warm-up), next to PyTorch's
cuDNN (benchmark on, TF32 off). Prints ms, the ratio cuDNN / ours, and the floor: the bytes the
op must move (inputs read once, output written once) at the copy bandwidth measured here.

    python perf/bench_grouped.py [--repeat N] [--batch N]
"""
import argparse
import os
import statistics
import sys
import tempfile

import numpy as np
import torch

import miopen_cy as mi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_timing import event_times_ms   # noqa: E402
from bench_conv import EXTRA, layer_name  # noqa: E402
from conv_common import layer_descs  # noqa: E402

SOLVERS = {
    "F": ["ConvGpuGroupedFwd", "ConvGpuDepthwiseFwd", "ConvGpuImplicitGemmFwd<16x128>"],
    "B": ["ConvGpuGroupedBwd", "ConvGpuDepthwiseBwd", "ConvGpuDirectBwdSmallC", "ConvGpuImplicitGemmBwd<16x128>"],
    "W": ["ConvGpuGroupedWrw", "ConvGpuGroupedWrw%0", "ConvGpuDepthwiseWrw",
          "ConvDirectNaiveConvWrw", "ConvGpuImplicitGemmWrw<16x128>"],
}
DIRECT = int(mi.miopenConvolutionAlgoDirect)
IGEMM = int(mi.miopenConvolutionAlgoImplicitGEMM)


def time_ms(fn, repeat):
    times = event_times_ms(fn, repeat)
    return statistics.median(times), min(times)


def copy_bandwidth():
    src = torch.empty(1 << 28, device="cuda")
    dst = torch.empty_like(src)
    med, _ = time_ms(lambda: dst.copy_(src), 10)
    return 2 * src.numel() * 4 / (med * 1e-3)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args(argv)
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp(prefix="bench_grouped_db_"))
    h_ = mi.Handle(device="gpu")
    bw = copy_bandwidth()
    print(f"# miopen_cy {mi.__version__} vs cuDNN {torch.backends.cudnn.version()} on "
          f"{torch.cuda.get_device_name()}, batch {args.batch}, copy bandwidth {bw / 1e9:.0f} GB/s")
    print(f"{'dir':<3} {'layer':<36} {'solver':<34} {'med ms':>8} {'min ms':>8} {'cuDNN ms':>8} {'ratio':>6} {'floor ms':>8}")
    n = args.batch
    rng = np.random.default_rng(0)
    for layer in EXTRA:
        c, hh, ww, k, r, s, st, p, g = layer
        if g == 1:
            continue
        cd, xs, wsh, ys, xd, wd, yd = layer_descs(n, layer)
        tx = torch.from_numpy(rng.standard_normal(xs).astype(np.float32)).cuda()
        tw = torch.from_numpy(rng.standard_normal(wsh).astype(np.float32)).cuda()
        tdy = torch.from_numpy(rng.standard_normal(ys).astype(np.float32)).cuda()
        y, dx, dw = torch.empty(ys, device="cuda"), torch.empty(xs, device="cuda"), torch.empty(wsh, device="cuda")
        ref = {"F": torch.nn.functional.conv2d(tx, tw, stride=st, padding=p, groups=g)}
        gx, gw = torch.ops.aten.convolution_backward(tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g,
                                                     [True, True, False])[:2]
        ref["B"], ref["W"] = gx, gw
        peer = {
            "F": lambda: torch.nn.functional.conv2d(tx, tw, stride=st, padding=p, groups=g),
            "B": lambda: torch.ops.aten.convolution_backward(tdy, tx, tw, None, [st, st], [p, p], [1, 1], False,
                                                            [0, 0], g, [True, False, False]),
            "W": lambda: torch.ops.aten.convolution_backward(tdy, tx, tw, None, [st, st], [p, p], [1, 1], False,
                                                            [0, 0], g, [False, True, False]),
        }
        floor_bytes = {"F": tx.numel() + tw.numel() + tdy.numel(), "B": tdy.numel() + tw.numel() + tx.numel(),
                       "W": tdy.numel() + tx.numel() + tw.numel()}
        for d in "FBW":
            t_peer, _ = time_ms(peer[d], args.repeat)
            floor = floor_bytes[d] * 4 / bw * 1e3
            for row in SOLVERS[d]:
                # name@U: ConvGpuGroupedWrw with MIOPEN_CY_GROUPED_WRW_UNROLL=U (positions per lane and
                # step; the warp kernel); name%0: with MIOPEN_CY_GROUPED_WRW_TILE=0 (the warp kernel
                # where the shared-memory band kernel would run)
                solver, _, unroll = row.partition("@")
                solver, _, tile = solver.partition("%")
                os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solver
                if unroll:
                    os.environ["MIOPEN_CY_GROUPED_WRW_UNROLL"] = unroll
                if tile:
                    os.environ["MIOPEN_CY_GROUPED_WRW_TILE"] = tile
                algo = IGEMM if "ImplicitGemm" in solver else DIRECT
                try:
                    if d == "F":
                        wsz = mi.convolutionForwardGetWorkSpaceSize(h_, wd, xd, cd, yd)
                        ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device="cuda")
                        out = y
                        fn = lambda: mi.convolutionForward(h_, 1.0, xd, tx, wd, tw, cd, algo, 0.0, yd, y, ws, wsz)
                    elif d == "B":
                        wsz = mi.convolutionBackwardDataGetWorkSpaceSize(h_, yd, wd, cd, xd)
                        ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device="cuda")
                        out = dx
                        fn = lambda: mi.convolutionBackwardData(h_, 1.0, yd, tdy, wd, tw, cd, algo, 0.0, xd, dx,
                                                                ws, wsz)
                    else:
                        wsz = mi.convolutionBackwardWeightsGetWorkSpaceSize(h_, yd, xd, cd, wd)
                        ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device="cuda")
                        out = dw
                        fn = lambda: mi.convolutionBackwardWeights(h_, 1.0, yd, tdy, xd, tx, cd, algo, 0.0, wd, dw,
                                                                   ws, wsz)
                    out.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                    err = float((out.double() - ref[d].double()).norm() / ref[d].double().norm())
                    med, mn = time_ms(fn, args.repeat)
                except mi.MIOpenError as e:
                    print(f"{d:<3} {layer_name(n, *layer):<36} {row:<34} n/a ({str(e)[-60:]})")
                    continue
                finally:
                    del os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"]
                    os.environ.pop("MIOPEN_CY_GROUPED_WRW_UNROLL", None)
                    os.environ.pop("MIOPEN_CY_GROUPED_WRW_TILE", None)
                print(f"{d:<3} {layer_name(n, *layer):<36} {row:<34} {med:8.4f} {mn:8.4f} {t_peer:8.4f} "
                      f"{t_peer / med:6.2f} {floor:8.4f}" + ("" if err < 1e-4 else f"  WRONG rel err {err:.1e}"),
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
