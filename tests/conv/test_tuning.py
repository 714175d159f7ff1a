"""Tunable solvers (ConvTunableSolver): every variant of every tunable solver against PyTorch
(float64), the exhaustive search and its perf-db (<arch>.updb.txt: write, read, damaged lines,
unknown variants), and MIOPEN_FIND_ENFORCE's meaning for the search."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc, poisoned, rel_l2
from support.conv import BWD, FWD, WRW, Case, reference, run
from support.db import find, perf_db, perf_db_file, write_perf_db


@pytest.fixture
def handle():
    """The tunable solvers are the CPU implicit-GEMM ones (the GPU's tile variants are separate
    solvers chosen by Find, tests/conv/test_convolution_gpu.py), and the perf-db records are per architecture: these
    tests use a CPU handle."""
    return mi.Handle(device="cpu")

@pytest.fixture(autouse=True)
def _implicit_gemm_only(monkeypatch):
    """This file is about the implicit GEMM's variant table and the perf-db; the blocked direct
    solvers (Direct, tunable too) have theirs tested in tests/conv/solvers/test_direct_blocked_cpu.py. With them
    off, each problem's perf-db record names the implicit GEMM solver alone."""
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_DIRECT", "0")


TOL = 1e-5
TUNABLE = {FWD: "ConvCpuImplicitGemmFwd", BWD: "ConvCpuImplicitGemmBwd", WRW: "ConvCpuImplicitGemmWrw"}
IMPLICIT_GEMM = 5

CASES = [
    Case(5, 4, (9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1)),             # N=5: a partial image block
    Case(2, 8, (9, 8), 6, (3, 2), (1, 0), (1, 1), (1, 2), groups=2),   # groups, dilation
    Case(2, 6, (11, 10), 4, (1, 1), (0, 0), (1, 1), (1, 1)),           # 1x1; N=2, one block: split GEMM
    Case(4, 3, (13, 12), 5, (3, 3), (1, 1), (2, 2), (1, 1)),           # stride 2 (no backward data)
]


def variants(case, direction):
    """The solvers' table (igemm_variants.hpp): chunk sizes, then whole-image blocks when N allows."""
    out = ["256,1", "64,1", "1024,1", "4096,1"]
    out += [f"0,{nb}" for nb in (2, 4) if case.n >= nb]
    return out


def applies(case, direction):
    return direction != BWD or all(s == 1 for s in case.stride)


def expected(case, direction, refs):
    x, w, dy, y_ref, dx_ref, dw_ref = refs
    return {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]


# ---- every variant of every tunable solver --------------------------------------------------

# ConvCpuImplicitGemmBwd needs stride 1 (its not-applicable error is tested in test_convolution.py).
@pytest.mark.parametrize("case,direction", [(c, d) for c in CASES for d in (FWD, BWD, WRW) if applies(c, d)],
                         ids=lambda v: str(v))
def test_every_variant_matches_torch(handle, rng, monkeypatch, case, direction):
    refs = reference(case, rng)
    x, w, dy = refs[:3]
    solver = TUNABLE[direction]
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    _, out = find(handle, case, direction, x, w, dy, exhaustive=True)       # the search writes the record
    assert rel_l2(out, expected(case, direction, refs)) <= TOL
    db = perf_db()
    assert len(db) == 1
    key = next(iter(db))
    assert db[key][solver] in variants(case, direction)
    for v in variants(case, direction):
        write_perf_db({key: {solver: v}})
        got = run(handle, case, direction, x, w, dy, algo=IMPLICIT_GEMM)
        assert rel_l2(got, expected(case, direction, refs)) <= TOL, v


# ---- the search and MIOPEN_FIND_ENFORCE ------------------------------------------------------

CASE = CASES[0]


def test_plain_find_does_not_search(handle, rng):
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    _, y = find(handle, CASE, FWD, x, w, dy, exhaustive=False)
    assert rel_l2(y, y_ref) <= TOL
    assert perf_db_file() is None


def test_exhaustive_find_stores_the_best_variant_and_run_uses_it(handle, rng):
    refs = reference(CASE, rng)
    x, w, dy = refs[:3]
    for d in (FWD, BWD, WRW):
        perf, out = find(handle, CASE, d, x, w, dy, exhaustive=True)
        assert rel_l2(out, expected(CASE, d, refs)) <= TOL
    db = perf_db()
    assert len(db) == 3                                           # one key per direction
    assert {s for rec in db.values() for s in rec} == set(TUNABLE.values())
    for rec in db.values():
        for s, v in rec.items():
            assert v in variants(CASE, FWD)
    for d in (FWD, BWD, WRW):
        got = run(handle, CASE, d, x, w, dy, algo=IMPLICIT_GEMM)
        assert rel_l2(got, expected(CASE, d, refs)) <= TOL


def _search_then_mark(handle, rng):
    """An exhaustive Find, then the record replaced by a marked one ('4096,1') next to a damaged
    line: a later search rewrites the file (dropping the damaged line), no search leaves both."""
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    key = next(iter(perf_db()))
    write_perf_db({key: {TUNABLE[FWD]: "4096,1"}}, extra_lines=["damaged line without equals"])
    return x, w, dy, y_ref, key


def _file_lines():
    with open(perf_db_file()) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


@pytest.mark.parametrize("enforce,exhaustive,searches", [
    (None, True, False),                 # NONE: a record is kept
    ("NONE", True, False),
    ("1", True, False),
    ("DB_UPDATE", True, True),           # search over an existing record
    ("2", False, False),                 # ... only when the API asks for a search
    ("SEARCH", False, False),            # SEARCH: as if exhaustive; the record is reused
    ("SEARCH_DB_UPDATE", False, True),   # search on every Find
    ("4", True, True),
])
def test_find_enforce_and_exhaustive_search(handle, rng, monkeypatch, enforce, exhaustive, searches):
    x, w, dy, y_ref, key = _search_then_mark(handle, rng)
    if enforce is not None:
        monkeypatch.setenv("MIOPEN_FIND_ENFORCE", enforce)
    find(handle, CASE, FWD, x, w, dy, exhaustive=exhaustive)    # may answer from the find-db
    assert rel_l2(run(handle, CASE, FWD, x, w, dy, algo=IMPLICIT_GEMM), y_ref) <= TOL
    lines = _file_lines()
    if searches:
        assert "damaged line without equals" not in lines
        assert perf_db()[key][TUNABLE[FWD]] in variants(CASE, FWD)
    else:
        assert lines == ["damaged line without equals", f"{key}={TUNABLE[FWD]}:4096,1"]


def test_find_enforce_search_searches_without_exhaustive(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    monkeypatch.setenv("MIOPEN_FIND_ENFORCE", "3")
    _, y = find(handle, CASE, FWD, x, w, dy, exhaustive=False)
    assert rel_l2(y, y_ref) <= TOL
    (rec,) = perf_db().values()
    assert rec[TUNABLE[FWD]] in variants(CASE, FWD)


def test_find_enforce_db_clean_removes_the_record_and_does_not_search(handle, rng, monkeypatch):
    x, w, dy, y_ref, key = _search_then_mark(handle, rng)
    monkeypatch.setenv("MIOPEN_FIND_ENFORCE", "DB_CLEAN")
    find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    assert key not in perf_db()
    assert rel_l2(run(handle, CASE, FWD, x, w, dy, algo=IMPLICIT_GEMM), y_ref) <= TOL


def test_bad_find_enforce_value_is_an_error_naming_it(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    monkeypatch.setenv("MIOPEN_FIND_ENFORCE", "SEARCH_EVERYTHING")
    y = poisoned(y_ref.shape)
    with pytest.raises(mi.BadParmError, match="MIOPEN_FIND_ENFORCE='SEARCH_EVERYTHING'"):
        find(handle, CASE, FWD, x, w, dy, exhaustive=True, out=y)
    assert np.all(np.isnan(y)) and perf_db_file() is None


# ---- the perf-db file ------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["0,3", "512,1", "garbage", "256,1,9"])
def test_unknown_recorded_variant_runs_the_default(handle, rng, monkeypatch, bad):
    """A record naming a variant this problem does not have (hand-edited, or from another
    version) is ignored with a warning: the default runs, correctly."""
    refs = reference(CASE, rng)
    x, w, dy = refs[:3]
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", TUNABLE[WRW])
    find(handle, CASE, WRW, x, w, dy, exhaustive=True)
    key = next(iter(perf_db()))
    write_perf_db({key: {TUNABLE[WRW]: bad}})
    got = run(handle, CASE, WRW, x, w, dy, algo=IMPLICIT_GEMM)
    assert rel_l2(got, expected(CASE, WRW, refs)) <= TOL


def test_damaged_perf_db_lines_are_skipped_and_dropped_at_the_next_write(handle, rng, monkeypatch):
    refs = reference(CASE, rng)
    x, w, dy = refs[:3]
    find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    key = next(iter(perf_db()))
    solver = TUNABLE[FWD]
    with open(perf_db_file(), "a") as f:
        f.write("no-equals-sign\nkey=Solver\nkey2=Solver:\n=x:y\nk3=S:a b\n\x00\x01binary\n")
    got = run(handle, CASE, FWD, x, w, dy, algo=IMPLICIT_GEMM)            # reads past the damage
    assert rel_l2(got, refs[3]) <= TOL
    monkeypatch.setenv("MIOPEN_FIND_ENFORCE", "SEARCH_DB_UPDATE")
    find(handle, CASE, FWD, x, w, dy, exhaustive=False)                    # a write drops it
    lines = _file_lines()
    assert len(lines) == 1 and lines[0].startswith(key + "=" + solver + ":")


def test_perf_db_keeps_other_records_and_other_solvers(handle, rng):
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    key = next(iter(perf_db()))
    write_perf_db({"other-key": {"SomeSolver": "1,2"}, key: {"AnotherSolver": "x"}})
    find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    db = perf_db()
    assert db["other-key"] == {"SomeSolver": "1,2"}
    assert db[key]["AnotherSolver"] == "x" and db[key][TUNABLE[FWD]] in variants(CASE, FWD)


def test_disabled_perf_db_searches_in_memory_only(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_DISABLE_PERF_DB", "1")
    _, y = find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    assert rel_l2(y, y_ref) <= TOL
    assert perf_db_file() is None
    got = run(handle, CASE, FWD, x, w, dy, algo=IMPLICIT_GEMM)
    assert rel_l2(got, y_ref) <= TOL


def test_unusable_perf_db_directory_keeps_results_in_memory(handle, rng, monkeypatch, tmp_path):
    x, w, dy, y_ref, *_ = reference(CASE, rng)
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(blocker / "db"))
    _, y = find(handle, CASE, FWD, x, w, dy, exhaustive=True)
    assert rel_l2(y, y_ref) <= TOL
    got = run(handle, CASE, FWD, x, w, dy, algo=IMPLICIT_GEMM)
    assert rel_l2(got, y_ref) <= TOL
