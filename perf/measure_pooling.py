"""Pooling forward and backward against PyTorch on the CPU, in one process.

Median of --repeat runs after two warm-up runs (ours and torch's alternate), torch's default
thread count, fp32. Rows: max and
average (exclusive / inclusive) forward, max forward saving indices (do_backward), and backward
(max from the saved indices, max recomputing them from x, averages); ratio = torch ms / our ms.

    python perf/measure_pooling.py [--repeat N] [--shape n c h w] [--window 3 --stride 2 --pad 1]

On a shared machine, OpenMP's default active wait (idle threads spin at the end of each
parallel region) fights a descheduled straggler for the busy core and inflates 2-thread times
3-5x, for PyTorch as for us; OMP_WAIT_POLICY=passive (read by both libgomp copies) removes that.
"""
import argparse
import statistics
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conv_common import desc


def median_ms(fns, repeat):
    """Median ms of each function; the runs alternate between them, so that both see the same
    load on a shared machine."""
    for fn in fns:
        fn()
        fn()
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, t in zip(fns, times):
            t0 = time.perf_counter()
            fn()
            t.append((time.perf_counter() - t0) * 1e3)
    return [statistics.median(t) for t in times]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--shape", type=int, nargs="+", default=[8, 64, 112, 112])
    p.add_argument("--window", type=int, default=3)
    p.add_argument("--stride", type=int, default=2)
    p.add_argument("--pad", type=int, default=1)
    p.add_argument("--filter", default="")
    args = p.parse_args()
    shape, k, s, pad = tuple(args.shape), args.window, args.stride, args.pad
    nsp = len(shape) - 2
    h = mi.Handle(device="cpu")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    tx = torch.from_numpy(x.copy())
    xd = desc(shape)
    tpool = {2: (F.max_pool2d, F.avg_pool2d), 3: (F.max_pool3d, F.avg_pool3d)}[nsp]
    print(f"# miopen_cy {mi.__version__} vs PyTorch {torch.__version__}, CPU, "
          f"{torch.get_num_threads()} threads; x {shape}, window {k}, stride {s}, pad {pad}")
    print(f"{'row':<26} {'ours ms':>9} {'torch ms':>9} {'ratio':>7}")

    def row(name, ours, theirs):
        if args.filter not in name:
            return
        a, b = median_ms([ours, theirs], args.repeat)
        print(f"{name:<26} {a:9.3f} {b:9.3f} {b / a:6.2f}x", flush=True)

    for mode, name in [(mi.miopenPoolingMax, "max"), (mi.miopenPoolingAverage, "avg"),
                       (mi.miopenPoolingAverageInclusive, "avg_inclusive")]:
        pd = mi.PoolingDescriptor()
        mi.setNdPoolingDescriptor(pd, mode, nsp, [k] * nsp, [pad] * nsp, [s] * nsp)
        oshape = mi.getPoolingNdForwardOutputDim(pd, xd, len(shape))
        yd = desc(oshape)
        y = np.empty(oshape, np.float32)
        if mode == mi.miopenPoolingMax:
            tf = lambda t: tpool[0](t, k, s, pad)
        else:
            inc = mode == mi.miopenPoolingAverageInclusive
            tf = lambda t, inc=inc: tpool[1](t, k, s, pad, count_include_pad=inc)
        row(f"{name}_fwd", lambda: mi.poolingForward(h, pd, 1.0, xd, x, 0.0, yd, y, False, None, 0),
            lambda: tf(tx))
        ws_size = mi.poolingGetWorkSpaceSizeV2(pd, yd)
        ws = np.empty(max(ws_size, 1), np.uint8)
        if mode == mi.miopenPoolingMax:
            mi.setPoolingWorkSpaceIndexMode(pd, mi.miopenPoolingWorkspaceIndexImage)
            mi.setPoolingIndexType(pd, mi.miopenIndexUint32)
            ws_size = mi.poolingGetWorkSpaceSizeV2(pd, yd)
            ws = np.empty(ws_size, np.uint8)
            row(f"{name}_fwd_do_backward",
                lambda: mi.poolingForward(h, pd, 1.0, xd, x, 0.0, yd, y, True, ws, ws_size),
                lambda: tpool[0](tx, k, s, pad, return_indices=True))
        mi.poolingForward(h, pd, 1.0, xd, x, 0.0, yd, y, True, ws, ws_size)
        dy = rng.standard_normal(oshape).astype(np.float32)
        dx = np.empty(shape, np.float32)
        txg = tx.clone().requires_grad_(True)
        ty = tf(txg)
        tdy = torch.from_numpy(dy)
        row(f"{name}_bwd",
            lambda: mi.poolingBackward(h, pd, 1.0, yd, y, yd, dy, xd, x, 0.0, xd, dx, ws),
            lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True))
        if mode == mi.miopenPoolingMax:
            row(f"{name}_bwd_recompute",
                lambda: mi.poolingBackward(h, pd, 1.0, yd, y, yd, dy, xd, x, 0.0, xd, dx, None),
                lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True))


if __name__ == "__main__":
    main()
