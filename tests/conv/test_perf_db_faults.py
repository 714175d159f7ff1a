"""The perf-db under the find-db's faults (tests/conv/test_find_db_faults.py): both dbs are one
implementation (hip/src/conv/text_db.hpp), so a symlinked perf-db file is ignored, a read-only one is
read but never replaced, a last line without its newline is not trusted, no HOME keeps the tuning
results in memory with one warning, and MIOPEN_USER_DB_PATH at a file or at a symlink writes nothing.

Each scenario runs child processes (so the db starts cold, as for separate jobs): "search:K" is an
exhaustive Find of the forward problem with K output channels restricted to the tunable implicit
GEMM solver (it searches unless the perf-db has a record), "run:K" runs that solver with the variant
the perf-db chose; both check y (NaN-poisoned before) against a float64 NumPy reference. The find-db is off in the children, so
every search is the perf-db's doing. Each op's stderr section starts with "@op"; with
MIOPEN_LOG_LEVEL=5 a search logs ": best <variant>"."""
import glob
import os
import subprocess
import sys
import textwrap

import pytest

from support.db import env_with as find_env_with, listing, read

SOLVER = "ConvCpuImplicitGemmFwd"

CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import miopen_cy as mi
    from numpy.lib.stride_tricks import sliding_window_view
    sys.path.insert(0, sys.argv[1])
    from support.buffers import desc, poisoned, rel_l2

    h = mi.Handle(device="cpu")
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
    for op in sys.argv[2:]:
        sys.stderr.write("@" + op + "\\n")
        sys.stderr.flush()
        kind, k = op.split(":")
        w = rng.standard_normal((int(k), 3, 3, 3)).astype(np.float32)
        cd = mi.ConvolutionDescriptor()
        mi.initConvolutionNdDescriptor(cd, 2, (1, 1), (1, 1), (1, 1), mi.miopenConvolution)
        xd, wd = desc(x.shape), desc(w.shape)
        yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
        y = poisoned(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
        size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        ws = np.empty(max(size, 1), np.uint8)
        if kind == "search":
            mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 5, ws, size, True)
        else:
            mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, 5, 0.0, yd, y, ws, size)
        patches = sliding_window_view(np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), (2, 3))
        assert rel_l2(y, np.einsum("nchwij,kcij->nkhw", patches, w.astype(np.float64))) <= 1e-5, op
    print("ok", flush=True)
""")


@pytest.fixture
def child(tmp_path):
    path = tmp_path / "perf_db_child.py"
    path.write_text(CHILD)
    return str(path)


def env_with(**values):
    """The find-db faults' environment, with info logging, the find-db off and one solver."""
    return find_env_with(**{"MIOPEN_LOG_LEVEL": 5, "MIOPEN_DEBUG_DISABLE_FIND_DB": 1,
                            "MIOPEN_DEBUG_FIND_ONLY_SOLVER": SOLVER, **values})


def run_child(child, ops, env, cwd=None):
    r = subprocess.run([sys.executable, child, os.path.dirname(os.path.dirname(os.path.abspath(__file__))), *ops], env=env, cwd=cwd, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.split() == ["ok"], r.stderr
    return r


def sections(stderr):
    """[(op, its stderr)] in order."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("@"):
            out.append([line[1:], ""])
        elif out:
            out[-1][1] += line + "\n"
    return [tuple(s) for s in out]


def searched(stderr):
    """For each op: whether it searched (searches only) or warned of an unknown variant (runs)."""
    return [(": best " in text) if op.startswith("search") else ("not one of this problem's variants" in text)
            for op, text in sections(stderr)]


def db_file(folder):
    (path,) = glob.glob(os.path.join(str(folder), "cpu-*.updb.txt"))
    return path


def db_lines(folder):
    with open(db_file(folder)) as f:
        text = f.read()
    assert text == "" or text.endswith("\n"), "a record without its newline"
    return text.splitlines()


def searched_db(child, tmp_path):
    """A db folder holding the search result of problem 1; returns (folder, its one line)."""
    db = tmp_path / "db"
    r = run_child(child, ["search:1"], env_with(MIOPEN_USER_DB_PATH=db))
    assert searched(r.stderr) == [True]
    (line,) = db_lines(db)
    assert line.split("=", 1)[1].startswith(SOLVER + ":")
    return db, line


def with_variant(line, variant):
    return line.split("=", 1)[0] + "=" + SOLVER + ":" + variant


def test_the_record_is_read_and_answers_a_later_process(child, tmp_path):
    """The control of the tests below: a record answers (no search) and an unknown variant in it
    is reported when the solver runs."""
    db, line = searched_db(child, tmp_path)
    r = run_child(child, ["search:1"], env_with(MIOPEN_USER_DB_PATH=db))
    assert searched(r.stderr) == [False]
    with open(db_file(db), "w") as f:
        f.write(with_variant(line, "512,1") + "\n")
    r = run_child(child, ["run:1"], env_with(MIOPEN_USER_DB_PATH=db))
    assert searched(r.stderr) == [True]


def test_a_symlinked_perf_db_file_is_ignored(child, tmp_path):
    db, line = searched_db(child, tmp_path)
    path = db_file(db)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "target.txt"
    target.write_text(with_variant(line, "512,1") + "\n")     # would warn if it were read
    os.unlink(path)
    os.symlink(target, path)
    before = target.read_bytes()
    r = run_child(child, ["run:1", "search:1", "search:1"], env_with(MIOPEN_USER_DB_PATH=db))
    assert searched(r.stderr) == [False, True, False]          # not read; the result kept in memory
    assert r.stderr.count("is a symbolic link") == 1
    assert "keeping tuning results in memory only" in r.stderr
    assert os.path.islink(path) and target.read_bytes() == before
    assert listing(elsewhere) == ["target.txt"]


def test_a_read_only_perf_db_file_is_read_but_never_replaced(child, tmp_path):
    db, line = searched_db(child, tmp_path)
    path = db_file(db)
    with open(path, "w") as f:
        f.write(with_variant(line, "512,1") + "\n")
    os.chmod(path, 0o444)
    before, st = read(path, "rb"), os.stat(path)
    r = run_child(child, ["run:1", "search:2", "search:2", "run:2"], env_with(MIOPEN_USER_DB_PATH=db))
    # read (problem 1's unknown variant reported); problem 2 searched once, then from memory
    assert searched(r.stderr) == [True, True, False, False]
    assert r.stderr.count("is read-only") == 1
    assert read(path, "rb") == before
    assert os.stat(path).st_ino == st.st_ino and os.stat(path).st_mode & 0o777 == 0o444


def test_a_last_line_without_its_newline_is_not_trusted(child, tmp_path):
    db, line = searched_db(child, tmp_path)
    with open(db_file(db), "w") as f:
        f.write(with_variant(line, "512,1"))                    # a write cut before its newline
    r = run_child(child, ["run:1", "search:1"], env_with(MIOPEN_USER_DB_PATH=db))
    assert searched(r.stderr) == [False, True]                 # not read: no record, so a search
    assert r.stderr.count("damaged line") == 1
    (new,) = db_lines(db)                                      # rewritten whole
    assert new.startswith(line.split("=", 1)[0] + "=" + SOLVER + ":") and new != with_variant(line, "512,1")


def test_no_home_keeps_the_perf_db_in_memory_with_one_warning(child, tmp_path):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    r = run_child(child, ["search:1", "search:2", "search:1", "run:1"],
                  env_with(HOME=None, MIOPEN_USER_DB_PATH=None), cwd=cwd)
    assert searched(r.stderr) == [True, True, False, False]
    assert r.stderr.count("neither MIOPEN_USER_DB_PATH nor HOME is set: keeping tuning results in memory only") == 1
    assert listing(cwd) == []


def test_perf_db_path_at_a_file(child, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    r = run_child(child, ["search:1", "search:1"], env_with(MIOPEN_USER_DB_PATH=blocker))
    assert searched(r.stderr) == [True, False]
    assert r.stderr.count("keeping tuning results in memory only") == 1
    assert blocker.read_text() == "not a directory"
    assert listing(tmp_path) == ["a_file", "perf_db_child.py"]


def test_perf_db_path_at_a_symlink_to_elsewhere_writes_nothing_there(child, tmp_path):
    elsewhere, link = tmp_path / "elsewhere", tmp_path / "link"
    elsewhere.mkdir()
    os.symlink(elsewhere, link)
    r = run_child(child, ["search:1", "search:1"], env_with(MIOPEN_USER_DB_PATH=link))
    assert searched(r.stderr) == [True, False]
    assert r.stderr.count("is a symbolic link") == 1
    assert listing(elsewhere) == []
