"""The fusion API on every device: each chain a plan fuses, in fp32, fp16 and bf16, NCHW and NHWC,
against the same ops run one by one and against float64 references (PyTorch's conv2d and
autograd, miopen_cy.reference); bad plans refused with a message naming the operator, before
anything is written; the object lifecycle; MIOpen's switches and MIOPEN_FIND_MODE_FUSION."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import activation as ref_act
from miopen_cy.reference import batchnorm as ref_bn
from support.buffers import desc, rel_l2
from support.dtypes import FLOAT_TYPES, as64, np_dtype, poison, random_stored

LAYOUTS = ["NCHW", "NHWC"]
ACT = (0.5, 1.5, 2.0)            # activAlpha, activBeta, activGamma for every mode
ALL_MODES = list(mi.ActivationMode)
TOL = {int(mi.miopenFloat): 1e-5, int(mi.miopenHalf): 4e-3, int(mi.miopenBFloat16): 3e-2}


def tol(dt):
    return TOL[int(dt)]


def tensor(shape, dt, layout, rng=None):
    """(descriptor, array) of a 4-d NCHW-lengths tensor in `layout`; random, else NaN-poisoned."""
    n, c, h, w = shape
    if layout == "NCHW":
        strides, arr_shape = None, shape
    else:
        strides, arr_shape = (h * w * c, 1, w * c, c), (n, h, w, c)
    d = desc(shape, strides, dt)
    a = random_stored(arr_shape, dt, rng) if rng is not None else poison(arr_shape, dt)
    return d, a


def nchw(a, layout):
    """The float64 NCHW view of an array stored in `layout`."""
    a = as64(a)
    return a if layout == "NCHW" else a.transpose(0, 3, 1, 2)


def conv_desc(pad=1, stride=1, groups=1):
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, pad, pad, stride, stride, 1, 1)
    if groups != 1:
        mi.setConvolutionGroupCount(cd, groups)
    return cd


def act_desc(mode):
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, mode, *ACT)
    return ad


def fp32(shape, rng, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


# ---- convolution chains ----

class ConvCase:
    def __init__(self, dt, layout, rng, n=2, c=6, hw=7, k=8, r=3, pad=1, stride=1, groups=1):
        self.dt, self.layout, self.pad, self.stride, self.groups = dt, layout, pad, stride, groups
        self.xd, self.x = tensor((n, c, hw, hw), dt, layout, rng)
        self.wd, self.w = tensor((k, c // groups, r, r), dt, layout, rng)
        self.cd = conv_desc(pad, stride, groups)
        ho = (hw + 2 * pad - r) // stride + 1
        self.yshape = (n, k, ho, ho)
        self.bd = desc((1, k, 1, 1), None, dt)
        self.b = random_stored((1, k, 1, 1), dt, rng)

    def out(self):
        return tensor(self.yshape, self.dt, self.layout)

    def conv64(self):
        y = torch.nn.functional.conv2d(torch.from_numpy(nchw(self.x, self.layout)),
                                       torch.from_numpy(nchw(self.w, self.layout)), None, self.stride,
                                       self.pad, 1, self.groups)
        return y.numpy()


def build_conv_plan(case, chain, mode, rng):
    """A compiled plan of `chain` (a tuple of "bias", "bn", "act" after the convolution), its
    args, and the float64 reference and the op-by-op run (as callables)."""
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    args = mi.createOperatorArgs()
    conv = mi.createOpConvForward(plan, case.cd, case.wd)
    mi.setOpArgsConvForward(args, conv, 1.0, 0.0, case.w)
    k = case.yshape[1]
    bn = None
    if "bias" in chain:
        op = mi.createOpBiasForward(plan, case.bd)
        mi.setOpArgsBiasForward(args, op, 1.0, 0.0, case.b)
    if "bn" in chain:
        pd = desc((1, k, 1, 1))
        bn = (pd, fp32((1, k, 1, 1), rng, 0.5, 1.5), fp32((1, k, 1, 1), rng),
              fp32((1, k, 1, 1), rng, -0.5, 0.5), fp32((1, k, 1, 1), rng, 0.5, 2.0), 1e-5)
        op = mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, pd)
        mi.setOpArgsBatchNormInference(args, op, 1.0, 0.0, *bn[1:])
    if "act" in chain:
        op = mi.createOpActivationForward(plan, mode)
        mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)

    def reference():
        y = case.conv64()
        if "bias" in chain:
            y = y + as64(case.b)
        if "bn" in chain:
            y = ref_bn.forward(y, bn[1], bn[2], bn[3], bn[4], bn[5])
        if "act" in chain:
            y = ref_act.forward(int(mode), *ACT, y)
        return y

    def one_by_one(h, algo):
        yd, y = case.out()
        # The workspace the convolution may need (the tensor-core solver splits small problems).
        wsz = mi.convolutionForwardGetWorkSpaceSize(h, case.wd, case.xd, case.cd, yd)
        ws = mi.DeviceBuffer(h, wsz) if wsz else None
        mi.convolutionForward(h, 1.0, case.xd, case.x, case.wd, case.w, case.cd, algo, 0.0, yd, y,
                              ws, wsz)
        if "bias" in chain:
            mi.convolutionForwardBias(h, 1.0, case.bd, case.b, 0.0, yd, y)
        if "bn" in chain:
            mi.batchNormalizationForwardInference(h, mi.miopenBNSpatial, 1.0, 0.0, yd, y, yd, y,
                                                  *bn)
        if "act" in chain:
            mi.activationForward(h, act_desc(mode), 1.0, yd, y, 0.0, yd, y)
        return y

    return plan, args, reference, one_by_one


CHAINS = [("bias", "act"), ("act",), ("bias",), (), ("bn", "act"), ("bias", "bn", "act")]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("chain", CHAINS, ids=lambda c: "conv-" + "-".join(c))
def test_conv_chain(handle, dt, layout, chain, rng):
    case = ConvCase(dt, layout, rng)
    plan, args, reference, one_by_one = build_conv_plan(case, chain, mi.miopenActivationRELU, rng)
    mi.compileFusionPlan(handle, plan)
    yd, y = case.out()
    mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert rel_l2(nchw(y, layout), reference()) <= tol(dt)
    algo = mi.fusionPlanConvolutionGetAlgo(plan, 5)[0]
    # Both devices fold the epilogue (one rounding before the activation; on the GPU in the
    # convolution kernel's store or one pass after it): within the type's tolerance of the ops
    # run one by one.
    assert rel_l2(as64(y), as64(one_by_one(handle, algo))) <= tol(dt)


def test_conv_chain_off_the_fast_layouts(handle, rng):
    """Per-activation batch norm and a strided y leave the CPU's one-pass epilogue: the chain then
    runs op by op, with the same results."""
    case = ConvCase(mi.miopenFloat, "NCHW", rng)
    k = case.yshape[1]
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    args = mi.createOperatorArgs()
    conv = mi.createOpConvForward(plan, case.cd, case.wd)
    mi.setOpArgsConvForward(args, conv, 1.0, 0.0, case.w)
    bias = mi.createOpBiasForward(plan, case.bd)
    mi.setOpArgsBiasForward(args, bias, 1.0, 0.0, case.b)
    ps = (1,) + case.yshape[1:]
    pd = desc(ps)
    bn = (fp32(ps, rng, 0.5, 1.5), fp32(ps, rng), fp32(ps, rng, -0.5, 0.5), fp32(ps, rng, 0.5, 2.0))
    op = mi.createOpBatchNormInference(plan, mi.miopenBNPerActivation, pd)
    mi.setOpArgsBatchNormInference(args, op, 1.0, 0.0, *bn, 1e-5)
    act = mi.createOpActivationForward(plan, mi.miopenActivationCLIPPEDRELU)
    mi.setOpArgsActivForward(args, act, 1.0, 0.0, *ACT)
    mi.compileFusionPlan(handle, plan)
    ref = ref_act.forward(int(mi.miopenActivationCLIPPEDRELU), *ACT,
                          ref_bn.forward(case.conv64() + as64(case.b), *bn, 1e-5))
    yd, y = case.out()
    mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert rel_l2(y, ref) <= 1e-5
    # A strided y (rows padded by 3 elements).
    n, _, ho, wo = case.yshape
    big = np.full((n, k, ho, wo + 3), np.nan, np.float32)
    sd = desc(case.yshape, (k * ho * (wo + 3), ho * (wo + 3), wo + 3, 1))
    mi.executeFusionPlan(handle, plan, case.xd, case.x, sd, big, args)
    assert rel_l2(big[..., :wo], ref) <= 1e-5 and np.all(np.isnan(big[..., wo:]))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.name)
def test_conv_bias_activation_every_mode(handle, mode, layout, rng):
    case = ConvCase(mi.miopenFloat, layout, rng, stride=2, hw=9)
    plan, args, reference, _ = build_conv_plan(case, ("bias", "act"), mode, rng)
    mi.compileFusionPlan(handle, plan)
    yd, y = case.out()
    mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert rel_l2(nchw(y, layout), reference()) <= 1e-5


def test_conv_grouped_and_alpha(handle, rng):
    case = ConvCase(mi.miopenFloat, "NCHW", rng, c=8, k=8, groups=2)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    args = mi.createOperatorArgs()
    conv = mi.createOpConvForward(plan, case.cd, case.wd)
    mi.setOpArgsConvForward(args, conv, 0.5, 0.0, case.w)
    bias = mi.createOpBiasForward(plan, case.bd)
    mi.setOpArgsBiasForward(args, bias, 1.0, 0.0, case.b)
    mi.compileFusionPlan(handle, plan)
    yd, y = case.out()
    mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert rel_l2(y, 0.5 * case.conv64() + as64(case.b)) <= 1e-5


@pytest.mark.parametrize("algo_index", [0, 1, 2])
def test_conv_set_algo(handle, algo_index, rng):
    case = ConvCase(mi.miopenFloat, "NCHW", rng)
    plan, args, reference, _ = build_conv_plan(case, ("bias", "act"), mi.miopenActivationRELU, rng)
    algos = mi.fusionPlanConvolutionGetAlgo(plan, 5)
    assert algos and all(isinstance(a, mi.ConvFwdAlgorithm) for a in algos)
    assert mi.fusionPlanConvolutionGetAlgo(plan, 1) == algos[:1]
    if algo_index >= len(algos):
        pytest.skip("fewer algorithms on this device")
    mi.fusionPlanConvolutionSetAlgo(plan, algos[algo_index])
    try:
        mi.compileFusionPlan(handle, plan)
    except mi.UnsupportedOpError as e:
        # getAlgo lists the CPU's algorithms (a plan has no device before compile).
        if handle.device == "cpu":
            raise
        assert "on this device" in str(e)
        pytest.skip(f"{algos[algo_index].name} has no solver on this GPU")
    assert mi.fusionPlanGetWorkSpaceSize(handle, plan, algos[algo_index]) == 0
    yd, y = case.out()
    mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert rel_l2(y, reference()) <= 1e-4


# ---- miopenConvolutionBiasActivationForward ----

@pytest.mark.parametrize("residual", [False, True], ids=["no-z", "z"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_conv_bias_activation_forward(handle, dt, layout, residual, rng):
    case = ConvCase(dt, layout, rng)
    zd, z = tensor(case.yshape, dt, layout, rng) if residual else (None, None)
    mode = mi.miopenActivationLEAKYRELU
    yd, y = case.out()
    mi.convolutionBiasActivationForward(handle, 0.75, case.xd, case.x, case.wd, case.w, case.cd,
                                        mi.fusionPlanConvolutionGetAlgo(
                                            _plan_of(case, handle), 1)[0],
                                        None, 0, 0.5, zd, z, case.bd, case.b, act_desc(mode), yd, y)
    pre = 0.75 * case.conv64() + as64(case.b)
    if residual:
        pre = pre + 0.5 * nchw(z, layout)
    assert rel_l2(nchw(y, layout), ref_act.forward(int(mode), *ACT, pre)) <= tol(dt)
    # The same ops one by one: conv (alpha1), OpTensor add of alpha2 * z, bias, activation.
    y2d, y2 = case.out()
    mi.convolutionForward(handle, 0.75, case.xd, case.x, case.wd, case.w, case.cd,
                          mi.fusionPlanConvolutionGetAlgo(_plan_of(case, handle), 1)[0], 0.0, y2d, y2,
                          None, 0)
    if residual:
        mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, y2d, y2, 0.5, zd, z, 0.0, y2d, y2)
    mi.convolutionForwardBias(handle, 1.0, case.bd, case.b, 0.0, y2d, y2)
    mi.activationForward(handle, act_desc(mode), 1.0, y2d, y2, 0.0, y2d, y2)
    assert rel_l2(as64(y), as64(y2)) <= tol(dt)


def _plan_of(case, handle):
    """A plan of the case's convolution alone, compiled on `handle` (getAlgo then lists that
    device's algorithms)."""
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    mi.createOpConvForward(plan, case.cd, case.wd)
    mi.compileFusionPlan(handle, plan)
    return plan


@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.name)
def test_conv_bias_activation_forward_every_mode(handle, mode, rng):
    case = ConvCase(mi.miopenFloat, "NHWC", rng)
    zd, z = tensor(case.yshape, mi.miopenFloat, "NHWC", rng)
    yd, y = case.out()
    mi.convolutionBiasActivationForward(handle, 1.0, case.xd, case.x, case.wd, case.w, case.cd,
                                        mi.miopenConvolutionFwdAlgoDirect, None, 0, 1.0, zd, z,
                                        case.bd, case.b, act_desc(mode), yd, y)
    pre = case.conv64() + as64(case.b) + nchw(z, "NHWC")
    assert rel_l2(nchw(y, "NHWC"), ref_act.forward(int(mode), *ACT, pre)) <= 1e-5


# ---- batch-norm chains ----

def bn_params(shape, mode, rng):
    ps = ref_bn.param_shape(int(mode), shape)
    pd = desc(ps)
    return pd, ps, (fp32(ps, rng, 0.5, 1.5), fp32(ps, rng))


BN_MODES = [pytest.param(mi.miopenBNSpatial, id="spatial"),
            pytest.param(mi.miopenBNPerActivation, id="per-activation")]


@pytest.mark.parametrize("mode", BN_MODES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("act", [mi.miopenActivationRELU, mi.miopenActivationTANH, None],
                         ids=["relu", "tanh", "no-act"])
def test_bn_inference_activation(handle, dt, layout, mode, act, rng):
    shape = (3, 8, 5, 5)
    xd, x = tensor(shape, dt, layout, rng)
    pd, ps, (scale, bias) = bn_params(shape, mode, rng)
    mean, var, eps = fp32(ps, rng, -0.5, 0.5), fp32(ps, rng, 0.5, 2.0), 1e-5
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormInference(plan, mode, pd)
    mi.setOpArgsBatchNormInference(args, bn, 1.0, 0.0, scale, bias, mean, var, eps)
    if act is not None:
        op = mi.createOpActivationForward(plan, act)
        mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
    mi.compileFusionPlan(handle, plan)
    yd, y = tensor(shape, dt, layout)
    mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    ref = ref_bn.forward(nchw(x, layout), scale, bias, mean, var, eps)
    if act is not None:
        ref = ref_act.forward(int(act), *ACT, ref)
    assert rel_l2(nchw(y, layout), ref) <= tol(dt)
    y2d, y2 = tensor(shape, dt, layout)
    mi.batchNormalizationForwardInference(handle, mode, 1.0, 0.0, xd, x, y2d, y2, pd, scale, bias,
                                          mean, var, eps)
    if act is not None:
        mi.activationForward(handle, act_desc(act), 1.0, y2d, y2, 0.0, y2d, y2)
    # The CPU folds the batch norm (one pass, one rounding before the activation).
    assert rel_l2(as64(y), as64(y2)) <= tol(dt)
    # In place (x is y): op by op, the same values.
    mi.executeFusionPlan(handle, plan, xd, x, xd, x, args)
    assert rel_l2(nchw(x, layout), ref) <= tol(dt)


@pytest.mark.parametrize("mode", BN_MODES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_bn_training_activation(handle, dt, layout, mode, rng):
    shape = (4, 6, 5, 5)
    xd, x = tensor(shape, dt, layout, rng)
    pd, ps, (scale, bias) = bn_params(shape, mode, rng)
    rm, rv = fp32(ps, rng), fp32(ps, rng, 0.5, 1.5)
    rm0, rv0 = rm.copy(), rv.copy()
    sm, siv = np.full(ps, np.nan, np.float32), np.full(ps, np.nan, np.float32)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormForward(plan, mode, True)
    mi.setOpArgsBatchNormForward(args, bn, 1.0, 0.0, scale, bias, sm, siv, rm, rv, 0.1, 1e-5)
    op = mi.createOpActivationForward(plan, mi.miopenActivationELU)
    mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
    mi.compileFusionPlan(handle, plan)
    yd, y = tensor(shape, dt, layout)
    mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    ry, rmean, rinv, nrm, nrv = ref_bn.forward_training(nchw(x, layout), int(mode), scale, bias,
                                                        1e-5, rm0, rv0, 0.1)
    assert rel_l2(nchw(y, layout), ref_act.forward(int(mi.miopenActivationELU), *ACT, ry)) <= tol(dt)
    assert rel_l2(sm, rmean) <= 1e-5 and rel_l2(siv, rinv) <= 1e-5
    assert rel_l2(rm, nrm) <= 1e-5 and rel_l2(rv, nrv) <= 1e-5


TORCH_ACT = {int(mi.miopenActivationRELU): torch.relu,
             int(mi.miopenActivationLOGISTIC): torch.sigmoid,
             int(mi.miopenActivationELU): lambda t: torch.nn.functional.elu(t, ACT[0])}


@pytest.mark.parametrize("mode", BN_MODES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("act", [mi.miopenActivationRELU, mi.miopenActivationLOGISTIC,
                                 mi.miopenActivationELU, None], ids=["relu", "logistic", "elu", "no-act"])
def test_bn_backward_activation(handle, dt, layout, mode, act, rng):
    shape = (4, 6, 5, 5)
    dyd, dy = tensor(shape, dt, layout, rng)
    _, x = tensor(shape, dt, layout, rng)
    pd, ps, (scale, bias) = bn_params(shape, mode, rng)
    x64 = nchw(x, layout)
    mean, var, _ = ref_bn.batch_stats(x64, int(mode))
    sm = np.ascontiguousarray(mean, np.float32)
    siv = np.ascontiguousarray(1.0 / np.sqrt(var + 1e-5), np.float32)
    ds, db = np.full(ps, np.nan, np.float32), np.full(ps, np.nan, np.float32)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, dyd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormBackward(plan, mode)
    mi.setOpArgsBatchNormBackward(args, bn, 1.0, 0.0, x, scale, bias, ds, db, sm, siv)
    if act is not None:
        op = mi.createOpActivationBackward(plan, act)
        mi.setOpArgsActivBackward(args, op, 1.0, 0.0, None, None, *ACT)
    mi.compileFusionPlan(handle, plan)
    dxd, dx = tensor(shape, dt, layout)
    mi.executeFusionPlan(handle, plan, dyd, dy, dxd, dx, args)
    # PyTorch float64 autograd through bn (with the saved statistics as functions of x) and f.
    xt = torch.from_numpy(x64.copy()).requires_grad_(True)
    st = torch.from_numpy(as64(scale)).requires_grad_(True)
    bt = torch.from_numpy(as64(bias)).requires_grad_(True)
    ax = ref_bn.axes(int(mode), 4)
    mu = xt.mean(dim=ax, keepdim=True)
    v = ((xt - mu) ** 2).mean(dim=ax, keepdim=True)
    out = st * (xt - mu) / torch.sqrt(v + 1e-5) + bt
    if act is not None:
        out = TORCH_ACT[int(act)](out)
    out.backward(torch.from_numpy(nchw(dy, layout)))
    assert rel_l2(nchw(dx, layout), xt.grad.numpy()) <= 10 * tol(dt)
    assert rel_l2(ds, st.grad.numpy()) <= 10 * tol(dt)
    assert rel_l2(db, bt.grad.numpy()) <= 10 * tol(dt)


# ---- bad plans: refused with the operator named, nothing written ----

def conv_plan(dt=mi.miopenFloat, rng=None):
    rng = rng or np.random.default_rng(0)
    case = ConvCase(dt, "NCHW", rng)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    return case, plan


def test_execute_before_compile(handle, rng):
    case = ConvCase(mi.miopenFloat, "NCHW", rng)
    plan, args, _, _ = build_conv_plan(case, ("bias", "act"), mi.miopenActivationRELU, rng)
    yd, y = case.out()
    with pytest.raises(mi.BadParmError, match="not been compiled"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert np.all(np.isnan(y))
    mi.compileFusionPlan(handle, plan)
    # A change after compile needs a new compile.
    op = mi.createOpActivationForward(plan, mi.miopenActivationRELU)
    mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
    with pytest.raises(mi.BadParmError, match="not been compiled"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert np.all(np.isnan(y))


@pytest.mark.parametrize("order, bad", [
    (("act", "conv"), "miopenFusionOpActivForward \\(op 0\\): cannot start a plan"),
    (("conv", "act", "bias"), "miopenFusionOpBiasForward \\(op 2\\): cannot follow"),
    (("conv", "bias", "bias"), "miopenFusionOpBiasForward \\(op 2\\): cannot follow"),
    (("conv", "conv"), "miopenFusionOpConvForward \\(op 1\\): cannot follow"),
    (("bn", "conv"), "miopenFusionOpConvForward \\(op 1\\): cannot follow"),
    (("bn", "act", "act"), "miopenFusionOpActivForward \\(op 2\\): cannot follow"),
    (("bn", "actbwd"), "miopenFusionOpActivBackward \\(op 1\\): cannot follow"),
    (("conv", "actbwd"), "miopenFusionOpActivBackward \\(op 1\\): cannot follow"),
    (("bias",), "miopenFusionOpBiasForward \\(op 0\\): cannot start a plan"),
    ((), "no operators"),
])
def test_compile_refuses_wrong_order(handle, order, bad, rng):
    xd, x = tensor((2, 8, 6, 6), mi.miopenFloat, "NCHW", rng)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    for name in order:
        if name == "conv":
            mi.createOpConvForward(plan, conv_desc(), desc((8, 8, 3, 3)))
        elif name == "act":
            mi.createOpActivationForward(plan, mi.miopenActivationRELU)
        elif name == "actbwd":
            mi.createOpActivationBackward(plan, mi.miopenActivationRELU)
        elif name == "bias":
            mi.createOpBiasForward(plan, desc((1, 8, 1, 1)))
        elif name == "bn":
            mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, desc((1, 8, 1, 1)))
    with pytest.raises(mi.UnsupportedOpError, match=bad) as e:
        mi.compileFusionPlan(handle, plan)
    assert e.value.status == mi.miopenStatusUnsupportedOp
    y = np.full(x.shape, np.nan, np.float32)
    with pytest.raises(mi.BadParmError, match="failed to compile: .*" + bad):
        mi.executeFusionPlan(handle, plan, xd, x, xd, y, args)
    assert np.all(np.isnan(y))


def test_mismatched_descriptors_refused_at_creation(rng):
    case, plan = conv_plan(rng=rng)
    with pytest.raises(mi.BadParmError, match="wDesc"):
        mi.createOpConvForward(plan, case.cd, desc((8, 6, 3, 3), None, mi.miopenHalf))
    with pytest.raises(mi.BadParmError, match="wDesc|channels|C"):
        mi.createOpConvForward(plan, case.cd, desc((8, 5, 3, 3)))
    mi.createOpConvForward(plan, case.cd, case.wd)
    with pytest.raises(mi.BadParmError, match="bDesc"):
        mi.createOpBiasForward(plan, desc((1, 6, 1, 1)))          # x's channels, not y's
    with pytest.raises(mi.BadParmError, match="bnScaleBiasMeanVarDesc"):
        mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, desc((1, 6, 1, 1)))
    with pytest.raises(mi.BadParmError, match="bn_mode"):
        mi.createOpBatchNormForward(plan, 7, False)
    with pytest.raises(mi.BadParmError, match="mode"):
        mi.createOpActivationForward(plan, 42)
    assert len(plan.ops) == 1                                      # nothing was added


def test_execute_checks_descriptors_and_args(handle, rng):
    case = ConvCase(mi.miopenFloat, "NCHW", rng)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    args = mi.createOperatorArgs()
    conv = mi.createOpConvForward(plan, case.cd, case.wd)
    bias = mi.createOpBiasForward(plan, case.bd)
    act = mi.createOpActivationForward(plan, mi.miopenActivationRELU)
    mi.compileFusionPlan(handle, plan)
    yd, y = case.out()
    mi.setOpArgsConvForward(args, conv, 1.0, 0.0, case.w)
    mi.setOpArgsActivForward(args, act, 1.0, 0.0, *ACT)
    with pytest.raises(mi.BadParmError,
                       match=r"no arguments for miopenFusionOpBiasForward \(op 1\).*miopenSetOpArgsBiasForward"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert np.all(np.isnan(y))
    mi.setOpArgsBiasForward(args, bias, 1.0, 0.0, None)
    with pytest.raises(mi.BadParmError, match=r"miopenFusionOpBiasForward \(op 1\): bias is a null"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert np.all(np.isnan(y))
    mi.setOpArgsBiasForward(args, bias, 2.0, 0.0, case.b)
    with pytest.raises(mi.BadParmError, match=r"miopenFusionOpBiasForward \(op 1\): alpha = 2"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    mi.setOpArgsBiasForward(args, bias, 1.0, 0.0, case.b)
    mi.setOpArgsConvForward(args, conv, 1.0, 1.0, case.w)
    with pytest.raises(mi.BadParmError, match="beta must be 0"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    mi.setOpArgsConvForward(args, conv, 1.0, 0.0, case.w)
    bad_yd, bad_y = tensor((2, 8, 6, 6), mi.miopenFloat, "NCHW")
    with pytest.raises(mi.BadParmError, match="outputDesc"):
        mi.executeFusionPlan(handle, plan, case.xd, case.x, bad_yd, bad_y, args)
    bad_xd = desc((2, 6, 7, 7), None, mi.miopenHalf)
    with pytest.raises(mi.BadParmError, match="inputDesc"):
        mi.executeFusionPlan(handle, plan, bad_xd, case.x.astype(np.float16), yd, y, args)
    assert np.all(np.isnan(y)) and np.all(np.isnan(bad_y))
    with pytest.raises(mi.BadParmError, match="biasOp is miopenFusionOpActivForward"):
        mi.setOpArgsBiasForward(args, act, 1.0, 0.0, case.b)
    with pytest.raises(mi.BadParmError, match="activAlpha"):
        bad = mi.createOperatorArgs()
        mi.setOpArgsConvForward(bad, conv, 1.0, 0.0, case.w)
        mi.setOpArgsBiasForward(bad, bias, 1.0, 0.0, case.b)
        mi.setOpArgsActivForward(bad, act, 1.0, 0.0, float("nan"), 0.0, 0.0)
        mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args=bad)
    assert np.all(np.isnan(y))
    mi.executeFusionPlan(handle, plan, case.xd, case.x, yd, y, args)
    assert np.all(np.isfinite(y))


def test_bn_training_needs_running_buffers(handle, rng):
    shape = (2, 4, 3, 3)
    xd, x = tensor(shape, mi.miopenFloat, "NCHW", rng)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    bn = mi.createOpBatchNormForward(plan, mi.miopenBNSpatial, True)
    mi.compileFusionPlan(handle, plan)
    args = mi.createOperatorArgs()
    p = np.ones((1, 4, 1, 1), np.float32)
    mi.setOpArgsBatchNormForward(args, bn, 1.0, 0.0, p, p, None, None, None, None, 0.1, 1e-5)
    yd, y = tensor(shape, mi.miopenFloat, "NCHW")
    with pytest.raises(mi.BadParmError, match="runningMean"):
        mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    assert np.all(np.isnan(y))


def test_bn_backward_needs_saved_statistics(handle, rng):
    shape = (2, 4, 3, 3)
    xd, x = tensor(shape, mi.miopenFloat, "NCHW", rng)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    bn = mi.createOpBatchNormBackward(plan, mi.miopenBNSpatial)
    mi.createOpActivationBackward(plan, mi.miopenActivationRELU)
    mi.compileFusionPlan(handle, plan)
    args = mi.createOperatorArgs()
    p = np.ones((1, 4, 1, 1), np.float32)
    mi.setOpArgsBatchNormBackward(args, bn, 1.0, 0.0, x, p, p, p.copy(), p.copy(), None, None)
    yd, y = tensor(shape, mi.miopenFloat, "NCHW")
    with pytest.raises(mi.BadParmError, match=r"miopenFusionOpBatchNormBwdTrain \(op 0\): savedMean"):
        mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    assert np.all(np.isnan(y))
    mi.setOpArgsBatchNormBackward(args, bn, 1.0, 0.0, x, p, p, p.copy(), p.copy(), p, p)
    mi.setOpArgsActivBackward(args, mi.fusionPlanGetOp(plan, 1), 1.0, 0.0, None, 1, *ACT)
    with pytest.raises(mi.BadParmError, match="reserved must be a null pointer"):
        mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    assert np.all(np.isnan(y))


def test_horizontal_fusion_refused(rng):
    xd, _ = tensor((2, 4, 3, 3), mi.miopenFloat, "NCHW", rng)
    with pytest.raises(mi.MIOpenNotImplementedError, match="miopenHorizontalFusion"):
        mi.createFusionPlan(mi.miopenHorizontalFusion, xd)
    with pytest.raises(mi.BadParmError, match="fuseDirection"):
        mi.createFusionPlan(5, xd)
    with pytest.raises(mi.BadParmError, match="inputDesc"):
        mi.createFusionPlan(mi.miopenVerticalFusion, desc((2, 4, 3, 3), None, mi.miopenInt32))


@pytest.mark.parametrize("var, chain", [
    ("MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED", "bn_infer"),
    ("MIOPEN_DEBUG_BN_FWDTRG_ACTIV_FUSED", "bn_train"),
    ("MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED", "bn_bwd"),
    ("MIOPEN_DEBUG_CONV_EPILOGUE_FUSED", "conv"),
])
def test_fused_solver_switches(handle, monkeypatch, var, chain, rng):
    xd, x = tensor((2, 8, 6, 6), mi.miopenFloat, "NCHW", rng)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    if chain == "conv":
        mi.createOpConvForward(plan, conv_desc(), desc((8, 8, 3, 3)))
    elif chain == "bn_infer":
        mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, desc((1, 8, 1, 1)))
    elif chain == "bn_train":
        mi.createOpBatchNormForward(plan, mi.miopenBNSpatial, False)
    else:
        mi.createOpBatchNormBackward(plan, mi.miopenBNSpatial)
    mi.createOpActivationForward(plan, mi.miopenActivationRELU) if chain != "bn_bwd" else \
        mi.createOpActivationBackward(plan, mi.miopenActivationRELU)
    mi.compileFusionPlan(handle, plan)
    monkeypatch.setenv(var, "0")
    with pytest.raises(mi.UnsupportedOpError, match=f"disabled by {var}=0"):
        mi.compileFusionPlan(handle, plan)
    monkeypatch.setenv(var, "bogus")
    with pytest.raises(mi.BadParmError, match=var):
        mi.compileFusionPlan(handle, plan)


def test_find_mode_fusion(handle, monkeypatch, rng):
    case, plan = conv_plan(rng=rng)
    mi.createOpConvForward(plan, case.cd, case.wd)
    for value in ("NORMAL", "fast", "3", "DYNAMIC_HYBRID"):
        monkeypatch.setenv("MIOPEN_FIND_MODE_FUSION", value)
        mi.compileFusionPlan(handle, plan)
    monkeypatch.setenv("MIOPEN_FIND_MODE_FUSION", "SLOW")
    with pytest.raises(mi.BadParmError, match="MIOPEN_FIND_MODE_FUSION='SLOW'"):
        mi.compileFusionPlan(handle, plan)


def test_conv_set_algo_unusable(handle, monkeypatch, rng):
    case, plan = conv_plan(rng=rng)
    mi.createOpConvForward(plan, case.cd, case.wd)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_FFT", "0")
    mi.fusionPlanConvolutionSetAlgo(plan, mi.miopenConvolutionFwdAlgoFFT)
    with pytest.raises(mi.UnsupportedOpError,
                       match=r"miopenFusionOpConvForward \(op 0\): no enabled solver of miopenConvolutionFwdAlgoFFT"):
        mi.compileFusionPlan(handle, plan)
    with pytest.raises(mi.BadParmError, match="algo"):
        mi.fusionPlanConvolutionSetAlgo(plan, 4)


# ---- objects ----

def test_plan_objects_lifecycle(rng):
    case, plan = conv_plan(rng=rng)
    conv = mi.createOpConvForward(plan, case.cd, case.wd)
    act = mi.createOpActivationForward(plan, mi.miopenActivationRELU)
    assert mi.fusionPlanGetOp(plan, 0) is conv and mi.fusionPlanGetOp(plan, 1) is act
    assert conv.kind == "miopenFusionOpConvForward" and plan.ops == (conv, act)
    with pytest.raises(mi.BadParmError, match="op_idx = 2 is out of bounds"):
        mi.fusionPlanGetOp(plan, 2)
    with pytest.raises(mi.BadParmError, match="op_idx = -1"):
        mi.fusionPlanGetOp(plan, -1)
    assert "miopenFusionOpConvForward" in repr(plan)
    args = mi.createOperatorArgs()
    mi.destroyFusionPlan(plan)
    with pytest.raises(ValueError, match="destroyed"):
        mi.compileFusionPlan(mi.Handle(), plan)
    with pytest.raises(ValueError, match="destroyed"):
        mi.setOpArgsActivForward(args, act, 1.0, 0.0, *ACT)
    mi.destroyOperatorArgs(args)
    with pytest.raises(ValueError, match="destroyed"):
        mi.destroyOperatorArgs(args)
    assert repr(args) == "OperatorArgs(destroyed)"


def test_enum_values():
    assert mi.FusionDirection.miopenVerticalFusion == 0
    assert mi.miopenHorizontalFusion == 1


def test_args_shared_by_plans_and_destroyed_ops(handle, rng):
    case = ConvCase(mi.miopenFloat, "NCHW", rng)
    plan1, args, reference, _ = build_conv_plan(case, ("bias", "act"), mi.miopenActivationRELU, rng)
    plan2 = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
    mi.setOpArgsConvForward(args, mi.createOpConvForward(plan2, case.cd, case.wd), 2.0, 0.0, case.w)
    mi.compileFusionPlan(handle, plan1)
    mi.compileFusionPlan(handle, plan2)
    yd, y1 = case.out()
    _, y2 = case.out()
    mi.executeFusionPlan(handle, plan1, case.xd, case.x, yd, y1, args)
    mi.executeFusionPlan(handle, plan2, case.xd, case.x, yd, y2, args)
    assert rel_l2(y1, reference()) <= 1e-5 and rel_l2(y2, 2.0 * case.conv64()) <= 1e-5
    mi.destroyFusionPlan(plan1)
    mi.destroyFusionPlan(plan2)
    for _ in range(4):          # new operators, perhaps at the destroyed ones' addresses
        plan3 = mi.createFusionPlan(mi.miopenVerticalFusion, case.xd)
        mi.createOpConvForward(plan3, case.cd, case.wd)
        mi.compileFusionPlan(handle, plan3)
        _, y3 = case.out()
        with pytest.raises(mi.BadParmError, match="no arguments for miopenFusionOpConvForward"):
            mi.executeFusionPlan(handle, plan3, case.xd, case.x, yd, y3, args)
        assert np.all(np.isnan(y3))
