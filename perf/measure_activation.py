"""Activation forward/backward on the CPU: miopen_cy against PyTorch, side by side in one process.

Times are medians (and, for a shared machine, minima) of --runs runs after --warmup runs (time.perf_counter around one call; ours
through the Python mirror, so the per-call Python overhead is included); the contenders of a row
take turns run by run. PyTorch runs with its
default thread count. For PyTorch two figures where they differ: the call a user writes (a new
output tensor every call) and the same op into a preallocated output (out=), which is what
miopen_cy does.

    PYTHONPATH=/tmp/site-activation python perf/measure_activation.py [--runs 15] [--shape 8 64 112 112]
        [--threads 1]   (pin with taskset -c 1 for a figure that a busy shared machine disturbs less)
"""
import argparse
import os
import statistics
import sys
import time

# --threads N must reach OpenMP before the library loads.
if "--threads" in sys.argv:
    os.environ["OMP_NUM_THREADS"] = sys.argv[sys.argv.index("--threads") + 1]

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi


def median_ms(fns, runs, warmup):
    """Median ms of each function; the functions take turns run by run, so a load that comes
    and goes on a shared machine hits them alike and the ratios stay meaningful."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times = [[] for _ in fns]
    for _ in range(runs):
        for fn, t in zip(fns, times):
            t0 = time.perf_counter()
            fn()
            t.append((time.perf_counter() - t0) * 1e3)
    return [(statistics.median(t), min(t)) for t in times]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=int, nargs="+", default=[8, 64, 112, 112])
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=None,
                   help="threads for both (default: each library's default)")
    p.add_argument("--ops", nargs="+", default=None, help="only these rows (e.g. relu_fwd relu_bwd)")
    args = p.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    shape = tuple(args.shape)

    h = mi.Handle(device="cpu")
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, mi.miopenFloat, len(shape), list(shape), None)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape, dtype=np.float32)
    dy = rng.standard_normal(shape, dtype=np.float32)
    y = np.empty_like(x)
    dx = np.empty_like(x)
    tx, tdy = torch.from_numpy(x), torch.from_numpy(dy)
    ty, tdx = torch.empty_like(tx), torch.empty_like(tx)

    def act(mode, a=0.0, b=0.0, g=0.0):
        ad = mi.ActivationDescriptor()
        mi.setActivationDescriptor(ad, mode, a, b, g)
        return ad

    relu = act(mi.miopenActivationRELU)
    tanh = act(mi.miopenActivationTANH, 1.0, 1.0)
    logistic = act(mi.miopenActivationLOGISTIC)
    elu = act(mi.miopenActivationELU, 1.0)
    softrelu = act(mi.miopenActivationSOFTRELU)

    def fwd(ad):
        return lambda: mi.activationForward(h, ad, 1.0, d, x, 0.0, d, y)

    def bwd(ad):
        return lambda: mi.activationBackward(h, ad, 1.0, d, y, d, dy, d, x, 0.0, d, dx)

    tsig = torch.sigmoid(tx)
    telu = F.elu(tx)
    ttanh = torch.tanh(tx)
    # (name, ours, torch as users call it, torch into a preallocated output or None)
    rows = [
        ("relu_fwd", fwd(relu), lambda: torch.relu(tx),
         lambda: torch.clamp_min(tx, 0.0, out=ty)),
        ("tanh_fwd", fwd(tanh), lambda: torch.tanh(tx), lambda: torch.tanh(tx, out=ty)),
        ("logistic_fwd", fwd(logistic), lambda: torch.sigmoid(tx),
         lambda: torch.sigmoid(tx, out=ty)),
        ("elu_fwd", fwd(elu), lambda: F.elu(tx), lambda: torch._C._nn.elu(tx, out=ty)),
        ("softrelu_fwd", fwd(softrelu), lambda: F.softplus(tx),
         lambda: torch._C._nn.softplus(tx, out=ty)),
        ("relu_bwd", bwd(relu), lambda: torch.ops.aten.threshold_backward(tdy, tx, 0.0),
         lambda: torch.ops.aten.threshold_backward.grad_input(tdy, tx, 0.0, grad_input=tdx)),
        # autograd's own kernels; they take the forward output (ours recompute from x)
        ("tanh_bwd", bwd(tanh), lambda: torch.ops.aten.tanh_backward(tdy, ttanh),
         lambda: torch.ops.aten.tanh_backward.grad_input(tdy, ttanh, grad_input=tdx)),
        ("logistic_bwd", bwd(logistic), lambda: torch.ops.aten.sigmoid_backward(tdy, tsig),
         lambda: torch.ops.aten.sigmoid_backward.grad_input(tdy, tsig, grad_input=tdx)),
        ("elu_bwd", bwd(elu),
         lambda: torch.ops.aten.elu_backward(tdy, 1.0, 1, 1.0, False, tx),
         lambda: torch.ops.aten.elu_backward.grad_input(tdy, 1.0, 1, 1.0, False, tx,
                                                         grad_input=tdx)),
    ]
    print(f"shape {shape} fp32, torch {torch.__version__} threads={torch.get_num_threads()}, "
          f"median of {args.runs} after {args.warmup} warm-up")
    print(f"{'op':<14}{'ours ms':>9}{'torch ms':>10}{'ratio':>7}{'out= ms':>9}{'ratio':>7}"
          f"   | min: {'ours':>6}{'torch':>7}{'out=':>7}")
    for name, ours, theirs, theirs_out in rows:
        if args.ops and name not in args.ops:
            continue
        (m_o, n_o), (m_t, n_t), (m_u, n_u) = median_ms([ours, theirs, theirs_out], args.runs,
                                                       args.warmup)
        print(f"{name:<14}{m_o:>9.3f}{m_t:>10.3f}{m_t / m_o:>6.2f}x{m_u:>9.3f}{m_u / m_o:>6.2f}x"
              f"   | {n_o:>10.3f}{n_t:>7.3f}{n_u:>7.3f}")


if __name__ == "__main__":
    main()
