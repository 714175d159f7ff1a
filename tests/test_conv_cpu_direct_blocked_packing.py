"""The blocked direct convolution's packing paths (ConvCpuDirectBlocked{Fwd,Bwd}) against PyTorch
(float64), every register tile on both ISAs: dense filters packed by 16 x 16 register transposes
(forward; backward data at stride 1, its taps flipped; whole and partial channel tiles beside
them), backward data's 1x1 filter by row copies, and a strided 1x1 forward whose subsampled x is
copied plainly for the flat kernel; strided tensors. Outputs are NaN-poisoned; each
run is repeated and must give the same bits."""
import numpy as np
import pytest

import miopen_cy as mi
from helpers import Strided, rel_l2
from test_conv import BWD, FWD, Case, reference, run
from test_conv_cpu_direct_blocked import SOLVER, TILES, forced, handle, isa  # noqa: F401
from test_conv_tuning import find, perf_db, write_perf_db

TOL = 1e-5
DIRECT = int(mi.miopenConvolutionAlgoDirect)

CASES = [
    Case(2, 32, (8, 9), 96, (3, 3), (1, 1), (1, 1), (1, 1)),               # dense 3x3: transposes
    Case(1, 48, (6, 7), 64, (3, 3), (1, 1), (1, 1), (1, 1), groups=2),     # groups
    Case(2, 32, (7, 6), 96, (1, 1), (0, 0), (1, 1), (1, 1)),               # 1x1: flat, row copies (bwd)
    Case(2, 32, (9, 10), 64, (1, 1), (0, 0), (2, 2), (1, 1)),              # 1x1 stride 2: x copied for flat
    Case(1, 64, (11, 8), 48, (1, 1), (0, 0), (2, 1), (1, 1), groups=2),    # mixed strides, groups
    Case(2, 16, (21,), 32, (1,), (0,), (3,), (1,)),                         # 1-d
    Case(1, 32, (9, 9), 32, (5, 5), (2, 2), (1, 1), (1, 1)),               # 5x5: 25 taps
]


@pytest.mark.parametrize("direction", [FWD, BWD])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_tile_matches_torch_and_repeats(handle, rng, monkeypatch, isa, case, direction):
    x, w, dy, y_ref, dx_ref, _ = reference(case, rng)
    expect = y_ref if direction == FWD else dx_ref
    forced(monkeypatch, direction)
    find(handle, case, direction, x, w, dy, exhaustive=True)
    (key,) = perf_db()
    for u, k in TILES[isa]:
        row = f"{isa},{u},{k}"
        write_perf_db({key: {SOLVER[direction]: row}})
        first = run(handle, case, direction, x, w, dy, algo=DIRECT)
        assert rel_l2(first, expect) <= TOL, row
        assert np.array_equal(first, run(handle, case, direction, x, w, dy, algo=DIRECT)), row


@pytest.mark.parametrize("case", [CASES[3], CASES[4]], ids=str)
def test_strided_1x1_forward_from_strided_tensors(handle, rng, monkeypatch, isa, case):
    """x, w and y with gaps (y's gaps keep it off the flat kernel: the packed path), gaps untouched."""
    x, w, dy, y_ref, *_ = reference(case, rng)
    X, W = Strided(x.shape, fill=x), Strided(w.shape, fill=w)
    forced(monkeypatch, FWD)
    out = Strided(y_ref.shape, fill=np.nan)
    mi.convolutionForward(handle, 1.0, X.desc(), X.buf, W.desc(), W.buf, case.conv_desc(), DIRECT, 0.0, out.desc(),
                          out.buf, None, 0)
    assert rel_l2(out.view, y_ref) <= TOL and out.gaps_untouched()
