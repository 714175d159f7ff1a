"""Every non-convolution op on large tensors, against PyTorch on the same device, in one process.

Prints one row per op: our time, PyTorch's time (median of --repeat runs after warm-up), the
bandwidth each reaches counting the bytes read and written once, and the speed ratio
(PyTorch time / our time: > 1 means we are faster).

    python perf/bench_ops.py [--device cpu|gpu] [--repeat N] [--filter SUBSTRING[,SUBSTRING]] [--size small|large]

--size large (the default on a GPU) takes tensors of 100 MB or more, which no GPU cache holds, and
times with CUDA events; the GPU run also prints the measured device copy bandwidth, each row's
fraction of it, the pooling forward and backward with the generic kernels beside the 2-d ones,
and the per-call Python overhead on the GPU handle. Rows named `op[variant]` (GPU only, not in the
geomean) repeat an op under another MIOPEN_CY_POOL_KERNEL / MIOPEN_CY_MAP_KERNEL /
MIOPEN_CY_BN_PERACT choice.
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
from gpu_timing import event_times_ms



STAT = "median"   # --stat: median, or min (robust when other work shares the cores)

def desc(shape, dtype=mi.miopenFloat):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dtype, len(shape), list(shape), None)
    return d


def median_ms(fn, repeat, sync=lambda: None):
    fn()
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return min(times) if STAT == "min" else statistics.median(times)


def event_ms(fn, repeat, inner=3):
    """GPU time of one call: CUDA events around `inner` back-to-back calls on the default stream
    (the handle's and PyTorch's), `repeat` samples, median (or min)."""
    times = event_times_ms(fn, repeat, inner=inner, warmup=2)
    return min(times) if STAT == "min" else statistics.median(times)


class Bench:
    def __init__(self, device, repeat, large=False):
        self.device = device
        self.repeat = repeat
        self.large = large
        self.copy_gbs = None
        self.h = mi.Handle(device=device)
        self.tdev = "cuda" if device.startswith("gpu") else "cpu"
        self.rng = np.random.default_rng(0)
        self.rows = []

    def array(self, shape, positive=False):
        a = self.rng.standard_normal(shape).astype(np.float32)
        if positive:
            a = np.abs(a) + 0.5
        if self.tdev == "cpu":
            return a
        return mi.DeviceBuffer.from_numpy(self.h, a)

    def empty(self, shape, nbytes=None):
        n = int(np.prod(shape)) * 4 if nbytes is None else nbytes
        if self.tdev == "cpu":
            return np.empty(n // 4 if nbytes is None else n, np.float32 if nbytes is None else np.uint8)
        return mi.DeviceBuffer(self.h, n)

    def torch_tensor(self, shape, positive=False, grad=False):
        t = torch.randn(shape, device=self.tdev)
        if positive:
            t = t.abs() + 0.5
        return t.requires_grad_(grad)

    def sync(self):
        if self.tdev == "cuda":
            torch.cuda.synchronize()

    def time_ms(self, fn):
        if self.tdev == "cuda" and self.large:
            return event_ms(fn, self.repeat)
        return median_ms(fn, self.repeat, self.sync)

    def row(self, name, shape, nbytes, ours, theirs, keep=True):
        t_ours = self.time_ms(ours)
        t_theirs = self.time_ms(theirs)
        if keep:
            self.rows.append((name, shape, t_ours, t_theirs, nbytes))
        frac = ""
        if self.copy_gbs:
            frac = f" {nbytes / t_ours / 1e6 / self.copy_gbs:6.2f} {nbytes / t_theirs / 1e6 / self.copy_gbs:6.2f}"
        print(f"{name:<22} {str(shape):<24} {t_ours:9.3f} {t_theirs:9.3f} "
              f"{nbytes / t_ours / 1e6:8.1f} {nbytes / t_theirs / 1e6:8.1f} {t_theirs / t_ours:7.2f}x"
              f"{frac}", flush=True)

    def shape(self, small, large):
        return large if self.large else small

    def measure_copy(self):
        """Device-to-device copy bandwidth (bytes read + written) on 1 GiB, PyTorch's copy_."""
        a = torch.empty(1 << 28, device="cuda")
        c = torch.empty_like(a)
        t = event_ms(lambda: c.copy_(a), max(self.repeat, 10))
        self.copy_gbs = 2 * a.numel() * 4 / t / 1e6
        print(f"# device copy bandwidth: {self.copy_gbs:.1f} GB/s (torch copy_ of 1 GiB, "
              f"{STAT} of {max(self.repeat, 10)})")


def variant_rows(b, name, shape, nbytes, ours, theirs, var, values):
    """The same row under each value of the environment variable `var` (GPU only, not kept)."""
    if b.tdev != "cuda":
        return
    for v in values:
        os.environ[var] = v
        try:
            b.row(f"{name}[{v}]", shape, nbytes, ours, theirs, keep=False)
        finally:
            del os.environ[var]


MAP_VARIANTS = ("rows", "packed1", "packed2", "packed4")


def bench_elementwise(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n = int(np.prod(shape))
    d = desc(shape)
    x, y, dy, dx = b.array(shape), b.empty(shape), b.array(shape), b.empty(shape)
    tx = b.torch_tensor(shape)
    for mode, name, tfn in [(mi.miopenActivationRELU, "relu", torch.relu),
                            (mi.miopenActivationTANH, "tanh", torch.tanh),
                            (mi.miopenActivationLOGISTIC, "logistic", torch.sigmoid),
                            (mi.miopenActivationELU, "elu", F.elu)]:
        ad = mi.ActivationDescriptor()
        mi.setActivationDescriptor(ad, mode, 1.0, 1.0, 1.0)
        b.row(f"{name}_fwd", shape, 8 * n,
              lambda: mi.activationForward(b.h, ad, 1.0, d, x, 0.0, d, y),
              lambda: tfn(tx))
        if name != "relu":
            variant_rows(b, f"{name}_fwd", shape, 8 * n,
                         lambda: mi.activationForward(b.h, ad, 1.0, d, x, 0.0, d, y),
                         lambda: tfn(tx), "MIOPEN_CY_MAP_KERNEL", MAP_VARIANTS)
    # the backward of the transcendental modes: dx from dy and x (PyTorch's from dy and y)
    tdy0 = b.torch_tensor(shape)
    ty_t, ty_s, ty_e = torch.tanh(tx), torch.sigmoid(tx), F.elu(tx)
    for mode, name, tfn in [
            (mi.miopenActivationTANH, "tanh",
             lambda: torch.ops.aten.tanh_backward(tdy0, ty_t)),
            (mi.miopenActivationLOGISTIC, "logistic",
             lambda: torch.ops.aten.sigmoid_backward(tdy0, ty_s)),
            (mi.miopenActivationELU, "elu",
             lambda: torch.ops.aten.elu_backward(tdy0, 1.0, 1.0, 1.0, False, tx))]:
        ad = mi.ActivationDescriptor()
        mi.setActivationDescriptor(ad, mode, 1.0, 1.0, 1.0)
        ours = (lambda ad=ad: mi.activationBackward(b.h, ad, 1.0, d, y, d, dy, d, x, 0.0, d, dx))
        b.row(f"{name}_bwd", shape, 12 * n, ours, tfn)
        variant_rows(b, f"{name}_bwd", shape, 12 * n, ours, tfn, "MIOPEN_CY_MAP_KERNEL",
                     ("rows", "packed1", "packed4"))
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, mi.miopenActivationRELU, 1.0, 1.0, 1.0)
    tdy = b.torch_tensor(shape)
    b.row("relu_bwd", shape, 16 * n,
          lambda: mi.activationBackward(b.h, ad, 1.0, d, y, d, dy, d, x, 0.0, d, dx),
          lambda: torch.ops.aten.threshold_backward(tdy, tx, 0.0))
    b.row("opTensor_add", shape, 12 * n,
          lambda: mi.opTensor(b.h, mi.miopenTensorOpAdd, 1.0, d, x, 1.0, d, dy, 0.0, d, y),
          lambda: torch.add(tx, tdy))
    b.row("transformTensor", shape, 8 * n,
          lambda: mi.transformTensor(b.h, 2.0, d, x, 0.0, d, y),
          lambda: torch.mul(tx, 2.0))


def bench_pooling(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    d = desc(shape)
    x, tx = b.array(shape), b.torch_tensor(shape)
    for mode, name, tfn in [(mi.miopenPoolingMax, "maxpool_fwd", lambda t: F.max_pool2d(t, 3, 2, 1)),
                            (mi.miopenPoolingAverage, "avgpool_fwd",
                             lambda t: F.avg_pool2d(t, 3, 2, 1, count_include_pad=False))]:
        pd = mi.PoolingDescriptor()
        mi.set2dPoolingDescriptor(pd, mode, 3, 3, 1, 1, 2, 2)
        oshape = mi.getPoolingForwardOutputDim(pd, d)
        od = desc(oshape)
        y = b.empty(oshape)
        nbytes = 4 * (int(np.prod(shape)) + int(np.prod(oshape)))
        b.row(name, shape, nbytes,
              lambda: mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, False, None, 0),
              lambda: tfn(tx))
        variant_rows(b, name, shape, nbytes,
                     lambda: mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, False, None, 0),
                     lambda: tfn(tx), "MIOPEN_CY_POOL_KERNEL", ("generic", "prefetch", "direct", "quad", "quad2"))
        # backward: dx from dy (and, for max, the index workspace saved by the forward)
        ws_size = mi.poolingGetWorkSpaceSizeV2(pd, od)
        ws = b.empty(None, nbytes=max(ws_size, 1))
        mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, True, ws, ws_size)
        dy, dx = b.array(oshape), b.empty(shape)
        txg = b.torch_tensor(shape, grad=True)
        ty = tfn(txg)
        tdy = torch.randn_like(ty)
        b.row(name.replace("fwd", "bwd"), shape, nbytes + 4 * int(np.prod(shape)),
              lambda: mi.poolingBackward(b.h, pd, 1.0, od, y, od, dy, d, x, 0.0, d, dx, ws),
              lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True))
        if b.tdev == "cuda":
            os.environ["MIOPEN_CY_POOL_KERNEL"] = "generic"
            try:
                b.row(name.replace("fwd", "bwd") + "[generic]", shape,
                      nbytes + 4 * int(np.prod(shape)),
                      lambda: mi.poolingBackward(b.h, pd, 1.0, od, y, od, dy, d, x, 0.0, d, dx, ws),
                      lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True), keep=False)
            finally:
                del os.environ["MIOPEN_CY_POOL_KERNEL"]


def bench_batchnorm(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n = int(np.prod(shape))
    d = desc(shape)
    pd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(pd, d, mi.miopenBNSpatial)
    c = shape[1]
    x, y = b.array(shape), b.empty(shape)
    scale, bias = b.array((c,)), b.array((c,))
    rmean, rvar = b.array((c,)), b.array((c,), positive=True)
    smean, sinv = b.empty((c,)), b.empty((c,))
    tx = b.torch_tensor(shape)
    tw, tb = b.torch_tensor((c,)), b.torch_tensor((c,))
    trm, trv = b.torch_tensor((c,)), b.torch_tensor((c,), positive=True)
    b.row("bn_fwd_train", shape, 8 * n,
          lambda: mi.batchNormalizationForwardTraining(
              b.h, mi.miopenBNSpatial, 1.0, 0.0, d, x, d, y, pd, scale, bias, 0.1, rmean, rvar,
              1e-5, smean, sinv),
          lambda: F.batch_norm(tx, trm, trv, tw, tb, training=True, momentum=0.1, eps=1e-5))
    b.row("bn_fwd_infer", shape, 8 * n,
          lambda: mi.batchNormalizationForwardInference(
              b.h, mi.miopenBNSpatial, 1.0, 0.0, d, x, d, y, pd, scale, bias, rmean, rvar, 1e-5),
          lambda: F.batch_norm(tx, trm, trv, tw, tb, training=False, eps=1e-5))
    variant_rows(b, "bn_fwd_infer", shape, 8 * n,
                 lambda: mi.batchNormalizationForwardInference(
                     b.h, mi.miopenBNSpatial, 1.0, 0.0, d, x, d, y, pd, scale, bias, rmean, rvar,
                     1e-5),
                 lambda: F.batch_norm(tx, trm, trv, tw, tb, training=False, eps=1e-5),
                 "MIOPEN_CY_MAP_KERNEL", MAP_VARIANTS)
    # per activation: one (mean, variance, scale, bias) per C*H*W element (PyTorch: batch_norm
    # over (N, C*H*W))
    ppd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(ppd, d, mi.miopenBNPerActivation)
    m = n // shape[0]
    pscale, pbias = b.array((m,)), b.array((m,))
    pmean, pvar = b.array((m,)), b.array((m,), positive=True)
    tpw, tpb = b.torch_tensor((m,)), b.torch_tensor((m,))
    tpm, tpv = b.torch_tensor((m,)), b.torch_tensor((m,), positive=True)
    tx2 = tx.view(shape[0], m)
    b.row("bn_fwd_infer_peract", shape, 8 * n + 16 * m,
          lambda: mi.batchNormalizationForwardInference(
              b.h, mi.miopenBNPerActivation, 1.0, 0.0, d, x, d, y, ppd, pscale, pbias, pmean,
              pvar, 1e-5),
          lambda: F.batch_norm(tx2, tpm, tpv, tpw, tpb, training=False, eps=1e-5))
    variant_rows(b, "bn_fwd_infer_peract", shape, 8 * n + 16 * m,
                 lambda: mi.batchNormalizationForwardInference(
                     b.h, mi.miopenBNPerActivation, 1.0, 0.0, d, x, d, y, ppd, pscale, pbias,
                     pmean, pvar, 1e-5),
                 lambda: F.batch_norm(tx2, tpm, tpv, tpw, tpb, training=False, eps=1e-5),
                 "MIOPEN_CY_MAP_KERNEL", ("rows", "packed1"))
    variant_rows(b, "bn_fwd_infer_peract", shape, 8 * n + 16 * m,
                 lambda: mi.batchNormalizationForwardInference(
                     b.h, mi.miopenBNPerActivation, 1.0, 0.0, d, x, d, y, ppd, pscale, pbias,
                     pmean, pvar, 1e-5),
                 lambda: F.batch_norm(tx2, tpm, tpv, tpw, tpb, training=False, eps=1e-5),
                 "MIOPEN_CY_BN_PERACT", ("coef", "fused", "fused2", "fused32"))
    dy, dx = b.array(shape), b.empty(shape)
    dscale, dbias = b.empty((c,)), b.empty((c,))
    txg, twg, tbg = tx.clone().requires_grad_(), tw.clone().requires_grad_(), tb.clone().requires_grad_()
    ty = F.batch_norm(txg, None, None, twg, tbg, training=True, eps=1e-5)
    tdy = torch.randn_like(ty)
    b.row("bn_bwd", shape, 12 * n,
          lambda: mi.batchNormalizationBackward(
              b.h, mi.miopenBNSpatial, 1.0, 0.0, 1.0, 0.0, d, x, d, dy, d, dx, pd, scale,
              dscale, dbias, 1e-5, smean, sinv),
          lambda: torch.autograd.grad(ty, (txg, twg, tbg), tdy, retain_graph=True))
    bd = desc((1, c, 1, 1))
    b.row("bias_fwd", shape, 8 * n,
          lambda: mi.convolutionForwardBias(b.h, 1.0, bd, bias, 0.0, d, y),
          lambda: tx.add_(tb.view(1, c, 1, 1)))
    variant_rows(b, "bias_fwd", shape, 8 * n,
                 lambda: mi.convolutionForwardBias(b.h, 1.0, bd, bias, 0.0, d, y),
                 lambda: tx.add_(tb.view(1, c, 1, 1)),
                 "MIOPEN_CY_BIAS_FWD", ("optensor", "packed"))
    if b.tdev == "cuda":
        # the same map out of place in PyTorch: what the in-place read-modify-write costs
        ty2 = torch.empty_like(tx)
        b.row("bias_fwd[vs torch out-of-place]", shape, 8 * n,
              lambda: mi.convolutionForwardBias(b.h, 1.0, bd, bias, 0.0, d, y),
              lambda: torch.add(tx, tb.view(1, c, 1, 1), out=ty2), keep=False)
    b.row("bias_bwd", shape, 4 * n,
          lambda: mi.convolutionBackwardBias(b.h, 1.0, d, dy, 0.0, bd, dbias),
          lambda: tx.sum(dim=(0, 2, 3)))
    variant_rows(b, "bias_bwd", shape, 4 * n,
                 lambda: mi.convolutionBackwardBias(b.h, 1.0, d, dy, 0.0, bd, dbias),
                 lambda: tx.sum(dim=(0, 2, 3)), "MIOPEN_CY_BIAS_BWD", ("groups", "packed"))


def bench_lrn(b):
    shape = b.shape((4, 96, 55, 55), (128, 96, 55, 55))
    n = int(np.prod(shape))
    d = desc(shape)
    ld = mi.LRNDescriptor()
    mi.setLRNDescriptor(ld, mi.miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0)
    x, y, tx = b.array(shape), b.empty(shape), b.torch_tensor(shape)
    ws = b.empty(None, nbytes=mi.LRNGetWorkSpaceSize(d))
    b.row("lrn_fwd", shape, 8 * n,
          lambda: mi.LRNForward(b.h, ld, 1.0, d, x, 0.0, d, y, False, None),
          lambda: F.local_response_norm(tx, 5, 1e-4, 0.75, 2.0))
    mi.LRNForward(b.h, ld, 1.0, d, x, 0.0, d, y, True, ws)
    dy, dx = b.array(shape), b.empty(shape)
    txg = tx.clone().requires_grad_()
    ty = F.local_response_norm(txg, 5, 1e-4, 0.75, 2.0)
    tdy = torch.randn_like(ty)
    b.row("lrn_bwd", shape, 20 * n,
          lambda: mi.LRNBackward(b.h, ld, 1.0, d, y, d, dy, d, x, 0.0, d, dx, ws),
          lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True))


def bench_softmax(b):
    for shape in b.shape([(32, 1000, 1, 1), (1, 21, 256, 256)],
                         [(32768, 1000, 1, 1), (32, 21, 256, 256)]):
        n = int(np.prod(shape))
        d = desc(shape)
        x, y, tx = b.array(shape), b.empty(shape), b.torch_tensor(shape)
        b.row("softmax_fwd", shape, 8 * n,
              lambda: mi.softmaxForward_V2(b.h, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE,
                                           mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
              lambda: torch.softmax(tx, dim=1))
        if shape[2] * shape[3] == 1:
            variant_rows(b, "softmax_fwd", shape, 8 * n,
                         lambda: mi.softmaxForward_V2(b.h, 1.0, d, x, 0.0, d, y,
                                                      mi.MIOPEN_SOFTMAX_ACCURATE,
                                                      mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
                         lambda: torch.softmax(tx, dim=1), "MIOPEN_CY_SOFTMAX_ROWS",
                         ("block", "warp"))
        mi.softmaxForward_V2(b.h, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE,
                             mi.MIOPEN_SOFTMAX_MODE_CHANNEL)
        dy, dx = b.array(shape), b.empty(shape)
        ty = torch.softmax(tx, dim=1)
        tdy = torch.randn_like(ty)
        b.row("softmax_bwd", shape, 12 * n,
              lambda: mi.softmaxBackward_V2(b.h, 1.0, d, y, d, dy, 0.0, d, dx,
                                            mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
              lambda: torch._softmax_backward_data(tdy, ty, 1, ty.dtype))


def per_call_us(fn, calls=2000, repeat=7):
    """Wall time per call of `calls` back-to-back calls (no synchronisation: on a GPU the launch is
    asynchronous, so this is the host cost), min of `repeat`."""
    for _ in range(100):
        fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
        torch.cuda.synchronize()
    return best


def bench_overhead(b):
    """Per-call host cost on a tiny tensor: our call with DeviceBuffers, with PyTorch CUDA tensors
    (the data_ptr fast path), with __cuda_array_interface__ objects, and PyTorch's own call."""
    shape = (1, 1, 1, 4)
    d = desc(shape)
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, mi.miopenActivationRELU, 1.0, 1.0, 1.0)
    x, y = b.array(shape), b.empty(shape)
    tx, ty = torch.randn(shape, device="cuda"), torch.empty(shape, device="cuda")

    class Cai:
        def __init__(self, t):
            self.__cuda_array_interface__ = t.__cuda_array_interface__

    cx, cy = Cai(tx), Cai(ty)
    rows = [("DeviceBuffer", lambda: mi.activationForward(b.h, ad, 1.0, d, x, 0.0, d, y)),
            ("torch tensor", lambda: mi.activationForward(b.h, ad, 1.0, d, tx, 0.0, d, ty)),
            ("CAI object", lambda: mi.activationForward(b.h, ad, 1.0, d, cx, 0.0, d, cy)),
            ("PyTorch's clamp_min(out=)", lambda: torch.clamp_min(tx, 0.0, out=ty))]
    for name, fn in rows:
        print(f"# per-call overhead, activationForward {shape} with {name}: {per_call_us(fn):.2f} us "
              f"(min of 7 x 2000 calls, no sync)", flush=True)


GROUPS = {"elementwise": bench_elementwise, "pooling": bench_pooling, "batchnorm": bench_batchnorm,
          "lrn": bench_lrn, "softmax": bench_softmax, "overhead": bench_overhead}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cpu", help="cpu or gpu")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--filter", default="", help="only the op groups whose name contains this")
    p.add_argument("--stat", default="median", choices=["median", "min"])
    p.add_argument("--size", default=None, choices=["small", "large"],
                   help="tensor sizes: large (>= 100 MB, the GPU default) or small (the CPU default)")
    args = p.parse_args(argv)
    global STAT
    STAT = args.stat
    gpu = args.device.startswith("gpu")
    b = Bench(args.device, args.repeat, large=(args.size or ("large" if gpu else "small")) == "large")
    dev = torch.cuda.get_device_name() if b.tdev == "cuda" else f"CPU, {torch.get_num_threads()} threads"
    print(f"# miopen_cy {mi.__version__} vs PyTorch {torch.__version__} on {dev}")
    if b.tdev == "cuda":
        b.measure_copy()
    copy_cols = f" {'copy':>6} {'tcopy':>6}" if b.copy_gbs else ""
    print(f"{'op':<22} {'shape':<24} {'ours ms':>9} {'torch ms':>9} {'GB/s':>8} {'tGB/s':>8} {'speedup':>8}"
          f"{copy_cols}")
    for name, fn in GROUPS.items():
        if name == "overhead" and b.tdev != "cuda":
            continue
        if any(f in name for f in args.filter.split(",")):
            try:
                fn(b)
            except mi.MIOpenNotImplementedError as e:
                print(f"# {name}: not implemented on this device ({e})")
    ratios = [t / o for _, _, o, t, _ in b.rows]
    if ratios:
        print(f"# geomean speedup over {len(ratios)} rows: {np.exp(np.mean(np.log(ratios))):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
