"""The FFT solver ("fft", MIOpen id 34) for forward and backward data: forced alone against
the float64 NumPy reference, itself checked against PyTorch (relative L2 <= 1e-4, DESIGN.md's FFT
bound), where it applies and why not elsewhere, the MIOPEN_DEBUG_CONV_FFT switch, alpha/beta, the
workspace it needs, and run-to-run determinism."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.conv import BWD, CASES, FWD, WRW, Case, reference, run
from support.devices import requires_gpu

SOLVER, ID = "fft", 34
TOL = 1e-4
ALGO = int(mi.miopenConvolutionAlgoFFT)


def cf(n, c, hw, k, filt, pad, transpose=False):
    """A stride-1 convolution."""
    return Case(n, c, hw, k, filt, pad, (1, 1), (1, 1), transpose=transpose)


ACCURACY = [
    cf(1, 3, (9, 9), 2, (5, 5), (2, 2)),            # one tile
    cf(2, 5, (17, 13), 7, (5, 5), (0, 0)),          # odd sizes, no pad, N > 1
    cf(3, 7, (23, 19), 5, (7, 7), (3, 1)),          # mixed pads
    cf(2, 11, (31, 29), 13, (11, 11), (5, 5)),      # 11x11
    cf(1, 4, (12, 40), 3, (4, 6), (1, 2)),          # even, non-square filters
    cf(2, 6, (15, 14), 5, (1, 7), (0, 3)),          # 1x7
    cf(1, 3, (8, 8), 4, (5, 5), (6, 7)),            # pads past the filter: backward crops
    cf(1, 2, (7, 9), 3, (7, 9), (0, 0)),            # a 1x1 output
    cf(2, 64, (28, 28), 64, (5, 5), (2, 2)),        # 64 channels in and out
    cf(32, 64, (28, 28), 64, (5, 5), (2, 2)),       # several chunks of tiles, one at a time
    cf(96, 8, (16, 16), 8, (5, 5), (2, 2)),         # many tiles: a chunk per thread (2 or 3 threads)
    cf(1, 96, (13, 13), 80, (7, 7), (3, 3)),        # channels not multiples of anything nice
    cf(4, 3, (64, 64), 8, (9, 9), (4, 4)),          # many tiles, few channels
    cf(1, 2, (80, 75), 2, (33, 21), (16, 10)),      # large filter: large FFT sizes (radix 3, 5)
    cf(2, 6, (9, 8), 4, (5, 5), (2, 2), transpose=True),   # transposed: canonical backward is forward
]
DIRECTIONS = [FWD, BWD]


@pytest.fixture
def handle():
    """The FFT solver runs on the CPU only: these tests use a CPU handle (on a GPU handle it is not
    applicable, test_fft_is_not_applicable_on_a_gpu_handle)."""
    return mi.Handle(device="cpu")


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_fft_is_not_applicable_on_a_gpu_handle(rng, monkeypatch, direction):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    case = ACCURACY[0]
    x, w, dy, *_ = reference(case, rng)
    out = poisoned(dy.shape if direction == FWD else x.shape)
    with pytest.raises(mi.BadParmError, match="no solver of algorithm FFT") as info:
        run(mi.Handle(device="gpu"), case, direction, x, w, dy, algo=ALGO, out=out)
    assert "no solver for this direction and device" in str(info.value)
    assert np.all(np.isnan(out))


@pytest.mark.parametrize("case", ACCURACY, ids=str)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_forced_fft_matches_torch_float64(handle, rng, monkeypatch, direction, case):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    x, w, dy, y_ref, dx_ref, _ = reference(case, rng)
    got = run(handle, case, direction, x, w, dy, algo=ALGO)
    assert rel_l2(got, y_ref if direction == FWD else dx_ref) <= TOL


@pytest.mark.parametrize("case", CASES + ACCURACY[:8], ids=str)
def test_numpy_reference_agrees_with_torch(rng, case):
    """The float64 NumPy reference (miopen_cy.reference.conv) itself checked against PyTorch in
    every direction, so it cannot silently agree with a bug."""
    torch = pytest.importorskip("torch")
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    xt = torch.from_numpy(x).double().requires_grad_()
    wt = torch.from_numpy(w).double().requires_grad_()
    y = case.torch_forward(xt, wt)
    y.backward(torch.from_numpy(dy).double())
    assert rel_l2(y_ref, y.detach().numpy()) <= 1e-12
    assert rel_l2(dx_ref, xt.grad.numpy()) <= 1e-12
    assert rel_l2(dw_ref, wt.grad.numpy()) <= 1e-12


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_forced_by_id_and_through_find(handle, rng, monkeypatch, direction):
    case = ACCURACY[2]
    x, w, dy, y_ref, dx_ref, _ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", str(ID))
    got = run(handle, case, direction, x, w, dy)        # Find, then its best (the only one)
    assert rel_l2(got, y_ref if direction == FWD else dx_ref) <= TOL


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_find_offers_fft_for_large_filters(handle, rng, direction):
    case = cf(2, 8, (20, 20), 8, (7, 7), (3, 3))
    x, w, dy, y_ref, dx_ref, _ = reference(case, rng)
    out = poisoned(y_ref.shape if direction == FWD else x.shape)
    found = find(handle, direction, case, x, w, dy, out, 256 << 20)
    fft = [m for a, m in found if a == ALGO]
    assert len(fft) == 1 and fft[0] > 0
    assert rel_l2(out, y_ref if direction == FWD else dx_ref) <= 1e-4


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_results_are_bitwise_deterministic(handle, rng, monkeypatch, direction):
    case = ACCURACY[3]
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    a = run(handle, case, direction, x, w, dy, algo=ALGO)
    b = run(handle, case, direction, x, w, dy, algo=ALGO)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("alpha,beta", [(2.0, 0.0), (0.5, -1.5)])
def test_alpha_beta_blend(handle, rng, monkeypatch, direction, alpha, beta):
    case = ACCURACY[1]
    x, w, dy, y_ref, dx_ref, _ = reference(case, rng)
    ref = y_ref if direction == FWD else dx_ref
    prior = rng.standard_normal(ref.shape).astype(np.float32)
    out = prior.copy()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    run(handle, case, direction, x, w, dy, algo=ALGO, alpha=alpha, beta=beta, out=out)
    assert rel_l2(out, alpha * ref + beta * prior.astype(np.float64)) <= TOL


# ---- where it does not apply, and why ------------------------------------------------------------

NOT_APPLICABLE = [
    (Case(1, 4, (9, 9), 4, (3, 3), (1, 1), (1, 1), (1, 1)), "filter of 3x3 or smaller"),
    (Case(1, 4, (9, 9), 4, (1, 1), (0, 0), (1, 1), (1, 1)), "filter of 3x3 or smaller"),
    (Case(1, 4, (9, 9), 4, (5, 5), (2, 2), (2, 2), (1, 1)), "needs stride 1"),
    (Case(1, 4, (12, 12), 4, (5, 5), (2, 2), (1, 1), (2, 2)), "needs dilation 1"),
    (Case(1, 4, (9, 9), 4, (5, 5), (2, 2), (1, 1), (1, 1), groups=2), "needs one group"),
    (Case(1, 1, (66, 66), 1, (65, 65), (0, 0), (1, 1), (1, 1)), "filter larger than 64x64"),
    (Case(1, 4, (9,), 4, (5,), (2,), (1,), (1,)), "needs 2 spatial dims"),
    (Case(1, 2, (6, 6, 6), 2, (5, 5, 5), (2, 2, 2), (1, 1, 1), (1, 1, 1)), "needs 2 spatial dims"),
    # The ResNet-50 stem (7x7 stride 2) is out of the FFT's reach.
    (Case(1, 3, (32, 32), 8, (7, 7), (3, 3), (2, 2), (1, 1)), "needs stride 1"),
]


@pytest.mark.parametrize("case,reason", NOT_APPLICABLE, ids=lambda v: str(v) if isinstance(v, Case) else "")
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_not_applicable_says_why(handle, rng, monkeypatch, direction, case, reason):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    x, w, dy, *_ = reference(case, rng)
    out = poisoned(dy.shape if direction == FWD else x.shape)
    with pytest.raises(mi.BadParmError, match="not applicable") as info:
        run(handle, case, direction, x, w, dy, algo=ALGO, out=out)
    assert SOLVER in str(info.value) and reason in str(info.value)
    assert np.all(np.isnan(out))


def test_backward_weights_has_no_fft(handle, rng, monkeypatch):
    """MIOpen has no FFT for backward weights (miopenConvBwdWeightsAlgorithm_t has no FFT member):
    forcing the solver leaves no solver at all."""
    case = ACCURACY[1]
    x, w, dy, *_ = reference(case, rng)
    assert not hasattr(mi, "miopenConvolutionBwdWeightsAlgoFFT")
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    out = poisoned(w.shape)
    with pytest.raises(mi.BadParmError):
        run(handle, case, WRW, x, w, dy, out=out)
    assert np.all(np.isnan(out))


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_strided_tensors_are_not_applicable(handle, rng, monkeypatch, direction):
    case = cf(2, 4, (9, 8), 5, (5, 5), (2, 2))
    x, w, dy, *_ = reference(case, rng)
    X, W, DY = Strided(x.shape, fill=x), Strided(w.shape, fill=w), Strided(dy.shape, fill=dy)
    cd = case.conv_desc()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    ws = np.empty(1 << 20, np.uint8)
    with pytest.raises(mi.BadParmError, match="needs packed N, C, spatial tensors"):
        if direction == FWD:
            out = Strided(dy.shape, fill=np.nan)
            mi.convolutionForward(handle, 1.0, X.desc(), X.buf, W.desc(), W.buf, cd, ALGO, 0.0, out.desc(),
                                  out.buf, ws, ws.nbytes)
        else:
            out = Strided(x.shape, fill=np.nan)
            mi.convolutionBackwardData(handle, 1.0, DY.desc(), DY.buf, W.desc(), W.buf, cd, ALGO, 0.0,
                                       out.desc(), out.buf, ws, ws.nbytes)


# ---- switches and workspace ----------------------------------------------------------------------

LAYER = cf(2, 8, (16, 16), 8, (5, 5), (2, 2))


def find(handle, direction, case, x, w, dy, out, size):
    cd, xd, wd, yd = case.conv_desc(), desc(x.shape), desc(w.shape), desc(dy.shape)
    ws = np.empty(max(size, 1), np.uint8)
    if direction == FWD:
        perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, out, 5, ws, size, False)
        return [(int(p.fwd_algo), p.memory) for p in perf]
    perf = mi.findConvolutionBackwardDataAlgorithm(handle, yd, dy, wd, w, cd, xd, out, 5, ws, size, False)
    return [(int(p.bwd_data_algo), p.memory) for p in perf]


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_switch_off_removes_fft(handle, rng, monkeypatch, direction):
    x, w, dy, *_ = reference(LAYER, rng)
    out = poisoned(dy.shape if direction == FWD else x.shape)
    monkeypatch.setenv("MIOPEN_FIND_MODE", "NORMAL")
    assert ALGO in [a for a, _ in find(handle, direction, LAYER, x, w, dy, out, 256 << 20)]
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_FFT", "0")
    assert ALGO not in [a for a, _ in find(handle, direction, LAYER, x, w, dy, out, 256 << 20)]
    out = poisoned(out.shape)
    with pytest.raises(mi.BadParmError, match="disabled by MIOPEN_DEBUG_CONV_FFT=0"):
        run(handle, LAYER, direction, x, w, dy, algo=ALGO, out=out)
    assert np.all(np.isnan(out))


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_workspace_is_reported_and_enforced(handle, rng, monkeypatch, direction):
    x, w, dy, y_ref, dx_ref, _ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    out = poisoned(dy.shape if direction == FWD else x.shape)
    need = dict(find(handle, direction, LAYER, x, w, dy, out, 256 << 20))[ALGO]
    # At least the filter spectra (8 x 8 filters, >= 8 x 5 bins of 8 bytes) and the tiles' spectra.
    assert need >= 8 * 8 * 8 * 40
    cd, xd, wd, yd = LAYER.conv_desc(), desc(x.shape), desc(w.shape), desc(dy.shape)
    query = (mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd) if direction == FWD
             else mi.convolutionBackwardDataGetWorkSpaceSize(handle, yd, wd, cd, xd))
    assert query >= need
    ws = np.empty(need, np.uint8)
    out = poisoned(out.shape)
    with pytest.raises(mi.BadParmError, match=f"fft needs {need} bytes of workspace; {need - 1} given"):
        if direction == FWD:
            mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, ALGO, 0.0, yd, out, ws, need - 1)
        else:
            mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, ALGO, 0.0, xd, out, ws, need - 1)
    assert np.all(np.isnan(out))
    if direction == FWD:     # exactly enough runs
        mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, ALGO, 0.0, yd, out, ws, need)
    else:
        mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, ALGO, 0.0, xd, out, ws, need)
    assert rel_l2(out, y_ref if direction == FWD else dx_ref) <= TOL
