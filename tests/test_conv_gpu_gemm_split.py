"""ConvGpuGemmFwd1x1Split (forward 1x1 on the GPU: one batch-folded GEMM whose sum over C is
split into parts added in order through the workspace) forced alone on a GPU handle against
PyTorch float64: stride 1 and strided (gathered x), groups, odd column counts (the scalar paths),
1-d and 3-d, the split forced to several values (MIOPEN_CY_DEBUG_SGEMM_FOLD_SPLIT) and the
launcher's own choice; outputs poisoned (NaN) so unwritten elements fail; repeats bit-identical.
Skips without a GPU."""
import numpy as np
import pytest

import miopen_cy as mi
from conftest import requires_gpu
from helpers import desc, poisoned, rel_l2
from test_conv import FWD, TOL, Case, reference, run

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

SOLVER = "ConvGpuGemmFwd1x1Split"
SOLVER_ID = 2161

FORCED_CASES = [  # (case, forced split)
    (Case(4, 512, (7, 7), 64, (1, 1), (0, 0), (1, 1), (1, 1)), 2),
    (Case(4, 512, (7, 7), 64, (1, 1), (0, 0), (1, 1), (1, 1)), 4),          # 4 parts of 16 steps
    (Case(3, 520, (5, 6), 36, (1, 1), (0, 0), (1, 1), (1, 1), groups=2), 2),  # 260 per group, 30 columns
    (Case(2, 300, (5, 7), 9, (1, 1), (0, 0), (1, 1), (1, 1)), 2),           # C not a multiple of 8
    (Case(4, 384, (14, 14), 64, (1, 1), (0, 0), (2, 2), (1, 1)), 3),        # strided: gathered x
    (Case(3, 264, (9, 11), 20, (1, 1), (0, 0), (2, 3), (1, 1)), 2),         # strided, odd sizes
    (Case(2, 256, (33,), 12, (1,), (0,), (1,), (1,)), 2),                   # 1-d
    (Case(2, 272, (3, 4, 5), 8, (1, 1, 1), (0, 0, 0), (1, 1, 1), (1, 1, 1)), 2),   # 3-d
]


@requires_gpu
@pytest.mark.parametrize("case,split", FORCED_CASES, ids=lambda v: str(v))
def test_split_gemm_forced_split_matches_torch_and_repeats(rng, monkeypatch, case, split):
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, _, _ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_SGEMM_FOLD_SPLIT", str(split))
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    gemm = int(mi.miopenConvolutionAlgoGEMM)
    a = run(handle, case, FWD, x, w, dy, algo=gemm)
    b = run(handle, case, FWD, x, w, dy, algo=gemm)
    assert rel_l2(a, y_ref) <= TOL
    assert np.array_equal(a, b)


@requires_gpu
@pytest.mark.parametrize("case", [
    Case(8, 2048, (7, 7), 256, (1, 1), (0, 0), (1, 1), (1, 1)),     # 8 tiles of 128x128: splits
    Case(8, 1024, (14, 14), 256, (1, 1), (0, 0), (2, 2), (1, 1)),   # strided
], ids=str)
def test_split_gemm_own_choice_through_immediate_mode(rng, monkeypatch, case):
    """Without the switch the launcher's model splits a small output with a long sum; the
    immediate-mode call with exactly the reported workspace matches PyTorch and the Find path."""
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, _, _ = reference(case, rng)
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    need = mi.convolutionForwardGetSolutionWorkspaceSize(handle, wd, xd, cd, yd, SOLVER_ID)
    assert need > 0
    y = poisoned(y_ref.shape)
    ws = mi.DeviceBuffer(handle, need)
    mi.convolutionForwardImmediate(handle, wd, w, xd, x, cd, yd, y, ws, need, SOLVER_ID)
    assert rel_l2(y, y_ref) <= TOL
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    again = run(handle, case, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))
    assert np.array_equal(again, y)


@requires_gpu
def test_split_gemm_not_applicable_where_no_split_pays_or_not_1x1(rng, monkeypatch):
    handle = mi.Handle(device="gpu")
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER)
    for case in (Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (1, 1), (1, 1)),        # k too short to split
                 Case(2, 512, (9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1)),      # 3x3
                 Case(2, 512, (7, 6), 4, (1, 1), (1, 1), (1, 1), (1, 1))):     # padded
        x, w, dy, *_ = reference(case, rng)
        with pytest.raises(mi.BadParmError, match="not applicable"):
            run(handle, case, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))


@requires_gpu
def test_split_gemm_too_small_workspace_is_refused_and_writes_nothing(rng):
    handle = mi.Handle(device="gpu")
    case = Case(8, 2048, (7, 7), 256, (1, 1), (0, 0), (1, 1), (1, 1))
    x, w, dy, y_ref, _, _ = reference(case, rng)
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(y_ref.shape)
    need = mi.convolutionForwardGetSolutionWorkspaceSize(handle, wd, xd, cd, yd, SOLVER_ID)
    y = poisoned(y_ref.shape)
    ws = mi.DeviceBuffer(handle, need // 2)
    with pytest.raises(mi.BadParmError, match="[Ww]ork[Ss]pace"):
        mi.convolutionForwardImmediate(handle, wd, w, xd, x, cd, yd, y, ws, need // 2, SOLVER_ID)
    assert np.isnan(y).all()
