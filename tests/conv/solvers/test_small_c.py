"""The small-C backward-data gather (ConvGpuDirectBwdSmallC: C/G <= 4, 2-d; its row-strip and gather
kernels give the same bits) forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) on a GPU handle against
PyTorch's float64 operators, outputs NaN-poisoned, on odd sizes, strides, dilations, pads wider than
the filter, groups and strided tensors, and where it does not apply; Find on the stem's shape.
Skipped without a GPU, except the checks that the names are known and that a CPU handle never runs
them (nor the implicit-GEMM k16 variants)."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import Strided, rel_l2
from support.conv import BWD, FWD, GPU_CASES, IGEMM_K16, TOL, WRW, Case, reference, run
from support.devices import requires_gpu

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

IGEMM = int(mi.miopenConvolutionAlgoImplicitGEMM)
DIRECT = int(mi.miopenConvolutionAlgoDirect)
SMALLC = "ConvGpuDirectBwdSmallC"

# Backward data with C/G <= 4 (2-d): the stem's shape scaled down, every stride phase count,
# dilation (phases without taps), pads wider than the filter, groups, 1-4 channels per group.
SMALLC_CASES = [
    Case(2, 3, (33, 31), 16, (7, 7), (3, 3), (2, 2), (1, 1)),
    Case(3, 1, (17, 9), 5, (3, 5), (1, 2), (1, 1), (1, 1)),
    Case(2, 2, (15, 16), 7, (3, 3), (4, 1), (3, 2), (2, 1)),
    Case(1, 4, (12, 13), 9, (5, 3), (2, 1), (2, 3), (1, 2)),
    Case(2, 6, (11, 12), 8, (3, 3), (1, 1), (2, 2), (1, 1), groups=2),
    Case(2, 8, (10, 9), 4, (1, 1), (0, 0), (2, 2), (1, 1), groups=4),
    Case(1, 3, (5, 6), 4, (7, 7), (3, 3), (4, 4), (1, 1)),           # stride 4: phases the taps miss
    Case(2, 3, (20, 20), 600, (3, 3), (1, 1), (1, 1), (1, 1)),       # long k loop
    Case(2, 3, (10, 12), 5, (3, 7), (1, 3), (1, 1), (1, 1)),         # 7 taps along w
    Case(1, 2, (6, 14), 3, (3, 9), (1, 4), (1, 1), (1, 1)),          # 9 taps along w
    Case(3, 1, (7, 23), 2, (2, 5), (0, 3), (1, 2), (1, 1)),          # even filter, odd sizes
]


def gpu_handle():
    return mi.Handle(device="gpu")


@requires_gpu
@pytest.mark.parametrize("case", SMALLC_CASES + [c for c in GPU_CASES if c.dims == 2 and not c.transpose],
                         ids=str)
def test_smallc_bwd_alone(rng, monkeypatch, case):
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SMALLC)
    if case.c // case.groups > 4:
        with pytest.raises(mi.BadParmError, match="not applicable"):
            run(handle, case, BWD, x, w, dy, algo=DIRECT)
        return
    got = run(handle, case, BWD, x, w, dy, algo=DIRECT)   # run() poisons its output with NaN
    assert rel_l2(got, dx_ref) <= TOL


@requires_gpu
@pytest.mark.parametrize("case", SMALLC_CASES, ids=str)
def test_smallc_row_strips_and_gather_repeat_bitwise(rng, monkeypatch, case):
    # Row strips where dilation_w divides stride_w and a phase has at most 8 taps along w, else
    # the gather: each matches the reference and repeats bit for bit.
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SMALLC)
    a = run(handle, case, BWD, x, w, dy, algo=DIRECT)
    b = run(handle, case, BWD, x, w, dy, algo=DIRECT)
    assert a.tobytes() == b.tobytes()
    assert rel_l2(a, dx_ref) <= TOL


@requires_gpu
def test_smallc_bwd_not_applicable_in_3d_or_other_directions(rng, monkeypatch):
    handle = gpu_handle()
    case3d = Case(1, 2, (5, 6, 7), 3, (3, 3, 3), (1, 1, 1), (2, 1, 1), (1, 1, 1))
    x, w, dy, *_ = reference(case3d, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SMALLC)
    with pytest.raises(mi.BadParmError, match="no solver|not applicable"):
        run(handle, case3d, BWD, x, w, dy, algo=DIRECT)
    case = SMALLC_CASES[0]
    x, w, dy, *_ = reference(case, rng)
    for direction in (FWD, WRW):
        with pytest.raises(mi.BadParmError, match="no solver|not applicable"):
            run(handle, case, direction, x, w, dy, algo=DIRECT)


@requires_gpu
def test_smallc_bwd_on_strided_tensors(rng, monkeypatch):
    handle = gpu_handle()
    case = Case(2, 3, (9, 8), 5, (3, 3), (1, 1), (2, 2), (1, 1))
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SMALLC)
    W, DY = Strided(w.shape, fill=w), Strided(dy.shape, fill=dy)
    out = Strided(x.shape, fill=np.nan)
    mi.convolutionBackwardData(handle, 1.0, DY.desc(), DY.buf, W.desc(), W.buf, case.conv_desc(), DIRECT,
                               0.0, out.desc(), out.buf, None, 0)
    assert rel_l2(out.view, dx_ref) <= TOL and out.gaps_untouched()


@requires_gpu
def test_find_and_run_on_the_stem_shape_backward_data(rng):
    handle = gpu_handle()
    case = Case(4, 3, (64, 64), 64, (7, 7), (3, 3), (2, 2), (1, 1))
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    got = run(handle, case, BWD, x, w, dy)   # Find, then the best algorithm
    assert rel_l2(got, dx_ref) <= TOL


@pytest.mark.parametrize("solver", [SMALLC] + [s for v in IGEMM_K16.values() for s in v])
def test_cpu_handle_never_runs_the_new_gpu_solvers(rng, monkeypatch, solver):
    handle = mi.Handle(device="cpu")
    case = SMALLC_CASES[0]
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)   # a known name: no "not a solver" error
    direction = BWD if "Bwd" in solver else FWD if "Fwd" in solver else WRW
    with pytest.raises(mi.BadParmError, match="no solver|not applicable"):
        run(handle, case, direction, x, w, dy, algo=DIRECT if solver == SMALLC else IGEMM)
