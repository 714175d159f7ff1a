"""The grouped/depthwise direct solvers (ConvGpuGrouped{Fwd,Bwd,Wrw}: C/G and K/G <= 32, groups > 1,
2-d, packed NCHW), each forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) on a GPU handle against
PyTorch's float64 operators, outputs NaN-poisoned: odd sizes, pads 0-2, strides 1-2, dilations,
batch 1, 1-32 channels per group, depthwise with a channel multiplier, filters 1x1 to 7x7 (and
non-square ones forward and backward data), the split backward-weights reduction bit-identical
over runs, and where they do not apply. Skipped without a GPU, except the checks that the names
are known and that a CPU handle never runs them."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import rel_l2
from support.conv import BWD, FWD, TOL, WRW, Case, reference, run
from support.devices import requires_gpu

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

DIRECT = int(mi.miopenConvolutionAlgoDirect)
SOLVER = {FWD: "ConvGpuGroupedFwd", BWD: "ConvGpuGroupedBwd", WRW: "ConvGpuGroupedWrw"}

# Case(n, c, spatial, k, filter, pad, stride, dilation, groups)
GROUPED_CASES = [
    Case(2, 8, (9, 11), 8, (3, 3), (1, 1), (1, 1), (1, 1), groups=8),        # depthwise
    Case(1, 6, (13, 7), 6, (3, 3), (0, 0), (2, 2), (1, 1), groups=6),        # depthwise, stride 2, pad 0
    Case(2, 5, (10, 9), 10, (3, 3), (2, 2), (1, 2), (2, 2), groups=5),       # multiplier 2, dilation 2
    Case(1, 4, (9, 13), 4, (5, 5), (2, 2), (1, 1), (1, 1), groups=4),        # depthwise 5x5
    Case(2, 3, (12, 12), 3, (7, 7), (3, 3), (2, 1), (1, 1), groups=3),       # depthwise 7x7
    Case(2, 16, (11, 10), 16, (3, 3), (1, 1), (1, 1), (1, 1), groups=4),     # 4 per group
    Case(1, 32, (15, 14), 32, (3, 3), (1, 1), (2, 2), (1, 1), groups=4),     # 8 per group, stride 2
    Case(2, 24, (7, 9), 48, (3, 3), (2, 1), (1, 1), (2, 1), groups=8),       # 3 in, 6 out per group
    Case(1, 20, (6, 8), 36, (1, 1), (0, 0), (1, 1), (1, 1), groups=4),       # 1x1, 5 in, 9 out
    Case(2, 64, (8, 7), 64, (3, 3), (1, 1), (1, 1), (1, 1), groups=2),       # 32 per group
    Case(1, 12, (17, 5), 6, (1, 3), (0, 1), (2, 1), (1, 1), groups=3),       # non-square, 4 in 2 out
    Case(2, 6, (8, 9), 6, (3, 5), (1, 2), (1, 2), (1, 1), groups=3),         # non-square, 2 per group
    Case(3, 8, (40, 40), 8, (3, 3), (1, 1), (1, 1), (1, 1), groups=8),       # split reduction (dw)
    Case(2, 32, (30, 31), 32, (3, 3), (1, 1), (1, 1), (1, 1), groups=8),     # split reduction (4 per group)
]


def gpu_handle():
    return mi.Handle(device="gpu")


def applies(case, direction):
    cpg, kpg = case.c // case.groups, case.k // case.groups
    ok = case.dims == 2 and case.groups > 1 and cpg <= 32 and kpg <= 32 and not case.transpose
    if direction == WRW:
        ok = ok and case.filt[0] == case.filt[1] and case.filt[0] in (1, 3, 5, 7)
    return ok


@requires_gpu
@pytest.mark.parametrize("case", GROUPED_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_grouped_solver_alone(rng, monkeypatch, case, direction):
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[direction])
    if not applies(case, direction):
        with pytest.raises(mi.BadParmError, match="not applicable"):
            run(handle, case, direction, x, w, dy, algo=DIRECT)
        return
    got = run(handle, case, direction, x, w, dy, algo=DIRECT)   # run() poisons its output with NaN
    assert np.isfinite(got).all()
    assert rel_l2(got, expect) <= TOL


@requires_gpu
@pytest.mark.parametrize("case", [GROUPED_CASES[2], GROUPED_CASES[-2], GROUPED_CASES[-1]], ids=str)
def test_grouped_wrw_is_deterministic(rng, monkeypatch, case):
    handle = gpu_handle()
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[WRW])
    first = run(handle, case, WRW, x, w, dy, algo=DIRECT)
    for _ in range(3):
        again = run(handle, case, WRW, x, w, dy, algo=DIRECT)
        assert np.array_equal(first.view(np.uint32), again.view(np.uint32))


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_grouped_not_applicable(rng, monkeypatch, direction):
    handle = gpu_handle()
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[direction])
    for case in (Case(1, 4, (5, 6, 7), 4, (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), groups=2),   # 3-d
                 Case(1, 4, (6, 7), 4, (3, 3), (1, 1), (1, 1), (1, 1)),                            # groups 1
                 Case(1, 66, (6, 7), 66, (3, 3), (1, 1), (1, 1), (1, 1), groups=2)):               # 33 per group
        x, w, dy, *_ = reference(case, rng)
        with pytest.raises(mi.BadParmError, match="not applicable|no solver"):
            run(handle, case, direction, x, w, dy, algo=DIRECT)


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_find_is_correct_on_a_grouped_layer(rng, direction):
    handle = gpu_handle()
    case = Case(2, 32, (28, 28), 32, (3, 3), (1, 1), (1, 1), (1, 1), groups=8)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    got = run(handle, case, direction, x, w, dy)   # Find, then the best algorithm
    assert rel_l2(got, {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]) <= TOL


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_cpu_handle_never_runs_the_grouped_solvers(rng, monkeypatch, direction):
    handle = mi.Handle(device="cpu")
    case = GROUPED_CASES[0]
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[direction])   # a known name
    with pytest.raises(mi.BadParmError, match="no solver|not applicable"):
        run(handle, case, direction, x, w, dy, algo=DIRECT)


# Backward weights through the shared-memory band kernel (GpWrwTile: 16-256 (k, c) pairs per
# group, 1x1 or 3x3): bands of one row up to whole images, bands cut at image ends and at split
# ends, strides, dilations, pads, the g32 layers' 8 x 8 pairs at a small batch.
TILE_CASES = [
    Case(2, 64, (12, 12), 64, (3, 3), (1, 1), (1, 1), (1, 1), groups=8),     # 8 x 8 pairs (g32 c256 shape)
    Case(3, 16, (5, 300), 16, (3, 3), (1, 1), (1, 1), (1, 1), groups=2),     # wide rows: bands of 2-3 rows
    Case(2, 32, (13, 11), 32, (3, 3), (2, 0), (2, 1), (2, 1), groups=2),     # 16 x 16 pairs, stride, dilation
    Case(1, 16, (9, 10), 32, (1, 1), (0, 0), (2, 2), (1, 1), groups=4),      # 1x1, 4 in 8 out, stride 2
    Case(4, 16, (7, 6), 16, (3, 3), (0, 0), (1, 1), (1, 1), groups=4),       # 4 x 4 pairs, pad 0
    Case(1, 24, (20, 9), 40, (3, 3), (1, 1), (1, 2), (1, 1), groups=4),      # 6 in, 10 out per group
]


@requires_gpu
@pytest.mark.parametrize("case", TILE_CASES, ids=str)
def test_grouped_wrw_band_kernel(rng, monkeypatch, case):
    """The band kernel (taken where it applies) against PyTorch float64, NaN-poisoned, and
    bit-identical over repeated runs."""
    handle = gpu_handle()
    x, w, dy, *_, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[WRW])
    got = run(handle, case, WRW, x, w, dy, algo=DIRECT)
    assert np.isfinite(got).all()
    assert rel_l2(got, dw_ref) <= TOL
    for _ in range(2):
        again = run(handle, case, WRW, x, w, dy, algo=DIRECT)
        assert np.array_equal(got.view(np.uint32), again.view(np.uint32))


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_find_then_runs_from_the_record_on_a_depthwise_layer(rng, tmp_path, monkeypatch, direction):
    """Find on a fresh find-db, then a second Find and run answered from its record: both outputs
    (NaN-poisoned) match the reference."""
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path))
    handle = gpu_handle()
    case = Case(2, 48, (14, 14), 48, (3, 3), (1, 1), (1, 1), (1, 1), groups=48)
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    for _ in range(2):   # Find on a fresh db, then the recorded solver
        got = run(handle, case, direction, x, w, dy)
        assert np.isfinite(got).all()
        assert rel_l2(got, expect) <= TOL
