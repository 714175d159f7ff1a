"""Batch norm and bias on the CPU, miopen_cy vs PyTorch (oneDNN / ATen) in one process, fp32.

Median of --reps timed runs after warm-up, ours and torch's alternating, torch at its default
thread count. The machine is shared, so the whole set runs --rounds times and each op reports the
lowest median of each side over the rounds (the least disturbed), and the ratio of those; the
per-round ratios show the spread. Ratio = torch ms / our ms (> 1: we are faster).
    PYTHONPATH=/tmp/site-batchnorm-bias python perf/measure_batchnorm.py [--reps 20] [--rounds 5]"""
import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conv_common import desc


def pair_ms(ours, theirs, reps, warmup=5):
    """Medians (ms) of ours and theirs, timed alternately so that load from other processes
    on the machine hits both alike."""
    for _ in range(warmup):
        ours()
        theirs()
    to, tt = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        ours()
        t1 = time.perf_counter()
        theirs()
        t2 = time.perf_counter()
        to.append(t1 - t0)
        tt.append(t2 - t1)
    return 1e3 * float(np.median(to)), 1e3 * float(np.median(tt))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shape", default="8,64,112,112")
    args = ap.parse_args()
    shape = tuple(int(s) for s in args.shape.split(","))
    results = {}
    for _ in range(args.rounds):
        for name, o, t in one_round(shape, args.reps):
            results.setdefault(name, []).append((o, t))
    print(f"shape {shape}, torch threads {torch.get_num_threads()}, reps {args.reps}, "
          f"rounds {args.rounds}")
    print(f"{'op':24s} {'ours ms':>9s} {'torch ms':>9s} {'torch/ours':>10s}   per-round ratios")
    for name, runs in results.items():
        o = min(r[0] for r in runs)
        t = min(r[1] for r in runs)
        spread = " ".join(f"{r[1] / r[0]:.2f}" for r in runs)
        print(f"{name:24s} {o:9.3f} {t:9.3f} {t / o:10.2f}   {spread}")


def one_round(shape, reps):
    class args:
        pass
    args.reps = reps
    h = mi.Handle(device="cpu")
    rng = np.random.default_rng(0)
    c = shape[1]
    x = rng.standard_normal(shape, dtype=np.float32)
    dy = rng.standard_normal(shape, dtype=np.float32)
    y = np.empty_like(x)
    dx = np.empty_like(x)
    xd = desc(shape)
    rows = []

    for mode, name in ((mi.miopenBNSpatial, "spatial"), (mi.miopenBNPerActivation, "per_act")):
        bd = mi.TensorDescriptor()
        mi.deriveBNTensorDescriptor(bd, xd, mode)
        ps = bd.shape
        sc = rng.standard_normal(ps, dtype=np.float32)
        bi = rng.standard_normal(ps, dtype=np.float32)
        rm = np.zeros(ps, np.float32)
        rv = np.ones(ps, np.float32)
        sm = np.empty(ps, np.float32)
        sv = np.empty(ps, np.float32)
        ds = np.empty(ps, np.float32)
        db = np.empty(ps, np.float32)
        # torch: spatial = batch_norm on NCHW; per activation = batch_norm on (N, C*H*W)
        tx = torch.from_numpy(x) if mode == mi.miopenBNSpatial else torch.from_numpy(x).reshape(shape[0], -1)
        tdy = torch.from_numpy(dy).reshape(tx.shape)
        tw, tb = torch.from_numpy(sc).reshape(-1), torch.from_numpy(bi).reshape(-1)
        trm, trv = torch.from_numpy(rm.copy()).reshape(-1), torch.from_numpy(rv.copy()).reshape(-1)

        ours, theirs = pair_ms(
            lambda: mi.batchNormalizationForwardTraining(
                h, mode, 1.0, 0.0, xd, x, xd, y, bd, sc, bi, 0.1, rm, rv, 1e-5, sm, sv),
            lambda: F.batch_norm(tx, trm, trv, tw, tb, True, 0.1, 1e-5), args.reps)
        rows.append((f"bn_fwd_train_{name}", ours, theirs))

        ours, theirs = pair_ms(
            lambda: mi.batchNormalizationForwardInference(
                h, mode, 1.0, 0.0, xd, x, xd, y, bd, sc, bi, rm, rv, 1e-5),
            lambda: F.batch_norm(tx, trm, trv, tw, tb, False, 0.1, 1e-5), args.reps)
        rows.append((f"bn_fwd_infer_{name}", ours, theirs))

        # torch's own backward kernel (what autograd calls), with saved mean / invstd
        smt, svt = torch.from_numpy(sm).reshape(-1), torch.from_numpy(sv).reshape(-1)
        ours, theirs = pair_ms(
            lambda: mi.batchNormalizationBackward(
                h, mode, 1.0, 0.0, 1.0, 0.0, xd, x, xd, dy, xd, dx, bd, sc, ds, db, 1e-5, sm, sv),
            lambda: torch.ops.aten.native_batch_norm_backward(
                tdy, tx, tw, trm, trv, smt, svt, True, 1e-5, [True, True, True]), args.reps)
        rows.append((f"bn_bwd_{name}", ours, theirs))

    bdesc = desc((1, c) + (1,) * (len(shape) - 2))
    b = rng.standard_normal((1, c) + (1,) * (len(shape) - 2), dtype=np.float32)
    yb = x.copy()
    ty = torch.from_numpy(yb.copy())
    tbias = torch.from_numpy(b)
    ours, theirs = pair_ms(lambda: mi.convolutionForwardBias(h, 1.0, bdesc, b, 0.0, xd, yb),
                           lambda: ty.add_(tbias), args.reps)
    rows.append(("bias_fwd", ours, theirs))
    dbias = np.empty(b.shape, np.float32)
    tdy4 = torch.from_numpy(dy)
    dims = [0] + list(range(2, len(shape)))
    ours, theirs = pair_ms(lambda: mi.convolutionBackwardBias(h, 1.0, xd, dy, 0.0, bdesc, dbias),
                           lambda: tdy4.sum(dim=dims), args.reps)
    rows.append(("bias_bwd", ours, theirs))

    return rows


if __name__ == "__main__":
    main()
