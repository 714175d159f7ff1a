"""The FFT solver against our best other solver and PyTorch (oneDNN), forward and backward data,
on large-filter layers, in one process.

Each solver is forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) and run through
miopenConvolutionForward / BackwardData with its algorithm. Rounds interleave the contenders so
that load from other processes on the shared machine hits them alike; the MIN over rounds is
reported (the least disturbed run). "fft/best" > 1 means FFT is faster than our fastest other
solver, "fft/torch" > 1 that it is faster than oneDNN.

    python perf/measure_fft.py [--rounds 5] [--directions FB] [--layers all|N,..]
"""
import argparse
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conv_common import desc, algo_of

# (n, c, h, w, k, r, s, pad, stride)
LAYERS = [
    (4, 64, 56, 56, 64, 5, 5, 2, 1),       # 5x5 (Inception / GoogLeNet-style)
    (4, 32, 28, 28, 64, 5, 5, 2, 1),
    (4, 64, 28, 28, 64, 7, 7, 3, 1),       # 7x7
    (4, 128, 17, 17, 128, 7, 7, 3, 1),
    (4, 32, 64, 64, 32, 11, 11, 5, 1),     # 11x11
    (4, 64, 27, 27, 64, 11, 11, 5, 1),
    (4, 3, 224, 224, 64, 7, 7, 3, 2),      # ResNet-50 stem: stride 2, FFT not applicable
]
OTHERS = {"F": ["ConvCpuImplicitGemmFwd", "GemmFwdRest", "ConvDirectNaiveConvFwd"],
          "B": ["ConvCpuImplicitGemmBwd", "GemmBwdRest", "ConvDirectNaiveConvBwd"]}
ALGO = {"fft": mi.miopenConvolutionAlgoFFT, "ConvCpuImplicitGemm": mi.miopenConvolutionAlgoImplicitGEMM,
        "Gemm": mi.miopenConvolutionAlgoGEMM, "ConvDirectNaive": mi.miopenConvolutionAlgoDirect}


def contenders(h, layer, direction, slow_naive):
    n, c, hh, ww, k, r, s, pad, stride = layer
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, pad, pad, stride, stride, 1, 1)
    xs, wsh = (n, c, hh, ww), (k, c, r, s)
    xd, wd = desc(xs), desc(wsh)
    ys = mi.getConvolutionForwardOutputDim(cd, xd, wd)
    yd = desc(ys)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(wsh).astype(np.float32)
    dy = rng.standard_normal(ys).astype(np.float32)
    y, dx = np.empty(ys, np.float32), np.empty(xs, np.float32)
    tx, tw, tdy = torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(dy)
    out, why = {}, ""
    solvers = ["fft"] + [o for o in OTHERS[direction] if slow_naive or not o.startswith("ConvDirectNaive")]
    for solver in solvers:
        os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solver
        algo = algo_of(solver, ALGO)
        size = (mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd) if direction == "F"
                else mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd))
        ws = np.empty(max(size, 1), np.uint8)

        def fn(solver=solver, algo=algo, ws=ws, size=size):
            os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solver
            if direction == "F":
                mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, algo, 0.0, yd, y, ws, size)
            else:
                mi.convolutionBackwardData(h, 1.0, yd, dy, wd, w, cd, algo, 0.0, xd, dx, ws, size)
        try:
            fn()
        except mi.MIOpenError as e:
            if solver == "fft":
                why = str(e).split("fft not applicable: ")[-1].split(";")[0]
            continue
        out[solver] = fn
    if direction == "F":
        out["torch"] = lambda: F.conv2d(tx, tw, padding=pad, stride=stride)
    else:
        out["torch"] = lambda: torch.ops.aten.convolution_backward(
            tdy, tx, tw, None, [stride] * 2, [pad] * 2, [1, 1], False, [0, 0], 1, [True, False, False])
    return out, why


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--directions", default="FB")
    ap.add_argument("--layers", default="all", help="all, or indices into the layer list: 0,2")
    ap.add_argument("--naive", action="store_true", help="also time the (slow) direct naive solver")
    args = ap.parse_args(argv)
    os.environ["MIOPEN_DEBUG_DISABLE_FIND_DB"] = "1"
    h = mi.Handle(device="cpu")
    layers = LAYERS if args.layers == "all" else [LAYERS[int(i)] for i in args.layers.split(",")]
    print(f"# miopen_cy {mi.__version__}, PyTorch {torch.__version__} (oneDNN), CPU, "
          f"{torch.get_num_threads()} threads, min of {args.rounds} interleaved rounds (ms)")
    for d in args.directions:
        for layer in layers:
            fns, why = contenders(h, layer, d, args.naive)
            for fn in fns.values():   # warm-up
                fn()
            times = {name: [] for name in fns}
            for _ in range(args.rounds):
                for name, fn in fns.items():
                    t0 = time.perf_counter()
                    fn()
                    times[name].append((time.perf_counter() - t0) * 1e3)
            best = {name: min(t) for name, t in times.items()}
            others = [s for s in OTHERS[d] if s in best]
            best_other = min(others, key=best.get)
            n, c, hh, ww, k, r, s, pad, stride = layer
            cells = "  ".join(f"{name}={t:.2f}" for name, t in best.items())
            summary = (f"fft/best={best[best_other] / best['fft']:.2f} fft/torch={best['torch'] / best['fft']:.2f}"
                       if "fft" in best else f"fft not applicable ({why})")
            print(f"{d} n{n} c{c} {hh}x{ww} k{k} {r}x{s} p{pad} s{stride}: {cells}  | best other {best_other}  "
                  f"{summary}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
