"""Every non-convolution op against PyTorch on the same device, in one process.

A row: our time and PyTorch's (CUDA events on the GPU, the host clock on the CPU with the two
sides' runs alternating; median of --repeat after warm-up), the speed ratio PyTorch / ours (> 1:
we are faster), the bandwidth each reaches counting the bytes read and written once, and the
bandwidth of a device copy that moves the same bytes, measured beside it (the ceiling of a
memory-bound op): `of copy` is our bandwidth over the copy's. --reproduce prints the
miopen-driver command of each row. The summary adds the per-call host cost on a tiny tensor.
Groups pooling_types and lrn_types: fp16 / bf16, and NHWC pooling in every type, beside PyTorch
in the same type and memory format.

    python perf/bench_ops.py [--device cpu|gpu] [--size small|large] [--filter GROUP[,GROUP]]
        [--repeat N] [--stat median|min] [--threads N] [--reproduce] [--out DIR] [--results RESULTS.md]

--size large (the GPU default) takes tensors of 100 MB or more, which no GPU cache holds; small
(the CPU default) batch 8. Groups: elementwise, elementwise16 (fp16/bf16 element-wise ops),
pooling, batchnorm, bntypes (batch norm in fp32 / fp16 / bf16, NCHW / NHWC), lrn, softmax,
softmax_types (fp16/bf16 and NHWC channel softmax), reduce (miopenReduceTensor: rows,
columns, all, per channel; fp32 and fp16), fusion (fusion plans beside the separate calls), overhead,
dropout (forward and backward in fp32 / fp16 / bf16 beside torch.native_dropout), rnn (LSTM and
GRU forward training and backward beside torch nn.LSTM / nn.GRU, cuDNN on the GPU), ctc
(miopenCTCLoss beside log_softmax + F.ctc_loss + backward: cuDNN's or PyTorch's CTC).
"""
import argparse
import sys
import time

import common  # first: it sets OMP_NUM_THREADS for --threads before an OpenMP runtime loads
from common import Device, Report, desc, driver, geomean

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi

COLUMNS = [("op", "op", "{:<20}"), ("shape", "shape", "{:<20}"), ("ours_ms", "ours ms", "{:>9.4f}"),
           ("peer_ms", "peer ms", "{:>9.4f}"), ("ratio", "ratio", "{:>6.2f}"), ("ours_gbs", "GB/s", "{:>8.1f}"),
           ("peer_gbs", "peer GB/s", "{:>9.1f}"), ("copy_gbs", "copy GB/s", "{:>9.1f}"),
           ("of_copy", "of copy", "{:>7.2f}")]


class Bench:
    def __init__(self, args, dev):
        self.dev = dev
        self.large = (args.size or ("large" if dev.gpu else "small")) == "large"
        self.h = mi.Handle(device=dev.name)
        self.rng = np.random.default_rng(0)
        self.inner = args.inner
        self.rep = Report(args, "ops", f"Non-convolution ops, {'large' if self.large else 'small'} tensors",
                          COLUMNS, dev, plot="ops")

    def shape(self, small, large):
        return large if self.large else small

    def array(self, shape, positive=False):
        a = self.rng.standard_normal(shape).astype(np.float32)
        if positive:
            a = np.abs(a) + 0.5
        return mi.DeviceBuffer.from_numpy(self.h, a) if self.dev.gpu else a

    def empty(self, shape=None, nbytes=None):
        if nbytes is not None:
            return mi.DeviceBuffer(self.h, max(nbytes, 1)) if self.dev.gpu else np.empty(max(nbytes, 1), np.uint8)
        return mi.DeviceBuffer(self.h, 4 * int(np.prod(shape))) if self.dev.gpu else np.empty(shape, np.float32)

    def tensor(self, shape, positive=False):
        t = torch.randn(shape, device=self.dev.torch)
        return t.abs() + 0.5 if positive else t

    def row(self, op, shape, nbytes, ours, theirs, sub, flags, shape_flags=None):
        """Times both sides and a copy of the same bytes; `sub` and `flags`: the driver command
        (`shape_flags` instead of -n -c -H -W for the sub-commands that take the shape otherwise)."""
        inner = self.inner if self.dev.gpu else 1    # on the GPU, events around back-to-back calls
        t_ours, t_peer = self.dev.pair_ms(ours, theirs, inner)
        t_copy = self.dev.copy_ms(nbytes, inner)
        if shape_flags is None:
            n, c, hh, ww = shape
            shape_flags = {"-n": n, "-c": c, "-H": hh, "-W": ww}
        drv = driver(sub, dict(shape_flags, **flags), self.dev.name, self.dev.repeat)
        self.rep.add(op=op, shape="x".join(map(str, shape)), nbytes=nbytes, ours_ms=t_ours, peer_ms=t_peer,
                     copy_ms=t_copy, ratio=t_peer / t_ours, ours_gbs=nbytes / t_ours / 1e6,
                     peer_gbs=nbytes / t_peer / 1e6, copy_gbs=nbytes / t_copy / 1e6, of_copy=t_copy / t_ours,
                     driver=drv)


def bench_elementwise(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n = int(np.prod(shape))
    d = desc(shape)
    x, y, dy, dx = b.array(shape), b.empty(shape), b.array(shape), b.empty(shape)
    tx, tdy = b.tensor(shape), b.tensor(shape)
    modes = [(mi.miopenActivationRELU, "relu", torch.relu, lambda ty: torch.ops.aten.threshold_backward(tdy, tx, 0.0)),
             (mi.miopenActivationTANH, "tanh", torch.tanh, lambda ty: torch.ops.aten.tanh_backward(tdy, ty)),
             (mi.miopenActivationLOGISTIC, "logistic", torch.sigmoid,
              lambda ty: torch.ops.aten.sigmoid_backward(tdy, ty)),
             (mi.miopenActivationELU, "elu", F.elu,
              lambda ty: torch.ops.aten.elu_backward(tdy, 1.0, 1.0, 1.0, False, tx))]
    for mode, name, tfwd, tbwd in modes:
        ad = mi.ActivationDescriptor()
        mi.setActivationDescriptor(ad, mode, 1.0, 1.0, 1.0)
        b.row(f"{name}_fwd", shape, 8 * n, lambda: mi.activationForward(b.h, ad, 1.0, d, x, 0.0, d, y),
              lambda: tfwd(tx), "activ", {"-m": int(mode), "-F": 1})
        ty = tfwd(tx)
        # dx from dy and y or x: two tensors read, one written (the fewest bytes the op needs)
        b.row(f"{name}_bwd", shape, 12 * n,
              lambda: mi.activationBackward(b.h, ad, 1.0, d, y, d, dy, d, x, 0.0, d, dx),
              lambda: tbwd(ty), "activ", {"-m": int(mode), "-F": 2})
    b.row("opTensor_add", shape, 12 * n,
          lambda: mi.opTensor(b.h, mi.miopenTensorOpAdd, 1.0, d, x, 1.0, d, dy, 0.0, d, y),
          lambda: torch.add(tx, tdy), "tensorop", {"-o": 2})
    b.row("scaleTensor", shape, 8 * n, lambda: mi.scaleTensor(b.h, d, y, -1.0), lambda: tx.mul_(-1.0),
          "tensorop", {"-o": 1, "-v": -1})


def bench_elementwise_16(b):
    """The element-wise ops in fp16 and bf16 beside PyTorch in the same type (issue 17): the
    operands are PyTorch tensors of that type on the device, used in place by both sides (on the
    CPU we get NumPy views of them: float16, ml_dtypes.bfloat16)."""
    import ml_dtypes
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n = int(np.prod(shape))
    for dt, tt, npt, suffix in [(mi.miopenHalf, torch.float16, np.float16, "fp16"),
                                (mi.miopenBFloat16, torch.bfloat16, ml_dtypes.bfloat16, "bfp16")]:
        d = desc(shape, dt)
        bd = desc((1, shape[1], 1, 1), dt)
        tx = torch.randn(shape, device=b.dev.torch).to(tt)
        tdy = torch.randn(shape, device=b.dev.torch).to(tt)
        tb = torch.randn((1, shape[1], 1, 1), device=b.dev.torch).to(tt)
        ty, tdx, tdb = torch.empty_like(tx), torch.empty_like(tx), torch.empty_like(tb)

        def ours(t, npt=npt):
            return t if b.dev.gpu else t.view(torch.int16).numpy().view(npt)
        x, dy, bias, y, dx, db = (ours(t) for t in (tx, tdy, tb, ty, tdx, tdb))
        modes = [(mi.miopenActivationRELU, "relu", torch.relu,
                  lambda ty: torch.ops.aten.threshold_backward(tdy, tx, 0.0)),
                 (mi.miopenActivationTANH, "tanh", torch.tanh, lambda ty: torch.ops.aten.tanh_backward(tdy, ty)),
                 (mi.miopenActivationLOGISTIC, "logistic", torch.sigmoid,
                  lambda ty: torch.ops.aten.sigmoid_backward(tdy, ty)),
                 (mi.miopenActivationELU, "elu", F.elu,
                  lambda ty: torch.ops.aten.elu_backward(tdy, 1.0, 1.0, 1.0, False, tx))]
        for mode, name, tfwd, tbwd in modes:
            ad = mi.ActivationDescriptor()
            mi.setActivationDescriptor(ad, mode, 1.0, 1.0, 1.0)
            b.row(f"{name}_fwd_{suffix}", shape, 4 * n,
                  lambda: mi.activationForward(b.h, ad, 1.0, d, x, 0.0, d, y),
                  lambda: tfwd(tx), f"activ{suffix}", {"-m": int(mode), "-F": 1})
            tyy = tfwd(tx)
            b.row(f"{name}_bwd_{suffix}", shape, 6 * n,
                  lambda: mi.activationBackward(b.h, ad, 1.0, d, y, d, dy, d, x, 0.0, d, dx),
                  lambda: tbwd(tyy), f"activ{suffix}", {"-m": int(mode), "-F": 2})
        b.row(f"opTensor_add_{suffix}", shape, 6 * n,
              lambda: mi.opTensor(b.h, mi.miopenTensorOpAdd, 1.0, d, x, 1.0, d, dy, 0.0, d, y),
              lambda: torch.add(tx, tdy), f"tensorop{suffix}", {"-o": 2})
        b.row(f"opTensor_mul_bcast_{suffix}", shape, 4 * n,
              lambda: mi.opTensor(b.h, mi.miopenTensorOpMul, 1.0, d, x, 1.0, bd, bias, 0.0, d, y),
              lambda: torch.mul(tx, tb), f"tensorop{suffix}", {"-o": 3})
        b.row(f"scaleTensor_{suffix}", shape, 4 * n, lambda: mi.scaleTensor(b.h, d, y, -1.0),
              lambda: ty.mul_(-1.0), f"tensorop{suffix}", {"-o": 1, "-v": -1})
        b.row(f"setTensor_{suffix}", shape, 2 * n, lambda: mi.setTensor(b.h, d, y, 0.5),
              lambda: ty.fill_(0.5), f"tensorop{suffix}", {"-o": 0, "-v": 0.5})
        b.row(f"transformTensor_{suffix}", shape, 4 * n,
              lambda: mi.transformTensor(b.h, 2.0, d, x, 0.0, d, y),
              lambda: torch.mul(tx, 2.0), f"tensorop{suffix}", {"-o": 2})
        b.row(f"bias_fwd_{suffix}", shape, 4 * n,
              lambda: mi.convolutionForwardBias(b.h, 1.0, bd, bias, 0.0, d, y),
              lambda: ty.add_(tb), f"conv{suffix}", {"-b": 1})
        b.row(f"bias_bwd_{suffix}", shape, 2 * n,
              lambda: mi.convolutionBackwardBias(b.h, 1.0, d, dy, 0.0, bd, db),
              lambda: tdy.sum(dim=(0, 2, 3)), f"conv{suffix}", {"-b": 1})


def bench_dropout(b):
    """Dropout forward (mask drawn and written to the reserve space) and backward (the mask read)
    in fp32, fp16 and bf16 beside PyTorch's native_dropout and native_dropout_backward, which
    write and read a mask of their own; bytes: x, y and the one-byte mask (forward), dy, dx and
    the mask (backward)."""
    import ml_dtypes
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n = int(np.prod(shape))
    p = 0.5
    for dt, tt, npt, suffix in [(mi.miopenFloat, torch.float32, np.float32, ""),
                                (mi.miopenHalf, torch.float16, np.float16, "fp16"),
                                (mi.miopenBFloat16, torch.bfloat16, ml_dtypes.bfloat16, "bfp16")]:
        size = np.dtype(npt).itemsize
        d = desc(shape, dt)
        tx = torch.randn(shape, device=b.dev.torch).to(tt)
        tdy = torch.randn(shape, device=b.dev.torch).to(tt)
        ty, tdx = torch.empty_like(tx), torch.empty_like(tx)

        def ours(t, npt=npt):
            if b.dev.gpu:
                return t
            return t.numpy() if t.dtype == torch.float32 else t.view(torch.int16).numpy().view(npt)
        x, dy, y, dx = (ours(t) for t in (tx, tdy, ty, tdx))
        ns = mi.dropoutGetStatesSize(b.h)
        states = b.empty(nbytes=ns)
        reserve = b.empty(nbytes=n)
        dd = mi.DropoutDescriptor()
        mi.setDropoutDescriptor(dd, b.h, p, states, ns, 1, False, False, mi.MIOPEN_RNG_PSEUDO_XORWOW)
        _, tmask = torch.native_dropout(tx, p, True)
        dims = {"-d": ",".join(map(str, shape))}
        b.row(f"dropout_fwd{'_' + suffix if suffix else ''}", shape, (2 * size + 1) * n,
              lambda: mi.dropoutForward(b.h, dd, d, d, x, d, y, reserve, n),
              lambda: torch.native_dropout(tx, p, True), f"dropout{suffix}", {"-F": 1, "-p": p},
              shape_flags=dims)
        b.row(f"dropout_bwd{'_' + suffix if suffix else ''}", shape, (2 * size + 1) * n,
              lambda: mi.dropoutBackward(b.h, dd, d, d, dy, d, dx, reserve, n),
              lambda: torch.ops.aten.native_dropout_backward(tdy, tmask, 1.0 / (1.0 - p)),
              f"dropout{suffix}", {"-F": 2, "-p": p}, shape_flags=dims)


def bench_pooling(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    d = desc(shape)
    x, tx = b.array(shape), b.tensor(shape)
    txg = tx.clone().requires_grad_()
    for mode, name, tfn in [(mi.miopenPoolingMax, "max", lambda t: F.max_pool2d(t, 3, 2, 1)),
                            (mi.miopenPoolingAverage, "avg", lambda t: F.avg_pool2d(t, 3, 2, 1, count_include_pad=False))]:
        pd = mi.PoolingDescriptor()
        mi.set2dPoolingDescriptor(pd, mode, 3, 3, 1, 1, 2, 2)
        oshape = tuple(mi.getPoolingForwardOutputDim(pd, d))
        od = desc(oshape)
        y = b.empty(oshape)
        nbytes = 4 * (int(np.prod(shape)) + int(np.prod(oshape)))
        flags = {"-y": 3, "-x": 3, "-p": 1, "-q": 1, "-v": 2, "-u": 2, "-m": name}
        b.row(f"{name}pool_fwd", shape, nbytes,
              lambda: mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, False, None, 0),
              lambda: tfn(tx), "pool", dict(flags, **{"-F": 1}))
        # backward: dx from dy (and, for max, the index workspace saved by the forward)
        ws_size = mi.poolingGetWorkSpaceSizeV2(pd, od)
        ws = b.empty(nbytes=ws_size)
        mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, True, ws, ws_size)
        dy, dx = b.array(oshape), b.empty(shape)
        ty = tfn(txg)
        tdy = torch.randn_like(ty)
        b.row(f"{name}pool_bwd", shape, nbytes + 4 * int(np.prod(shape)),
              lambda: mi.poolingBackward(b.h, pd, 1.0, od, y, od, dy, d, x, 0.0, d, dx, ws),
              lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True), "pool", dict(flags, **{"-F": 2}))


# ---- storage types and layouts (pooling, LRN) --------------------------------------------------
# fp16 / bf16 (NCHW) and NHWC in every type beside PyTorch in the same type and memory format
# (channels_last). Our operands are DeviceBuffers of the stored bits (either device).

TYPE_NAMES = {mi.miopenFloat: "fp32", mi.miopenHalf: "fp16", mi.miopenBFloat16: "bf16"}
TORCH_TYPES = {mi.miopenFloat: torch.float32, mi.miopenHalf: torch.float16,
               mi.miopenBFloat16: torch.bfloat16}
DRIVER_SUFFIX = {mi.miopenFloat: "", mi.miopenHalf: "fp16", mi.miopenBFloat16: "bfp16"}


def _nbytes_of(dt):
    return 4 if dt == mi.miopenFloat else 2


def _typed_desc(shape, dt, layout):
    """A descriptor of logical NCHW `shape` in type dt, packed NCHW or NHWC strides."""
    n, c, hh, ww = shape
    strides = [c * hh * ww, hh * ww, ww, 1] if layout == "NCHW" else [hh * ww * c, 1, ww * c, c]
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dt, 4, list(shape), strides)
    return d


def _typed_array(b, shape, dt, layout, positive=False):
    """Random values of logical `shape` stored as dt in `layout`, in a buffer of b's device."""
    a = b.rng.standard_normal(shape).astype(np.float32)
    if positive:
        a = np.abs(a) + 0.5
    if layout == "NHWC":
        a = np.ascontiguousarray(a.transpose(0, 2, 3, 1))
    if dt == mi.miopenHalf:
        a = a.astype(np.float16)
    elif dt == mi.miopenBFloat16:                   # round to nearest even, as the library does
        u = a.view(np.uint32).astype(np.uint64)
        a = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return mi.DeviceBuffer.from_numpy(b.h, a)


def _typed_empty(b, shape, dt):
    return mi.DeviceBuffer(b.h, max(_nbytes_of(dt) * int(np.prod(shape)), 1))


def _typed_tensor(b, shape, dt, layout):
    t = torch.randn(shape, device=b.dev.torch, dtype=TORCH_TYPES[dt])
    return t.to(memory_format=torch.channels_last) if layout == "NHWC" else t


def _typed_cases(b):
    """(type, layout): fp16 and bf16 in NCHW, every type in NHWC."""
    return [(dt, "NCHW") for dt in (mi.miopenHalf, mi.miopenBFloat16)] + \
           [(dt, "NHWC") for dt in (mi.miopenFloat, mi.miopenHalf, mi.miopenBFloat16)]


def bench_pooling_types(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    for dt, layout in _typed_cases(b):
        tag = f"{TYPE_NAMES[dt]}{'_nhwc' if layout == 'NHWC' else ''}"
        es = _nbytes_of(dt)
        d = _typed_desc(shape, dt, layout)
        x, tx = _typed_array(b, shape, dt, layout), _typed_tensor(b, shape, dt, layout)
        txg = tx.clone().requires_grad_()
        for mode, name, tfn in [(mi.miopenPoolingMax, "max", lambda t: F.max_pool2d(t, 3, 2, 1)),
                                (mi.miopenPoolingAverage, "avg",
                                 lambda t: F.avg_pool2d(t, 3, 2, 1, count_include_pad=False))]:
            pd = mi.PoolingDescriptor()
            mi.set2dPoolingDescriptor(pd, mode, 3, 3, 1, 1, 2, 2)
            oshape = tuple(mi.getPoolingForwardOutputDim(pd, d))
            od = _typed_desc(oshape, dt, layout)
            y = _typed_empty(b, oshape, dt)
            nbytes = es * (int(np.prod(shape)) + int(np.prod(oshape)))
            flags = {"-y": 3, "-x": 3, "-p": 1, "-q": 1, "-v": 2, "-u": 2, "-m": name}
            if layout == "NHWC":
                flags["--input"] = "x".join(map(str, shape)) + ",NHWC"   # MIOpenDriver pool's tensor flag
            sub = "pool" + DRIVER_SUFFIX[dt]
            b.row(f"{name}pool_fwd_{tag}", shape, nbytes,
                  lambda: mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, False, None, 0),
                  lambda: tfn(tx), sub, dict(flags, **{"-F": 1}))
            ws_size = mi.poolingGetWorkSpaceSizeV2(pd, od)
            ws = b.empty(nbytes=ws_size)
            mi.poolingForward(b.h, pd, 1.0, d, x, 0.0, od, y, True, ws, ws_size)
            dy, dx = _typed_array(b, oshape, dt, layout), _typed_empty(b, shape, dt)
            ty = tfn(txg)
            tdy = torch.randn_like(ty)
            b.row(f"{name}pool_bwd_{tag}", shape, nbytes + es * int(np.prod(shape)),
                  lambda: mi.poolingBackward(b.h, pd, 1.0, od, y, od, dy, d, x, 0.0, d, dx, ws),
                  lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True), sub,
                  dict(flags, **{"-F": 2}))


def bench_lrn_types(b):
    shape = b.shape((4, 96, 55, 55), (128, 96, 55, 55))
    n = int(np.prod(shape))
    ld = mi.LRNDescriptor()
    mi.setLRNDescriptor(ld, mi.miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0)
    for dt in (mi.miopenHalf, mi.miopenBFloat16):
        es = _nbytes_of(dt)
        d = _typed_desc(shape, dt, "NCHW")
        x, y = _typed_array(b, shape, dt, "NCHW"), _typed_empty(b, shape, dt)
        tx = _typed_tensor(b, shape, dt, "NCHW")
        try:
            F.local_response_norm(tx[:1], 5, 1e-4, 0.75, 2.0)
        except (NotImplementedError, RuntimeError) as e:     # no CPU fp16 avg_pool3d in PyTorch
            b.rep.say(f"lrn {TYPE_NAMES[dt]}: PyTorch has no {b.dev.name} kernel for this type "
                      f"({str(e).splitlines()[0]}); rows skipped")
            continue
        ws = b.empty(nbytes=mi.LRNGetWorkSpaceSize(d))
        flags = {"-m": "cross", "-N": 5, "-A": 0.0001, "-B": 0.75, "-K": 2.0}
        sub = "lrn" + DRIVER_SUFFIX[dt]
        b.row(f"lrn_fwd_{TYPE_NAMES[dt]}", shape, 2 * es * n,
              lambda: mi.LRNForward(b.h, ld, 1.0, d, x, 0.0, d, y, False, None),
              lambda: F.local_response_norm(tx, 5, 1e-4, 0.75, 2.0), sub, dict(flags, **{"-F": 1}))
        mi.LRNForward(b.h, ld, 1.0, d, x, 0.0, d, y, True, ws)
        dy, dx = _typed_array(b, shape, dt, "NCHW"), _typed_empty(b, shape, dt)
        txg = tx.clone().requires_grad_()
        ty = F.local_response_norm(txg, 5, 1e-4, 0.75, 2.0)
        tdy = torch.randn_like(ty)
        b.row(f"lrn_bwd_{TYPE_NAMES[dt]}", shape, 5 * es * n,
              lambda: mi.LRNBackward(b.h, ld, 1.0, d, y, d, dy, d, x, 0.0, d, dx, ws),
              lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True), sub,
              dict(flags, **{"-F": 2}))


def bench_batchnorm(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n, c = int(np.prod(shape)), shape[1]
    d = desc(shape)
    pd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(pd, d, mi.miopenBNSpatial)
    x, y = b.array(shape), b.empty(shape)
    scale, bias = b.array((c,)), b.array((c,))
    rmean, rvar = b.array((c,)), b.array((c,), positive=True)
    smean, sinv = b.empty((c,)), b.empty((c,))
    tx, tw, tb = b.tensor(shape), b.tensor((c,)), b.tensor((c,))
    trm, trv = b.tensor((c,)), b.tensor((c,), positive=True)
    spatial = {"-m": 1}
    b.row("bn_fwd_train", shape, 8 * n,
          lambda: mi.batchNormalizationForwardTraining(b.h, mi.miopenBNSpatial, 1.0, 0.0, d, x, d, y, pd, scale, bias,
                                                       0.1, rmean, rvar, 1e-5, smean, sinv),
          lambda: F.batch_norm(tx, trm, trv, tw, tb, training=True, momentum=0.1, eps=1e-5),
          "bnorm", dict(spatial, **{"-F": 1, "-r": 1, "-s": 1}))
    b.row("bn_fwd_infer", shape, 8 * n,
          lambda: mi.batchNormalizationForwardInference(b.h, mi.miopenBNSpatial, 1.0, 0.0, d, x, d, y, pd, scale,
                                                        bias, rmean, rvar, 1e-5),
          lambda: F.batch_norm(tx, trm, trv, tw, tb, training=False, eps=1e-5),
          "bnorm", dict(spatial, **{"-F": 2, "-r": 1}))
    # per activation: one (mean, variance, scale, bias) per C*H*W element (PyTorch: batch_norm over (N, C*H*W))
    ppd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(ppd, d, mi.miopenBNPerActivation)
    m = n // shape[0]
    pscale, pbias, pmean, pvar = b.array((m,)), b.array((m,)), b.array((m,)), b.array((m,), positive=True)
    tpw, tpb, tpm, tpv = b.tensor((m,)), b.tensor((m,)), b.tensor((m,)), b.tensor((m,), positive=True)
    tx2 = tx.view(shape[0], m)
    b.row("bn_fwd_infer_peract", shape, 8 * n + 16 * m,
          lambda: mi.batchNormalizationForwardInference(b.h, mi.miopenBNPerActivation, 1.0, 0.0, d, x, d, y, ppd,
                                                        pscale, pbias, pmean, pvar, 1e-5),
          lambda: F.batch_norm(tx2, tpm, tpv, tpw, tpb, training=False, eps=1e-5),
          "bnorm", {"-m": 0, "-F": 2, "-r": 1})
    dy, dx = b.array(shape), b.empty(shape)
    dscale, dbias = b.empty((c,)), b.empty((c,))
    txg, twg, tbg = tx.clone().requires_grad_(), tw.clone().requires_grad_(), tb.clone().requires_grad_()
    ty = F.batch_norm(txg, None, None, twg, tbg, training=True, eps=1e-5)
    tdy = torch.randn_like(ty)
    b.row("bn_bwd", shape, 12 * n,
          lambda: mi.batchNormalizationBackward(b.h, mi.miopenBNSpatial, 1.0, 0.0, 1.0, 0.0, d, x, d, dy, d, dx, pd,
                                                scale, dscale, dbias, 1e-5, smean, sinv),
          lambda: torch.autograd.grad(ty, (txg, twg, tbg), tdy, retain_graph=True),
          "bnorm", dict(spatial, **{"-F": 0, "-b": 1, "-s": 1}))
    # the bias of a convolution: `miopen-driver conv -b 1` on a 1x1 convolution whose output has this
    # shape prints the bias's own time (the "Forward Conv. Bias" / "Backward Conv. Bias" line)
    bd = desc((1, c, 1, 1))
    conv = {"-k": c, "-y": 1, "-x": 1, "-b": 1}
    b.row("bias_fwd", shape, 8 * n, lambda: mi.convolutionForwardBias(b.h, 1.0, bd, bias, 0.0, d, y),
          lambda: tx.add_(tb.view(1, c, 1, 1)), "conv", dict(conv, **{"-F": 1}))
    b.row("bias_bwd", shape, 4 * n, lambda: mi.convolutionBackwardBias(b.h, 1.0, d, dy, 0.0, bd, dbias),
          lambda: tx.sum(dim=(0, 2, 3)), "conv", dict(conv, **{"-F": 2}))


# Storage types and layouts of batch norm: fp32 / fp16 / bf16 data (fp32 parameters: MIOpen's
# mixed mode, as PyTorch keeps them for its autocast) in NCHW and NHWC (channels_last), beside
# PyTorch in the same type and memory format. The data are torch tensors passed by address.
BN_TYPES = [("fp32", mi.miopenFloat, torch.float32, ""), ("fp16", mi.miopenHalf, torch.float16, "fp16fp32"),
            ("bf16", mi.miopenBFloat16, torch.bfloat16, "bfp16fp32")]


def bench_batchnorm_types(b):
    shape = b.shape((8, 64, 112, 112), (64, 64, 112, 112))
    n, c = shape[0], shape[1]
    m = int(np.prod(shape[1:]))
    numel = n * m
    dev = b.dev.torch
    f32 = dict(device=dev, dtype=torch.float32)
    for tname, dt, tdt, sub in BN_TYPES:
        es = torch.tensor([], dtype=tdt).element_size()
        for lay in ("nchw", "nhwc"):
            fmt = torch.channels_last if lay == "nhwc" else torch.contiguous_format
            tx = torch.randn(shape, device=dev).to(tdt).contiguous(memory_format=fmt)
            ty, tdy, tdx = torch.empty_like(tx), torch.randn_like(tx), torch.empty_like(tx)
            d = mi.TensorDescriptor()
            mi.setTensorDescriptor(d, dt, 4, list(shape), list(tx.stride()))
            x, y, dy, dx = tx.data_ptr(), ty.data_ptr(), tdy.data_ptr(), tdx.data_ptr()
            flags = {"-L": lay.upper()} if lay == "nhwc" else {}   # MIOpenDriver bnorm's --layout
            for mode, mname, mflag in ((mi.miopenBNSpatial, "", 1), (mi.miopenBNPerActivation, "_peract", 0)):
                if mode == mi.miopenBNPerActivation and lay == "nhwc":
                    continue                    # PyTorch has no channels-last per-activation batch norm
                pd = mi.TensorDescriptor()
                mi.deriveBNTensorDescriptor(pd, d, mode)
                pn = c if mode == mi.miopenBNSpatial else m
                w, bias, rm = (torch.randn(pn, **f32) for _ in range(3))
                rv = torch.rand(pn, **f32) + 0.5
                sm, si, ds, db = (torch.empty(pn, **f32) for _ in range(4))
                p = [t.data_ptr() for t in (w, bias, rm, rv, sm, si, ds, db)]
                if mode == mi.miopenBNSpatial:
                    tin, tdyv = tx, tdy
                else:
                    tin, tdyv = tx.view(n, m), tdy.view(n, m)
                drv = dict({"-m": mflag}, **flags)
                tag = f"{tname}_{lay}{mname}"
                b.row(f"bn_train_{tag}", shape, 2 * es * numel,
                      lambda: mi.batchNormalizationForwardTraining(b.h, mode, 1.0, 0.0, d, x, d, y, pd, p[0], p[1],
                                                                   0.1, p[2], p[3], 1e-5, p[4], p[5]),
                      lambda: F.batch_norm(tin, rm, rv, w, bias, training=True, momentum=0.1, eps=1e-5),
                      "bnorm" + sub, dict(drv, **{"-F": 1, "-r": 1, "-s": 1}))
                b.row(f"bn_infer_{tag}", shape, 2 * es * numel,
                      lambda: mi.batchNormalizationForwardInference(b.h, mode, 1.0, 0.0, d, x, d, y, pd, p[0], p[1],
                                                                    p[2], p[3], 1e-5),
                      lambda: F.batch_norm(tin, rm, rv, w, bias, training=False, eps=1e-5),
                      "bnorm" + sub, dict(drv, **{"-F": 2, "-r": 1}))
                txg = tin.detach().clone().requires_grad_()
                twg, tbg = w.clone().requires_grad_(), bias.clone().requires_grad_()
                tyg = F.batch_norm(txg, None, None, twg, tbg, training=True, eps=1e-5)
                b.row(f"bn_bwd_{tag}", shape, 3 * es * numel,
                      lambda: mi.batchNormalizationBackward(b.h, mode, 1.0, 0.0, 1.0, 0.0, d, x, d, dy, d, dx, pd,
                                                            p[0], p[6], p[7], 1e-5, p[4], p[5]),
                      lambda: torch.autograd.grad(tyg, (txg, twg, tbg), tdyv, retain_graph=True),
                      "bnorm" + sub, dict(drv, **{"-F": 0, "-b": 1, "-s": 1}))


def bench_lrn(b):
    shape = b.shape((4, 96, 55, 55), (128, 96, 55, 55))
    n = int(np.prod(shape))
    d = desc(shape)
    ld = mi.LRNDescriptor()
    mi.setLRNDescriptor(ld, mi.miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0)
    x, y, tx = b.array(shape), b.empty(shape), b.tensor(shape)
    ws = b.empty(nbytes=mi.LRNGetWorkSpaceSize(d))
    flags = {"-m": "cross", "-N": 5, "-A": 0.0001, "-B": 0.75, "-K": 2.0}
    b.row("lrn_fwd", shape, 8 * n, lambda: mi.LRNForward(b.h, ld, 1.0, d, x, 0.0, d, y, False, None),
          lambda: F.local_response_norm(tx, 5, 1e-4, 0.75, 2.0), "lrn", dict(flags, **{"-F": 1}))
    mi.LRNForward(b.h, ld, 1.0, d, x, 0.0, d, y, True, ws)
    dy, dx = b.array(shape), b.empty(shape)
    txg = tx.clone().requires_grad_()
    ty = F.local_response_norm(txg, 5, 1e-4, 0.75, 2.0)
    tdy = torch.randn_like(ty)
    b.row("lrn_bwd", shape, 20 * n, lambda: mi.LRNBackward(b.h, ld, 1.0, d, y, d, dy, d, x, 0.0, d, dx, ws),
          lambda: torch.autograd.grad(ty, txg, tdy, retain_graph=True), "lrn", dict(flags, **{"-F": 2}))


def bench_softmax(b):
    for shape in b.shape([(32, 1000, 1, 1), (1, 21, 256, 256)], [(32768, 1000, 1, 1), (32, 21, 256, 256)]):
        n = int(np.prod(shape))
        d = desc(shape)
        x, y, tx = b.array(shape), b.empty(shape), b.tensor(shape)
        flags = {"-a": 1, "-m": 1}
        b.row("softmax_fwd", shape, 8 * n,
              lambda: mi.softmaxForward_V2(b.h, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE,
                                           mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
              lambda: torch.softmax(tx, dim=1), "softmax", dict(flags, **{"-F": 1}))
        dy, dx = b.array(shape), b.empty(shape)
        ty = torch.softmax(tx, dim=1)
        tdy = torch.randn_like(ty)
        b.row("softmax_bwd", shape, 12 * n,
              lambda: mi.softmaxBackward_V2(b.h, 1.0, d, y, d, dy, 0.0, d, dx, mi.MIOPEN_SOFTMAX_ACCURATE,
                                            mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
              lambda: torch._softmax_backward_data(tdy, ty, 1, ty.dtype), "softmax", dict(flags, **{"-F": 2}))


def bench_softmax_types(b):
    """Channel softmax in fp16 and bf16 (NCHW and NHWC) and fp32 NHWC, forward and backward, against
    PyTorch's softmax in the same type and memory format (channels_last for NHWC). Our calls get
    the PyTorch tensors themselves (on the CPU NumPy views of them), so both sides read the same
    memory."""
    import ml_dtypes
    types = [(mi.miopenHalf, torch.float16, "fp16", np.float16),
             (mi.miopenBFloat16, torch.bfloat16, "bfp16", ml_dtypes.bfloat16),
             (mi.miopenFloat, torch.float32, "", np.float32)]
    shapes = b.shape([(8, 21, 128, 128), (8, 64, 56, 56)], [(48, 21, 256, 256), (64, 64, 112, 112)])
    for mtype, ttype, suffix, npdt in types:
        for layout in ("NCHW", "NHWC"):
            if mtype == mi.miopenFloat and layout == "NCHW":
                continue                     # bench_softmax has it
            fmt = torch.channels_last if layout == "NHWC" else torch.contiguous_format
            for shape in shapes:
                n = int(np.prod(shape))
                size = torch.tensor([], dtype=ttype).element_size()
                d = mi.TensorDescriptor()
                mi.setNdTensorDescriptorWithLayout(
                    d, mtype, mi.miopenTensorNHWC if layout == "NHWC" else mi.miopenTensorNCHW, list(shape), 4)
                mk = lambda: torch.randn(shape, device=b.dev.torch).to(ttype).contiguous(memory_format=fmt)
                tx, tdy = mk(), mk()
                ty, tdx = torch.empty_like(tx), torch.empty_like(tx)

                def ours(t):
                    if b.dev.gpu:
                        return t
                    raw = t.permute(0, 2, 3, 1) if layout == "NHWC" else t    # the memory order
                    a = raw.contiguous().view(torch.int16 if size == 2 else torch.int32).numpy()
                    assert a.ctypes.data == t.data_ptr()
                    a = a.view(npdt)
                    return a.transpose(0, 3, 1, 2) if layout == "NHWC" else a

                x, y, dy, dx = ours(tx), ours(ty), ours(tdy), ours(tdx)
                flags = {"-a": 1, "-m": 1, "-L": layout}
                name = f"softmax{'_' + suffix if suffix else '_fp32'}_{layout.lower()}"
                b.row(f"{name}_fwd", shape, 2 * size * n,
                      lambda: mi.softmaxForward_V2(b.h, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE,
                                                   mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
                      lambda: torch.softmax(tx, dim=1), "softmax" + suffix, dict(flags, **{"-F": 1}))
                tyr = torch.softmax(tx, dim=1)
                b.row(f"{name}_bwd", shape, 3 * size * n,
                      lambda: mi.softmaxBackward_V2(b.h, 1.0, d, y, d, dy, 0.0, d, dx,
                                                    mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
                      lambda: torch._softmax_backward_data(tdy, tyr, 1, tyr.dtype), "softmax" + suffix,
                      dict(flags, **{"-F": 2}))


def per_call_us(fn, sync, calls=2000, repeat=7):
    """Host time per call of `calls` back-to-back calls without synchronisation (on a GPU the launch
    is asynchronous, so this is the host cost), min of `repeat`."""
    for _ in range(100):
        fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
        sync()
    return best


def bench_overhead(b):
    """Per-call host cost on a tiny tensor: our call with our buffers, with PyTorch tensors (the
    data_ptr fast path) and PyTorch's own call (summary lines, not rows)."""
    shape = (1, 1, 1, 4)
    d = desc(shape)
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, mi.miopenActivationRELU, 1.0, 1.0, 1.0)
    x, y = b.array(shape), b.empty(shape)
    tx, ty = b.tensor(shape), torch.empty(shape, device=b.dev.torch)
    tx_, ty_ = (tx, ty) if b.dev.gpu else (tx.numpy(), ty.numpy())
    for name, fn in [("DeviceBuffer" if b.dev.gpu else "NumPy arrays",
                      lambda: mi.activationForward(b.h, ad, 1.0, d, x, 0.0, d, y)),
                     ("torch tensors", lambda: mi.activationForward(b.h, ad, 1.0, d, tx_, 0.0, d, ty_)),
                     ("PyTorch's clamp_min(out=)", lambda: torch.clamp_min(tx, 0.0, out=ty))]:
        b.rep.say(f"per-call host cost, activationForward {shape} with {name}: {per_call_us(fn, b.dev.sync):.2f} us "
                  "(min of 7 x 2000 calls, no sync)")


def bench_fusion(b):
    """Fusion plans (issue 19) beside the same ops called one by one and PyTorch eager: conv + bias
    + ReLU (a ResNet-50 3x3 layer), batch-norm inference + ReLU, batch-norm training + ReLU and its
    backward (batch-norm backward + ReLU backward). Rows *_fused run the plan,
    *_separate our separate calls; both against PyTorch's conv2d(bias) + relu / batch_norm + relu,
    so fused over separate is the ratio of the two rows' ratios."""
    shape = b.shape((4, 64, 56, 56), (32, 64, 56, 56))
    n, c, hh, ww = shape
    k = 64
    xd, wd, yd, bd = desc(shape), desc((k, c, 3, 3)), desc((n, k, hh, ww)), desc((1, k, 1, 1))
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    x, w, bias, y = b.array(shape), b.array((k, c, 3, 3)), b.array((k,)), b.empty((n, k, hh, ww))
    tx, tw, tb = b.tensor(shape), b.tensor((k, c, 3, 3)), b.tensor((k,))
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    mi.setOpArgsConvForward(args, mi.createOpConvForward(plan, cd, wd), 1.0, 0.0, w)
    mi.setOpArgsBiasForward(args, mi.createOpBiasForward(plan, bd), 1.0, 0.0, bias)
    mi.setOpArgsActivForward(args, mi.createOpActivationForward(plan, mi.miopenActivationRELU), 1.0, 0.0,
                             0.0, 0.0, 0.0)
    mi.compileFusionPlan(b.h, plan)
    algo = mi.fusionPlanConvolutionGetAlgo(plan, 1)[0]
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, mi.miopenActivationRELU, 0.0, 0.0, 0.0)

    def separate():
        mi.convolutionForward(b.h, 1.0, xd, x, wd, w, cd, algo, 0.0, yd, y, None, 0)
        mi.convolutionForwardBias(b.h, 1.0, bd, bias, 0.0, yd, y)
        mi.activationForward(b.h, ad, 1.0, yd, y, 0.0, yd, y)

    nbytes = 4 * (int(np.prod(shape)) + n * k * hh * ww)
    peer = lambda: F.relu(F.conv2d(tx, tw, tb, 1, 1))
    flags = {"-k": k, "-y": 3, "-x": 3, "-p": 1, "-q": 1, "-F": 4}
    b.row("cba_fused", shape, nbytes, lambda: mi.executeFusionPlan(b.h, plan, xd, x, yd, y, args), peer,
          "CBAInfer", flags)
    b.row("cba_separate", shape, nbytes, separate, peer, "CBAInfer", flags)
    # batch-norm inference + ReLU on the same tensor
    pd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(pd, xd, mi.miopenBNSpatial)
    scale, bb, mean, var = b.array((c,)), b.array((c,)), b.array((c,)), b.array((c,), positive=True)
    tw2, tb2, tm, tv = b.tensor((c,)), b.tensor((c,)), b.tensor((c,)), b.tensor((c,), positive=True)
    bplan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    bargs = mi.createOperatorArgs()
    mi.setOpArgsBatchNormInference(bargs, mi.createOpBatchNormInference(bplan, mi.miopenBNSpatial, pd), 1.0, 0.0,
                                   scale, bb, mean, var, 1e-5)
    mi.setOpArgsActivForward(bargs, mi.createOpActivationForward(bplan, mi.miopenActivationRELU), 1.0, 0.0,
                             0.0, 0.0, 0.0)
    mi.compileFusionPlan(b.h, bplan)
    xbn = b.empty(shape)

    def bn_separate():
        mi.batchNormalizationForwardInference(b.h, mi.miopenBNSpatial, 1.0, 0.0, xd, x, xd, xbn, pd, scale, bb,
                                              mean, var, 1e-5)
        mi.activationForward(b.h, ad, 1.0, xd, xbn, 0.0, xd, xbn)

    bn_peer = lambda: F.relu(F.batch_norm(tx, tm, tv, tw2, tb2, training=False, eps=1e-5))
    nb = 8 * int(np.prod(shape))
    b.row("bn_relu_fused", shape, nb, lambda: mi.executeFusionPlan(b.h, bplan, xd, x, xd, xbn, bargs), bn_peer,
          "CBAInfer", {"-F": 2, "-M": 1, "-m": 3})
    b.row("bn_relu_separate", shape, nb, bn_separate, bn_peer, "CBAInfer", {"-F": 2, "-M": 1, "-m": 3})
    # batch-norm training + ReLU (BnFwdTrgActivationFused: the activation where the training
    # kernels store y) and its backward (BnBwdTrgActivationFused: dy' = relu'(bn(x)) * dy on the
    # fly in the backward kernels); separate: the same ops one by one (the backward: bn(x)
    # recomputed by an inference call, the activation's backward, the batch norm's backward).
    rmean, rvar = b.array((c,)), b.array((c,), positive=True)
    smean, sinv = b.empty((c,)), b.empty((c,))
    tplan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    targs = mi.createOperatorArgs()
    mi.setOpArgsBatchNormForward(targs, mi.createOpBatchNormForward(tplan, mi.miopenBNSpatial, True), 1.0, 0.0,
                                 scale, bb, smean, sinv, rmean, rvar, 0.1, 1e-5)
    mi.setOpArgsActivForward(targs, mi.createOpActivationForward(tplan, mi.miopenActivationRELU), 1.0, 0.0,
                             0.0, 0.0, 0.0)
    mi.compileFusionPlan(b.h, tplan)

    def train_separate():
        mi.batchNormalizationForwardTraining(b.h, mi.miopenBNSpatial, 1.0, 0.0, xd, x, xd, xbn, pd, scale, bb, 0.1,
                                             rmean, rvar, 1e-5, smean, sinv)
        mi.activationForward(b.h, ad, 1.0, xd, xbn, 0.0, xd, xbn)

    trm, trv = b.tensor((c,)), b.tensor((c,), positive=True)
    train_peer = lambda: F.relu(F.batch_norm(tx, trm, trv, tw2, tb2, training=True, momentum=0.1, eps=1e-5))
    train_flags = {"-m": 1, "-F": 1, "-r": 1, "-s": 1}
    b.row("bn_train_relu_fused", shape, nb, lambda: mi.executeFusionPlan(b.h, tplan, xd, x, xd, xbn, targs),
          train_peer, "bnorm", train_flags)
    b.row("bn_train_relu_separate", shape, nb, train_separate, train_peer, "bnorm", train_flags)
    train_separate()    # saved statistics for the backward
    dy, dx = b.array(shape), b.empty(shape)
    dscale, dbias = b.empty((c,)), b.empty((c,))
    bwplan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    bwargs = mi.createOperatorArgs()
    mi.setOpArgsBatchNormBackward(bwargs, mi.createOpBatchNormBackward(bwplan, mi.miopenBNSpatial), 1.0, 0.0, x,
                                  scale, bb, dscale, dbias, smean, sinv)
    mi.setOpArgsActivBackward(bwargs, mi.createOpActivationBackward(bwplan, mi.miopenActivationRELU), 1.0, 0.0,
                              None, None, 0.0, 0.0, 0.0)
    mi.compileFusionPlan(b.h, bwplan)
    ubuf, gbuf = b.empty(shape), b.empty(shape)
    # bn(x) by an inference call needs the variance: savedInvVariance^-2 (epsilon 0); ones here
    # (the timing does not depend on the values)
    var1 = b.array((c,), positive=True)

    def bwd_separate():
        mi.batchNormalizationForwardInference(b.h, mi.miopenBNSpatial, 1.0, 0.0, xd, x, xd, ubuf, pd, scale, bb,
                                              smean, var1, 0.0)
        mi.activationBackward(b.h, ad, 1.0, xd, ubuf, xd, dy, xd, ubuf, 0.0, xd, gbuf)
        mi.batchNormalizationBackward(b.h, mi.miopenBNSpatial, 1.0, 0.0, 1.0, 0.0, xd, x, xd, gbuf, xd, dx, pd,
                                      scale, dscale, dbias, 0.0, smean, sinv)

    txg, twg, tbg = tx.clone().requires_grad_(), tw2.clone().requires_grad_(), tb2.clone().requires_grad_()
    tyr = F.relu(F.batch_norm(txg, None, None, twg, tbg, training=True, eps=1e-5))
    tdy = torch.randn_like(tyr)
    bwd_peer = lambda: torch.autograd.grad(tyr, (txg, twg, tbg), tdy, retain_graph=True)
    bwd_flags = {"-m": 1, "-F": 0, "-b": 1, "-s": 1}
    b.row("bn_bwd_relu_fused", shape, 12 * int(np.prod(shape)),
          lambda: mi.executeFusionPlan(b.h, bwplan, xd, dy, xd, dx, bwargs), bwd_peer, "bnorm", bwd_flags)
    b.row("bn_bwd_relu_separate", shape, 12 * int(np.prod(shape)), bwd_separate, bwd_peer, "bnorm", bwd_flags)


def _nd_desc(shape, dt):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dt, len(shape), list(shape), None)
    return d


def bench_reduce(b):
    """miopenReduceTensor beside torch.sum / amax / linalg.vector_norm / argmax: rows (the
    reduced dims innermost), columns (the outer dim of an [N, C]: a column sum), everything, and
    per channel of an NCHW tensor (dims 0, 2, 3), in fp32 and fp16."""
    cases = [("rows", b.shape((256, 8192), (4096, 8192)), (1,)),
             ("cols", b.shape((8192, 256), (8192, 4096)), (0,)),
             ("all", b.shape((2 ** 21,), (2 ** 25,)), (0,)),
             ("nchw_c", b.shape((8, 64, 56, 56), (64, 64, 112, 112)), (0, 2, 3))]
    ops = [("sum", mi.MIOPEN_REDUCE_TENSOR_ADD, False, lambda t, d: torch.sum(t, dim=d, keepdim=True)),
           ("amax", mi.MIOPEN_REDUCE_TENSOR_MAX, False, lambda t, d: torch.amax(t, dim=d, keepdim=True)),
           ("norm2", mi.MIOPEN_REDUCE_TENSOR_NORM2, False,
            lambda t, d: torch.linalg.vector_norm(t, 2, dim=d, keepdim=True)),
           ("argmax", mi.MIOPEN_REDUCE_TENSOR_MAX, True, lambda t, d: torch.max(t, dim=d[0], keepdim=True))]
    for dt, tdt, suffix in ((mi.miopenFloat, torch.float32, ""), (mi.miopenHalf, torch.float16, "fp16")):
        for kind, shape, dims in cases:
            oshape = tuple(1 if i in dims else n for i, n in enumerate(shape))
            size = _nbytes_of(dt)
            n_in, n_out = int(np.prod(shape)), int(np.prod(oshape))
            tx = torch.randn(shape, device=b.dev.torch, dtype=tdt)
            ty = torch.empty(oshape, device=b.dev.torch, dtype=tdt)
            xd, yd = _nd_desc(shape, dt), _nd_desc(oshape, dt)
            for name, op, with_idx, peer in ops:
                if with_idx and len(dims) != 1:
                    continue
                rd = mi.ReduceTensorDescriptor()
                mi.setReduceTensorDescriptor(rd, op, mi.miopenFloat, mi.MIOPEN_NOT_PROPAGATE_NAN,
                                             int(with_idx), mi.MIOPEN_32BIT_INDICES)
                nws = mi.getReductionWorkspaceSize(b.h, rd, xd, yd)
                nind = mi.getReductionIndicesSize(b.h, rd, xd, yd)
                ws = b.empty(nbytes=nws) if nws else None
                ind = b.empty(nbytes=nind) if nind else None
                nbytes = n_in * size + n_out * size + nind
                t_ours, t_peer = b.dev.pair_ms(
                    lambda: mi.reduceTensor(b.h, rd, ind, nind, ws, nws, 1.0, xd, tx, 0.0, yd, ty),
                    lambda: peer(tx, dims), 3 if b.dev.gpu else 1)
                t_copy = b.dev.copy_ms(nbytes, 3 if b.dev.gpu else 1)
                flags = {"-D": ",".join(map(str, shape)), "-R": ",".join(map(str, dims)), "-O": int(op),
                         "-I": int(with_idx)}
                b.rep.add(op=f"reduce_{name}_{kind}" + (f"_{suffix}" if suffix else ""),
                          shape="x".join(map(str, shape)), nbytes=nbytes, ours_ms=t_ours, peer_ms=t_peer,
                          copy_ms=t_copy, ratio=t_peer / t_ours, ours_gbs=nbytes / t_ours / 1e6,
                          peer_gbs=nbytes / t_peer / 1e6, copy_gbs=nbytes / t_copy / 1e6,
                          of_copy=t_copy / t_ours,
                          driver=driver("reduce" + suffix, flags, b.dev.name, b.dev.repeat))


def bench_rnn(b):
    """LSTM and GRU, 2 layers, input = hidden, forward training and backward (data, then weights)
    beside torch nn.LSTM / nn.GRU (cuDNN on the GPU) with the same shapes, fp32 (and fp16 on the
    GPU); issue 22's sizes: large hidden 1024, batch 64, 128 steps; small hidden 256, batch 16,
    128 steps. Bytes: x, y and the weights once (a reference point only: these ops are
    GEMM-bound). On the GPU the large size runs the small case too (rows told apart by shape)."""
    shapes = [b.shape((128, 16, 256), (128, 64, 1024))]
    if b.dev.gpu and b.large:
        shapes.insert(0, (128, 16, 256))
    for T, B, H in shapes:
        _bench_rnn_shape(b, T, B, H)


def _bench_rnn_shape(b, T, B, H):
    """bench_rnn's rows for one shape (T steps, batch B, hidden = input H)."""
    L = 2
    types = [(mi.miopenFloat, torch.float32, np.float32, "")]
    if b.dev.gpu:
        types.append((mi.miopenHalf, torch.float16, np.float16, "fp16"))
    for dt, tt, npt, suffix in types:
        def arr(shape, npt=npt):
            a = (b.rng.standard_normal(shape) * 0.1).astype(npt)
            return mi.DeviceBuffer.from_numpy(b.h, a) if b.dev.gpu else a

        def empty(nbytes):
            return b.empty(nbytes=nbytes)
        size = np.dtype(npt).itemsize
        for mode, mname in ((mi.miopenLSTM, "lstm"), (mi.miopenGRU, "gru")):
            rnn = mi.RNNDescriptor()
            mi.setRNNDescriptor(rnn, H, L, mi.miopenRNNlinear, mi.miopenRNNunidirection, mode,
                                mi.miopenRNNwithBias, mi.miopenRNNdefault, dt)
            xd = [desc((B, H), dt) for _ in range(T)]
            wd = mi.TensorDescriptor()
            mi.getRNNParamsDescriptor(b.h, rnn, xd[0], wd, dt)
            nw = int(np.prod(wd.shape))
            ws_n = mi.getRNNWorkspaceSize(b.h, rnn, T, xd)
            rs_n = mi.getRNNTrainingReserveSize(b.h, rnn, T, xd)
            x, dy = arr((T * B, H)), arr((T * B, H))
            y, dx = empty(size * T * B * H), empty(size * T * B * H)
            if not b.dev.gpu:
                y, dx = np.empty((T * B, H), npt), np.empty((T * B, H), npt)
            w = arr((nw,))
            dw = empty(size * nw) if b.dev.gpu else np.empty(nw, npt)
            ws, rs = b.empty(nbytes=ws_n), b.empty(nbytes=rs_n)
            mod = (torch.nn.LSTM if mname == "lstm" else torch.nn.GRU)(H, H, L).to(
                b.dev.torch, tt)
            tx = torch.randn(T, B, H, device=b.dev.torch, dtype=tt, requires_grad=True)
            tout, _ = mod(tx)
            tdy = torch.randn_like(tout)
            params = [tx] + list(mod.parameters())

            def fwd(rnn=rnn, xd=xd, x=x, wd=wd, w=w, y=y, ws=ws, ws_n=ws_n, rs=rs, rs_n=rs_n):
                mi.RNNForwardTraining(b.h, rnn, T, xd, x, None, None, None, None, wd, w, xd, y,
                                      None, None, None, None, ws, ws_n, rs, rs_n)

            def bwd(rnn=rnn, xd=xd, x=x, y=y, dy=dy, dx=dx, wd=wd, w=w, dw=dw, ws=ws, ws_n=ws_n,
                    rs=rs, rs_n=rs_n):
                mi.RNNBackwardData(b.h, rnn, T, xd, y, xd, dy, None, None, None, None, wd, w,
                                   None, None, None, None, xd, dx, None, None, None, None, ws,
                                   ws_n, rs, rs_n)
                mi.RNNBackwardWeights(b.h, rnn, T, xd, x, None, None, xd, y, wd, dw, ws, ws_n,
                                      rs, rs_n)

            fwd()
            nbytes = size * (2 * T * B * H + nw)
            flags = {"-m": mname, "-k": T, "-n": B, "-W": H, "-H": H, "-l": L, "-b": 1}
            name = f"{mname}{'_' + suffix if suffix else ''}"
            b.row(f"{name}_fwd", (T, B, H), nbytes, fwd, lambda mod=mod, tx=tx: mod(tx),
                  "rnn" + suffix, {"-F": 1}, shape_flags=flags)
            b.row(f"{name}_bwd", (T, B, H), nbytes, bwd,
                  lambda tout=tout, params=params, tdy=tdy: torch.autograd.grad(
                      tout, params, tdy, retain_graph=True),
                  "rnn" + suffix, {"-F": 6}, shape_flags=flags)


GROUPS = {"elementwise": bench_elementwise, "elementwise16": bench_elementwise_16,
          "pooling": bench_pooling, "batchnorm": bench_batchnorm, "bntypes": bench_batchnorm_types,
          "lrn": bench_lrn, "softmax": bench_softmax, "softmax_types": bench_softmax_types,
          "overhead": bench_overhead, "fusion": bench_fusion, "dropout": bench_dropout,
          "rnn": bench_rnn}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_common_args(ap, repeat=10)
    ap.add_argument("--filter", default="", help="only the op groups whose name contains one of these")
    ap.add_argument("--size", default=None, choices=["small", "large"],
                    help="large (>= 100 MB, the GPU default) or small (the CPU default)")
    ap.add_argument("--inner", type=int, default=None,
                    help="GPU: back-to-back calls inside one pair of events (default 3); the host "
                         "time before the first launch is exposed once per timed run, so more "
                         "calls measure the kernels' steady state (both sides and the copy alike). "
                         "The CPU times one call at a time.")
    args = ap.parse_args(argv)
    args.inner = (args.inner or 3) if args.device == "gpu" else 1
    dev = Device(args)
    b = Bench(args, dev)
    for name, fn in GROUPS.items():
        if any(f in name for f in args.filter.split(",")):
            try:
                fn(b)
            except mi.MIOpenNotImplementedError as e:
                print(f"# {name}: not implemented on this device ({e})")
    if b.rep.rows:
        b.rep.say(f"geomean ratio {geomean(r['ratio'] for r in b.rep.rows):.2f} over {len(b.rep.rows)} rows; "
                  f"geomean of copy {geomean(r['of_copy'] for r in b.rep.rows):.2f}")
    return b.rep.finish()


GROUPS.update({"pooling_types": bench_pooling_types, "lrn_types": bench_lrn_types})
GROUPS["reduce"] = bench_reduce


def bench_ctc(b):
    """miopenCTCLoss (losses and gradients, log-softmax applied inside) beside PyTorch's
    log_softmax + F.ctc_loss + autograd backward on the same activations (cuDNN's CTC where
    PyTorch takes it: blank 0, every input of the full length, int32 targets on the host; else
    its own kernels). Labels of L = T / 4 classes drawn from 1 .. C - 1. Bytes: the activations
    read and the gradients written once."""
    cases = [("speech", b.shape(100, 500), b.shape(8, 32), 29, b.shape(25, 100)),
             ("vocab", b.shape(50, 200), b.shape(8, 64), b.shape(500, 5000), b.shape(12, 50))]
    for name, T, N, C, L in cases:
        rng = np.random.default_rng(0)
        labels = rng.integers(1, C, N * L).astype(np.int32)
        ll = np.full(N, L, np.int32)
        il = np.full(N, T, np.int32)
        shape = (T, N, C)
        tx = torch.randn(shape, device=b.dev.torch)
        tg = torch.empty_like(tx)
        tl = torch.empty(N, device=b.dev.torch)
        x, g, losses = (t if b.dev.gpu else t.numpy() for t in (tx, tg, tl))
        pd = desc(shape, mi.miopenFloat)
        cd = mi.CTCLossDescriptor()
        mi.setCTCLossDescriptor(cd, mi.miopenFloat, 0, True)
        nws = mi.getCTCLossWorkspaceSize(b.h, pd, pd, labels, ll, il, 0, cd)
        ws = b.empty(nbytes=nws)
        targets = torch.from_numpy(labels)
        til, tll = torch.from_numpy(il), torch.from_numpy(ll)

        def peer():
            xr = tx.detach().requires_grad_()
            loss = F.ctc_loss(F.log_softmax(xr, 2), targets, til, tll, blank=0, reduction="none")
            return torch.autograd.grad(loss.sum(), xr)

        b.row(f"ctc_{name}", shape, 2 * 4 * T * N * C + 4 * N,
              lambda: mi.CTCLoss(b.h, pd, x, labels, ll, il, losses, pd, g, 0, cd, ws, nws),
              peer, "ctc", {"-m": 1, "-b": 0},
              shape_flags={"-n": N, "-c": C - 1, "-k": T, "-l": L})


GROUPS["ctc"] = bench_ctc


if __name__ == "__main__":
    sys.exit(main())
