"""The blocked direct convolution (ConvCpuDirectBlocked{Fwd,Bwd,Wrw}: channel-blocked layouts,
register-tiled AVX-512 / AVX2 micro-kernels) forced alone against PyTorch (float64): 1x1 to 7x7
filters, strides, pads, dilation, groups, 1-d, odd channel counts (partly filled channel vectors),
strided tensors, every register tile of both instruction sets, where it does not apply and why,
and a hypothesis sweep. MIOPEN_CY_DEBUG_CPU_ISA=avx2 runs the AVX2 kernels on an AVX-512 CPU.

The packing paths (forward, backward data), every register tile on both ISAs: dense filters packed
by 16 x 16 register transposes (forward; backward data at stride 1, its taps flipped; whole and
partial channel tiles beside them), backward data's 1x1 filter by row copies, and a strided 1x1
forward whose subsampled x is copied plainly for the flat kernel; strided tensors. Outputs are
NaN-poisoned; each run is repeated and must give the same bits.

Backward weights' kernels over positions (GEMMs with vectors along output positions), every tile on
both ISAs, the same bits on every run:
- the 1x1 kernel ("avx512-1x1,KR,CR" / "avx2-1x1,KR,CR"): x and dy read in place (images of whole
  vectors), copied per image (strided x), or copied into one row per channel (positions not whole
  vectors); blocks of channels split over threads, partial register tiles, chunks of positions,
  groups, 1-d, strided tensors; which problems it applies to;
- the row kernel ("ISA-row,KR,CR", any filter; the default where C is below a vector, as in the
  7x7 stem): x copied by stride phase with its padding, dy in place or padded to whole vectors;
  every geometry of the blocked kernel's own tests, the stem's shape, strided tensors."""
import zlib

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import miopen_cy as mi
from support.buffers import Strided, poisoned, rel_l2
from support.conv import BWD, FWD, WRW, Case, reference, run
from support.db import find, perf_db, write_perf_db

TOL = 1e-5
DIRECT = int(mi.miopenConvolutionAlgoDirect)
SOLVER = {FWD: "ConvCpuDirectBlockedFwd", BWD: "ConvCpuDirectBlockedBwd", WRW: "ConvCpuDirectBlockedWrw"}
# The kernels' tile tables (cpu/conv_direct_blocked_args.hpp): (UR_W, NKV).
TILES = {"avx512": [(14, 2), (7, 4), (7, 2), (28, 1), (8, 3), (6, 4), (4, 4)],
         "avx2": [(6, 2), (4, 3), (3, 4), (4, 2), (7, 1), (12, 1)]}
# Backward weights: (UC, NKV).
WRW_TILES = {"avx512": [(8, 2), (16, 1), (4, 4), (8, 1)], "avx2": [(4, 3), (4, 2), (8, 1)]}
# Backward weights over positions (KR, CR): rows "ISA-1x1,KR,CR" and "ISA-row,KR,CR"
# (the positions section below).
WRW_POS_TILES = {"avx512": [(6, 4), (4, 4)], "avx2": [(4, 3), (3, 3)]}


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


FLAGS = cpu_flags()
HAS = {"avx512": "avx512f" in FLAGS, "avx2": {"avx2", "fma"} <= FLAGS}
ISAS = [pytest.param(i, marks=pytest.mark.skipif(not HAS[i], reason=f"this CPU has no {i}")) for i in ("avx512", "avx2")]


@pytest.fixture
def handle():
    """A CPU solver: a CPU handle."""
    return mi.Handle(device="cpu")


@pytest.fixture(params=ISAS)
def isa(request, monkeypatch):
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", request.param)
    return request.param


def forced(monkeypatch, direction):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[direction])


CASES = [
    Case(2, 16, (9, 8), 32, (3, 3), (1, 1), (1, 1), (1, 1)),           # whole channel vectors
    Case(2, 5, (9, 8), 7, (3, 3), (1, 1), (1, 1), (1, 1)),             # C, K below one vector
    Case(1, 37, (10, 13), 41, (3, 3), (1, 1), (1, 1), (1, 1)),         # odd C, K over several vectors; batch 1
    Case(2, 24, (11, 9), 20, (1, 1), (0, 0), (1, 1), (1, 1)),          # 1x1
    Case(1, 40, (9, 11), 36, (1, 1), (0, 0), (2, 2), (1, 1)),          # 1x1 stride 2
    Case(2, 19, (12, 11), 33, (3, 3), (1, 1), (2, 2), (1, 1)),         # 3x3 stride 2
    Case(2, 3, (23, 21), 20, (7, 7), (3, 3), (2, 2), (1, 1)),          # the 7x7 stem: C = 3
    Case(1, 12, (14, 15), 18, (5, 5), (2, 2), (1, 1), (1, 1)),         # 5x5
    Case(2, 8, (9, 8), 12, (3, 2), (1, 0), (1, 1), (1, 2), groups=2),  # groups, dilation, asymmetric
    Case(1, 18, (10, 9), 24, (3, 3), (2, 1), (1, 2), (2, 1), groups=3),  # pads, mixed strides/dilations
    Case(2, 6, (30,), 10, (5,), (2,), (1,), (1,)),                     # 1-d
    Case(1, 16, (3, 40), 16, (3, 3), (0, 1), (1, 1), (1, 1)),          # wide row: many column tiles
    Case(1, 4, (5, 5), 8, (3, 3), (3, 3), (1, 1), (1, 1)),             # padding beyond the filter (fwd only)
    # 1x1, stride 1, no padding, whole channel vectors: read from x in place, an image's positions
    # as one row (a partial last tile: 9*7 = 63 positions); groups; K not a whole tile.
    Case(3, 32, (9, 7), 40, (1, 1), (0, 0), (1, 1), (1, 1)),
    Case(2, 64, (5, 6), 48, (1, 1), (0, 0), (1, 1), (1, 1), groups=2),
    Case(1, 16, (28,), 24, (1,), (0,), (1,), (1,)),
    # Strided backward data by phases: odd sizes and groups; a stride above the filter (phases
    # no tap reaches are zero); a pad beyond the filter (negative pad' in the phase).
    Case(2, 12, (11, 10), 20, (3, 3), (1, 1), (2, 2), (1, 1), groups=2),
    Case(1, 8, (10, 9), 16, (2, 2), (0, 1), (3, 3), (1, 1)),
    Case(1, 8, (7, 8), 12, (3, 3), (4, 3), (2, 2), (1, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward_matches_torch(handle, rng, monkeypatch, isa, case):
    x, w, dy, y_ref, *_ = reference(case, rng)
    forced(monkeypatch, FWD)
    for _ in range(2):                                   # scratch reused by the second run
        assert rel_l2(run(handle, case, FWD, x, w, dy, algo=DIRECT), y_ref) <= TOL


def bwd_why_not(case):
    """Why ConvCpuDirectBlockedBwd does not apply (None: it does)."""
    if case.c // case.groups < 4:
        return "needs at least 4 output channels"
    if any(s != 1 for s in case.stride) and any(d != 1 for d in case.dil):
        return "strides > 1 need dilation 1"
    return None


def bwd_applies(case):
    return bwd_why_not(case) is None


@pytest.mark.parametrize("case", CASES, ids=str)
def test_backward_data_matches_torch_or_says_why_not(handle, rng, monkeypatch, isa, case):
    x, w, dy, _, dx_ref, _ = reference(case, rng)
    forced(monkeypatch, BWD)
    if bwd_applies(case):
        assert rel_l2(run(handle, case, BWD, x, w, dy, algo=DIRECT), dx_ref) <= TOL
    else:
        reason = bwd_why_not(case)
        with pytest.raises(mi.BadParmError, match=f"ConvCpuDirectBlockedBwd not applicable: {reason}"):
            run(handle, case, BWD, x, w, dy, algo=DIRECT)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_backward_weights_matches_torch(handle, rng, monkeypatch, isa, case):
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    if case.k // case.groups < 4:
        with pytest.raises(mi.BadParmError, match="ConvCpuDirectBlockedWrw not applicable: needs at least 4"):
            run(handle, case, WRW, x, w, dy, algo=DIRECT)
        return
    for _ in range(2):
        assert rel_l2(run(handle, case, WRW, x, w, dy, algo=DIRECT), dw_ref) <= TOL


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_every_tile_matches_torch(handle, rng, monkeypatch, isa, direction):
    """The exhaustive search writes the perf-db record; then each tile of the ISA is run through it."""
    case = Case(2, 21, (9, 17), 35, (3, 3), (1, 1), (1, 1), (1, 1))
    refs = reference(case, rng)
    x, w, dy = refs[:3]
    expect = {FWD: refs[3], BWD: refs[4], WRW: refs[5]}[direction]
    forced(monkeypatch, direction)
    _, out = find(handle, case, direction, x, w, dy, exhaustive=True)
    assert rel_l2(out, expect) <= TOL
    db = perf_db()
    (key,) = db
    rows = [f"{isa},{u},{k}" for u, k in (WRW_TILES if direction == WRW else TILES)[isa]]
    row_kernel = [f"{isa}-row,{kr},{cr}" for kr, cr in WRW_POS_TILES[isa]] if direction == WRW else []
    assert db[key][SOLVER[direction]] in rows + row_kernel
    for row in rows:
        write_perf_db({key: {SOLVER[direction]: row}})
        assert rel_l2(run(handle, case, direction, x, w, dy, algo=DIRECT), expect) <= TOL, row


def test_a_record_of_another_isa_falls_back_to_the_default(handle, rng, monkeypatch):
    """A perf-db row names its ISA: an AVX-512 row is not a variant when the AVX2 kernels run."""
    case = CASES[0]
    x, w, dy, y_ref, *_ = reference(case, rng)
    forced(monkeypatch, FWD)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", "avx2")
    find(handle, case, FWD, x, w, dy, exhaustive=True)
    (key,) = perf_db()
    write_perf_db({key: {SOLVER[FWD]: "avx512,14,2"}})
    assert rel_l2(run(handle, case, FWD, x, w, dy, algo=DIRECT), y_ref) <= TOL


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_strided_tensors(handle, rng, monkeypatch, isa, direction):
    """Any tensor strides: packing reads x (or dy) and w through them, the unpack writes through them
    and leaves the gaps alone."""
    case = Case(2, 20, (7, 9), 18, (3, 3), (1, 1), (1, 1), (1, 1))
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    X, W, DY = Strided(x.shape, fill=x), Strided(w.shape, fill=w), Strided(dy.shape, fill=dy)
    cd = case.conv_desc()
    forced(monkeypatch, direction)
    if direction == FWD:
        out = Strided(y_ref.shape, fill=np.nan)
        mi.convolutionForward(handle, 1.0, X.desc(), X.buf, W.desc(), W.buf, cd, DIRECT, 0.0, out.desc(), out.buf,
                              None, 0)
        expect = y_ref
    elif direction == BWD:
        out = Strided(x.shape, fill=np.nan)
        mi.convolutionBackwardData(handle, 1.0, DY.desc(), DY.buf, W.desc(), W.buf, cd, DIRECT, 0.0, out.desc(),
                                   out.buf, None, 0)
        expect = dx_ref
    else:
        out = Strided(w.shape, fill=np.nan)
        mi.convolutionBackwardWeights(handle, 1.0, DY.desc(), DY.buf, X.desc(), X.buf, cd, DIRECT, 0.0, out.desc(),
                                      out.buf, None, 0)
        expect = dw_ref
    assert rel_l2(out.view, expect) <= TOL and out.gaps_untouched()


@pytest.mark.parametrize("case,direction,reason", [
    (Case(1, 4, (5, 5, 5), 8, (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1)), FWD, "needs 1 or 2 spatial dims"),
    (Case(2, 8, (9, 9), 8, (3, 3), (1, 1), (1, 1), (1, 1), groups=8), FWD, "needs at least 4 output channels"),
    (Case(2, 8, (9, 9), 8, (3, 3), (1, 1), (1, 1), (1, 1), groups=4), BWD, "needs at least 4 output channels"),
    (Case(2, 8, (9, 9), 8, (3, 3), (1, 1), (1, 1), (1, 1), groups=4), WRW, "needs at least 4 output channels"),
    (Case(1, 4, (5, 5, 5), 8, (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1)), WRW, "needs 1 or 2 spatial dims"),
], ids=str)
def test_not_applicable_says_why(handle, rng, monkeypatch, case, direction, reason):
    x, w, dy, *_ = reference(case, rng)
    forced(monkeypatch, direction)
    with pytest.raises(mi.BadParmError, match=f"{SOLVER[direction]} not applicable: {reason}"):
        run(handle, case, direction, x, w, dy, algo=DIRECT)


def test_isa_none_and_bad_values(handle, rng, monkeypatch):
    case = CASES[0]
    x, w, dy, *_ = reference(case, rng)
    forced(monkeypatch, FWD)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", "none")
    with pytest.raises(mi.BadParmError, match="ConvCpuDirectBlockedFwd not applicable: needs AVX2"):
        run(handle, case, FWD, x, w, dy, algo=DIRECT)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", "sse9")
    with pytest.raises(mi.BadParmError, match="MIOPEN_CY_DEBUG_CPU_ISA='sse9'"):
        run(handle, case, FWD, x, w, dy, algo=DIRECT)


def test_direct_toggle_disables_it(handle, rng, monkeypatch):
    case = CASES[0]
    x, w, dy, *_ = reference(case, rng)
    forced(monkeypatch, FWD)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_DIRECT", "0")
    with pytest.raises(mi.BadParmError, match="ConvCpuDirectBlockedFwd disabled by MIOPEN_DEBUG_CONV_DIRECT=0"):
        run(handle, case, FWD, x, w, dy, algo=DIRECT)


def test_solver_ids_are_direct(handle):
    assert mi.getSolverIdConvAlgorithm(1020) == DIRECT
    assert mi.getSolverIdConvAlgorithm(1021) == DIRECT
    assert mi.getSolverIdConvAlgorithm(1022) == DIRECT


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_hypothesis_geometries(data):
    dims = data.draw(st.sampled_from([1, 2, 2]))
    groups = data.draw(st.sampled_from([1, 1, 2]))
    cpg = data.draw(st.integers(1, 20))
    cpg = cpg if dims == 1 or cpg >= 4 else cpg + 4      # keep backward data applicable where strides allow
    kpg = data.draw(st.integers(4, 36))
    filt = [data.draw(st.integers(1, 5)) for _ in range(dims)]
    dil = [data.draw(st.integers(1, 2)) for _ in range(dims)]
    pad = [data.draw(st.integers(0, 3)) for _ in range(dims)]
    stride = [data.draw(st.integers(1, 3)) for _ in range(dims)]
    span = [d * (f - 1) + 1 for d, f in zip(dil, filt)]
    spatial = [data.draw(st.integers(max(1, s - 2 * p), max(1, s - 2 * p) + 12)) for s, p in zip(span, pad)]
    isa = data.draw(st.sampled_from([i for i in ("avx512", "avx2") if HAS[i]] or ["none"]))
    assume(isa != "none")
    case = Case(data.draw(st.integers(1, 2)), cpg * groups, spatial, kpg * groups, filt, pad, stride, dil, groups=groups)
    rng = np.random.default_rng(zlib.crc32(str(case).encode()))
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    handle = mi.Handle(device="cpu")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MIOPEN_CY_DEBUG_CPU_ISA", isa)
        mp.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[FWD])
        assert rel_l2(run(handle, case, FWD, x, w, dy, algo=DIRECT), y_ref) <= TOL, (str(case), isa)
        if bwd_applies(case):
            mp.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[BWD])
            assert rel_l2(run(handle, case, BWD, x, w, dy, algo=DIRECT), dx_ref) <= TOL, (str(case), isa)
        mp.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SOLVER[WRW])
        assert rel_l2(run(handle, case, WRW, x, w, dy, algo=DIRECT), dw_ref) <= TOL, (str(case), isa)


# ---- packing: dense filters by register transposes, 1x1 by row copies, strided 1x1 x copied
# (forward and backward data)

PACKING_CASES = [
    Case(2, 32, (8, 9), 96, (3, 3), (1, 1), (1, 1), (1, 1)),               # dense 3x3: transposes
    Case(1, 48, (6, 7), 64, (3, 3), (1, 1), (1, 1), (1, 1), groups=2),     # groups
    Case(2, 32, (7, 6), 96, (1, 1), (0, 0), (1, 1), (1, 1)),               # 1x1: flat, row copies (bwd)
    Case(2, 32, (9, 10), 64, (1, 1), (0, 0), (2, 2), (1, 1)),              # 1x1 stride 2: x copied for flat
    Case(1, 64, (11, 8), 48, (1, 1), (0, 0), (2, 1), (1, 1), groups=2),    # mixed strides, groups
    Case(2, 16, (21,), 32, (1,), (0,), (3,), (1,)),                         # 1-d
    Case(1, 32, (9, 9), 32, (5, 5), (2, 2), (1, 1), (1, 1)),               # 5x5: 25 taps
    # Channels in chunks (AVX2: the flat kernel 64 input channels a chunk, the direct kernel about
    # 8 KiB of weights), summed in the row's or block's tiles: several chunks and a partial last
    # one, with partial column and channel tiles; forward 136 and backward data 144 input channels.
    Case(2, 136, (7, 7), 144, (1, 1), (0, 0), (1, 1), (1, 1)),             # flat: 3 chunks, 49 positions
    Case(1, 200, (9, 9), 40, (1, 1), (0, 0), (2, 2), (1, 1)),              # strided 1x1: x copied, 4 chunks
    Case(1, 72, (9, 11), 40, (3, 3), (1, 1), (2, 2), (1, 1)),              # 3x3 s2: 9 channel blocks
]


@pytest.mark.parametrize("direction", [FWD, BWD])
@pytest.mark.parametrize("case", PACKING_CASES, ids=str)
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


@pytest.mark.parametrize("case", [PACKING_CASES[3], PACKING_CASES[4]], ids=str)
def test_strided_1x1_forward_from_strided_tensors(handle, rng, monkeypatch, isa, case):
    """x, w and y with gaps (y's gaps keep it off the flat kernel: the packed path), gaps untouched."""
    x, w, dy, y_ref, *_ = reference(case, rng)
    X, W = Strided(x.shape, fill=x), Strided(w.shape, fill=w)
    forced(monkeypatch, FWD)
    out = Strided(y_ref.shape, fill=np.nan)
    mi.convolutionForward(handle, 1.0, X.desc(), X.buf, W.desc(), W.buf, case.conv_desc(), DIRECT, 0.0, out.desc(),
                          out.buf, None, 0)
    assert rel_l2(out.view, y_ref) <= TOL and out.gaps_untouched()


# ---- backward weights over positions: the 1x1 kernel and the row kernel

POS_TILES = WRW_POS_TILES   # (KR, CR): cpu/conv_direct_blocked_args.hpp

POS_CASES = [
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


ROW_CASES = [c for c in CASES if c.k // c.groups >= 4] + [
    Case(2, 3, (30, 28), 16, (7, 7), (3, 3), (2, 2), (1, 1)),    # the stem's shape: 14 columns, dy padded
    Case(1, 3, (64, 64), 20, (7, 7), (3, 3), (2, 2), (1, 1)),    # 32 columns: dy in place
    Case(2, 6, (20, 34), 8, (3, 3), (1, 1), (1, 1), (2, 3)),     # dilations
] + POS_CASES[:2]


def run_row(handle, case, row, x, w, dy):
    """Runs backward weights with the perf-db record set to `row`."""
    find(handle, case, WRW, x, w, dy, exhaustive=True)
    (key,) = perf_db()
    write_perf_db({key: {SOLVER[WRW]: row}})
    return run(handle, case, WRW, x, w, dy, algo=DIRECT)


@pytest.mark.parametrize("case", POS_CASES, ids=str)
def test_every_1x1_tile_matches_torch_and_repeats_bit_for_bit(handle, rng, monkeypatch, isa, case):
    x, w, dy, _, _, dw_ref = reference(case, rng)
    forced(monkeypatch, WRW)
    for row in pos_rows(isa):
        first = run_row(handle, case, row, x, w, dy)
        assert rel_l2(first, dw_ref) <= TOL, row
        again = run(handle, case, WRW, x, w, dy, algo=DIRECT)
        assert np.array_equal(first, again), row


def test_the_exhaustive_search_offers_the_1x1_rows(handle, rng, monkeypatch, isa):
    case = POS_CASES[0]
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


@pytest.mark.parametrize("case", [POS_CASES[0], POS_CASES[2], POS_CASES[4]], ids=str)
def test_1x1_wrw_strided_tensors(handle, rng, monkeypatch, isa, case):
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
