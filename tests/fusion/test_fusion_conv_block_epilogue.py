"""The CPU convolution + epilogue applied per output block inside the solvers that write y in
blocks, while the block is in cache: ConvCpuImplicitGemmFwd (each chunk of output rows right after
its GEMM; fp16 / bf16 on the fp32 tile before the one rounding) and ConvCpuDirectBlockedFwd (each
register tile's fp32 results before they are stored, in every kernel path: the blocked one, the
flat 1x1, a strided 1x1, partial column and channel tiles, groups, NHWC, AVX-512 and AVX2). Every
chain, type and mode against PyTorch float64 and the same ops run one by one (the same solver),
outputs poisoned first. Each solver is forced (MIOPEN_DEBUG_FIND_ONLY_SOLVER, the plan's algorithm),
and the info log says the epilogue ran in the solver's blocks, not as a pass after it."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import activation as ref_act
from miopen_cy.reference import batchnorm as ref_bn
from fusion.test_fusion import ACT, TOL, act_desc, nchw, tensor
from support.buffers import desc, rel_l2
from support.dtypes import FLOAT_TYPES, as64, random_stored

IGEMM = mi.miopenConvolutionFwdAlgoImplicitGEMM
DIRECT = mi.miopenConvolutionFwdAlgoDirect
IN_BLOCKS = "the epilogue ran in the convolution solver's output blocks"

# (solver, its algorithm, data type): the implicit GEMM in every type, the blocked direct in fp32.
CARRIERS = ([pytest.param("ConvCpuImplicitGemmFwd", IGEMM, p.values[0], id=f"igemm-{p.id}")
             for p in FLOAT_TYPES] +
            [pytest.param("ConvCpuDirectBlockedFwd", DIRECT, mi.miopenFloat, id="direct-blocked")])


def cpu_only(handle):
    if handle.device != "cpu":
        pytest.skip("the CPU solvers' block epilogue")


@pytest.fixture
def forced(monkeypatch, capfd):
    """force(solver): that solver only, info logging on; check(): the epilogue ran in its blocks."""
    class Forced:
        def force(self, solver):
            monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
            monkeypatch.setenv("MIOPEN_LOG_LEVEL", "5")
            capfd.readouterr()

        def check(self):
            err = capfd.readouterr().err
            assert IN_BLOCKS in err, err[-2000:]
    return Forced()


class Problem:
    def __init__(self, dt, rng, n=2, c=6, hw=9, k=8, r=3, groups=1, pad=1, stride=1, layout="NCHW"):
        self.dt, self.layout = dt, layout
        self.xd, self.x = tensor((n, c, hw, hw), dt, layout, rng)
        self.wd, self.w = tensor((k, c // groups, r, r), dt, layout, rng)
        self.cd = mi.ConvolutionDescriptor()
        mi.initConvolutionDescriptor(self.cd, mi.miopenConvolution, pad, pad, stride, stride, 1, 1)
        if groups != 1:
            mi.setConvolutionGroupCount(self.cd, groups)
        ho = (hw + 2 * pad - r) // stride + 1
        self.yshape = (n, k, ho, ho)
        self.conv64 = torch.nn.functional.conv2d(torch.from_numpy(nchw(self.x, layout)),
                                                 torch.from_numpy(nchw(self.w, layout)), None,
                                                 stride, pad, 1, groups).numpy()

    def out(self, rng=None):
        return tensor(self.yshape, self.dt, self.layout, rng)


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("residual", [False, True], ids=["no-z", "z"])
@pytest.mark.parametrize("solver,algo,dt", CARRIERS)
@pytest.mark.parametrize("mode", [mi.miopenActivationRELU, mi.miopenActivationLOGISTIC,
                                  mi.miopenActivationELU], ids=lambda m: m.name)
def test_conv_bias_activation_in_block(handle, forced, solver, algo, dt, residual, groups, mode, rng):
    cpu_only(handle)
    forced.force(solver)
    pb = Problem(dt, rng, groups=groups)
    k = pb.yshape[1]
    bd, b = desc((1, k, 1, 1), None, dt), random_stored((1, k, 1, 1), dt, rng)
    zd, z = pb.out(rng) if residual else (None, None)
    yd, y = pb.out()
    mi.convolutionBiasActivationForward(handle, 1.0, pb.xd, pb.x, pb.wd, pb.w, pb.cd, algo, None, 0, 0.5,
                                        zd, z, bd, b, act_desc(mode), yd, y)
    forced.check()
    pre = pb.conv64 + as64(b) + (0.5 * as64(z) if residual else 0.0)
    assert rel_l2(as64(y), ref_act.forward(int(mode), *ACT, pre)) <= TOL[int(dt)]
    # One by one: the convolution, the residual, the bias, the activation.
    yd2, y2 = pb.out()
    mi.convolutionForward(handle, 1.0, pb.xd, pb.x, pb.wd, pb.w, pb.cd, algo, 0.0, yd2, y2, None, 0)
    if residual:
        mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, yd2, y2, 0.5, zd, z, 0.0, yd2, y2)
    mi.convolutionForwardBias(handle, 1.0, bd, b, 0.0, yd2, y2)
    mi.activationForward(handle, act_desc(mode), 1.0, yd2, y2, 0.0, yd2, y2)
    assert rel_l2(as64(y), as64(y2)) <= TOL[int(dt)]


def run_bn_plan(handle, pb, mode, rng, algo, chain=("bias", "bn", "act")):
    """A plan conv [bias] [bn] [act] pinned to `algo`: (y, float64 reference)."""
    k = pb.yshape[1]
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, pb.xd)
    args = mi.createOperatorArgs()
    conv = mi.createOpConvForward(plan, pb.cd, pb.wd)
    mi.setOpArgsConvForward(args, conv, 1.0, 0.0, pb.w)
    ref = pb.conv64
    if "bias" in chain:
        bd, b = desc((1, k, 1, 1), None, pb.dt), random_stored((1, k, 1, 1), pb.dt, rng)
        mi.setOpArgsBiasForward(args, mi.createOpBiasForward(plan, bd), 1.0, 0.0, b)
        ref = ref + as64(b)
    if "bn" in chain:
        pd = desc((1, k, 1, 1))
        scale = rng.uniform(0.5, 1.5, (1, k, 1, 1)).astype(np.float32)
        bias = rng.uniform(-1, 1, (1, k, 1, 1)).astype(np.float32)
        mean = rng.uniform(-0.5, 0.5, (1, k, 1, 1)).astype(np.float32)
        var = rng.uniform(0.5, 2.0, (1, k, 1, 1)).astype(np.float32)
        bn = mi.createOpBatchNormInference(plan, mi.miopenBNSpatial, pd)
        mi.setOpArgsBatchNormInference(args, bn, 1.0, 0.0, scale, bias, mean, var, 1e-5)
        ref = ref_bn.forward(ref, scale, bias, mean, var, 1e-5)
    if "act" in chain:
        op = mi.createOpActivationForward(plan, mode)
        mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
        ref = ref_act.forward(int(mode), *ACT, ref)
    mi.fusionPlanConvolutionSetAlgo(plan, algo)
    mi.compileFusionPlan(handle, plan)
    assert mi.fusionPlanConvolutionGetAlgo(plan, 1)[0] == algo
    yd, y = pb.out()
    mi.executeFusionPlan(handle, plan, pb.xd, pb.x, yd, y, args)
    return y, ref


@pytest.mark.parametrize("mode", list(mi.ActivationMode), ids=lambda m: m.name)
@pytest.mark.parametrize("solver,algo,dt", CARRIERS)
def test_conv_bn_activation_in_block_every_mode(handle, forced, solver, algo, dt, mode, rng):
    cpu_only(handle)
    forced.force(solver)
    y, ref = run_bn_plan(handle, Problem(dt, rng), mode, rng, algo, ("bn", "act"))
    forced.check()
    assert rel_l2(nchw(y, "NCHW"), ref) <= TOL[int(dt)]


# The blocked direct solver's kernel paths: (n, c, hw, k, r, groups, pad, stride).
BLOCKED_SHAPES = [
    pytest.param((2, 6, 9, 8, 3, 1, 1, 1), id="c6-k8-3x3"),            # fewer channels than a vector
    pytest.param((1, 32, 11, 40, 3, 1, 1, 1), id="c32-k40-3x3"),       # partial channel tile, odd width
    pytest.param((2, 32, 7, 48, 1, 1, 0, 1), id="c32-k48-1x1-flat"),   # the flat 1x1 kernel, tail tile
    pytest.param((2, 32, 9, 24, 1, 1, 0, 2), id="c32-k24-1x1-s2"),     # a strided 1x1 (subsampled copy)
    pytest.param((1, 16, 12, 32, 3, 2, 1, 2), id="c16-k32-3x3-s2-g2"),  # groups, stride
    pytest.param((2, 16, 5, 16, 5, 1, 2, 1), id="c16-k16-5x5"),
]


@pytest.mark.parametrize("isa", ["avx512", "avx2"])   # a cap: AVX2 where the CPU has no AVX-512
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("chain", [("bias", "act"), ("bias", "bn", "act"), ("act",), ("bias",)],
                         ids=lambda c: "-".join(c))
@pytest.mark.parametrize("shape", BLOCKED_SHAPES)
def test_blocked_direct_carries_every_path(handle, forced, monkeypatch, shape, chain, layout, isa, rng):
    cpu_only(handle)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", isa)
    forced.force("ConvCpuDirectBlockedFwd")
    n, c, hw, k, r, groups, pad, stride = shape
    pb = Problem(mi.miopenFloat, rng, n, c, hw, k, r, groups, pad, stride, layout)
    y, ref = run_bn_plan(handle, pb, mi.miopenActivationLEAKYRELU, rng, DIRECT, chain)
    forced.check()
    assert rel_l2(nchw(y, layout), ref) <= 1e-5


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_blocked_direct_residual_nhwc(handle, forced, layout, rng):
    """The residual read at the tile's own offsets in either layout (z has y's strides)."""
    cpu_only(handle)
    forced.force("ConvCpuDirectBlockedFwd")
    pb = Problem(mi.miopenFloat, rng, 2, 16, 10, 40, 3, 1, 1, 1, layout)
    k = pb.yshape[1]
    bd, b = desc((1, k, 1, 1)), random_stored((1, k, 1, 1), mi.miopenFloat, rng)
    zd, z = pb.out(rng)
    yd, y = pb.out()
    mi.convolutionBiasActivationForward(handle, 1.0, pb.xd, pb.x, pb.wd, pb.w, pb.cd, DIRECT, None, 0, -0.75,
                                        zd, z, bd, b, act_desc(mi.miopenActivationTANH), yd, y)
    forced.check()
    pre = pb.conv64 + as64(b) - 0.75 * nchw(z, layout)
    assert rel_l2(nchw(y, layout), ref_act.forward(int(mi.miopenActivationTANH), *ACT, pre)) <= 1e-5
