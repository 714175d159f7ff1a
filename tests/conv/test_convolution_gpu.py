"""The GPU convolution solvers, each forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) on a GPU handle,
against PyTorch's float64 operators: all three directions, 1-3 spatial dims, pads, strides,
dilations, groups (depthwise too), transposed convolution and strided tensors; outputs poisoned
(NaN) so unwritten elements fail. Find on the GPU: event timing, a find-db named after the GPU's
architecture, alpha/beta blended on the device. ConvGpuDepthwiseFwd / Bwd alone on packed NHWC
(and Wrw not applicable there). Skipped without a GPU."""
import glob
import os
import re

import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.conv import BWD, CASES, FWD, GPU_CASES, TOL, WRW, Case, ChannelsLast, reference, run
from support.devices import requires_gpu

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

GPU_SOLVERS = {
    FWD: ["ConvDirectNaiveConvFwd", "ConvGpuImplicitGemmFwd<128x128>", "ConvGpuImplicitGemmFwd<64x64>",
          "ConvGpuImplicitGemmFwd<128x64>", "ConvGpuImplicitGemmFwd<16x128>", "ConvGpuDepthwiseFwd"],
    BWD: ["ConvDirectNaiveConvBwd", "ConvGpuImplicitGemmBwd<128x128>", "ConvGpuImplicitGemmBwd<64x64>",
          "ConvGpuImplicitGemmBwd<128x64>", "ConvGpuImplicitGemmBwd<16x128>", "ConvGpuDepthwiseBwd"],
    WRW: ["ConvDirectNaiveConvWrw", "ConvGpuImplicitGemmWrw<128x128>", "ConvGpuImplicitGemmWrw<64x64>",
          "ConvGpuImplicitGemmWrw<128x64>", "ConvGpuImplicitGemmWrw<16x128>", "ConvGpuDepthwiseWrw"],
}
ALGO = {"ConvDirectNaive": int(mi.miopenConvolutionAlgoDirect),
        "ConvGpuDepthwise": int(mi.miopenConvolutionAlgoDirect),
        "ConvGpuImplicitGemm": int(mi.miopenConvolutionAlgoImplicitGEMM)}

def depthwise_2d(case):
    return case.dims == 2 and case.groups == case.c == case.k and not case.transpose


def gpu_handle():
    return mi.Handle(device="gpu")


def _algo(solver):
    return next(v for k, v in ALGO.items() if solver.startswith(k))


@requires_gpu
@pytest.mark.parametrize("case", GPU_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_each_gpu_solver_alone(rng, monkeypatch, case, direction):
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    canonical = {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction
    for solver in GPU_SOLVERS[canonical]:
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
        applies = not solver.startswith("ConvGpuDepthwise") or (
            depthwise_2d(case) and (canonical != WRW or np.prod(case.filt) <= 25))
        if not applies:
            with pytest.raises(mi.BadParmError, match="not applicable"):
                run(handle, case, direction, x, w, dy, algo=_algo(solver))
            continue
        got = run(handle, case, direction, x, w, dy, algo=_algo(solver))
        assert rel_l2(got, expect) <= TOL, solver


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gpu_solvers_on_strided_tensors(rng, monkeypatch, direction):
    handle = gpu_handle()
    case = Case(2, 4, (7, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1))
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    for solver in GPU_SOLVERS[direction]:
        if solver.startswith("ConvGpuDepthwise"):   # packed tensors only, and not depthwise here
            continue
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
        X, W, DY = Strided(x.shape, fill=x), Strided(w.shape, fill=w), Strided(dy.shape, fill=dy)
        cd, xd, wd, yd = case.conv_desc(), X.desc(), W.desc(), DY.desc()
        algo = _algo(solver)
        if direction == FWD:
            out, expect = Strided(y_ref.shape, fill=np.nan), y_ref
            mi.convolutionForward(handle, 1.0, xd, X.buf, wd, W.buf, cd, algo, 0.0, out.desc(), out.buf,
                                  None, 0)
        elif direction == BWD:
            out, expect = Strided(x.shape, fill=np.nan), dx_ref
            mi.convolutionBackwardData(handle, 1.0, yd, DY.buf, wd, W.buf, cd, algo, 0.0, out.desc(),
                                       out.buf, None, 0)
        else:
            out, expect = Strided(w.shape, fill=np.nan), dw_ref
            size = mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, out.desc())
            ws = np.zeros(max(size, 1), np.uint8)
            mi.convolutionBackwardWeights(handle, 1.0, yd, DY.buf, xd, X.buf, cd, algo, 0.0, out.desc(),
                                          out.buf, ws, size)
        assert rel_l2(out.view, expect) <= TOL and out.gaps_untouched(), solver


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gpu_alpha_beta_blend_on_the_device(rng, direction):
    handle = gpu_handle()
    case = GPU_CASES[-3]
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    prior = rng.standard_normal(expect.shape).astype(np.float32)
    out = prior.copy()
    run(handle, case, direction, x, w, dy, algo=int(mi.miopenConvolutionAlgoImplicitGEMM), alpha=0.5,
        beta=-1.5, out=out)
    assert rel_l2(out, 0.5 * expect - 1.5 * prior.astype(np.float64)) <= TOL


@requires_gpu
def test_gpu_find_records_per_architecture(rng):
    handle = gpu_handle()
    case = GPU_CASES[-5]
    x, w, dy, y_ref, *_ = reference(case, rng)
    got = run(handle, case, FWD, x, w, dy)       # Find, then the run with the best algorithm
    assert rel_l2(got, y_ref) <= TOL
    files = glob.glob(os.path.join(os.environ["MIOPEN_USER_DB_PATH"], "*.ufdb.txt"))
    names = [os.path.basename(f) for f in files]
    assert any(re.match(r"(sm_\d+|gfx[0-9a-f]+)-[0-9a-f]{8}\.ufdb\.txt$", n) for n in names), names
    with open(files[0]) as f:
        text = f.read()
    assert "ConvGpuImplicitGemmFwd" in text and "ConvDirectNaiveConvFwd" in text


@requires_gpu
def test_gpu_results_are_bitwise_deterministic(rng):
    handle = gpu_handle()
    case = GPU_CASES[-5]
    x, w, dy, *_ = reference(case, rng)
    for direction in (FWD, BWD, WRW):
        a = run(handle, case, direction, x, w, dy, algo=int(mi.miopenConvolutionAlgoImplicitGEMM))
        b = run(handle, case, direction, x, w, dy, algo=int(mi.miopenConvolutionAlgoImplicitGEMM))
        assert np.array_equal(a, b), direction


def test_cpu_handle_never_offers_gpu_solvers(rng, monkeypatch):
    handle = mi.Handle(device="cpu")
    case = CASES[0]
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvGpuImplicitGemmFwd<64x64>")
    with pytest.raises(mi.BadParmError):
        run(handle, case, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoImplicitGEMM))


@pytest.fixture
def gpu():
    return mi.Handle(device="gpu")


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_convolution_on_the_gpu_matches_the_cpu(gpu):
    # The GPU convolution solvers (the tests above force each alone): the same call on both devices.
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    xd, wd, yd = desc((1, 2, 5, 5)), desc((3, 2, 3, 3)), desc((1, 3, 5, 5))
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    out = {}
    for name, h in (("gpu", gpu), ("cpu", mi.Handle(device="cpu"))):
        size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        ws = np.empty(max(size, 1), np.uint8)
        y = np.full((1, 3, 5, 5), np.nan, np.float32)
        mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, int(mi.miopenConvolutionAlgoDirect), 0.0, yd, y,
                              ws, size)
        out[name] = y
    assert rel_l2(out["gpu"], out["cpu"]) <= 1e-5


# ---- ConvGpuDepthwiseFwd / Bwd on packed NHWC (issue 18 item 3) --------------------------------

DEPTHWISE_IDS = {FWD: 2031, BWD: 2032, WRW: 2033}
NHWC_DEPTHWISE = [c for c in GPU_CASES if depthwise_2d(c)] + [
    Case(2, 37, (9, 8), 37, (3, 3), (1, 1), (1, 1), (1, 1), groups=37),        # channels a multiple of nothing
    Case(3, 64, (14, 13), 64, (3, 3), (1, 1), (2, 2), (1, 1), groups=64),      # stride 2
]


@requires_gpu
@pytest.mark.parametrize("case", NHWC_DEPTHWISE, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD])
def test_depthwise_on_nhwc_alone(rng, case, direction):
    t = ChannelsLast(case, rng)
    handle = gpu_handle()
    first = t.run(handle, direction, DEPTHWISE_IDS[direction])
    again = t.run(handle, direction, DEPTHWISE_IDS[direction])
    assert rel_l2(first, t.expected(direction)) <= TOL
    assert first.tobytes() == again.tobytes()


@requires_gpu
def test_depthwise_wrw_on_nhwc_is_not_applicable(rng):
    t = ChannelsLast(NHWC_DEPTHWISE[0], rng)
    with pytest.raises(mi.BadParmError, match="packed NHWC: forward and backward data only"):
        t.run(gpu_handle(), WRW, DEPTHWISE_IDS[WRW])
