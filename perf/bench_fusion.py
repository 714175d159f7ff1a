"""Fusion plans (issue 19) beside the same ops called one by one and PyTorch eager, in one process.

Table fusion-conv: conv + bias + ReLU on ResNet-50 layers (the 1x1 and 3x3 layers of each stage)
at batch 32 on the GPU (4 on the CPU) in fp16 NHWC and fp32 NCHW (--types). Per layer: the fused
plan (miopenExecuteFusionPlan), the sum of our three separate calls (convolutionForward,
convolutionForwardBias, activationForward) with the plan's algorithm, and PyTorch eager
F.relu(F.conv2d(x, w, b)) in the same type and memory format (cuDNN with TF32 off on the GPU).
`fused x` is separate / fused (> 1: fusing pays), `vs peer` PyTorch / fused (> 1: we are faster);
`conv ms` our convolution alone (the plan's algorithm) and `ceiling` separate / conv, the most that
fusing the epilogue can give (all of the bias and activation calls' time saved). On the CPU every
side of a row is timed round robin (Device.round_ms), so that the cache state (PyTorch allocates
its output each call, evicting the last-level cache) and other processes' load hit all alike.
Find runs first (its find-db record guides both sides' solver choice); the plan then picks its
own algorithm at compile (on the GPU preferring a solver that carries the epilogue in its kernel,
the plan providing any workspace that solver needs), and the separate calls run that algorithm
(`algo`) with the workspace Find asked for, as a user's three calls would.

Table fusion-bn: batch-norm inference + ReLU as one plan on tensors of 100 MB or more (fp32 and
fp16, NCHW and NHWC) against the bandwidth of a device copy that moves the same bytes (x read, y
written), beside the two separate calls and PyTorch's batch_norm + relu. GPU only unless --bn.

    python perf/bench_fusion.py [--device cpu|gpu] [--batch N] [--types fp16-nhwc,fp32-nchw]
        [--filter SUBSTRING] [--no-conv] [--bn] [--inner N]
        [--repeat N] [--stat median|min] [--threads N] [--reproduce] [--out DIR] [--results RESULTS.md]

No timing is asserted anywhere; the tests of the fused results are tests/fusion/.
"""
import argparse
import os
import sys
import tempfile

import common  # first: it sets OMP_NUM_THREADS for --threads before an OpenMP runtime loads
from common import RESNET50, Device, Report, add_common_args, driver, geomean, layer_name

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from bench_conv import DTYPES, Layer, tensor_desc

# The 1x1 and 3x3 layers of each stage (indices into common.RESNET50).
LAYERS = [1, 2, 3, 5, 9, 10, 11, 15, 16, 17, 21, 22]
# On the CPU at batch 4: a few layers.
CPU_LAYERS = [2, 9, 10, 16]

CONV_COLUMNS = [("type", "type", "{:<10}"), ("layer", "layer", "{:<36}"),
                ("fused_ms", "fused ms", "{:>9.4f}"), ("separate_ms", "separate ms", "{:>11.4f}"),
                ("conv_ms", "conv ms", "{:>9.4f}"), ("peer_ms", "peer ms", "{:>9.4f}"),
                ("fused_x", "fused x", "{:>7.2f}"), ("ceiling", "ceiling", "{:>7.2f}"),
                ("ratio", "vs peer", "{:>7.2f}"), ("err", "err f64", "{:>7.0e}"),
                ("algo", "algo", "{:<36}")]
BN_COLUMNS = [("type", "type", "{:<10}"), ("shape", "shape", "{:<18}"),
              ("fused_ms", "fused ms", "{:>9.4f}"), ("separate_ms", "separate ms", "{:>11.4f}"),
              ("peer_ms", "peer ms", "{:>9.4f}"), ("fused_x", "fused x", "{:>7.2f}"),
              ("ratio", "vs peer", "{:>7.2f}"), ("ours_gbs", "GB/s", "{:>8.1f}"),
              ("copy_gbs", "copy GB/s", "{:>9.1f}"), ("of_copy", "of copy", "{:>7.2f}")]


def ours_of(t, dev):
    """What our calls take for torch tensor t: the tensor itself on the GPU, a NumPy view on the
    CPU (fp32; 16-bit tensors go through DLPack as bench_conv does)."""
    if dev.gpu or t.dtype != torch.float32:
        return t
    return t.numpy()


def conv_rows(args, dev, h, rep, dtype, layout, layers, n):
    mtype, ttype, _, suffix = DTYPES[dtype]
    relu = mi.ActivationDescriptor()
    mi.setActivationDescriptor(relu, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
    fused_x, vs_peer = [], []
    for idx in layers:
        layer = RESNET50[idx]
        c, hh, ww, k, r, s, st, p, g = layer
        name = layer_name(n, *layer)
        if args.filter and args.filter not in name:
            continue
        L = Layer(h, dev, n, layer, dtype, layout)
        tb = torch.from_numpy(np.random.default_rng(1).standard_normal(k).astype(np.float32)).to(ttype).to(dev.torch)
        bd = mi.TensorDescriptor()
        mi.setTensorDescriptor(bd, mtype, 4, [1, k, 1, 1], None)
        x, w, y, bias = (ours_of(t, dev) for t in (L.tx, L.tw, L.y, tb))
        try:
            # Find with the workspace it asks for (the find-db record); the plan's compile picks
            # its algorithm, which the separate calls then run with that workspace.
            wsz = mi.convolutionForwardGetWorkSpaceSize(h, L.wd, L.xd, L.cd, L.yd)
            ws = L.alloc(wsz)
            mi.findConvolutionForwardAlgorithm(h, L.xd, x, L.wd, w, L.cd, L.yd, y, 5, ws, wsz, False)
            plan = mi.createFusionPlan(mi.miopenVerticalFusion, L.xd)
            fargs = mi.createOperatorArgs()
            mi.setOpArgsConvForward(fargs, mi.createOpConvForward(plan, L.cd, L.wd), 1.0, 0.0, w)
            mi.setOpArgsBiasForward(fargs, mi.createOpBiasForward(plan, bd), 1.0, 0.0, bias)
            mi.setOpArgsActivForward(fargs, mi.createOpActivationForward(plan, mi.miopenActivationRELU),
                                     1.0, 0.0, 0.0, 0.0, 0.0)
            mi.compileFusionPlan(h, plan)
            algo = mi.fusionPlanConvolutionGetAlgo(plan, 1)[0]
        except mi.MIOpenError as e:
            print(f"# {dtype}-{layout} {name}: n/a ({str(e)[-100:]})")
            continue

        def fused():
            mi.executeFusionPlan(h, plan, L.xd, x, L.yd, y, fargs)

        def separate():
            mi.convolutionForward(h, 1.0, L.xd, x, L.wd, w, L.cd, algo, 0.0, L.yd, y, ws, wsz)
            mi.convolutionForwardBias(h, 1.0, bd, bias, 0.0, L.yd, y)
            mi.activationForward(h, relu, 1.0, L.yd, y, 0.0, L.yd, y)

        tb1 = tb.reshape(k)
        peer = lambda: F.relu(F.conv2d(L.tx, L.tw, tb1, stride=st, padding=p, groups=g))
        def conv_alone():
            mi.convolutionForward(h, 1.0, L.xd, x, L.wd, w, L.cd, algo, 0.0, L.yd, y, ws, wsz)

        t_fused, t_sep, t_conv, t_peer = dev.round_ms(fused, separate, conv_alone, peer, inner=args.inner)
        fused()
        dev.sync()
        ref = F.relu(F.conv2d(L.tx.double(), L.tw.double(), tb1.double(), stride=st, padding=p, groups=g))
        got = torch.as_tensor(y).to(ref.device).double() if dev.gpu else torch.as_tensor(np.asarray(y)).double()
        err = float((got - ref).norm() / ref.norm())
        drv = driver("CBAInfer" + suffix, {"-n": n, "-c": c, "-H": hh, "-W": ww, "-k": k, "-y": r, "-x": s,
                                           "-p": p, "-q": p, "-u": st, "-v": st, "-F": 1,
                                           **({"-L": "NHWC"} if layout == "nhwc" else {})},
                     dev.name, dev.repeat)
        fused_x.append(t_sep / t_fused)
        vs_peer.append(t_peer / t_fused)
        rep.add(type=f"{dtype}-{layout}", layer=name, fused_ms=t_fused, separate_ms=t_sep, conv_ms=t_conv,
                peer_ms=t_peer, fused_x=t_sep / t_fused, ceiling=t_sep / t_conv, ratio=t_peer / t_fused, err=err,
                algo=mi.ConvFwdAlgorithm(algo).name,
                driver=drv, dtype=dtype, layout=layout)
    if fused_x:
        rep.say(f"{dtype} {layout}: fused over separate geomean {geomean(fused_x):.2f}x, "
                f"PyTorch over fused geomean {geomean(vs_peer):.2f}x ({len(fused_x)} layers)")


def bn_rows(args, dev, h, rep):
    relu = mi.ActivationDescriptor()
    mi.setActivationDescriptor(relu, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
    rng = np.random.default_rng(0)
    for dtype, shape in (("fp32", (32, 256, 56, 56)), ("fp16", (64, 256, 56, 56))):
        if not dev.gpu:
            shape = (4,) + shape[1:]
        mtype, ttype, _, _ = DTYPES[dtype]
        for layout in ("nchw", "nhwc"):
            fmt = torch.channels_last if layout == "nhwc" else torch.contiguous_format
            c = shape[1]
            tx = (torch.from_numpy(rng.standard_normal(shape).astype(np.float32)).to(ttype).to(dev.torch)
                  .contiguous(memory_format=fmt))
            ty, ty2 = torch.empty_like(tx), torch.empty_like(tx)
            xd = tensor_desc(tx, mtype)
            pd = mi.TensorDescriptor()
            mi.deriveBNTensorDescriptor(pd, xd, mi.miopenBNSpatial)
            params = [torch.from_numpy(a.astype(np.float32)).to(dev.torch) for a in
                      (rng.uniform(0.5, 1.5, c), rng.standard_normal(c), rng.standard_normal(c) * 0.1,
                       rng.uniform(0.5, 2.0, c))]
            scale, bias, mean, var = params
            ps = [ours_of(t.reshape(1, c, 1, 1), dev) for t in params]
            x, y, y2 = (ours_of(t, dev) for t in (tx, ty, ty2))
            plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
            fargs = mi.createOperatorArgs()
            mi.setOpArgsBatchNormInference(fargs, mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, pd),
                                           1.0, 0.0, *ps, 1e-5)
            mi.setOpArgsActivForward(fargs, mi.createOpActivationForward(plan, mi.miopenActivationRELU),
                                     1.0, 0.0, 0.0, 0.0, 0.0)
            mi.compileFusionPlan(h, plan)

            def fused():
                mi.executeFusionPlan(h, plan, xd, x, xd, y, fargs)

            def separate():
                mi.batchNormalizationForwardInference(h, mi.miopenBNSpatial, 1.0, 0.0, xd, x, xd, y2, pd, *ps,
                                                      1e-5)
                mi.activationForward(h, relu, 1.0, xd, y2, 0.0, xd, y2)

            peer = lambda: F.relu(F.batch_norm(tx, mean, var, scale, bias, training=False, eps=1e-5))
            try:
                peer()
            except RuntimeError:    # a PyTorch without mixed-type batch norm here: parameters in x's type
                pm, pv, pw, pb = (t.to(ttype) for t in (mean, var, scale, bias))
                peer = lambda: F.relu(F.batch_norm(tx, pm, pv, pw, pb, training=False, eps=1e-5))
            nbytes = 2 * tx.numel() * tx.element_size()
            inner = 3 if dev.gpu else 1
            t_fused, t_sep, t_peer, t_copy = dev.round_ms(fused, separate, peer, dev.copy_fn(nbytes), inner=inner)
            n, _, hh, ww = shape
            drv = driver("CBAInfer" + DTYPES[dtype][3], {"-n": n, "-c": c, "-H": hh, "-W": ww, "-F": 2, "-M": 1,
                                                         "-m": 3, **({"-L": "NHWC"} if layout == "nhwc" else {})},
                         dev.name, dev.repeat)
            rep.add(type=f"{dtype}-{layout}", shape="x".join(map(str, shape)), fused_ms=t_fused,
                    separate_ms=t_sep, peer_ms=t_peer, fused_x=t_sep / t_fused, ratio=t_peer / t_fused,
                    ours_gbs=nbytes / t_fused / 1e6, copy_gbs=nbytes / t_copy / 1e6, of_copy=t_copy / t_fused,
                    nbytes=nbytes, driver=drv)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap, repeat=5)
    ap.add_argument("--batch", type=int, default=None, help="batch of the conv layers (GPU 32, CPU 4)")
    ap.add_argument("--types", default=None,
                    help="comma-separated dtype-layout pairs (GPU default fp16-nhwc,fp32-nchw; CPU fp32-nchw)")
    ap.add_argument("--filter", default=None, help="only conv layers whose name contains this")
    ap.add_argument("--no-conv", action="store_true", help="skip the conv + bias + ReLU table")
    ap.add_argument("--bn", action="store_true", help="the batch-norm table on the CPU too")
    ap.add_argument("--inner", type=int, default=None,
                    help="back-to-back calls a timed run (GPU default 20, CPU 1)")
    args = ap.parse_args(argv)
    if args.inner is None:
        args.inner = 20 if args.device == "gpu" else 1
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp(prefix="bench_fusion_db_"))
    dev = Device(args)
    h = mi.Handle(device=dev.name)
    if not args.no_conv:
        n = args.batch or (32 if dev.gpu else 4)
        types = args.types or ("fp16-nhwc,fp32-nchw" if dev.gpu else "fp32-nchw")
        rep = Report(args, "fusion-conv", f"Fused conv + bias + ReLU, ResNet-50 layers at batch {n}",
                     CONV_COLUMNS, dev)
        for t in types.split(","):
            dtype, layout = t.split("-")
            conv_rows(args, dev, h, rep, dtype, layout, LAYERS if dev.gpu else CPU_LAYERS, n)
        rep.finish()
    if dev.gpu or args.bn:
        rep = Report(args, "fusion-bn", "Fused batch-norm inference + ReLU against copy bandwidth", BN_COLUMNS, dev)
        bn_rows(args, dev, h, rep)
        rep.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main())
