"""The CPU implicit-GEMM solvers (ConvCpuImplicitGemmFwd/Bwd/Wrw) in fp16 and bf16: each forced
alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER, run through its immediate-mode solution) in every direction,
NCHW, groups, depthwise, stride, dilation, padding, 1-3 spatial dims and transposed problems,
against PyTorch's float64 convolution of the same rounded inputs (the accuracy contract of
issue 18: inputs already rounded to the storage type, fp32 accumulation, one rounding at the end),
outputs NaN-poisoned.

The metric and tolerances are MIOpenDriver's (driver/conv_driver.hpp): rms_range, the RMS of the
difference over the larger of the two maxima, against GetDefaultTolerance() = 8.2e-3 for fp16 and
x8 for bf16; times 10 for implicit GEMM forward and backward data (is_fwd_igemm, is_bwd_igemm);
backward weights 2x the default, and for implicit GEMM x5 more in fp16 (is_wrw_igemm; bf16 gets
no extra factor there).

bf16 runs the AVX-512 BF16 (vdpbf16ps) GEMM where the CPU has it, and the fp32 panels with
OpenBLAS where MIOPEN_CY_DEBUG_CPU_ISA caps it (avx2, none): every path is run here by capping.
fp16 converts into the fp32 path (F16C, or the portable loop under `none`). In fp16/bf16,
ConvCpuImplicitGemmBwd also takes strided (and over-padded) problems, through GEMM + col2im."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from support.buffers import desc
from support.conv import BWD, CASES as COMMON_CASES, FWD, WRW, Case, driver_tolerance
from support.db import perf_db, write_perf_db
from support.dtypes import HALF_TYPES, as64, np_dtype, poison, random_stored, rms_range

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

SOLVERS = {FWD: "ConvCpuImplicitGemmFwd", BWD: "ConvCpuImplicitGemmBwd", WRW: "ConvCpuImplicitGemmWrw"}
SOLVER_IDS = {FWD: 1001, BWD: 1002, WRW: 1003}
IGEMM = int(mi.miopenConvolutionAlgoImplicitGEMM)

# The shared cases, an odd K in 1-d, and tiles partly filled / several panels.
CASES = COMMON_CASES + [
    Case(3, 5, (17,), 7, (3,), (1,), (2,), (1,)),                                # 1-d, odd K
    Case(2, 37, (12, 11), 45, (3, 3), (1, 1), (1, 1), (1, 1)),                  # tiles partly filled
    Case(2, 64, (14, 14), 40, (3, 3), (1, 1), (1, 1), (1, 1), groups=2),        # several panels
]


def tolerance(dt, direction):
    return driver_tolerance(dt, direction, igemm=True)


def reference64(case, x, w, dy):
    """float64 y, dx and dw of the stored x, w, dy (dy given in y's shape)."""
    xt = torch.tensor(as64(x), requires_grad=True)
    wt = torch.tensor(as64(w), requires_grad=True)
    y = case.torch_forward(xt, wt)
    y.backward(torch.tensor(as64(dy)))
    return y.detach().numpy(), xt.grad.numpy(), wt.grad.numpy()


def y_shape(case):
    cd = case.conv_desc()
    return tuple(mi.getConvolutionNdForwardOutputDim(cd, desc(case.xshape), desc(case.wshape)))


def run_alone(case, direction, dt, rng, monkeypatch):
    """Runs `direction` of `case` in data type dt with the CPU implicit GEMM forced alone; returns
    (output, float64 reference)."""
    ys = y_shape(case)
    x = random_stored(case.xshape, dt, rng)
    w = random_stored(case.wshape, dt, rng)
    dy = random_stored(ys, dt, rng)
    y_ref, dx_ref, dw_ref = reference64(case, x, w, dy)
    cd = case.conv_desc()
    xd, wd, yd = desc(x.shape, dtype=dt), desc(w.shape, dtype=dt), desc(ys, dtype=dt)
    handle = mi.Handle()
    # The user's directions of a transposed convolution are the canonical opposite ones.
    canonical = {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVERS[canonical])
    sid = SOLVER_IDS[canonical]
    ws = np.empty(1, np.uint8)
    if direction == FWD:
        out, ref = poison(ys, dt), y_ref
        mi.convolutionForwardImmediate(handle, wd, w, xd, x, cd, yd, out, ws, 0, sid)
    elif direction == BWD:
        out, ref = poison(x.shape, dt), dx_ref
        mi.convolutionBackwardDataImmediate(handle, yd, dy, wd, w, cd, xd, out, ws, 0, sid)
    else:
        out, ref = poison(w.shape, dt), dw_ref
        mi.convolutionBackwardWeightsImmediate(handle, yd, dy, xd, x, cd, wd, out, ws, 0, sid)
    return out, ref


@pytest.fixture(params=["best", "avx2", "none"])
def isa(request, monkeypatch):
    """The ISA cap: the CPU's best (vdpbf16ps on this CPU if it has AVX-512 BF16), AVX2, portable."""
    if request.param == "best":
        monkeypatch.delenv("MIOPEN_CY_DEBUG_CPU_ISA", raising=False)
    else:
        monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", request.param)
    return request.param


@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_igemm_alone_16bit(rng, monkeypatch, isa, case, direction, dt):
    out, ref = run_alone(case, direction, dt, rng, monkeypatch)
    assert out.dtype == np_dtype(dt)
    assert not np.any(np.isnan(as64(out))), "unwritten (NaN) output elements"
    err = rms_range(out, ref)
    assert err <= tolerance(dt, direction), f"{SOLVERS[direction]} {isa}: rms_range {err:.3g}"
    # Much tighter in practice: fp32 accumulation and one rounding.
    assert err <= 4 * {int(mi.miopenHalf): 2.0 ** -11, int(mi.miopenBFloat16): 2.0 ** -8}[int(dt)]


def find_and_run(case, direction, dt, x, w, dy, exhaustive):
    """Legacy Find (exhaustive: it searches the variants and writes the perf-db record) and the
    legacy call with the implicit GEMM; returns the output of the call."""
    handle = mi.Handle()
    cd = case.conv_desc()
    ys = y_shape(case)
    xd, wd, yd = desc(x.shape, dtype=dt), desc(w.shape, dtype=dt), desc(ys, dtype=dt)
    ws = np.empty(1, np.uint8)
    if direction == FWD:
        mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poison(ys, dt), 5, ws, 0, exhaustive)
        out = poison(ys, dt)
        mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, IGEMM, 0.0, yd, out, ws, 0)
    elif direction == BWD:
        mi.findConvolutionBackwardDataAlgorithm(handle, yd, dy, wd, w, cd, xd, poison(x.shape, dt), 5, ws, 0,
                                                exhaustive)
        out = poison(x.shape, dt)
        mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, IGEMM, 0.0, xd, out, ws, 0)
    else:
        mi.findConvolutionBackwardWeightsAlgorithm(handle, yd, dy, xd, x, cd, wd, poison(w.shape, dt), 5, ws, 0,
                                                   exhaustive)
        out = poison(w.shape, dt)
        mi.convolutionBackwardWeights(handle, 1.0, yd, dy, xd, x, cd, IGEMM, 0.0, wd, out, ws, 0)
    return out


@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_every_variant_16bit(rng, monkeypatch, dt, direction):
    """Every variant of the tunable table (chunk sizes, NB whole images, igemm_variants.hpp),
    written into the perf-db, gives the right answer in the 16-bit types."""
    case = Case(5, 16, (10, 9), 24, (3, 3), (1, 1), (1, 1), (1, 1))
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVERS[direction])
    x = random_stored(case.xshape, dt, rng)
    w = random_stored(case.wshape, dt, rng)
    dy = random_stored(y_shape(case), dt, rng)
    ref = dict(zip((FWD, BWD, WRW), reference64(case, x, w, dy)))[direction]
    find_and_run(case, direction, dt, x, w, dy, exhaustive=True)
    db = perf_db()
    assert len(db) == 1
    key = next(iter(db))
    assert ("FP16" if int(dt) == int(mi.miopenHalf) else "BF16") in key
    for v in ["256,1", "64,1", "1024,1", "4096,1", "0,2", "0,4"]:
        write_perf_db({key: {SOLVERS[direction]: v}})
        out = find_and_run(case, direction, dt, x, w, dy, exhaustive=False)
        err = rms_range(out, ref)
        assert err <= tolerance(dt, direction), (v, err)


@pytest.mark.parametrize("dt", HALF_TYPES)
def test_16bit_repeatable(rng, monkeypatch, dt):
    """Backward weights is deterministic bit for bit in the 16-bit types too."""
    case = Case(2, 16, (10, 9), 24, (3, 3), (1, 1), (1, 1), (1, 1))
    a, _ = run_alone(case, WRW, dt, np.random.default_rng(5), monkeypatch)
    b, _ = run_alone(case, WRW, dt, np.random.default_rng(5), monkeypatch)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dt", HALF_TYPES)
def test_nhwc_not_applicable(dt):
    """NHWC problems do not reach these solvers (they need packed N, C, spatial tensors)."""
    handle = mi.Handle()
    cd = Case(1, 4, (6, 6), 4, (3, 3), (1, 1), (1, 1), (1, 1)).conv_desc()
    xd = desc((1, 4, 6, 6), (144, 1, 24, 4), dtype=dt)
    wd = desc((4, 4, 3, 3), (36, 1, 12, 4), dtype=dt)
    yd = desc((1, 4, 6, 6), (144, 1, 24, 4), dtype=dt)
    names = [s.solution_id for s in mi.convolutionForwardGetSolution(handle, wd, xd, cd, yd, 16)]
    assert SOLVER_IDS[FWD] not in names


def test_other_types_refused_naming_the_filter():
    """Convolution takes fp32, fp16 and bf16; int8 is refused with an error naming w's parameter."""
    handle = mi.Handle()
    case = Case(1, 4, (6, 6), 4, (3, 3), (1, 1), (1, 1), (1, 1))
    cd = case.conv_desc()
    dt = mi.miopenInt8
    x, w, y = np.zeros(case.xshape, np.int8), np.zeros(case.wshape, np.int8), np.zeros((1, 4, 6, 6), np.int8)
    with pytest.raises(mi.MIOpenNotImplementedError, match=r"wDesc has data type.*miopenFloat, miopenHalf and "
                                                            r"miopenBFloat16"):
        mi.convolutionForwardImmediate(handle, desc(w.shape, dtype=dt), w, desc(x.shape, dtype=dt), x, cd,
                                       desc(y.shape, dtype=dt), y, np.empty(1, np.uint8), 0, SOLVER_IDS[FWD])
