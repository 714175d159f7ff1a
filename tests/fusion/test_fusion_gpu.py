"""The GPU's fused epilogue pass (kernels/fusion/epilogue_pass.hip): every type, layout and
activation mode, on shapes that take each of its paths (16-byte vectors over NCHW planes, over
NHWC pixels with a thread's channels fixed or not, an element a thread on other packed shapes,
the general path on strided tensors), against the same ops run one by one on the GPU and against
float64 references; outputs poisoned first. GPU only: they skip without one."""
import numpy as np
import pytest

import miopen_cy as mi
from fusion.test_fusion import (ACT, ConvCase, act_desc, bn_params, build_conv_plan, fp32, nchw,
                                tensor, tol)
from miopen_cy.reference import activation as ref_act
from miopen_cy.reference import batchnorm as ref_bn
from support.buffers import desc, rel_l2
from support.devices import requires_gpu
from support.dtypes import FLOAT_TYPES, as64, random_stored

pytestmark = [requires_gpu, pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")]

ALL_MODES = list(mi.ActivationMode)


@pytest.fixture
def gpu():
    return mi.Handle(device="gpu")


# (layout, k, output hw): the path each takes (W = 4 fp32, 8 fp16 / bf16 elements a vector)
PATH_SHAPES = [
    pytest.param("NCHW", 8, 8, id="nchw-planes"),        # HW = 64: whole vectors a plane
    pytest.param("NCHW", 8, 7, id="nchw-scalar"),        # HW = 49: an element a thread
    pytest.param("NHWC", 16, 5, id="nhwc-fixed"),        # C / W divides the block
    pytest.param("NHWC", 24, 5, id="nhwc-channels"),     # C / W = 6 or 3: per-vector channels
    pytest.param("NHWC", 6, 5, id="nhwc-scalar"),        # C not whole vectors
]


def _run_chain(gpu, case, chain, mode, rng):
    plan, args, reference, one_by_one = build_conv_plan(case, chain, mode, rng)
    mi.compileFusionPlan(gpu, plan)
    yd, y = case.out()
    mi.executeFusionPlan(gpu, plan, case.xd, case.x, yd, y, args)
    algo = mi.fusionPlanConvolutionGetAlgo(plan, 5)[0]
    return y, reference(), one_by_one(gpu, algo)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("layout, k, hw", PATH_SHAPES)
@pytest.mark.parametrize("chain", [("bias", "act"), ("bias", "bn", "act"), ("bn",)],
                         ids=lambda c: "conv-" + "-".join(c))
def test_conv_epilogue_paths(gpu, dt, layout, k, hw, chain, rng):
    case = ConvCase(dt, layout, rng, n=3, c=8, hw=hw, k=k)
    y, ref, sep = _run_chain(gpu, case, chain, mi.miopenActivationLEAKYRELU, rng)
    assert not np.any(np.isnan(as64(y)))
    assert rel_l2(nchw(y, layout), ref) <= tol(dt)
    assert rel_l2(as64(y), as64(sep)) <= tol(dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.name)
def test_conv_epilogue_every_mode(gpu, dt, layout, mode, rng):
    case = ConvCase(dt, layout, rng, n=2, c=8, hw=8, k=16)
    y, ref, sep = _run_chain(gpu, case, ("bias", "bn", "act"), mode, rng)
    assert rel_l2(nchw(y, layout), ref) <= tol(dt)
    assert rel_l2(as64(y), as64(sep)) <= tol(dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_conv_epilogue_strided_output(gpu, dt, rng):
    """A y with padded rows takes the general path: the gaps stay untouched."""
    case = ConvCase(dt, "NCHW", rng, n=2, c=8, hw=8, k=8)
    plan, args, reference, _ = build_conv_plan(case, ("bias", "act"), mi.miopenActivationELU, rng)
    mi.compileFusionPlan(gpu, plan)
    n, k, ho, wo = case.yshape
    _, big = tensor((n, k, ho, wo + 3), dt, "NCHW")
    sd = desc(case.yshape, (k * ho * (wo + 3), ho * (wo + 3), wo + 3, 1), dt)
    mi.executeFusionPlan(gpu, plan, case.xd, case.x, sd, big, args)
    assert rel_l2(as64(big[..., :wo]), reference()) <= tol(dt)
    assert np.all(np.isnan(as64(big[..., wo:])))


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("k", [16, 6], ids=["vectors", "scalar"])
def test_conv_bias_activation_forward_residual(gpu, dt, layout, k, rng):
    """miopenConvolutionBiasActivationForward's z (alpha2) in the one pass, against PyTorch float64
    and the ops one by one."""
    case = ConvCase(dt, layout, rng, n=2, c=8, hw=8, k=k)
    zd, z = tensor(case.yshape, dt, layout, rng)
    mode = mi.miopenActivationRELU
    plan, _, _, _ = build_conv_plan(case, (), mode, rng)
    mi.compileFusionPlan(gpu, plan)
    algo = mi.fusionPlanConvolutionGetAlgo(plan, 1)[0]
    yd, y = case.out()
    mi.convolutionBiasActivationForward(gpu, 0.75, case.xd, case.x, case.wd, case.w, case.cd, algo,
                                        None, 0, 0.5, zd, z, case.bd, case.b, act_desc(mode), yd, y)
    pre = 0.75 * case.conv64() + as64(case.b) + 0.5 * nchw(z, layout)
    assert rel_l2(nchw(y, layout), ref_act.forward(int(mode), *ACT, pre)) <= tol(dt)
    y2d, y2 = case.out()
    mi.convolutionForward(gpu, 0.75, case.xd, case.x, case.wd, case.w, case.cd, algo, 0.0, y2d, y2,
                          None, 0)
    mi.opTensor(gpu, mi.miopenTensorOpAdd, 1.0, y2d, y2, 0.5, zd, z, 0.0, y2d, y2)
    mi.convolutionForwardBias(gpu, 1.0, case.bd, case.b, 0.0, y2d, y2)
    mi.activationForward(gpu, act_desc(mode), 1.0, y2d, y2, 0.0, y2d, y2)
    assert rel_l2(as64(y), as64(y2)) <= tol(dt)


# ---- batch-norm inference + activation: x -> y in one pass ----

BN_SHAPES = [
    pytest.param("NCHW", (2, 4, 80, 80), id="nchw-two-chunks"),   # a plane of two blocks' chunks
    pytest.param("NCHW", (3, 8, 5, 5), id="nchw-scalar"),
    pytest.param("NHWC", (4, 64, 28, 28), id="nhwc-fixed"),
    pytest.param("NHWC", (2, 40, 9, 9), id="nhwc-channels"),
    pytest.param("NHWC", (2, 5, 9, 9), id="nhwc-scalar"),
]


def _bn_plan(gpu, xd, pd, params, act):
    scale, bias, mean, var, eps = params
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, pd)
    mi.setOpArgsBatchNormInference(args, bn, 1.0, 0.0, scale, bias, mean, var, eps)
    if act is not None:
        op = mi.createOpActivationForward(plan, act)
        mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
    mi.compileFusionPlan(gpu, plan)
    return plan, args


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("layout, shape", BN_SHAPES)
@pytest.mark.parametrize("act", [mi.miopenActivationRELU, mi.miopenActivationTANH, None],
                         ids=["relu", "tanh", "no-act"])
def test_bn_inference_activation_paths(gpu, dt, layout, shape, act, rng):
    xd, x = tensor(shape, dt, layout, rng)
    pd, ps, (scale, bias) = bn_params(shape, mi.miopenBNSpatial, rng)
    params = (scale, bias, fp32(ps, rng, -0.5, 0.5), fp32(ps, rng, 0.5, 2.0), 1e-5)
    plan, args = _bn_plan(gpu, xd, pd, params, act)
    yd, y = tensor(shape, dt, layout)
    mi.executeFusionPlan(gpu, plan, xd, x, yd, y, args)
    ref = ref_bn.forward(nchw(x, layout), *params)
    if act is not None:
        ref = ref_act.forward(int(act), *ACT, ref)
    assert rel_l2(nchw(y, layout), ref) <= tol(dt)
    y2d, y2 = tensor(shape, dt, layout)
    mi.batchNormalizationForwardInference(gpu, mi.miopenBNSpatial, 1.0, 0.0, xd, x, y2d, y2, pd,
                                          *params)
    if act is not None:
        mi.activationForward(gpu, act_desc(act), 1.0, y2d, y2, 0.0, y2d, y2)
    assert rel_l2(as64(y), as64(y2)) <= tol(dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.name)
def test_bn_inference_every_mode(gpu, dt, mode, rng):
    shape = (2, 16, 6, 6)
    for layout in ("NCHW", "NHWC"):
        xd, x = tensor(shape, dt, layout, rng)
        pd, ps, (scale, bias) = bn_params(shape, mi.miopenBNSpatial, rng)
        params = (scale, bias, fp32(ps, rng, -0.5, 0.5), fp32(ps, rng, 0.5, 2.0), 1e-5)
        plan, args = _bn_plan(gpu, xd, pd, params, mode)
        yd, y = tensor(shape, dt, layout)
        mi.executeFusionPlan(gpu, plan, xd, x, yd, y, args)
        ref = ref_act.forward(int(mode), *ACT, ref_bn.forward(nchw(x, layout), *params))
        assert rel_l2(nchw(y, layout), ref) <= tol(dt), layout


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_bn_inference_half_params_and_strided(gpu, dt, rng):
    """Parameters in the data's type (folded on the device from 16-bit values) and an x of other
    strides than y (the general path)."""
    shape = (2, 8, 6, 6)
    n, c, h, w = shape
    pd = desc((1, c, 1, 1), None, dt)
    params = tuple(random_stored((1, c, 1, 1), dt, rng, lo, hi)
                   for lo, hi in ((0.5, 1.5), (-1, 1), (-0.5, 0.5), (0.5, 2.0))) + (1e-5,)
    xd, x = tensor(shape, dt, "NHWC", rng)
    plan, args = _bn_plan(gpu, xd, pd, params, mi.miopenActivationCLIPPEDRELU)
    yd, y = tensor(shape, dt, "NCHW")
    mi.executeFusionPlan(gpu, plan, xd, x, yd, y, args)
    ref = ref_act.forward(int(mi.miopenActivationCLIPPEDRELU), *ACT,
                          ref_bn.forward(nchw(x, "NHWC"), *(as64(p) for p in params[:4]), 1e-5))
    assert rel_l2(as64(y), ref) <= tol(dt)


def test_plan_executes_repeatedly_with_new_parameters(gpu, rng):
    """The fold runs at every execute: new parameter values in the same arrays take effect."""
    shape = (2, 8, 4, 4)
    xd, x = tensor(shape, mi.miopenFloat, "NCHW", rng)
    pd, ps, (scale, bias) = bn_params(shape, mi.miopenBNSpatial, rng)
    mean, var = fp32(ps, rng, -0.5, 0.5), fp32(ps, rng, 0.5, 2.0)
    plan, args = _bn_plan(gpu, xd, pd, (scale, bias, mean, var, 1e-5), None)
    for _ in range(2):
        yd, y = tensor(shape, mi.miopenFloat, "NCHW")
        mi.executeFusionPlan(gpu, plan, xd, x, yd, y, args)
        assert rel_l2(as64(y), ref_bn.forward(as64(x), scale, bias, mean, var, 1e-5)) <= 1e-5
        scale *= 2.0
        mean += 0.25


# ---- the epilogue inside the tensor-core kernel (ConvHipImplicitGemm*FwdXdlops) ----
# fp16 / bf16 packed NHWC: the solver carries the epilogue, in its store when the output tiles fill
# the GPU (at least one 128 x 128 tile a multiprocessor: unsplit) and in its split reduction
# otherwise (the plan provides the split's workspace).

XDLOPS_TYPES = [pytest.param(mi.miopenHalf, id="fp16"), pytest.param(mi.miopenBFloat16, id="bf16")]
# fp32 NCHW 1x1 on ConvGpuGemmFwd1x1Split: the epilogue in the split SGEMM's reduction (float4
# columns where N * HW is a multiple of 4, else one a thread)
GEMM_SPLIT_SHAPES = [
    pytest.param(dict(n=4, c=1024, hw=4, k=16, r=1, pad=0), id="reduce4"),
    pytest.param(dict(n=3, c=1024, hw=3, k=12, r=1, pad=0), id="reduce1"),
]


@pytest.mark.parametrize("shape", GEMM_SPLIT_SHAPES)
@pytest.mark.parametrize("chain", [("bias", "act"), ("bias", "bn", "act"), ("act",)],
                         ids=lambda c: "conv-" + "-".join(c))
def test_gemm_split_epilogue(gpu, monkeypatch, shape, chain, rng):
    """fp32 NCHW 1x1 with the split GEMM alone enabled: the plan takes it (it carries the
    epilogue, with the plan's workspace) and applies the epilogue in the split's reduction: the
    one-by-one values and float64."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvGpuGemmFwd1x1Split")
    case = ConvCase(mi.miopenFloat, "NCHW", rng, **shape)
    plan, args, reference, one_by_one = build_conv_plan(case, chain, mi.miopenActivationELU, rng)
    mi.compileFusionPlan(gpu, plan)
    assert mi.fusionPlanConvolutionGetAlgo(plan, 5)[0] == mi.miopenConvolutionFwdAlgoGEMM
    yd, y = case.out()
    mi.executeFusionPlan(gpu, plan, case.xd, case.x, yd, y, args)
    assert not np.any(np.isnan(as64(y)))
    assert rel_l2(nchw(y, "NCHW"), reference()) <= tol(mi.miopenFloat)
    assert rel_l2(as64(y), as64(one_by_one(gpu, mi.miopenConvolutionFwdAlgoGEMM))) <= 1e-6


def test_gemm_split_epilogue_residual_alpha(gpu, monkeypatch, rng):
    """miopenConvolutionBiasActivationForward on the split GEMM: alpha1 and alpha2 * z in the
    split's reduction, with the plan's workspace."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvGpuGemmFwd1x1Split")
    case = ConvCase(mi.miopenFloat, "NCHW", rng, n=4, c=1024, hw=4, k=16, r=1, pad=0)
    zd, z = tensor(case.yshape, mi.miopenFloat, "NCHW", rng)
    mode = mi.miopenActivationCLIPPEDRELU
    yd, y = case.out()
    mi.convolutionBiasActivationForward(gpu, 0.75, case.xd, case.x, case.wd, case.w, case.cd,
                                        mi.miopenConvolutionFwdAlgoGEMM, None, 0, 0.5, zd, z,
                                        case.bd, case.b, act_desc(mode), yd, y)
    pre = 0.75 * case.conv64() + as64(case.b) + 0.5 * nchw(z, "NCHW")
    assert rel_l2(nchw(y, "NCHW"), ref_act.forward(int(mode), *ACT, pre)) <= tol(mi.miopenFloat)


XDLOPS_SHAPES = [
    pytest.param(dict(n=10, c=16, hw=48, k=24), id="unsplit"),           # 180 row tiles
    pytest.param(dict(n=10, c=16, hw=48, k=20), id="unsplit-narrow-k"),  # K % 8: 2-byte stores
    pytest.param(dict(n=10, c=3, hw=48, k=16), id="unsplit-c3"),         # the narrow (stem) kernel
    pytest.param(dict(n=10, c=16, hw=48, k=16, groups=2), id="unsplit-groups"),
    pytest.param(dict(n=2, c=64, hw=8, k=32), id="split"),               # one tile: split-K
]


@pytest.mark.parametrize("dt", XDLOPS_TYPES)
@pytest.mark.parametrize("shape", XDLOPS_SHAPES)
@pytest.mark.parametrize("chain", [("bias", "act"), ("bias", "bn", "act"), ("act",)],
                         ids=lambda c: "conv-" + "-".join(c))
def test_xdlops_epilogue(gpu, dt, shape, chain, rng):
    case = ConvCase(dt, "NHWC", rng, **shape)
    y, ref, sep = _run_chain(gpu, case, chain, mi.miopenActivationLEAKYRELU, rng)
    assert rel_l2(nchw(y, "NHWC"), ref) <= tol(dt)
    assert rel_l2(as64(y), as64(sep)) <= tol(dt)


@pytest.mark.parametrize("dt", XDLOPS_TYPES)
@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.name)
def test_xdlops_epilogue_every_mode(gpu, dt, mode, rng):
    case = ConvCase(dt, "NHWC", rng, n=10, c=16, hw=48, k=24)
    y, ref, sep = _run_chain(gpu, case, ("bias", "bn", "act"), mode, rng)
    assert rel_l2(nchw(y, "NHWC"), ref) <= tol(dt)
    assert rel_l2(as64(y), as64(sep)) <= tol(dt)


@pytest.mark.parametrize("dt", XDLOPS_TYPES)
@pytest.mark.parametrize("shape", [XDLOPS_SHAPES[0], XDLOPS_SHAPES[-1]])
@pytest.mark.parametrize("workspace", [False, True], ids=["plan-workspace", "caller-workspace"])
def test_xdlops_epilogue_residual_alpha(gpu, dt, shape, workspace, rng):
    """miopenConvolutionBiasActivationForward in the kernel: alpha1 and alpha2 * z in the store (or
    the split reduction, with the caller's workspace or the plan's)."""
    case = ConvCase(dt, "NHWC", rng, **shape)
    zd, z = tensor(case.yshape, dt, "NHWC", rng)
    mode = mi.miopenActivationCLIPPEDRELU
    algo = mi.miopenConvolutionFwdAlgoImplicitGEMM
    ws, wsz = None, 0
    if workspace:
        wsz = max(mi.convolutionForwardGetWorkSpaceSize(gpu, case.wd, case.xd, case.cd, case.out()[0]), 4)
        ws = mi.DeviceBuffer(gpu, wsz)
    yd, y = case.out()
    mi.convolutionBiasActivationForward(gpu, 0.75, case.xd, case.x, case.wd, case.w, case.cd, algo,
                                        ws, wsz, 0.5, zd, z, case.bd, case.b, act_desc(mode), yd, y)
    pre = 0.75 * case.conv64() + as64(case.b) + 0.5 * nchw(z, "NHWC")
    assert rel_l2(nchw(y, "NHWC"), ref_act.forward(int(mode), *ACT, pre)) <= tol(dt)


@pytest.mark.parametrize("dt", XDLOPS_TYPES)
def test_single_pass_without_the_tensor_core_solver(gpu, monkeypatch, dt, rng):
    """With the tensor-core forward solver switched off, the plan's convolution takes a solver that
    carries no epilogue and the epilogue runs as the one pass over y: the same values."""
    case = ConvCase(dt, "NHWC", rng, n=10, c=16, hw=48, k=24)
    y_fused, ref, _ = _run_chain(gpu, case, ("bias", "bn", "act"), mi.miopenActivationTANH, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS", "0")
    y_pass, ref2, sep = _run_chain(gpu, case, ("bias", "bn", "act"), mi.miopenActivationTANH, rng)
    assert rel_l2(nchw(y_pass, "NHWC"), ref2) <= tol(dt)
    assert rel_l2(as64(y_pass), as64(sep)) <= tol(dt)
    assert rel_l2(nchw(y_fused, "NHWC"), ref) <= tol(dt)
