"""The CPU convolution + epilogue applied per output block inside the solver that writes y in
blocks (ConvCpuImplicitGemmFwd: each chunk of output rows right after its GEMM, while it is in
cache; fp16 / bf16 on the fp32 tile before the one rounding): every chain, type and mode against
PyTorch float64 and the same ops run one by one, outputs poisoned first. The plan is pinned to
miopenConvolutionFwdAlgoImplicitGEMM, whose CPU solver carries the epilogue."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import activation as ref_act
from miopen_cy.reference import batchnorm as ref_bn
from support.buffers import desc, rel_l2
from support.dtypes import FLOAT_TYPES, as64, poison, random_stored

ACT = (0.5, 1.5, 2.0)
TOL = {int(mi.miopenFloat): 1e-5, int(mi.miopenHalf): 4e-3, int(mi.miopenBFloat16): 3e-2}
IGEMM = mi.miopenConvolutionFwdAlgoImplicitGEMM


def cpu_only(handle):
    if handle.device != "cpu":
        pytest.skip("the CPU solvers' block epilogue")


def act_desc(mode):
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, mode, *ACT)
    return ad


def problem(dt, rng, n=2, c=6, hw=9, k=8, groups=1, pad=1):
    xd, x = desc((n, c, hw, hw), None, dt), random_stored((n, c, hw, hw), dt, rng)
    wd, w = desc((k, c // groups, 3, 3), None, dt), random_stored((k, c // groups, 3, 3), dt, rng)
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, pad, pad, 1, 1, 1, 1)
    if groups != 1:
        mi.setConvolutionGroupCount(cd, groups)
    ho = hw + 2 * pad - 2
    conv64 = torch.nn.functional.conv2d(torch.from_numpy(as64(x)), torch.from_numpy(as64(w)), None,
                                        1, pad, 1, groups).numpy()
    return xd, x, wd, w, cd, (n, k, ho, ho), conv64


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("residual", [False, True], ids=["no-z", "z"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", [mi.miopenActivationRELU, mi.miopenActivationLOGISTIC,
                                  mi.miopenActivationELU], ids=lambda m: m.name)
def test_conv_bias_activation_in_block(handle, dt, residual, groups, mode, rng):
    cpu_only(handle)
    xd, x, wd, w, cd, yshape, conv64 = problem(dt, rng, groups=groups)
    k = yshape[1]
    bd, b = desc((1, k, 1, 1), None, dt), random_stored((1, k, 1, 1), dt, rng)
    zd, z = (desc(yshape, None, dt), random_stored(yshape, dt, rng)) if residual else (None, None)
    yd, y = desc(yshape, None, dt), poison(yshape, dt)
    mi.convolutionBiasActivationForward(handle, 1.0, xd, x, wd, w, cd, IGEMM, None, 0, 0.5, zd, z,
                                        bd, b, act_desc(mode), yd, y)
    pre = conv64 + as64(b) + (0.5 * as64(z) if residual else 0.0)
    assert rel_l2(as64(y), ref_act.forward(int(mode), *ACT, pre)) <= TOL[int(dt)]
    # One by one: the convolution, the residual, the bias, the activation.
    y2 = poison(yshape, dt)
    mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, IGEMM, 0.0, yd, y2, None, 0)
    if residual:
        mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, yd, y2, 0.5, zd, z, 0.0, yd, y2)
    mi.convolutionForwardBias(handle, 1.0, bd, b, 0.0, yd, y2)
    mi.activationForward(handle, act_desc(mode), 1.0, yd, y2, 0.0, yd, y2)
    assert rel_l2(as64(y), as64(y2)) <= TOL[int(dt)]


@pytest.mark.parametrize("mode", list(mi.ActivationMode), ids=lambda m: m.name)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_conv_bn_activation_in_block_every_mode(handle, dt, mode, rng):
    cpu_only(handle)
    xd, x, wd, w, cd, yshape, conv64 = problem(dt, rng)
    k = yshape[1]
    pd = desc((1, k, 1, 1))
    scale = rng.uniform(0.5, 1.5, (1, k, 1, 1)).astype(np.float32)
    bias = rng.uniform(-1, 1, (1, k, 1, 1)).astype(np.float32)
    mean = rng.uniform(-0.5, 0.5, (1, k, 1, 1)).astype(np.float32)
    var = rng.uniform(0.5, 2.0, (1, k, 1, 1)).astype(np.float32)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    conv = mi.createOpConvForward(plan, cd, wd)
    mi.setOpArgsConvForward(args, conv, 1.0, 0.0, w)
    bn = mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, pd)
    mi.setOpArgsBatchNormInference(args, bn, 1.0, 0.0, scale, bias, mean, var, 1e-5)
    op = mi.createOpActivationForward(plan, mode)
    mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
    mi.fusionPlanConvolutionSetAlgo(plan, IGEMM)
    mi.compileFusionPlan(handle, plan)
    yd, y = desc(yshape, None, dt), poison(yshape, dt)
    mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    ref = ref_act.forward(int(mode), *ACT, ref_bn.forward(conv64, scale, bias, mean, var, 1e-5))
    assert rel_l2(as64(y), ref) <= TOL[int(dt)]
