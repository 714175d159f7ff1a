"""ConvCpuDirectBlockedWrw's kernels over positions (GEMMs with vectors along output positions)
against PyTorch (float64), every tile on both ISAs, and the same bits on every run:
- the 1x1 kernel ("avx512-1x1,KR,CR" / "avx2-1x1,KR,CR"): x and dy read in place (images of whole
  vectors), copied per image (strided x), or copied into one row per channel (positions not whole
  vectors); blocks of channels split over threads, partial register tiles, chunks of positions,
  groups, 1-d, strided tensors; which problems it applies to;
- the row kernel ("ISA-row,KR,CR", any filter; the default where C is below a vector, as in the
  7x7 stem): x copied by stride phase with its padding, dy in place or padded to whole vectors;
  every geometry of the blocked kernel's own tests, the stem's shape, strided tensors."""
import numpy as np
import pytest

import miopen_cy as mi
from helpers import Strided, rel_l2
from test_conv import WRW, Case, reference, run
from test_conv_cpu_direct_blocked import CASES as BLOCKED_CASES
from test_conv_cpu_direct_blocked import HAS, ISAS, SOLVER, WRW_POS_TILES, WRW_TILES, forced, handle, isa  # noqa: F401
from test_conv_tuning import find, perf_db, write_perf_db

TOL = 1e-5
DIRECT = int(mi.miopenConvolutionAlgoDirect)
POS_TILES = WRW_POS_TILES   # (KR, CR): cpu/conv_direct_blocked_args.hpp

CASES = [
    Case(2, 40, (8, 8), 70, (1, 1), (0, 0), (1, 1), (1, 1)),     # in place; K over a 64-channel block
    Case(3, 130, (4, 8), 20, (1, 1), (0, 0), (1, 1), (1, 1)),    # C over two blocks, partial tiles
    Case(2, 24, (5, 7), 36, (1, 1), (0, 0), (1, 1), (1, 1)),     # 35 positions: one padded row
    Case(2, 32, (9, 8), 24, (1, 1), (0, 0), (2, 2), (1, 1)),     # stride 2, 20 positions
    Case(2, 32, (16, 15), 24, (1, 1), (0, 0), (2, 2), (1, 1)),   # stride 2, 64 positions: x copied
    Case(2, 48, (4, 8), 40, (1, 1), (0, 0), (1, 1), (1, 1), groups=2),
    Case(2, 16, (48,), 24, (1,), (0,), (1,), (1,)),              # 1-d
    Case(1, 8, (32, 40), 12, (1, 1), (0, 0), (1, 1), (1, 1)),    # 1280 positions: chunks of 512
    Case(2, 5, (4, 4), 4, (1, 1), (0, 0), (1, 1), (1, 1)),       # C, K below one tile
]


def pos_rows(isa, kind="1x1"):
    return [f"{isa}-{kind},{kr},{cr}" for kr, cr in POS_TILES[isa]]


ROW_CASES = [c for c in BLOCKED_CASES if c.k // c.groups >= 4] + [
    Case(2, 3, (30, 28), 16, (7, 7), (3, 3), (2, 2), (1, 1)),    # the stem's shape: 14 columns, dy padded
    Case(1, 3, (64, 64), 20, (7, 7), (3, 3), (2, 2), (1, 1)),    # 32 columns: dy in place
    Case(2, 6, (20, 34), 8, (3, 3), (1, 1), (1, 1), (2, 3)),     # dilations
] + CASES[:2]


def run_row(handle, case, row, x, w, dy):
    """Runs backward weights with the perf-db record set to `row`."""
    find(handle, case, WRW, x, w, dy, exhaustive=True)
    (key,) = perf_db()
    write_perf_db({key: {SOLVER[WRW]: row}})
    return run(handle, case, WRW, x, w, dy, algo=DIRECT)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_1x1_tile_matches_torch_and_repeats_bit_for_bit(handle, rng, monkeypatch, isa, case):
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    for row in pos_rows(isa):
        first = run_row(handle, case, row, x, w, dy)
        assert rel_l2(first, dw_ref) <= TOL, row
        again = run(handle, case, WRW, x, w, dy, algo=DIRECT)
        assert np.array_equal(first, again), row


def test_the_exhaustive_search_offers_the_1x1_rows(handle, rng, monkeypatch, isa):
    case = CASES[0]
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    _, out = find(handle, case, WRW, x, w, dy, exhaustive=True)
    assert rel_l2(out, dw_ref) <= TOL
    (rec,) = perf_db().values()
    assert rec[SOLVER[WRW]] in pos_rows(isa) + pos_rows(isa, "row") + [f"{isa},{u},{k}" for u, k in WRW_TILES[isa]]


@pytest.mark.parametrize("case", [Case(2, 20, (5, 5), 18, (3, 3), (1, 1), (1, 1), (1, 1)),
                                  Case(2, 20, (6, 6), 18, (1, 1), (1, 1), (1, 1), (1, 1))], ids=str)
def test_a_1x1_row_is_not_a_variant_of_other_filters(handle, rng, monkeypatch, isa, case):
    """3x3, or 1x1 with padding: the kernel does not apply, so such a perf-db row is not one of the
    problem's variants and the default runs."""
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    find(handle, case, WRW, x, w, dy, exhaustive=True)
    (key,) = perf_db()
    assert not perf_db()[key][SOLVER[WRW]].startswith(f"{isa}-1x1")
    write_perf_db({key: {SOLVER[WRW]: pos_rows(isa)[0]}})
    assert rel_l2(run(handle, case, WRW, x, w, dy, algo=DIRECT), dw_ref) <= TOL


@pytest.mark.parametrize("case", [CASES[0], CASES[2], CASES[4]], ids=str)
def test_strided_tensors(handle, rng, monkeypatch, isa, case):
    """x and dy with gaps between rows and elements: copied through their strides; dw's gaps untouched."""
    x, w, dy, _, _, dw_ref = reference(case, rng)
    X, DY = Strided(x.shape, fill=x), Strided(dy.shape, fill=dy)
    forced(monkeypatch, WRW)
    cd = case.conv_desc()

    def go():
        out = Strided(w.shape, fill=np.nan)
        mi.convolutionBackwardWeights(handle, 1.0, DY.desc(), DY.buf, X.desc(), X.buf, cd, DIRECT, 0.0, out.desc(),
                                      out.buf, None, 0)
        return out

    out = Strided(w.shape, fill=np.nan)
    mi.findConvolutionBackwardWeightsAlgorithm(handle, DY.desc(), DY.buf, X.desc(), X.buf, cd, out.desc(), out.buf, 5,
                                               np.empty(1, np.uint8), 0, True)
    (key,) = perf_db()
    for row in pos_rows(isa):
        write_perf_db({key: {SOLVER[WRW]: row}})
        out = go()
        assert rel_l2(out.view, dw_ref) <= TOL and out.gaps_untouched(), row


@pytest.mark.parametrize("case", ROW_CASES, ids=str)
def test_every_row_tile_matches_torch_and_repeats_bit_for_bit(handle, rng, monkeypatch, isa, case):
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    for row in pos_rows(isa, "row"):
        first = run_row(handle, case, row, x, w, dy)
        assert rel_l2(first, dw_ref) <= TOL, row
        again = run(handle, case, WRW, x, w, dy, algo=DIRECT)
        assert np.array_equal(first, again), row


@pytest.mark.parametrize("case", [ROW_CASES[-5], Case(2, 8, (9, 11), 12, (3, 3), (1, 2), (2, 1), (1, 1))], ids=str)
def test_row_kernel_strided_tensors(handle, rng, monkeypatch, isa, case):
    x, w, dy, _, _, dw_ref = reference(case, rng)
    X, DY = Strided(x.shape, fill=x), Strided(dy.shape, fill=dy)
    forced(monkeypatch, WRW)
    cd = case.conv_desc()
    out = Strided(w.shape, fill=np.nan)
    mi.findConvolutionBackwardWeightsAlgorithm(handle, DY.desc(), DY.buf, X.desc(), X.buf, cd, out.desc(), out.buf, 5,
                                               np.empty(1, np.uint8), 0, True)
    (key,) = perf_db()
    for row in pos_rows(isa, "row"):
        write_perf_db({key: {SOLVER[WRW]: row}})
        out = Strided(w.shape, fill=np.nan)
        mi.convolutionBackwardWeights(handle, 1.0, DY.desc(), DY.buf, X.desc(), X.buf, cd, DIRECT, 0.0, out.desc(),
                                      out.buf, None, 0)
        assert rel_l2(out.view, dw_ref) <= TOL and out.gaps_untouched(), row


def test_the_stems_default_run_matches_torch(handle, rng, monkeypatch, isa):
    """C = 3, no perf-db record: the default variant (the row kernel) runs."""
    case = ROW_CASES[-5]
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    assert rel_l2(run(handle, case, WRW, x, w, dy, algo=DIRECT), dw_ref) <= TOL
