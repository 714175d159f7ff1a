"""Winograd against our best non-Winograd solver and PyTorch (oneDNN), per solver, in one process.

Each solver is forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) and run through
miopenConvolutionForward / BackwardData with its algorithm. Rounds interleave the contenders
(solver A, B, ..., torch, then again) so that load from other processes on a shared machine
hits them alike; the median over rounds is reported. "best other" is the fastest of the
non-Winograd solvers; "wino/best" > 1 means Winograd is faster.

    python perf/measure_winograd.py [--batch 4] [--rounds 7] [--directions FBW] [--layers all|N,..]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conv_common import desc, algo_of

# ResNet-50's 3x3 stride-1 layers: (c, h, w, k)
LAYERS = [(64, 56, 56, 64), (128, 28, 28, 128), (256, 14, 14, 256), (512, 7, 7, 512)]
WINOGRAD = ["ConvMPBidirectWinograd<4-3>", "ConvMPBidirectWinograd<2-3>",
            "ConvCpuWinogradWrw<4-3>", "ConvCpuWinogradWrw<2-3>"]
OTHERS = {
    "F": ["ConvCpuImplicitGemmFwd", "GemmFwdRest"],
    "B": ["ConvCpuImplicitGemmBwd", "GemmBwdRest"],
    "W": ["ConvCpuImplicitGemmWrw", "GemmWrwUniversal"],
}
ALGO = {"ConvCpuImplicitGemm": mi.miopenConvolutionAlgoImplicitGEMM, "Gemm": mi.miopenConvolutionAlgoGEMM,
        "ConvMPBidirectWinograd": mi.miopenConvolutionAlgoWinograd, "ConvCpuWinograd": mi.miopenConvolutionAlgoWinograd}


def contenders(h, n, layer, direction, extra):
    """name -> callable running one convolution, for every solver that applies, and torch."""
    c, hh, ww, k = layer
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    xs, wsh = (n, c, hh, ww), (k, c, 3, 3)
    xd, wd = desc(xs), desc(wsh)
    ys = mi.getConvolutionForwardOutputDim(cd, xd, wd)
    yd = desc(ys)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(wsh).astype(np.float32)
    dy = rng.standard_normal(ys).astype(np.float32)
    y, dx, dw = np.empty(ys, np.float32), np.empty(xs, np.float32), np.empty(wsh, np.float32)
    tx, tw, tdy = torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(dy)
    out = {}
    for solver in WINOGRAD + extra + OTHERS[direction]:
        os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solver
        algo = algo_of(solver, ALGO)
        if direction == "F":
            size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        elif direction == "B":
            size = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd)
        else:
            size = mi.convolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, cd, wd)
        ws = np.empty(max(size, 1), np.uint8)

        def fn(solver=solver, algo=algo, ws=ws, size=size):
            os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solver
            if direction == "F":
                mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, algo, 0.0, yd, y, ws, size)
            elif direction == "B":
                mi.convolutionBackwardData(h, 1.0, yd, dy, wd, w, cd, algo, 0.0, xd, dx, ws, size)
            else:
                mi.convolutionBackwardWeights(h, 1.0, yd, dy, xd, x, cd, algo, 0.0, wd, dw, ws, size)
        try:
            fn()
        except mi.MIOpenError:
            continue   # not applicable
        out[solver] = fn
    if direction == "F":
        out["torch"] = lambda: F.conv2d(tx, tw, padding=1)
    elif direction == "B":
        out["torch"] = lambda: torch.ops.aten.convolution_backward(
            tdy, tx, tw, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, False, False])
    else:
        out["torch"] = lambda: torch.ops.aten.convolution_backward(
            tdy, tx, tw, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False])
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--directions", default="FB")
    ap.add_argument("--layers", default="all", help="all, or indices into the layer list: 0,2")
    ap.add_argument("--extra", default="", help="more solvers to time, ';'-separated")
    args = ap.parse_args(argv)
    os.environ["MIOPEN_DEBUG_DISABLE_FIND_DB"] = "1"
    h = mi.Handle(device="cpu")
    layers = LAYERS if args.layers == "all" else [LAYERS[int(i)] for i in args.layers.split(",")]
    extra = [s for s in args.extra.split(";") if s]
    print(f"# miopen_cy {mi.__version__}, PyTorch {torch.__version__} (oneDNN), CPU, "
          f"{torch.get_num_threads()} threads, batch {args.batch}, median of {args.rounds} interleaved rounds (ms)")
    for d in args.directions:
        for layer in layers:
            fns = contenders(h, args.batch, layer, d, extra)
            for fn in fns.values():   # warm-up
                fn()
            times = {name: [] for name in fns}
            for _ in range(args.rounds):
                for name, fn in fns.items():
                    t0 = time.perf_counter()
                    fn()
                    times[name].append((time.perf_counter() - t0) * 1e3)
            med = {name: statistics.median(t) for name, t in times.items()}
            others = [s for s in OTHERS[d] if s in med]
            best_other = min(others, key=med.get)
            wino = [s for s in med if s not in others and s != "torch"]
            best_wino = min(wino, key=med.get) if wino else None
            c, hh, ww, k = layer
            short = lambda name: name.replace("ConvMPBidirectWinograd", "Wino").replace("ConvCpuWinogradWrw", "WinoWrw")
            cells = "  ".join(f"{short(name)}={t:.2f}" for name, t in med.items())
            summary = (f"wino/best={med[best_other] / med[best_wino]:.2f} wino/torch={med['torch'] / med[best_wino]:.2f}"
                       if best_wino else "no winograd")
            print(f"{d} n{args.batch} c{c} {hh}x{ww} k{k}: {cells}  | best other {best_other}  {summary}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
