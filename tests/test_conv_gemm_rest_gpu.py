"""MIOpen's general GEMM solvers on a GPU handle (GemmFwdRest, GemmBwdRest, GemmWrwUniversal:
im2col / col2im of one image and group around our SGEMM, conv/conv_gemm_gpu.cpp and
hip/kernels/gemm/im2col.hip), each forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) against PyTorch's
float64 operators on 2-d and 3-d problems with strides, dilations, pads wider than the filter,
groups and transposed convolutions; outputs NaN-poisoned; the same bits on a second run; the
workspace sizes (backward weights on the GPU also holds one image's gradient) and a workspace too
small refused by name. test_conv.py runs them beside every other GPU solver as well. Skipped
without a GPU, except the CPU workspace check."""
import numpy as np
import pytest

import miopen_cy as mi
from conftest import requires_gpu
from helpers import desc, poisoned, rel_l2
from test_conv import BWD, FWD, TOL, WRW, Case, reference, run

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

GEMM = int(mi.miopenConvolutionAlgoGEMM)
REST = {FWD: "GemmFwdRest", BWD: "GemmBwdRest", WRW: "GemmWrwUniversal"}
CASES = [
    Case(2, 3, (9, 11), 5, (3, 3), (1, 1), (1, 1), (1, 1)),
    Case(3, 4, (12, 10), 6, (5, 3), (2, 1), (2, 3), (1, 2)),
    Case(2, 6, (11, 12), 8, (3, 3), (1, 1), (2, 2), (2, 2), groups=2),
    Case(1, 2, (6, 7), 3, (3, 3), (4, 3), (1, 2), (1, 1)),              # pads wider than the filter
    Case(2, 4, (5, 6, 7), 3, (3, 2, 3), (1, 0, 1), (2, 1, 1), (1, 1, 2)),  # 3-d
    Case(2, 8, (7, 9), 4, (1, 1), (0, 0), (1, 1), (1, 1)),              # 1x1: the Rest solvers apply too
    Case(3, 6, (8, 9), 4, (3, 3), (1, 1), (2, 2), (1, 1), transpose=True, adj=(1, 0)),
    Case(2, 4, (7, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1), groups=2, transpose=True),
]


def gpu_handle():
    return mi.Handle(device="gpu")


@requires_gpu
@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_rest_solver_alone_matches_torch_and_repeats_its_bits(rng, monkeypatch, case, direction):
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    canonical = {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", REST[canonical])
    first = run(handle, case, direction, x, w, dy, algo=GEMM)      # run() poisons its output
    again = run(handle, case, direction, x, w, dy, algo=GEMM)
    assert rel_l2(first, expect) <= TOL
    assert first.tobytes() == again.tobytes()


def wrw_workspace(handle, case):
    cd = case.conv_desc()
    xd, wd = desc(case.xshape), desc(case.wshape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    return mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, wd)


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=requires_gpu)])
def test_rest_workspace_is_one_column_matrix_plus_one_gradient_on_the_gpu(monkeypatch, device):
    case = Case(2, 6, (11, 12), 8, (3, 3), (1, 1), (2, 2), (1, 1), groups=2)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "GemmWrwUniversal")
    col = 4 * (6 // 2) * 9 * 6 * 6                  # Cg*R*S x Ho*Wo floats
    grad = 4 * (8 // 2) * (6 // 2) * 9              # Kg x Cg*R*S floats
    expect = col + grad if device == "gpu" else col
    assert wrw_workspace(mi.Handle(device=device), case) == expect


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_rest_solver_with_too_small_a_workspace_is_refused_and_writes_nothing(rng, monkeypatch, direction):
    handle = gpu_handle()
    case = CASES[1]
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", REST[direction])
    cd = case.conv_desc()
    xd, wd = desc(x.shape), desc(w.shape)
    yd = desc(dy.shape)
    ws = np.empty(64, np.uint8)
    out = poisoned({FWD: dy.shape, BWD: x.shape, WRW: w.shape}[direction])
    with pytest.raises(mi.BadParmError, match="no solver|workSpace|workspace"):
        if direction == FWD:
            mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, GEMM, 0.0, yd, out, ws, 64)
        elif direction == BWD:
            mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, GEMM, 0.0, xd, out, ws, 64)
        else:
            mi.convolutionBackwardWeights(handle, 1.0, yd, dy, xd, x, cd, GEMM, 0.0, wd, out, ws, 64)
    assert np.isnan(out).all()
