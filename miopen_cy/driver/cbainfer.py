"""CBAInfer: MIOpenDriver's fused inference of convolution, bias, batch norm and activation
(-F: 0 cbna, 1 cna, 2 na, 3 cn, 4 cba, 5 ca, 6 cb), through a fusion plan, in fp32 (CBAInfer),
fp16 (CBAInferfp16) or bf16 (CBAInferbfp16, ours beyond MIOpen); verified against the same ops run
one by one (the unfused reference)."""
import numpy as np

import miopen_cy as mi
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, tolerance
from .flags import UsageError, check_iters, layout_flag, parse_flags, table
from .layer import open_layer, run_direction
from .report import EXIT_OK, EXIT_VERIFY_FAILED

CBA_FLAGS = table("""
batchsize=32 in_channels in_h in_w
out_channels  k  32      int    Number of Output Channels (Default=32)
group_count   g  1       int    Number of groups in convolution (Default=1)
fil_h         y  3       int    Filter Height (Default=3)
fil_w         x  3       int    Filter Width (Default=3)
conv_stride_h u  1       int    Convolution Stride Vertical (Default=1)
conv_stride_w v  1       int    Convolution Stride Horizontal (Default=1)
pad_h         p  0       int    Zero Padding Height (Default=0)
pad_w         q  0       int    Zero Padding Width (Default=0)
pad_val       r  0       int    Padding Value (Default=0; only 0)
alpha         A  1.0     float  Activation alpha (Default=1.0)
beta          B  0.0     float  Activation beta (Default=0.)
gamma         G  1.0     float  Activation gamma (Default=1)
iter=1 verify time
activMode     m  3       int    Activation Mode (relu,..., see spec) (Default=3(relu))
bnMode        M  0       int    Normalization Mode (per-activation (0) or spatial (1)) (Default=0)
wall
dilation_h    l  1       int    Dilation of Filter Height (Default=1)
dilation_w    j  1       int    Dilation of Filter Width (Default=1)
pad_mode      z  'conv'  str    Padding Mode (only conv, the default) (Default=conv)
fusion_mode   F  0       int    Fusion mode (cbna = 0, cna = 1, na = 2, cn = 3, cba = 4, ca = 5, cb = 6) (Default=cbna)
dot_graph     D  ''      str    Not supported (MIOpen's fusion metadata graph)
layout        L  ''      str    miopen_cy: tensor layout NCHW or NHWC (Default=NCHW)
""")

MODES = {0: "Convolution+Bias+BatchNorm+Activation", 1: "Convolution+BatchNorm+Activation",
         2: "BatchNorm+Activation", 3: "Convolution+BatchNorm", 4: "Convolution+Bias+Activation",
         5: "Convolution+Activation", 6: "Convolution+Bias"}
BN_EPS = 1e-5


def cmd_cbainfer(args, report, dtype=FP32, name="CBAInfer"):
    o, _ = parse_flags(name, CBA_FLAGS, args)
    info = check_iters(o)
    fm = o["fusion_mode"]
    if fm not in MODES:
        raise UsageError(f"-F {fm}: fusion modes are 0..6 ({', '.join(f'{k} {v}' for k, v in MODES.items())})")
    if o["bnMode"] not in (0, 1):
        raise UsageError(f"-M {o['bnMode']}: per-activation (0) or spatial (1)")
    if not 0 <= o["activMode"] <= 9:
        raise UsageError(f"-m {o['activMode']}: activation modes are 0..9")
    if o["pad_mode"] != "conv" or o["pad_val"] != 0:
        raise UsageError("-z / -r: only the default padding (conv, value 0) is supported")
    if o["dot_graph"]:
        raise UsageError("-D: the fusion metadata graph is not supported")
    has_conv, has_bias = fm != 2, fm in (0, 4, 6)
    has_bn, has_act = fm in (0, 1, 2, 3), fm in (0, 1, 2, 4, 5)
    layout = layout_flag(o)
    xlens, _, device = open_layer(o, report, info)
    h = device.handle
    rng = data_rng()
    x = HostTensor(xlens, layout=layout, dtype=dtype)
    x.set(dtype.store(2.0 * rng.random(xlens) - 1.0))
    xd = x.desc()
    ylens = list(xlens)
    if has_conv:
        g = o["group_count"]
        if g < 1 or xlens[1] % g or o["out_channels"] % g:
            raise UsageError(f"-g {g}: must divide -c {xlens[1]} and -k {o['out_channels']}")
        wlens = [o["out_channels"], xlens[1] // g, o["fil_h"], o["fil_w"]]
        w = HostTensor(wlens, layout=layout, dtype=dtype)
        w.set(dtype.store(rng.random(wlens) - 0.5))
        wd = w.desc()
        cd = mi.ConvolutionDescriptor()
        mi.initConvolutionDescriptor(cd, mi.miopenConvolution, o["pad_h"], o["pad_w"], o["conv_stride_h"],
                                     o["conv_stride_w"], o["dilation_h"], o["dilation_w"])
        if g > 1:
            mi.setConvolutionGroupCount(cd, g)
        ylens = list(mi.getConvolutionForwardOutputDim(cd, xd, wd))
    y = HostTensor(ylens, layout=layout, dtype=dtype)
    yd = y.desc()
    report.record.update(subcommand="CBAInfer", device=h.device, problem={
        "x": list(xlens), "y": ylens, "layout": layout, "type": dtype.name, "fusion_mode": fm,
        "fusion": MODES[fm], "activ_mode": o["activMode"], "bn_mode": o["bnMode"]})
    report.say(MODES[fm])
    bx, by = device.put(x), device.put(y)
    plan = library_call("createFusionPlan")(mi.miopenVerticalFusion, xd)
    args_ = mi.createOperatorArgs()
    unfused = []                       # the same ops one by one, on the reference output
    yr = HostTensor(ylens, layout=layout, dtype=dtype)
    byr = device.put(yr)
    if has_conv:
        bw = device.put(w)
        op = mi.createOpConvForward(plan, cd, wd)
        mi.setOpArgsConvForward(args_, op, 1.0, 0.0, bw)
        algo = mi.fusionPlanConvolutionGetAlgo(plan, 1)[0]
        unfused.append(lambda: mi.convolutionForward(h, 1.0, xd, bx, wd, bw, cd, algo, 0.0, yd, byr, None, 0))
    else:
        unfused.append(lambda: mi.transformTensor(h, 1.0, xd, bx, 0.0, yd, byr))
    if has_bias:
        b = HostTensor([1, ylens[1], 1, 1], dtype=dtype)
        b.set(dtype.store(rng.random(b.lens) - 0.5))
        bd, bb = b.desc(), device.put(b)
        op = mi.createOpBiasForward(plan, bd)
        mi.setOpArgsBiasForward(args_, op, 1.0, 0.0, bb)
        unfused.append(lambda: mi.convolutionForwardBias(h, 1.0, bd, bb, 0.0, yd, byr))
    if has_bn:
        pd = mi.TensorDescriptor()
        mi.deriveBNTensorDescriptor(pd, yd, o["bnMode"])
        plens = list(pd.shape)
        ps = [HostTensor(plens) for _ in range(4)]
        for t, (lo, hi) in zip(ps, ((0.5, 1.5), (-0.5, 0.5), (-0.5, 0.5), (0.5, 1.5))):
            t.set(lo + (hi - lo) * rng.random(plens))
        bps = [device.put(t) for t in ps]
        op = mi.createOpBatchNormInference(plan, o["bnMode"], pd)
        mi.setOpArgsBatchNormInference(args_, op, 1.0, 0.0, *bps, BN_EPS)
        unfused.append(lambda: mi.batchNormalizationForwardInference(
            h, o["bnMode"], 1.0, 0.0, yd, byr, yd, byr, pd, *bps, BN_EPS))
    if has_act:
        a, bb_, gg = o["alpha"], o["beta"], o["gamma"]
        op = mi.createOpActivationForward(plan, o["activMode"])
        mi.setOpArgsActivForward(args_, op, 1.0, 0.0, a, bb_, gg)
        ad = mi.ActivationDescriptor()
        mi.setActivationDescriptor(ad, o["activMode"], a, bb_, gg)
        unfused.append(lambda: mi.activationForward(h, ad, 1.0, yd, byr, 0.0, yd, byr))
    mi.compileFusionPlan(h, plan)
    nbytes = int(np.prod(xlens)) * dtype.itemsize
    ybytes = int(np.prod(ylens)) * dtype.itemsize

    def reference():
        for call in unfused:
            call()
        return device.get(yr, byr).astype(np.float64)

    run_direction(report, o, device, "fwd", "Fusion Inference", "cba-fwd",
                  lambda: mi.executeFusionPlan(h, plan, xd, bx, yd, by, args_), (y, by),
                  nbytes, ybytes, reference, tolerance("CBAInfer", dtype, 1.5e-6))
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
