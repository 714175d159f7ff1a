"""The blocked direct solvers (ConvCpuDirectBlocked{Fwd,Bwd,Wrw}) forced alone against oneDNN
(PyTorch CPU) on the ResNet-50 set, both sides interleaved in one process: what the kernels do
by themselves, whatever Find would pick. Min of --repeat runs per side (the machine is shared).

    python perf/measure_direct_blocked.py [--directions FBW] [--filter SUBSTRING] [--repeat N]
                                          [--batch N] [--exhaustive]

--exhaustive: an exhaustive Find first, so the run uses the best register tile (perf-db) instead
of the default. MIOPEN_CY_DEBUG_CPU_ISA=avx2 measures the AVX2 kernels.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_conv import RESNET50  # noqa: E402
from conv_common import layer_descs  # noqa: E402

SOLVER = {"F": "ConvCpuDirectBlockedFwd", "B": "ConvCpuDirectBlockedBwd", "W": "ConvCpuDirectBlockedWrw"}
DIRECT = 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--directions", default="FBW")
    ap.add_argument("--filter", default="")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--exhaustive", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp())
    torch.set_num_threads(os.cpu_count())
    h = mi.Handle(device="cpu")
    n = args.batch
    print(f"# blocked direct vs PyTorch {torch.__version__} (oneDNN), {torch.get_num_threads()} threads, batch {n},"
          f" ISA cap {os.environ.get('MIOPEN_CY_DEBUG_CPU_ISA', 'none set')}, min of {args.repeat}")
    print(f"{'dir':<3} {'layer':<34} {'ours ms':>8} {'peer ms':>8} {'ratio':>6} {'GFLOP/s':>8}")
    logs = {d: [] for d in args.directions}
    for layer in RESNET50:
        c, hh, ww, k, r, s, st, p, g = layer
        name = f"n{n} c{c} {hh}x{ww} k{k} {r}x{s} s{st} p{p}"
        if args.filter and args.filter not in name:
            continue
        cd, xs, wsh, ys, xd, wd, yd = layer_descs(n, layer)
        rng = np.random.default_rng(0)
        x, w, dy = (rng.standard_normal(sh).astype(np.float32) for sh in (xs, wsh, ys))
        tx, tw, tdy = map(torch.from_numpy, (x, w, dy))
        y, dx, dw = np.empty(ys, np.float32), np.empty(xs, np.float32), np.empty(wsh, np.float32)
        ws = np.empty(1, np.uint8)
        for d in args.directions:
            os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = SOLVER[d]
            try:
                if d == "F":
                    if args.exhaustive:
                        mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 1, ws, 0, True)
                    ours = lambda: mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, DIRECT, 0.0, yd, y, None, 0)
                    theirs = lambda: F.conv2d(tx, tw, stride=st, padding=p)
                elif d == "B":
                    if args.exhaustive:
                        mi.findConvolutionBackwardDataAlgorithm(h, yd, dy, wd, w, cd, xd, dx, 1, ws, 0, True)
                    ours = lambda: mi.convolutionBackwardData(h, 1.0, yd, dy, wd, w, cd, DIRECT, 0.0, xd, dx, None, 0)
                    theirs = lambda: torch.ops.aten.convolution_backward(
                        tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], 1, [True, False, False])
                else:
                    if args.exhaustive:
                        mi.findConvolutionBackwardWeightsAlgorithm(h, yd, dy, xd, x, cd, wd, dw, 1, ws, 0, True)
                    ours = lambda: mi.convolutionBackwardWeights(h, 1.0, yd, dy, xd, x, cd, DIRECT, 0.0, wd, dw, None, 0)
                    theirs = lambda: torch.ops.aten.convolution_backward(
                        tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], 1, [False, True, False])
                ours()
            except mi.BadParmError as e:
                print(f"{d:<3} {name:<34} not applicable: {str(e).split(': ')[-1][:60]}")
                continue
            theirs()
            to, tt = [], []
            for _ in range(args.repeat):
                t0 = time.perf_counter(); ours(); to.append(time.perf_counter() - t0)
                t0 = time.perf_counter(); theirs(); tt.append(time.perf_counter() - t0)
            o, t = min(to) * 1e3, min(tt) * 1e3
            logs[d].append(np.log(t / o))
            flops = 2.0 * n * k * c * r * s * ys[2] * ys[3]
            print(f"{d:<3} {name:<34} {o:8.3f} {t:8.3f} {t / o:6.2f} {flops / o / 1e6:8.1f}", flush=True)
    for d, l in logs.items():
        if l:
            print(f"# {d}: geomean ratio {np.exp(np.mean(l)):.3f} over {len(l)} layers, min {np.exp(min(l)):.2f}")


if __name__ == "__main__":
    main()
