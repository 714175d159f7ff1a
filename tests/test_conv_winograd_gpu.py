"""The Winograd solvers on a GPU handle: ConvMPBidirectWinograd<4-3> (F(4x4,3x3), id 69) and <2-3>
(F(2x2,3x3), id 67) for forward and backward data, ConvCpuWinogradWrw<4-3> / <2-3> (1010/1011)
for backward weights, serve both devices, as MIOpen's solvers do; on the GPU they run transforms
around strided-batched SGEMMs over the tile elements (hip/kernels/conv/conv_winograd.hip). Each
forced alone (by name, by id through Find, immediate mode and Find 2.0) against PyTorch's float64
convolution and its float32 CPU one (relative L2 <= 1e-4, DESIGN.md's Winograd bound), outputs
poisoned (NaN) so unwritten elements fail; where they do not apply and why;
MIOPEN_DEBUG_CONV_WINOGRAD=0; the workspace. Skipped without a GPU."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from conftest import requires_gpu
from helpers import desc, poisoned, rel_l2
from test_conv import BWD, FWD, WRW, Case, reference, run
from test_conv_immediate import Call

pytestmark = [requires_gpu, pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")]

WINOGRAD = {"ConvMPBidirectWinograd<4-3>": 69, "ConvMPBidirectWinograd<2-3>": 67}
WINOGRAD_WRW = {"ConvCpuWinogradWrw<4-3>": 1010, "ConvCpuWinogradWrw<2-3>": 1011}
SOLVERS = {FWD: WINOGRAD, BWD: WINOGRAD, WRW: WINOGRAD_WRW}
TOL = 1e-4
ALGO = int(mi.miopenConvolutionAlgoWinograd)
FIND2_DIRECTION = {FWD: mi.miopenProblemDirectionForward, BWD: mi.miopenProblemDirectionBackward,
                   WRW: mi.miopenProblemDirectionBackwardWeights}


@pytest.fixture
def handle():
    return mi.Handle(device="gpu")


def c3(n, c, hw, k, pad, groups=1, transpose=False):
    """A 3x3 stride-1 convolution."""
    return Case(n, c, hw, k, (3, 3), pad, (1, 1), (1, 1), groups=groups, transpose=transpose)


ACCURACY = [
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

FORCED = [(d, s) for d in (FWD, BWD, WRW) for s in SOLVERS[d]]


def torch_float32(case, direction, x, w, dy):
    """PyTorch's float32 CPU convolution (forward) or its gradients (backward data, weights)."""
    xt, wt = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w).requires_grad_()
    y = case.torch_forward(xt, wt)
    if direction == FWD:
        return y.detach().numpy()
    y.backward(torch.from_numpy(dy))
    return (xt.grad if direction == BWD else wt.grad).numpy()


@pytest.mark.parametrize("case", ACCURACY, ids=str)
@pytest.mark.parametrize("direction,solver", FORCED)
def test_forced_solver_matches_torch(handle, rng, monkeypatch, solver, direction, case):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    got = run(handle, case, direction, x, w, dy, algo=ALGO)       # into a NaN-poisoned output
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL
    assert rel_l2(got, torch_float32(case, direction, x, w, dy)) <= TOL


@pytest.mark.parametrize("direction,solver", FORCED)
def test_forced_by_id_through_find(handle, rng, monkeypatch, direction, solver):
    case = ACCURACY[3]
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", str(SOLVERS[direction][solver]))
    got = run(handle, case, direction, x, w, dy)        # Find, then its best (the only one)
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_immediate_mode_lists_and_runs_both(handle, rng, direction):
    call = Call(c3(2, 16, (12, 10), 24, (1, 1)), direction, rng)
    sols = {s.solution_id: s for s in call.solutions(handle)}
    for name, sid in SOLVERS[direction].items():
        assert sid in sols, name
        assert sols[sid].algorithm == mi.miopenConvolutionAlgoWinograd
        size = call.workspace(handle, sid)
        assert size == sols[sid].workspace_size > 0
        call.compile(handle, sid)
        out = call.run(handle, sid)
        assert rel_l2(out, call.expected) <= TOL, name
        # Too little workspace: a clear error, and the output untouched.
        out = poisoned(call.expected.shape)
        with pytest.raises(mi.BadParmError, match="workspace"):
            call.run(handle, sid, np.empty(size, np.uint8), size - 4, out)
        assert np.isnan(out).all()


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_find2_by_solver_id(handle, rng, monkeypatch, direction):
    case = c3(2, 10, (11, 9), 14, (1, 2), groups=2)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    problem = mi.createConvProblem(case.conv_desc(), FIND2_DIRECTION[direction])
    X, W, Y = mi.miopenTensorConvolutionX, mi.miopenTensorConvolutionW, mi.miopenTensorConvolutionY
    for role, a in ((X, x), (W, w), (Y, y_ref)):
        mi.setProblemTensorDescriptor(problem, role, desc(a.shape))
    for name, sid in SOLVERS[direction].items():
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", str(sid))
        found = mi.findSolutions(handle, problem, None, 16)
        assert [mi.getSolutionSolverId(f) for f in found] == [sid]
        written = {FWD: Y, BWD: X, WRW: W}[direction]
        bufs = {X: x, W: w, Y: dy}
        bufs[written] = poisoned(bufs[written].shape)
        size = mi.getSolutionWorkspaceSize(found[0])
        ws = np.empty(max(size, 1), np.uint8)
        mi.runSolution(handle, found[0], 3, [mi.TensorArgument(r, None, b) for r, b in bufs.items()], ws, size)
        assert rel_l2(bufs[written], {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL, name


def test_find_offers_winograd_for_3x3_stride_1(handle, rng):
    case = c3(4, 32, (14, 14), 32, (1, 1))
    x, w, dy, y_ref, *_ = reference(case, rng)
    cd, xd, wd, yd = case.conv_desc(), desc(x.shape), desc(w.shape), desc(y_ref.shape)
    size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
    y = poisoned(y_ref.shape)
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, y, 5, np.empty(size, np.uint8),
                                              size, False)
    wino = [p for p in perf if p.fwd_algo == mi.miopenConvolutionFwdAlgoWinograd]
    assert len(wino) == 1 and 0 < wino[0].memory <= size and wino[0].time > 0
    assert rel_l2(y, y_ref) <= TOL
    # Without a workspace Find never offers it.
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poisoned(y_ref.shape), 5, None, 0,
                                              False)
    assert all(p.fwd_algo != mi.miopenConvolutionFwdAlgoWinograd for p in perf)


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_results_are_bitwise_deterministic(handle, rng, monkeypatch, direction):
    case = c3(4, 48, (33, 31), 40, (1, 1))
    x, w, dy, *_ = reference(case, rng)
    for solver in SOLVERS[direction]:
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
        a = run(handle, case, direction, x, w, dy, algo=ALGO)
        b = run(handle, case, direction, x, w, dy, algo=ALGO)
        assert np.array_equal(a, b), solver


WRW_SPLIT_CASES = [
    c3(8, 32, (28, 28), 16, (1, 1)),          # 392 (F(4,3)) or 1568 (F(2,3)) tiles: many parts
    c3(3, 7, (13, 11), 9, (2, 2)),            # odd sizes: parts that do not divide the tiles
    c3(2, 8, (11, 10), 6, (2, 0), groups=2),  # groups
]


@pytest.mark.parametrize("case", WRW_SPLIT_CASES, ids=str)
@pytest.mark.parametrize("solver", WINOGRAD_WRW)
def test_wrw_split_matches_torch(handle, rng, monkeypatch, solver, case):
    """Backward weights with the tiles' sum split into the parts and the tile-element SGEMM tile
    that the solver picks: matches PyTorch, into a poisoned dw, and repeats bit for bit."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, _, _, dw_ref = reference(case, rng)
    a = run(handle, case, WRW, x, w, dy, algo=ALGO)
    b = run(handle, case, WRW, x, w, dy, algo=ALGO)
    assert rel_l2(a, dw_ref) <= TOL
    assert rel_l2(a, torch_float32(case, WRW, x, w, dy)) <= TOL
    assert np.array_equal(a, b)


@pytest.mark.parametrize("alpha,beta", [(2.0, 0.0), (0.5, -1.5)])
def test_alpha_beta_blend(handle, rng, monkeypatch, alpha, beta):
    case = ACCURACY[1]
    x, w, dy, y_ref, *_ = reference(case, rng)
    prior = rng.standard_normal(y_ref.shape).astype(np.float32)
    out = prior.copy()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvMPBidirectWinograd<4-3>")
    run(handle, case, FWD, x, w, dy, algo=ALGO, alpha=alpha, beta=beta, out=out)
    assert rel_l2(out, alpha * y_ref + beta * prior.astype(np.float64)) <= TOL


# ---- the switch, and where it does not apply -------------------------------------------------------

@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_winograd_switch_removes_them_on_the_gpu(handle, rng, monkeypatch, direction):
    call = Call(c3(2, 8, (10, 9), 6, (1, 1)), direction, rng)
    assert {s.solution_id for s in call.solutions(handle)} >= set(SOLVERS[direction].values())
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_WINOGRAD", "0")
    sols = call.solutions(handle)
    assert sols and all(s.algorithm != mi.miopenConvolutionAlgoWinograd for s in sols)
    for sid in SOLVERS[direction].values():
        with pytest.raises(mi.BadParmError, match="disabled by MIOPEN_DEBUG_CONV_WINOGRAD=0"):
            call.run(handle, sid, np.empty(1 << 20, np.uint8), 1 << 20)


def test_workspace_max_excludes_the_larger_one(handle, rng, monkeypatch):
    """MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX (MIOpen's, in bytes): a bidirectional Winograd
    solver whose workspace exceeds it does not apply."""
    case = c3(2, 16, (12, 10), 24, (1, 1))
    x, w, dy, *_ = reference(case, rng)
    call = Call(case, FWD, rng)
    sizes = {s.solution_id: s.workspace_size for s in call.solutions(handle)}
    small, big = sorted(WINOGRAD.values(), key=lambda i: sizes[i])
    assert sizes[small] < sizes[big]
    monkeypatch.setenv("MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX", str(sizes[small]))
    ids = {s.solution_id for s in call.solutions(handle)}
    assert small in ids and big not in ids
    name = next(n for n, i in WINOGRAD.items() if i == big)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", name)
    with pytest.raises(mi.BadParmError, match="not applicable") as info:
        run(handle, case, FWD, x, w, dy, algo=ALGO)
    assert "exceeds MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX" in str(info.value)


NOT_APPLICABLE = [
    (Case(1, 4, (9, 9), 4, (3, 3), (1, 1), (2, 2), (1, 1)), "needs stride 1"),
    (Case(1, 4, (9, 9), 4, (5, 5), (2, 2), (1, 1), (1, 1)), "needs a 3x3 filter"),
    (Case(1, 4, (9, 9), 4, (3, 3), (2, 2), (1, 1), (2, 2)), "needs dilation 1"),
    (Case(1, 6, (9, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1), groups=6), "depthwise"),
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
