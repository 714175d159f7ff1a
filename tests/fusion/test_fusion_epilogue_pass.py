"""The CPU's one-pass epilogue (cpu/fusion_epilogue.cpp): batch-norm inference + activation reading
x and writing y, and a convolution chain's epilogue after a solver that does not carry it (the
naive direct one), with a residual. 16-bit data in vector registers for the piecewise-linear
activations (AVX-512, AVX2 + F16C), through fp32 buffers for the others and without those
instruction sets (MIOPEN_CY_DEBUG_CPU_ISA caps them); fp32 in place. Shapes with vector tails in
both layouts (channels and positions not multiples of 16). Against float64 and the ops one by
one, outputs poisoned first."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import activation as ref_act
from miopen_cy.reference import batchnorm as ref_bn
from fusion.test_fusion import ACT, TOL, act_desc, nchw, tensor
from support.buffers import desc, rel_l2
from support.dtypes import FLOAT_TYPES, as64, random_stored

# The piecewise-linear modes (vector registers for 16-bit data), one that is not, and none.
MODES = [mi.miopenActivationPASTHRU, mi.miopenActivationRELU, mi.miopenActivationCLIPPEDRELU,
         mi.miopenActivationLEAKYRELU, mi.miopenActivationABS, mi.miopenActivationLOGISTIC, None]
ISAS = ["avx512", "avx2", "none"]   # caps: what the CPU lacks falls back to the next


def cpu_only(handle):
    if handle.device != "cpu":
        pytest.skip("the CPU's epilogue pass")


@pytest.mark.parametrize("isa", ISAS)
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name if m is not None else "no-act")
@pytest.mark.parametrize("shape", [(2, 40, 7, 9), (1, 3, 5, 5)], ids=["c40-7x9", "c3-5x5"])
def test_bn_inference_activation_pass(handle, monkeypatch, shape, mode, dt, layout, isa, rng):
    cpu_only(handle)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", isa)
    c = shape[1]
    xd, x = tensor(shape, dt, layout, rng)
    # Values straddling the activations' kinks (0 and the clipped ReLU's alpha = 0.5).
    pd = desc((1, c, 1, 1))
    scale = rng.uniform(0.5, 1.5, (1, c, 1, 1)).astype(np.float32)
    bias = rng.uniform(-0.5, 0.5, (1, c, 1, 1)).astype(np.float32)
    mean = rng.uniform(-0.5, 0.5, (1, c, 1, 1)).astype(np.float32)
    var = rng.uniform(0.5, 2.0, (1, c, 1, 1)).astype(np.float32)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, pd)
    mi.setOpArgsBatchNormInference(args, bn, 1.0, 0.0, scale, bias, mean, var, 1e-5)
    if mode is not None:
        mi.setOpArgsActivForward(args, mi.createOpActivationForward(plan, mode), 1.0, 0.0, *ACT)
    mi.compileFusionPlan(handle, plan)
    yd, y = tensor(shape, dt, layout)
    mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)
    ref = ref_bn.forward(nchw(x, layout), scale, bias, mean, var, 1e-5)
    if mode is not None:
        ref = ref_act.forward(int(mode), *ACT, ref)
    got = nchw(y, layout)
    assert not np.isnan(got).any()
    assert rel_l2(got, ref) <= TOL[int(dt)]
    # One rounding: each element within half a unit of the type of the float64 result (plus the
    # fp32 arithmetic's error).
    if dt != mi.miopenFloat:
        eps = 2.0 ** (-11 if dt == mi.miopenHalf else -8)
        assert np.all(np.abs(got - ref) <= eps * np.abs(ref) + 1e-6 + 1e-5 * np.abs(ref).max())
    # The ops one by one.
    y2d, y2 = tensor(shape, dt, layout)
    mi.batchNormalizationForwardInference(handle, mi.miopenBNSpatial, 1.0, 0.0, xd, x, y2d, y2, pd, scale,
                                          bias, mean, var, 1e-5)
    if mode is not None:
        mi.activationForward(handle, act_desc(mode), 1.0, y2d, y2, 0.0, y2d, y2)
    assert rel_l2(as64(y), as64(y2)) <= TOL[int(dt)]


@pytest.mark.parametrize("isa", ISAS)
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", [mi.miopenActivationLEAKYRELU, mi.miopenActivationCLIPPEDRELU,
                                  mi.miopenActivationTANH], ids=lambda m: m.name)
def test_conv_residual_epilogue_pass(handle, monkeypatch, capfd, mode, dt, layout, isa, rng):
    """The convenience call through a solver that does not carry the epilogue: conv, then the
    residual, bias and activation as one pass over y (the info log says so)."""
    cpu_only(handle)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", isa)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvDirectNaiveConvFwd")
    monkeypatch.setenv("MIOPEN_LOG_LEVEL", "5")
    n, c, hw, k = 2, 5, 6, 24
    xd, x = tensor((n, c, hw, hw), dt, layout, rng)
    wd, w = tensor((k, c, 3, 3), dt, layout, rng)
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    yshape = (n, k, hw, hw)
    bd, b = desc((1, k, 1, 1), None, dt), random_stored((1, k, 1, 1), dt, rng)
    zd, z = tensor(yshape, dt, layout, rng)
    yd, y = tensor(yshape, dt, layout)
    capfd.readouterr()
    mi.convolutionBiasActivationForward(handle, 1.0, xd, x, wd, w, cd, mi.miopenConvolutionFwdAlgoDirect,
                                        None, 0, -0.5, zd, z, bd, b, act_desc(mode), yd, y)
    assert "the epilogue runs as one pass over y" in capfd.readouterr().err
    conv64 = torch.nn.functional.conv2d(torch.from_numpy(nchw(x, layout)), torch.from_numpy(nchw(w, layout)),
                                        None, 1, 1).numpy()
    ref = ref_act.forward(int(mode), *ACT, conv64 + as64(b) - 0.5 * nchw(z, layout))
    assert rel_l2(nchw(y, layout), ref) <= TOL[int(dt)]
