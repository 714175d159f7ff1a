"""Convolution in fp16 and bf16 (issue 18), in NCHW/NCDHW and NHWC/NDHWC: the naive direct solvers
(ConvDirectNaiveConv{Fwd,Bwd,Wrw}, the reference path every problem of these types has) forced
alone through immediate mode and through Find (MIOPEN_DEBUG_FIND_ONLY_SOLVER), every direction,
2-d and 3-d, groups, dilation, stride, transposed, alpha/beta; Find 2.0; the find-db keys carry
the type and layout; the errors (mixed layouts naming both tensors, int8 NotImplemented naming
the parameter, a float16 array against a miopenFloat descriptor).

Accuracy: the inputs are random values already rounded to the storage type, the oracle PyTorch's
float64 convolution of those same values; the solvers accumulate in fp32 and round once, so each
element is within one unit in the last place of the type (relative to max(|ref|, 1)), and the
whole output passes MIOpenDriver's check (driver/conv_driver.hpp, GetDefaultTolerance: rms_range
<= 8.2e-3 for fp16, x8 for bf16; backward weights x2, as its WrW check has; the naive solvers are
not implicit GEMM, so no x10). Outputs are poisoned (NaN) before every call. Every test taking
`handle` runs on each device present (the GPU ones on the GPU machine)."""
import glob
import os

import numpy as np
import pytest
import torch

import miopen_cy as mi
from support.buffers import desc
from support.conv import BWD, CASES, FWD, WRW, driver_tolerance
from support.dtypes import FLOAT_TYPES, HALF_TYPES, as64, check_close, np_dtype, random_stored, rms_range

LAYOUTS = ["nchw", "nhwc"]
# The naive solvers by canonical direction (a transposed convolution swaps forward and backward
# data), with MIOpen's ids.
NAIVE = {FWD: ("ConvDirectNaiveConvFwd", 85), BWD: ("ConvDirectNaiveConvBwd", 86),
         WRW: ("ConvDirectNaiveConvWrw", 87)}
X, W, Y = mi.miopenTensorConvolutionX, mi.miopenTensorConvolutionW, mi.miopenTensorConvolutionY


def canonical(case, direction):
    if case.transpose and direction != WRW:
        return BWD if direction == FWD else FWD
    return direction


def tolerance(dt, direction):
    """MIOpenDriver's rms_range tolerance of the type and direction (WrW: twice the default)."""
    return driver_tolerance(dt, direction)


def layout_array(shape, dt, layout, values=None):
    """An array of logical shape (n, c, spatial...) in the layout's memory order (a channels-last
    array is a transposed view of an (n, spatial..., c) buffer): NaN, or `values`."""
    shape = tuple(int(s) for s in shape)
    nd = len(shape)
    if layout == "nhwc":
        base = np.empty((shape[0],) + shape[2:] + (shape[1],), dtype=np_dtype(dt))
        a = base.transpose((0, nd - 1) + tuple(range(1, nd - 1)))
    else:
        a = np.empty(shape, dtype=np_dtype(dt))
    a[...] = np.nan if values is None else values
    return a


def desc_of(a, dt):
    """The descriptor of array `a` (its lengths and element strides)."""
    return desc(a.shape, [s // a.itemsize for s in a.strides], dt)


class Typed:
    """One case in one type and layout: the inputs (stored, in the layout), their descriptors, and
    PyTorch's float64 forward output and gradients of those stored values."""

    def __init__(self, case, dt, layout, rng):
        self.case, self.dt, self.layout = case, dt, layout
        x = random_stored(case.xshape, dt, rng)
        w = random_stored(case.wshape, dt, rng)
        xt = torch.from_numpy(as64(x)).requires_grad_()
        wt = torch.from_numpy(as64(w)).requires_grad_()
        yt = case.torch_forward(xt, wt)
        dy = random_stored(tuple(yt.shape), dt, rng)
        yt.backward(torch.from_numpy(as64(dy)))
        self.x, self.w, self.dy = (layout_array(a.shape, dt, layout, a) for a in (x, w, dy))
        self.y_ref = yt.detach().numpy()
        self.dx_ref, self.dw_ref = xt.grad.numpy(), wt.grad.numpy()
        self.cd = case.conv_desc()
        self.xd, self.wd, self.yd = (desc_of(a, dt) for a in (self.x, self.w, self.dy))

    def expected(self, direction):
        return {FWD: self.y_ref, BWD: self.dx_ref, WRW: self.dw_ref}[direction]

    def out(self, direction):
        return layout_array(self.expected(direction).shape, self.dt, self.layout)

    def immediate(self, handle, direction, sid, out=None):
        out = self.out(direction) if out is None else out
        ws = np.empty(1, np.uint8)
        if direction == FWD:
            mi.convolutionForwardImmediate(handle, self.wd, self.w, self.xd, self.x, self.cd, self.yd,
                                           out, ws, 0, sid)
        elif direction == BWD:
            mi.convolutionBackwardDataImmediate(handle, self.yd, self.dy, self.wd, self.w, self.cd,
                                                self.xd, out, ws, 0, sid)
        else:
            mi.convolutionBackwardWeightsImmediate(handle, self.yd, self.dy, self.xd, self.x, self.cd,
                                                   self.wd, out, ws, 0, sid)
        return out

    def solution_ids(self, handle, direction):
        descs = {FWD: (self.wd, self.xd, self.cd, self.yd), BWD: (self.yd, self.wd, self.cd, self.xd),
                 WRW: (self.yd, self.xd, self.cd, self.wd)}[direction]
        fn = {FWD: mi.convolutionForwardGetSolution, BWD: mi.convolutionBackwardDataGetSolution,
              WRW: mi.convolutionBackwardWeightsGetSolution}[direction]
        return [s.solution_id for s in fn(handle, *descs, 64)]

    def legacy(self, handle, direction, alpha=1.0, beta=0.0, out=None):
        """Find (its best) then the run call of that algorithm, as MIOpen's users do."""
        out = self.out(direction) if out is None else out
        ws_size = {FWD: lambda: mi.convolutionForwardGetWorkSpaceSize(handle, self.wd, self.xd, self.cd, self.yd),
                   BWD: lambda: mi.convolutionBackwardDataGetWorkSpaceSize(handle, self.yd, self.wd, self.cd, self.xd),
                   WRW: lambda: mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, self.yd, self.xd, self.cd,
                                                                               self.wd)}[direction]()
        ws = np.empty(max(ws_size, 1), np.uint8)
        scratch = self.out(direction)
        if direction == FWD:
            algo = mi.findConvolutionForwardAlgorithm(handle, self.xd, self.x, self.wd, self.w, self.cd, self.yd,
                                                      scratch, 5, ws, ws_size, False)[0].fwd_algo
            mi.convolutionForward(handle, alpha, self.xd, self.x, self.wd, self.w, self.cd, algo, beta, self.yd,
                                  out, ws, ws_size)
        elif direction == BWD:
            algo = mi.findConvolutionBackwardDataAlgorithm(handle, self.yd, self.dy, self.wd, self.w, self.cd,
                                                           self.xd, scratch, 5, ws, ws_size, False)[0].bwd_data_algo
            mi.convolutionBackwardData(handle, alpha, self.yd, self.dy, self.wd, self.w, self.cd, algo, beta,
                                       self.xd, out, ws, ws_size)
        else:
            algo = mi.findConvolutionBackwardWeightsAlgorithm(handle, self.yd, self.dy, self.xd, self.x, self.cd,
                                                              self.wd, scratch, 5, ws, ws_size,
                                                              False)[0].bwd_weights_algo
            mi.convolutionBackwardWeights(handle, alpha, self.yd, self.dy, self.xd, self.x, self.cd, algo, beta,
                                          self.wd, out, ws, ws_size)
        return out

    def check(self, out, direction, ulps=1.0):
        expected = self.expected(direction)
        err = rms_range(expected, as64(out))
        assert err <= tolerance(self.dt, direction), (err, tolerance(self.dt, direction))
        check_close(out, expected, self.dt, ulps=ulps)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_naive_solver_alone_through_immediate_mode(handle, rng, case, direction, dt, layout):
    t = Typed(case, dt, layout, rng)
    name, sid = NAIVE[canonical(case, direction)]
    assert sid in t.solution_ids(handle, direction)      # every problem of the type has it
    t.check(t.immediate(handle, direction, sid), direction)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
@pytest.mark.parametrize("case", [CASES[1], CASES[7], CASES[10]], ids=str)
def test_naive_solver_alone_through_find(handle, rng, monkeypatch, case, direction, dt, layout):
    """MIOPEN_DEBUG_FIND_ONLY_SOLVER leaves Find the one solver; the run call uses it."""
    name, _ = NAIVE[canonical(case, direction)]
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", name)
    t = Typed(case, dt, layout, rng)
    out = t.legacy(handle, direction)
    if int(dt) == int(mi.miopenFloat):
        err = rms_range(t.expected(direction), as64(out))
        assert err <= 1e-5
    else:
        t.check(out, direction)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_find_then_run_in_the_type(handle, rng, direction, dt, layout):
    """Plain Find (whatever solvers the type has) and the run of its best algorithm."""
    t = Typed(CASES[0], dt, layout, rng)
    t.check(t.legacy(handle, direction), direction, ulps=2.0)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_alpha_beta_blend_in_fp32_rounded_once(handle, rng, monkeypatch, direction, dt, layout):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", NAIVE[direction][0])
    t = Typed(CASES[1], dt, layout, rng)
    old = random_stored(t.expected(direction).shape, dt, rng)
    out = layout_array(old.shape, dt, layout, old)
    t.legacy(handle, direction, alpha=0.75, beta=-1.5, out=out)
    # The convolution's result is rounded to the type (the scratch tensor), then blended in fp32
    # and rounded once more: within 2 units of the type of the float64 blend.
    conv = as64(np.asarray(t.expected(direction)).astype(np.float32).astype(np_dtype(dt)))
    check_close(out, 0.75 * conv + -1.5 * as64(old), dt, ulps=2.0)


@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_find2_in_the_type(handle, rng, direction, dt, layout):
    t = Typed(CASES[1], dt, layout, rng)
    problem = mi.createConvProblem(t.cd, {FWD: mi.miopenProblemDirectionForward,
                                          BWD: mi.miopenProblemDirectionBackward,
                                          WRW: mi.miopenProblemDirectionBackwardWeights}[direction])
    for role, d in ((X, t.xd), (W, t.wd), (Y, t.yd)):
        mi.setProblemTensorDescriptor(problem, role, d)
    solutions = mi.findSolutions(handle, problem, None, 16)
    names = {mi.getSolutionSolverId(s) for s in solutions}
    assert NAIVE[direction][1] in names
    for s in solutions:
        bufs = {X: t.x, W: t.w, Y: t.dy}
        bufs[{FWD: Y, BWD: X, WRW: W}[direction]] = out = t.out(direction)
        ws_size = mi.getSolutionWorkspaceSize(s)
        tensors = [mi.TensorArgument(role, None, bufs[role]) for role in (X, W, Y)]
        mi.runSolution(handle, s, 3, tensors, np.empty(max(ws_size, 1), np.uint8), ws_size)
        t.check(out, direction, ulps=2.0)


@pytest.mark.parametrize("dt,word", [(mi.miopenHalf, "FP16"), (mi.miopenBFloat16, "BF16"),
                                     (mi.miopenFloat, "FP32")])
@pytest.mark.parametrize("layout,dims,lay", [("nchw", 2, "NCHW"), ("nhwc", 2, "NHWC-NHWC-NHWC"),
                                             ("nchw", 3, "NCDHW"), ("nhwc", 3, "NDHWC-NDHWC-NDHWC")])
def test_find_db_records_carry_type_and_layout(rng, dt, word, layout, dims, lay):
    handle = mi.Handle()
    case = CASES[0] if dims == 2 else CASES[7]
    t = Typed(case, dt, layout, rng)
    t.legacy(handle, BWD)
    names = glob.glob(os.path.join(os.environ["MIOPEN_USER_DB_PATH"], "cpu-*.ufdb.txt"))
    assert len(names) == 1, names
    with open(names[0]) as f:
        text = f.read()
    assert f"-{lay}-{word}-B=" in text, text


def test_mixed_layouts_are_refused_naming_both_tensors(rng):
    handle = mi.Handle()
    t = Typed(CASES[0], mi.miopenHalf, "nchw", rng)
    y_nhwc = layout_array(t.y_ref.shape, mi.miopenHalf, "nhwc")
    with pytest.raises(mi.BadParmError, match=r"mixed layouts: xDesc is packed channels-first .* "
                                              r"yDesc is packed channels-last"):
        mi.convolutionForwardImmediate(handle, t.wd, t.w, t.xd, t.x, t.cd, desc_of(y_nhwc, mi.miopenHalf),
                                       y_nhwc, np.empty(1, np.uint8), 0, 85)
    assert np.all(np.isnan(as64(y_nhwc)))


@pytest.mark.parametrize("dt", [mi.miopenInt8, mi.miopenInt32, mi.miopenDouble])
def test_other_types_are_not_implemented_naming_the_parameter(dt):
    handle = mi.Handle()
    cd = CASES[0].conv_desc()
    xd, wd = desc(CASES[0].xshape, dtype=dt), desc(CASES[0].wshape, dtype=dt)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd), dtype=dt)
    with pytest.raises(mi.MIOpenNotImplementedError, match="wDesc has data type"):
        mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
    with pytest.raises(mi.MIOpenNotImplementedError, match="wDesc has data type"):
        mi.convolutionForwardGetSolutionCount(handle, wd, xd, cd, yd)


def test_mixed_types_are_refused_naming_the_tensors():
    handle = mi.Handle()
    cd = CASES[0].conv_desc()
    xd, wd = desc(CASES[0].xshape, dtype=mi.miopenHalf), desc(CASES[0].wshape, dtype=mi.miopenFloat)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd), dtype=mi.miopenHalf)
    with pytest.raises(mi.BadParmError, match="xDesc.*wDesc|wDesc.*xDesc"):
        mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)


def test_a_float16_array_against_a_float_descriptor_is_refused(rng):
    handle = mi.Handle()
    t = Typed(CASES[0], mi.miopenFloat, "nchw", rng)
    x16 = t.x.astype(np.float16)
    y = t.out(FWD)
    with pytest.raises(mi.BadParmError, match=r"x: .*'f2' \(float16\) does not match the descriptor's "
                                              r"miopenFloat"):
        mi.convolutionForwardImmediate(handle, t.wd, t.w, t.xd, x16, t.cd, t.yd, y, np.empty(1, np.uint8), 0, 85)
    assert np.all(np.isnan(y))


@pytest.mark.parametrize("dt", HALF_TYPES)
def test_torch_half_tensors_through_dlpack(rng, dt):
    """torch float16 / bfloat16 tensors (channels_last too) are used in place through DLPack."""
    handle = mi.Handle()
    t = Typed(CASES[0], dt, "nhwc", rng)
    tdt = torch.float16 if int(dt) == int(mi.miopenHalf) else torch.bfloat16
    x = torch.from_numpy(as64(t.x)).to(tdt).contiguous(memory_format=torch.channels_last)
    w = torch.from_numpy(as64(t.w)).to(tdt).contiguous(memory_format=torch.channels_last)
    y = torch.full(t.y_ref.shape, float("nan"), dtype=tdt).contiguous(memory_format=torch.channels_last)
    mi.convolutionForwardImmediate(handle, t.wd, w, t.xd, x, t.cd, t.yd, y, np.empty(1, np.uint8), 0, 85)
    t.check(y.to(torch.float64).numpy(), FWD)


def test_fp16_alt_impl_attribute_is_kept_and_changes_nothing(rng, monkeypatch):
    """MIOpen's values -1 (default), 0, 1 are kept and read back (the environment override,
    MIOPEN_DEBUG_CONVOLUTION_ATTRIB_FP16_ALT_IMPL, is MIOpen's kernels' business, not Get's); our
    solvers accumulate in fp32, so the results are the same bits whatever the value."""
    handle = mi.Handle()
    t = Typed(CASES[0], mi.miopenHalf, "nhwc", rng)
    attr = mi.MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL
    assert mi.getConvolutionAttribute(t.cd, attr) == -1
    outs = []
    for value in (-1, 0, 1):
        mi.setConvolutionAttribute(t.cd, attr, value)
        assert mi.getConvolutionAttribute(t.cd, attr) == value
        for direction in (FWD, BWD, WRW):
            outs.append(t.immediate(handle, direction, NAIVE[direction][1]).copy())
    monkeypatch.setenv("MIOPEN_DEBUG_CONVOLUTION_ATTRIB_FP16_ALT_IMPL", "0")
    assert mi.getConvolutionAttribute(t.cd, attr) == 1
    for a, b in zip(outs[:3], outs[3:6]):
        assert a.tobytes() == b.tobytes()
    for a, b in zip(outs[:3], outs[6:]):
        assert a.tobytes() == b.tobytes()
    for bad in (2, -2):
        with pytest.raises(mi.BadParmError, match=f"value = {bad} for MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL"):
            mi.setConvolutionAttribute(t.cd, attr, bad)
    assert mi.getConvolutionAttribute(t.cd, attr) == 1
