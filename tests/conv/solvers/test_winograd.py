"""Winograd solvers: ConvMPBidirectWinograd<4-3> (F(4x4,3x3)) and <2-3> (F(2x2,3x3)) for forward
and backward data, ConvCpuWinogradWrw<4-3> and <2-3> for backward weights. Each forced alone
against PyTorch's float64 convolution (relative L2 <= 1e-4, DESIGN.md's Winograd bound), where they
apply and why not elsewhere, the MIOPEN_DEBUG_CONV_WINOGRAD switch, and the workspace they need.

On a GPU handle (the same solvers serve both devices, as MIOpen's do; ids 69, 67, 1010, 1011):
transforms around strided-batched SGEMMs over the tile elements (hip/kernels/conv/conv_winograd.hip),
each forced alone (by name, by id through Find, immediate mode and Find 2.0) against PyTorch's
float64 convolution and its float32 CPU one, outputs poisoned (NaN) so unwritten elements fail;
where they do not apply and why; MIOPEN_DEBUG_CONV_WINOGRAD=0; the workspace. Skipped without a
GPU. The GPU's solvers for 5x5 filters (ConvMPBidirectWinograd<4-5>, id 2041, F(4x4,5x5);
MIOpen's ConvWinograd3x3MultipassWrW<5-4> and <5-3>, ids 49 and 48) run the same tests with 5x5
cases, and on a CPU handle say that they are GPU solvers."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.conv import BWD, FWD, WRW, Call, Case, ChannelsLast, reference, run
from support.devices import requires_gpu


@pytest.fixture
def handle():
    """These tests cover the CPU Winograd solvers: a CPU handle only."""
    return mi.Handle(device="cpu")


WINOGRAD = ["ConvMPBidirectWinograd<4-3>", "ConvMPBidirectWinograd<2-3>"]
WINOGRAD_WRW = ["ConvCpuWinogradWrw<4-3>", "ConvCpuWinogradWrw<2-3>"]
SOLVERS = {FWD: WINOGRAD, BWD: WINOGRAD, WRW: WINOGRAD_WRW}
IDS = {"ConvMPBidirectWinograd<4-3>": 69, "ConvMPBidirectWinograd<2-3>": 67,
       "ConvCpuWinogradWrw<4-3>": 1010, "ConvCpuWinogradWrw<2-3>": 1011}
TOL = 1e-4
ALGO = int(mi.miopenConvolutionAlgoWinograd)


def c3(n, c, hw, k, pad, groups=1, transpose=False):
    """A 3x3 stride-1 convolution."""
    return Case(n, c, hw, k, (3, 3), pad, (1, 1), (1, 1), groups=groups, transpose=transpose)


def c5(n, c, hw, k, pad, groups=1, transpose=False):
    """A 5x5 stride-1 convolution."""
    return Case(n, c, hw, k, (5, 5), pad, (1, 1), (1, 1), groups=groups, transpose=transpose)


ACCURACY = [
    c3(1, 3, (5, 5), 2, (1, 1)),                    # one tile, partly outside
    c3(2, 4, (9, 8), 6, (1, 1)),                    # H, W not multiples of either tile
    c3(3, 5, (13, 7), 7, (0, 2)),                   # mixed pads, N > 1
    c3(2, 8, (11, 10), 6, (2, 0), groups=2),        # groups
    c3(1, 12, (7, 9), 9, (1, 2), groups=3),
    c3(2, 6, (6, 5), 4, (3, 4)),                    # pads past the filter: backward crops
    c3(1, 4, (3, 3), 5, (0, 0)),                    # a 1x1 output
    c3(2, 256, (14, 14), 256, (1, 1)),              # large channel counts (ResNet-50's 14x14)
    c3(1, 256, (9, 11), 64, (0, 0)),
    c3(4, 64, (30, 29), 32, (1, 1)),                # several chunks of tile rows
    c3(4, 32, (56, 56), 32, (1, 1)),                # few channels, large images: the pipelined
                                                    # schedule (up to 9 threads)
    c3(2, 6, (7, 6), 4, (1, 1), transpose=True),    # transposed: canonical backward data is forward
]


FORCED = [(d, s) for d in (FWD, BWD, WRW) for s in SOLVERS[d]]


@pytest.mark.parametrize("case", ACCURACY, ids=str)
@pytest.mark.parametrize("direction,solver", FORCED)
def test_forced_solver_matches_torch_float64(handle, rng, monkeypatch, solver, direction, case):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    got = run(handle, case, direction, x, w, dy, algo=ALGO)
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL


@pytest.mark.parametrize("direction,solver", FORCED)
def test_forced_solver_by_id_and_through_find(handle, rng, monkeypatch, direction, solver):
    case = ACCURACY[2]
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", str(IDS[solver]))
    got = run(handle, case, direction, x, w, dy)        # Find, then its best (the only one)
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL


def test_find_offers_winograd_for_3x3_stride_1(handle, rng):
    case = c3(2, 16, (12, 12), 16, (1, 1))
    x, w, dy, y_ref, *_ = reference(case, rng)
    cd, xd, wd, yd = case.conv_desc(), desc(x.shape), desc(w.shape), desc(y_ref.shape)
    size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
    y = poisoned(y_ref.shape)
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, y, 5, np.empty(size, np.uint8),
                                              size, False)
    wino = [p for p in perf if p.fwd_algo == mi.miopenConvolutionFwdAlgoWinograd]
    assert len(wino) == 1 and 0 < wino[0].memory <= size and wino[0].time > 0
    assert rel_l2(y, y_ref) <= TOL


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_results_are_bitwise_deterministic(handle, rng, monkeypatch, direction):
    case = c3(2, 48, (17, 15), 40, (1, 1))
    x, w, dy, *_ = reference(case, rng)
    for solver in SOLVERS[direction]:
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
        a = run(handle, case, direction, x, w, dy, algo=ALGO)
        b = run(handle, case, direction, x, w, dy, algo=ALGO)
        assert np.array_equal(a, b), solver


@pytest.mark.parametrize("alpha,beta", [(2.0, 0.0), (0.5, -1.5)])
def test_alpha_beta_blend(handle, rng, monkeypatch, alpha, beta):
    case = ACCURACY[1]
    x, w, dy, y_ref, *_ = reference(case, rng)
    prior = rng.standard_normal(y_ref.shape).astype(np.float32)
    out = prior.copy()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", WINOGRAD[0])
    run(handle, case, FWD, x, w, dy, algo=ALGO, alpha=alpha, beta=beta, out=out)
    assert rel_l2(out, alpha * y_ref + beta * prior.astype(np.float64)) <= TOL


# ---- where it does not apply, and why ------------------------------------------------------------

NOT_APPLICABLE = [
    (Case(1, 4, (9, 9), 4, (5, 5), (2, 2), (1, 1), (1, 1)), "needs a 3x3 filter"),
    (Case(1, 4, (9, 9), 4, (3, 3), (1, 1), (2, 2), (1, 1)), "needs stride 1"),
    (Case(1, 4, (9, 9), 4, (3, 3), (2, 2), (1, 1), (2, 2)), "needs dilation 1"),
    (Case(1, 4, (9, 9), 4, (1, 1), (0, 0), (1, 1), (1, 1)), "needs a 3x3 filter"),
    (Case(1, 6, (9, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1), groups=6), "depthwise"),
    (Case(1, 4, (9,), 4, (3,), (1,), (1,), (1,)), "needs 2 spatial dims"),
    (Case(1, 2, (5, 6, 5), 2, (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1)), "needs 2 spatial dims"),
]


@pytest.mark.parametrize("case,reason", NOT_APPLICABLE, ids=lambda v: str(v) if isinstance(v, Case) else "")
@pytest.mark.parametrize("direction,solver", FORCED)
def test_not_applicable_says_why(handle, rng, monkeypatch, solver, direction, case, reason):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, *_ = reference(case, rng)
    with pytest.raises(mi.BadParmError, match="not applicable") as info:
        run(handle, case, direction, x, w, dy, algo=ALGO)
    assert solver in str(info.value) and reason in str(info.value)


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_strided_tensors_are_not_applicable(handle, rng, monkeypatch, direction):
    case = c3(2, 4, (7, 6), 5, (1, 1))
    x, w, dy, *_ = reference(case, rng)
    X, W, DY = Strided(x.shape, fill=x), Strided(w.shape, fill=w), Strided(dy.shape, fill=dy)
    cd = case.conv_desc()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVERS[direction][0])
    ws = np.empty(1 << 20, np.uint8)
    with pytest.raises(mi.BadParmError, match="needs packed N, C, spatial tensors"):
        if direction == FWD:
            out = Strided((2, 5, 7, 6), fill=np.nan)
            mi.convolutionForward(handle, 1.0, X.desc(), X.buf, W.desc(), W.buf, cd, ALGO, 0.0, out.desc(),
                                  out.buf, ws, ws.nbytes)
        elif direction == BWD:
            out = Strided(x.shape, fill=np.nan)
            mi.convolutionBackwardData(handle, 1.0, DY.desc(), DY.buf, W.desc(), W.buf, cd, ALGO, 0.0,
                                       out.desc(), out.buf, ws, ws.nbytes)
        else:
            out = Strided(w.shape, fill=np.nan)
            mi.convolutionBackwardWeights(handle, 1.0, DY.desc(), DY.buf, X.desc(), X.buf, cd, ALGO, 0.0,
                                          out.desc(), out.buf, ws, ws.nbytes)


def test_find_offers_winograd_for_backward_weights(handle, rng):
    case = c3(2, 8, (10, 9), 6, (1, 1))
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    cd, xd, wd, yd = case.conv_desc(), desc(x.shape), desc(w.shape), desc(dy.shape)
    size = mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, wd)
    dw = poisoned(w.shape)
    perf = mi.findConvolutionBackwardWeightsAlgorithm(handle, yd, dy, xd, x, cd, wd, dw, 5,
                                                      np.empty(max(size, 1), np.uint8), size, False)
    assert any(p.bwd_weights_algo == mi.miopenConvolutionBwdWeightsAlgoWinograd for p in perf)
    assert rel_l2(dw, dw_ref) <= TOL


# ---- switches and workspace ----------------------------------------------------------------------

LAYER = c3(2, 16, (12, 12), 16, (1, 1))


def find(handle, direction, case, x, w, dy, out, size, ws=None):
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(dy.shape)
    ws = np.empty(max(size, 1), np.uint8) if ws is None else ws
    if direction == FWD:
        perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, out, 5, ws, size, False)
        return [(int(p.fwd_algo), p.memory) for p in perf]
    if direction == BWD:
        perf = mi.findConvolutionBackwardDataAlgorithm(handle, yd, dy, wd, w, cd, xd, out, 5, ws, size, False)
        return [(int(p.bwd_data_algo), p.memory) for p in perf]
    perf = mi.findConvolutionBackwardWeightsAlgorithm(handle, yd, dy, xd, x, cd, wd, out, 5, ws, size, False)
    return [(int(p.bwd_weights_algo), p.memory) for p in perf]


def output_shape(direction, x, w, dy):
    return {FWD: dy.shape, BWD: x.shape, WRW: w.shape}[direction]


def solver_workspace(handle, monkeypatch, direction, solver, case, x, w, dy):
    """The workspace Find reports for `solver` alone, given plenty."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    out = poisoned(output_shape(direction, x, w, dy))
    found = dict(find(handle, direction, case, x, w, dy, out, 64 << 20))
    monkeypatch.delenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER")
    return found[ALGO]


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_switch_off_removes_winograd_from_find(handle, rng, monkeypatch, direction):
    x, w, dy, *_ = reference(LAYER, rng)
    out = poisoned(output_shape(direction, x, w, dy))
    assert ALGO in [a for a, _ in find(handle, direction, LAYER, x, w, dy, out, 64 << 20)]
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_WINOGRAD", "0")
    assert ALGO not in [a for a, _ in find(handle, direction, LAYER, x, w, dy, out, 64 << 20)]
    with pytest.raises(mi.BadParmError, match="disabled by MIOPEN_DEBUG_CONV_WINOGRAD=0"):
        run(handle, LAYER, direction, x, w, dy, algo=ALGO)


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_too_small_a_workspace_skips_winograd(handle, rng, monkeypatch, direction):
    x, w, dy, y_ref, dx_ref, dw_ref = reference(LAYER, rng)
    need = {s: solver_workspace(handle, monkeypatch, direction, s, LAYER, x, w, dy) for s in SOLVERS[direction]}
    least = min(need.values())
    assert least > 0
    out = poisoned(output_shape(direction, x, w, dy))
    monkeypatch.setenv("MIOPEN_FIND_MODE", "NORMAL")
    assert ALGO not in [a for a, _ in find(handle, direction, LAYER, x, w, dy, out, least - 1)]
    cd, xd, wd, yd = LAYER.conv_desc(), desc(x.shape), desc(w.shape), desc(dy.shape)
    ws = np.empty(least, np.uint8)
    out = poisoned(out.shape)
    with pytest.raises(mi.BadParmError, match="no solver of algorithm Winograd") as info:
        if direction == FWD:
            mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, ALGO, 0.0, yd, out, ws, least - 1)
        elif direction == BWD:
            mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, ALGO, 0.0, xd, out, ws, least - 1)
        else:
            mi.convolutionBackwardWeights(handle, 1.0, yd, dy, xd, x, cd, ALGO, 0.0, wd, out, ws, least - 1)
    for solver, size in need.items():
        assert f"{solver} needs {size} bytes of workspace; {least - 1} given" in str(info.value)
    assert np.all(np.isnan(out))
    if direction == FWD:     # exactly enough runs
        mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, ALGO, 0.0, yd, out, ws, least)
    elif direction == BWD:
        mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, ALGO, 0.0, xd, out, ws, least)
    else:
        mi.convolutionBackwardWeights(handle, 1.0, yd, dy, xd, x, cd, ALGO, 0.0, wd, out, ws, least)
    assert rel_l2(out, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL


def test_workspace_query_covers_winograd(handle):
    cd, xd, wd = LAYER.conv_desc(), desc(LAYER.xshape), desc(LAYER.wshape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    fwd = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
    bwd = mi.convolutionBackwardDataGetWorkSpaceSize(handle, yd, wd, cd, xd)
    wrw = mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, wd)
    # 16 channels in and out, 2 x 3 x 3 tiles of F(4x4): 36 elements x 18 tiles x 32 channels;
    # backward data adds the filters (16 x 16 x 9), backward weights the sums (36 x 16 x 16).
    assert fwd >= 4 * 36 * 18 * 32 and bwd >= 4 * (36 * 18 * 32 + 16 * 16 * 9)
    assert wrw >= 4 * (36 * 18 * 32 + 36 * 16 * 16)


# ---- on a GPU handle: transforms around strided-batched SGEMMs (hip/kernels/conv/conv_winograd.hip)

GPU_WINOGRAD = {"ConvMPBidirectWinograd<4-3>": 69, "ConvMPBidirectWinograd<2-3>": 67}
GPU_WINOGRAD_WRW = {"ConvCpuWinogradWrw<4-3>": 1010, "ConvCpuWinogradWrw<2-3>": 1011}
GPU_WINOGRAD5 = {"ConvMPBidirectWinograd<4-5>": 2041}
GPU_WINOGRAD5_WRW = {"ConvWinograd3x3MultipassWrW<5-4>": 49, "ConvWinograd3x3MultipassWrW<5-3>": 48}
# by filter size, then direction: {name: id}
GPU_FAMILIES = {3: {FWD: GPU_WINOGRAD, BWD: GPU_WINOGRAD, WRW: GPU_WINOGRAD_WRW},
                5: {FWD: GPU_WINOGRAD5, BWD: GPU_WINOGRAD5, WRW: GPU_WINOGRAD5_WRW}}
GPU_SOLVERS = GPU_FAMILIES[3]
GPU_IDS = {s: i for fam in GPU_FAMILIES.values() for d in fam for s, i in fam[d].items()}
FILTER = {s: r for r, fam in GPU_FAMILIES.items() for d in fam for s in fam[d]}


def cr(r, n, c, hw, k, pad, groups=1):
    """An r x r stride-1 convolution, pad given for r = 3 (r = 5: one more)."""
    extra = (r - 3) // 2
    return Case(n, c, hw, k, (r, r), tuple(q + extra for q in pad), (1, 1), (1, 1), groups=groups)
FIND2_DIRECTION = {FWD: mi.miopenProblemDirectionForward, BWD: mi.miopenProblemDirectionBackward,
                   WRW: mi.miopenProblemDirectionBackwardWeights}


@pytest.fixture
def gpu_handle():
    return mi.Handle(device="gpu")


GPU_ACCURACY = [
    c3(1, 3, (5, 5), 2, (1, 1)),                    # batch 1, one tile partly outside
    c3(2, 5, (9, 8), 7, (0, 0)),                    # pad 0; H, W not multiples of either tile
    c3(3, 7, (13, 11), 9, (2, 2)),                  # pad 2, odd sizes, C and K odd
    c3(2, 5, (13, 7), 3, (0, 2)),                   # mixed pads
    c3(2, 8, (11, 10), 6, (2, 0), groups=2),        # groups
    c3(1, 12, (7, 9), 9, (1, 2), groups=3),
    c3(2, 64, (12, 12), 64, (1, 1), groups=4),
    c3(2, 6, (6, 5), 4, (3, 4)),                    # pads past the filter: backward data crops
    c3(1, 4, (3, 3), 5, (0, 0)),                    # a 1x1 output
    c3(1, 1, (17, 19), 2, (1, 1)),                  # one input channel
    c3(2, 3, (16, 16), 1, (1, 1)),                  # one output channel
    c3(2, 256, (14, 14), 256, (1, 1)),              # ResNet-50's 14x14 channels
    c3(1, 131, (9, 11), 67, (1, 0)),                # channel counts that are multiples of nothing
    c3(4, 64, (30, 29), 32, (1, 1)),                # many tiles
    c3(8, 32, (28, 28), 16, (1, 1)),                # backward weights: the tiles in several parts
    c3(2, 6, (7, 6), 4, (1, 1), transpose=True),    # transposed: canonical backward data is forward
]

GPU_ACCURACY5 = [
    c5(1, 3, (7, 7), 2, (2, 2)),                    # batch 1, one 4x4 tile partly outside
    c5(2, 5, (9, 8), 7, (0, 0)),                    # pad 0; H, W not multiples of the tiles
    c5(3, 7, (13, 11), 9, (4, 4)),                  # pad 4 (backward data: pad' 0), C and K odd
    c5(2, 5, (13, 9), 3, (1, 3)),                   # mixed pads
    c5(2, 8, (11, 10), 6, (2, 0), groups=2),        # groups
    c5(2, 64, (12, 12), 64, (2, 2), groups=4),
    c5(2, 6, (6, 5), 4, (5, 6)),                    # pads past the filter: backward data crops
    c5(1, 4, (5, 5), 5, (0, 0)),                    # a 1x1 output
    c5(1, 1, (17, 19), 2, (2, 2)),                  # one input channel
    c5(2, 3, (16, 16), 1, (2, 2)),                  # one output channel
    c5(2, 64, (28, 28), 64, (2, 2)),                # the 5x5 layer's channels
    c5(1, 131, (9, 11), 67, (2, 1)),                # channel counts that are multiples of nothing
    c5(8, 32, (28, 28), 16, (2, 2)),                # backward weights: the tiles in several parts
    c5(2, 6, (9, 8), 4, (2, 2), transpose=True),    # transposed: canonical backward data is forward
]
GPU_CASES = {3: GPU_ACCURACY, 5: GPU_ACCURACY5}

GPU_FORCED = [(d, s) for r in GPU_FAMILIES for d in (FWD, BWD, WRW) for s in GPU_FAMILIES[r][d]]
GPU_FORCED_CASES = [(d, s, c) for d, s in GPU_FORCED for c in GPU_CASES[FILTER[s]]]


def torch_float32(case, direction, x, w, dy):
    """PyTorch's float32 CPU convolution (forward) or its gradients (backward data, weights)."""
    xt, wt = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w).requires_grad_()
    y = case.torch_forward(xt, wt)
    if direction == FWD:
        return y.detach().numpy()
    y.backward(torch.from_numpy(dy))
    return (xt.grad if direction == BWD else wt.grad).numpy()


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("direction,solver,case", GPU_FORCED_CASES, ids=str)
def test_forced_solver_matches_torch(gpu_handle, rng, monkeypatch, solver, direction, case):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    got = run(gpu_handle, case, direction, x, w, dy, algo=ALGO)       # into a NaN-poisoned output
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL
    assert rel_l2(got, torch_float32(case, direction, x, w, dy)) <= TOL


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("direction,solver", GPU_FORCED)
def test_forced_by_id_through_find(gpu_handle, rng, monkeypatch, direction, solver):
    case = GPU_CASES[FILTER[solver]][3]
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", str(GPU_IDS[solver]))
    got = run(gpu_handle, case, direction, x, w, dy)        # Find, then its best (the only one)
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("r", GPU_FAMILIES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_immediate_mode_lists_and_runs_both(gpu_handle, rng, direction, r):
    call = Call(cr(r, 2, 16, (12, 10), 24, (1, 1)), direction, rng)
    sols = {s.solution_id: s for s in call.solutions(gpu_handle)}
    for name, sid in GPU_FAMILIES[r][direction].items():
        assert sid in sols, name
        assert sols[sid].algorithm == mi.miopenConvolutionAlgoWinograd
        size = call.workspace(gpu_handle, sid)
        assert size == sols[sid].workspace_size > 0
        call.compile(gpu_handle, sid)
        out = call.run(gpu_handle, sid)
        assert rel_l2(out, call.expected) <= TOL, name
        # Too little workspace: a clear error, and the output untouched.
        out = poisoned(call.expected.shape)
        with pytest.raises(mi.BadParmError, match="workspace"):
            call.run(gpu_handle, sid, np.empty(size, np.uint8), size - 4, out)
        assert np.isnan(out).all()


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("r", GPU_FAMILIES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_find2_by_solver_id(gpu_handle, rng, monkeypatch, direction, r):
    case = cr(r, 2, 10, (11, 9), 14, (1, 2), groups=2)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    problem = mi.createConvProblem(case.conv_desc(), FIND2_DIRECTION[direction])
    X, W, Y = mi.miopenTensorConvolutionX, mi.miopenTensorConvolutionW, mi.miopenTensorConvolutionY
    for role, a in ((X, x), (W, w), (Y, y_ref)):
        mi.setProblemTensorDescriptor(problem, role, desc(a.shape))
    for name, sid in GPU_FAMILIES[r][direction].items():
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", str(sid))
        found = mi.findSolutions(gpu_handle, problem, None, 16)
        assert [mi.getSolutionSolverId(f) for f in found] == [sid]
        written = {FWD: Y, BWD: X, WRW: W}[direction]
        bufs = {X: x, W: w, Y: dy}
        bufs[written] = poisoned(bufs[written].shape)
        size = mi.getSolutionWorkspaceSize(found[0])
        ws = np.empty(max(size, 1), np.uint8)
        mi.runSolution(gpu_handle, found[0], 3, [mi.TensorArgument(r, None, b) for r, b in bufs.items()], ws, size)
        assert rel_l2(bufs[written], {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL, name


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_find_offers_winograd_for_3x3_stride_1_on_the_gpu(gpu_handle, rng):
    case = c3(4, 32, (14, 14), 32, (1, 1))
    x, w, dy, y_ref, *_ = reference(case, rng)
    cd, xd, wd, yd = case.conv_desc(), desc(x.shape), desc(w.shape), desc(y_ref.shape)
    size = mi.convolutionForwardGetWorkSpaceSize(gpu_handle, wd, xd, cd, yd)
    y = poisoned(y_ref.shape)
    perf = mi.findConvolutionForwardAlgorithm(gpu_handle, xd, x, wd, w, cd, yd, y, 5, np.empty(size, np.uint8),
                                              size, False)
    wino = [p for p in perf if p.fwd_algo == mi.miopenConvolutionFwdAlgoWinograd]
    assert len(wino) == 1 and 0 < wino[0].memory <= size and wino[0].time > 0
    assert rel_l2(y, y_ref) <= TOL
    # Without a workspace Find never offers it.
    perf = mi.findConvolutionForwardAlgorithm(gpu_handle, xd, x, wd, w, cd, yd, poisoned(y_ref.shape), 5, None, 0,
                                              False)
    assert all(p.fwd_algo != mi.miopenConvolutionFwdAlgoWinograd for p in perf)


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("r", GPU_FAMILIES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_results_are_bitwise_deterministic_on_the_gpu(gpu_handle, rng, monkeypatch, direction, r):
    case = cr(r, 4, 48, (33, 31), 40, (1, 1))
    x, w, dy, *_ = reference(case, rng)
    for solver in GPU_FAMILIES[r][direction]:
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
        a = run(gpu_handle, case, direction, x, w, dy, algo=ALGO)
        b = run(gpu_handle, case, direction, x, w, dy, algo=ALGO)
        assert np.array_equal(a, b), solver


WRW_SPLIT_CASES = [
    c3(8, 32, (28, 28), 16, (1, 1)),          # 392 (F(4,3)) or 1568 (F(2,3)) tiles: many parts
    c3(3, 7, (13, 11), 9, (2, 2)),            # odd sizes: parts that do not divide the tiles
    c3(2, 8, (11, 10), 6, (2, 0), groups=2),  # groups
]
WRW_SPLIT_CASES5 = [
    c5(8, 32, (28, 28), 16, (2, 2)),          # 392 (dy in 4x4 tiles) or 800 (3x3) tiles: many parts
    c5(3, 7, (13, 11), 9, (2, 2)),
    c5(2, 8, (11, 10), 6, (2, 0), groups=2),
]
WRW_SPLIT = ([(s, c) for s in GPU_WINOGRAD_WRW for c in WRW_SPLIT_CASES] +
             [(s, c) for s in GPU_WINOGRAD5_WRW for c in WRW_SPLIT_CASES5])


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("solver,case", WRW_SPLIT, ids=str)
def test_wrw_split_matches_torch(gpu_handle, rng, monkeypatch, solver, case):
    """Backward weights with the tiles' sum split into the parts and the tile-element SGEMM tile
    that the solver picks: matches PyTorch, into a poisoned dw, and repeats bit for bit."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, _, _, dw_ref = reference(case, rng)
    a = run(gpu_handle, case, WRW, x, w, dy, algo=ALGO)
    b = run(gpu_handle, case, WRW, x, w, dy, algo=ALGO)
    assert rel_l2(a, dw_ref) <= TOL
    assert rel_l2(a, torch_float32(case, WRW, x, w, dy)) <= TOL
    assert np.array_equal(a, b)


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("alpha,beta", [(2.0, 0.0), (0.5, -1.5)])
def test_alpha_beta_blend_on_the_gpu(gpu_handle, rng, monkeypatch, alpha, beta):
    case = GPU_ACCURACY[1]
    x, w, dy, y_ref, *_ = reference(case, rng)
    prior = rng.standard_normal(y_ref.shape).astype(np.float32)
    out = prior.copy()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvMPBidirectWinograd<4-3>")
    run(gpu_handle, case, FWD, x, w, dy, algo=ALGO, alpha=alpha, beta=beta, out=out)
    assert rel_l2(out, alpha * y_ref + beta * prior.astype(np.float64)) <= TOL


# ---- the switch, and where it does not apply -------------------------------------------------------

@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("r", GPU_FAMILIES)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_winograd_switch_removes_them_on_the_gpu(gpu_handle, rng, monkeypatch, direction, r):
    call = Call(cr(r, 2, 8, (10, 9), 6, (1, 1)), direction, rng)
    assert {s.solution_id for s in call.solutions(gpu_handle)} >= set(GPU_FAMILIES[r][direction].values())
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_WINOGRAD", "0")
    sols = call.solutions(gpu_handle)
    assert sols and all(s.algorithm != mi.miopenConvolutionAlgoWinograd for s in sols)
    for sid in GPU_FAMILIES[r][direction].values():
        with pytest.raises(mi.BadParmError, match="disabled by MIOPEN_DEBUG_CONV_WINOGRAD=0"):
            call.run(gpu_handle, sid, np.empty(1 << 20, np.uint8), 1 << 20)


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_workspace_max_excludes_the_larger_one(gpu_handle, rng, monkeypatch):
    """MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX (MIOpen's, in bytes): a bidirectional Winograd
    solver whose workspace exceeds it does not apply."""
    case = c3(2, 16, (12, 10), 24, (1, 1))
    x, w, dy, *_ = reference(case, rng)
    call = Call(case, FWD, rng)
    sizes = {s.solution_id: s.workspace_size for s in call.solutions(gpu_handle)}
    small, big = sorted(GPU_WINOGRAD.values(), key=lambda i: sizes[i])
    assert sizes[small] < sizes[big]
    monkeypatch.setenv("MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX", str(sizes[small]))
    ids = {s.solution_id for s in call.solutions(gpu_handle)}
    assert small in ids and big not in ids
    name = next(n for n, i in GPU_WINOGRAD.items() if i == big)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", name)
    with pytest.raises(mi.BadParmError, match="not applicable") as info:
        run(gpu_handle, case, FWD, x, w, dy, algo=ALGO)
    assert "exceeds MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX" in str(info.value)


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_mpass_workspace_max_excludes_the_larger_5x5_wrw(gpu_handle, rng, monkeypatch):
    """MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_WORKSPACE_MAX (MIOpen's cap of its multi-pass backward-weights
    solvers): ConvWinograd3x3MultipassWrW<5-3> (dy in 3x3 tiles: more of them) does not apply under
    a cap that <5-4> fits, and says why; the bidirectional cap does not touch them."""
    case = c5(2, 16, (12, 10), 24, (2, 2))
    x, w, dy, *_ = reference(case, rng)
    call = Call(case, WRW, rng)
    sizes = {s.solution_id: s.workspace_size for s in call.solutions(gpu_handle)}
    small, big = sorted(GPU_WINOGRAD5_WRW.values(), key=lambda i: sizes[i])
    assert sizes[small] < sizes[big]
    monkeypatch.setenv("MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX", "1")
    assert {small, big} <= {s.solution_id for s in call.solutions(gpu_handle)}
    monkeypatch.setenv("MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_WORKSPACE_MAX", str(sizes[small]))
    ids = {s.solution_id for s in call.solutions(gpu_handle)}
    assert small in ids and big not in ids
    name = next(n for n, i in GPU_WINOGRAD5_WRW.items() if i == big)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", name)
    with pytest.raises(mi.BadParmError, match="not applicable") as info:
        run(gpu_handle, case, WRW, x, w, dy, algo=ALGO)
    assert "exceeds MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_WORKSPACE_MAX" in str(info.value)


def not_applicable(r):
    other = 5 if r == 3 else 3
    return [
        (Case(1, 4, (9, 9), 4, (r, r), (1, 1), (2, 2), (1, 1)), "needs stride 1"),
        (Case(1, 4, (9, 9), 4, (other, other), (2, 2), (1, 1), (1, 1)), f"needs a {r}x{r} filter"),
        (Case(1, 4, (9, 9), 4, (1, 1), (0, 0), (1, 1), (1, 1)), f"needs a {r}x{r} filter"),
        (Case(1, 4, (11, 11), 4, (r, r), (2, 2), (1, 1), (2, 2)), "needs dilation 1"),
        (Case(1, 6, (9, 9), 6, (r, r), (1, 1), (1, 1), (1, 1), groups=6), "depthwise"),
        (Case(1, 2, (5, 6, 5), 2, (r, r, r), (1, 1, 1), (1, 1, 1), (1, 1, 1)), "needs 2 spatial dims"),
    ]


GPU_NOT_APPLICABLE = [(d, s, c, why) for d, s in GPU_FORCED for c, why in not_applicable(FILTER[s])]


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("direction,solver,case,reason", GPU_NOT_APPLICABLE, ids=str)
def test_not_applicable_says_why_on_the_gpu(gpu_handle, rng, monkeypatch, solver, direction, case, reason):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, *_ = reference(case, rng)
    with pytest.raises(mi.BadParmError, match="not applicable") as info:
        run(gpu_handle, case, direction, x, w, dy, algo=ALGO)
    assert solver in str(info.value) and reason in str(info.value)


# ---- packed NHWC on the GPU (issue 18 item 3) ---------------------------------------------------
# Channels-last transforms and workspaces (conv_winograd.hip's *Nhwc kernels), the GEMMs' operands
# swapped: each solver forced alone through immediate mode on channels-last tensors, against
# PyTorch float64, outputs poisoned, repeats bit for bit. The CPU solvers are NCHW-only and say so.

NHWC_GPU_ACCURACY = [
    c3(1, 3, (5, 5), 2, (1, 1)),                    # batch 1, one tile partly outside
    c3(3, 7, (13, 11), 9, (2, 2)),                  # odd sizes and channel counts
    c3(2, 5, (13, 7), 3, (0, 2)),                   # mixed pads
    c3(2, 8, (11, 10), 6, (2, 0), groups=2),        # groups
    c3(2, 64, (12, 12), 64, (1, 1), groups=4),
    c3(2, 6, (6, 5), 4, (3, 4)),                    # pads past the filter: backward data crops
    c3(2, 256, (14, 14), 256, (1, 1)),              # ResNet-50's 14x14 channels
    c3(1, 131, (9, 11), 67, (1, 0)),                # channel counts that are multiples of nothing
    c3(8, 32, (28, 28), 16, (1, 1)),                # backward weights: the tiles in several parts
    c3(2, 6, (7, 6), 4, (1, 1), transpose=True),    # transposed: canonical backward data is forward
]
NHWC_GPU_ACCURACY5 = [
    c5(1, 3, (7, 7), 2, (2, 2)),
    c5(3, 7, (13, 11), 9, (4, 4)),
    c5(2, 5, (13, 9), 3, (1, 3)),
    c5(2, 8, (11, 10), 6, (2, 0), groups=2),
    c5(2, 64, (12, 12), 64, (2, 2), groups=4),
    c5(2, 6, (6, 5), 4, (5, 6)),
    c5(2, 64, (28, 28), 64, (2, 2)),
    c5(1, 131, (9, 11), 67, (2, 1)),
    c5(8, 32, (28, 28), 16, (2, 2)),
    c5(2, 6, (9, 8), 4, (2, 2), transpose=True),
]
NHWC_FORCED_CASES = [(d, s, c) for d, s in GPU_FORCED
                     for c in (NHWC_GPU_ACCURACY if FILTER[s] == 3 else NHWC_GPU_ACCURACY5)]


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("direction,solver,case", NHWC_FORCED_CASES, ids=str)
def test_forced_solver_on_nhwc_matches_torch(gpu_handle, rng, solver, direction, case):
    t = ChannelsLast(case, rng)
    sid = GPU_IDS[solver]
    first = t.run(gpu_handle, direction, sid)
    again = t.run(gpu_handle, direction, sid)
    assert rel_l2(first, t.expected(direction)) <= TOL
    assert first.tobytes() == again.tobytes()


@pytest.mark.parametrize("direction,solver", FORCED)
def test_nhwc_is_not_applicable_on_the_cpu(handle, rng, direction, solver):
    t = ChannelsLast(c3(2, 4, (7, 6), 5, (1, 1)), rng)
    with pytest.raises(mi.BadParmError, match="not applicable.*packed NHWC: on the GPU only"):
        t.run(handle, direction, IDS[solver])


@pytest.mark.parametrize("direction,solvers", [(FWD, GPU_WINOGRAD5), (BWD, GPU_WINOGRAD5), (WRW, GPU_WINOGRAD5_WRW)])
def test_5x5_solvers_are_gpu_solvers(handle, rng, direction, solvers):
    """On a CPU handle the 5x5 Winograd solvers are not offered, and asking for one by id says
    that it is a GPU solver; nothing is written."""
    call = Call(c5(2, 4, (9, 8), 6, (2, 2)), direction, rng)
    offered = {s.solution_id for s in call.solutions(handle)}
    for name, sid in solvers.items():
        assert sid not in offered, name
        out = poisoned(call.expected.shape)
        with pytest.raises(mi.BadParmError, match="does not apply.*GPU solver"):
            call.run(handle, sid, np.empty(1 << 20, np.uint8), 1 << 20, out)
        assert np.isnan(out).all()
