"""Per-call cost of the three ways into a convolution, on a problem so small (1x1x2x2, 1x1 filter)
that the call path is all there is: legacy convolutionForward (algorithm Direct), immediate mode
(convolutionForwardImmediate with the direct solver's id) and Find 2.0 (runSolution of the same
solver), beside PyTorch's F.conv2d on the same tensors in the same process. Each figure is the
mean over `--calls` calls, best (min) of `--repeats` repeats.
    python perf/measure_conv_call_paths.py [--calls 2000] [--repeats 7]"""
import argparse
import os
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conv_common import desc

DIRECT_FWD = 85          # ConvDirectNaiveConvFwd


def per_call_us(fn, calls, repeats):
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp())
    torch.set_num_threads(1)

    h = mi.Handle(device="cpu")
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 0, 0, 1, 1, 1, 1)
    x = np.ones((1, 1, 2, 2), np.float32)
    w = np.ones((1, 1, 1, 1), np.float32)
    y = np.empty((1, 1, 2, 2), np.float32)
    xd, wd, yd = desc(x.shape), desc(w.shape), desc(y.shape)

    problem = mi.ConvProblem(cd, mi.miopenProblemDirectionForward)
    for role, d in ((mi.miopenTensorConvolutionX, xd), (mi.miopenTensorConvolutionW, wd),
                    (mi.miopenTensorConvolutionY, yd)):
        mi.setProblemTensorDescriptor(problem, role, d)
    solution = next(s for s in mi.findSolutions(h, problem, None, 16)
                    if mi.getSolutionSolverId(s) == DIRECT_FWD)
    tensors = [(mi.miopenTensorConvolutionX, None, x), (mi.miopenTensorConvolutionW, None, w),
               (mi.miopenTensorConvolutionY, None, y)]
    xt, wt = torch.from_numpy(x), torch.from_numpy(w)

    paths = {
        "convolutionForward (legacy, Direct)":
            lambda: mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, mi.miopenConvolutionFwdAlgoDirect,
                                          0.0, yd, y, None, 0),
        "convolutionForwardImmediate (id 85)":
            lambda: mi.convolutionForwardImmediate(h, wd, w, xd, x, cd, yd, y, None, 0, DIRECT_FWD),
        "runSolution (find 2.0, id 85)":
            lambda: mi.runSolution(h, solution, 3, tensors, None, 0),
        "torch F.conv2d (peer)":
            lambda: F.conv2d(xt, wt),
    }
    peer = None
    rows = []
    for name, fn in paths.items():
        us = per_call_us(fn, args.calls, args.repeats)
        rows.append((name, us))
        if name.startswith("torch"):
            peer = us
    print(f"# per-call time on the CPU, 1x1x2x2 input, 1x1 filter; mean of {args.calls} calls, "
          f"min of {args.repeats} repeats")
    print(f"{'path':40s} {'us/call':>9s} {'vs torch':>9s}")
    for name, us in rows:
        print(f"{name:40s} {us:9.2f} {peer / us:8.2f}x")
    print("# reproducer: miopen-driver conv -n 1 -c 1 -H 2 -W 2 -k 1 -y 1 -x 1 -p 0 -q 0 -u 1 -v 1 "
          "-l 1 -j 1 -m conv -g 1 -F 1 -t 1")


if __name__ == "__main__":
    main()
