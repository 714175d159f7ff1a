"""Find and its find-db, the MIOPEN_DEBUG_* / MIOPEN_FIND_* switches, and the logged driver
command: the convolution machinery around the solvers."""
import glob
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc, poisoned, rel_l2
from support.conv import CASES, FWD, Case, reference, run


@pytest.fixture
def handle():
    """These tests cover the Find machinery with the CPU solver set (its algorithms, workspaces and db file name); Find on the GPU is tested in test_convolution_gpu.py: a CPU handle only."""
    return mi.Handle(device="cpu")


LAYER = Case(2, 8, (10, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1))


def find_fwd(handle, case, x, w, y, ws=True):
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(y.shape)
    size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd) if ws else 0
    buf = np.empty(max(size, 1), np.uint8) if ws else None
    return mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, y, 5, buf, size, False)


def db_file():
    """The CPU find-db: cpu-<solver-set fingerprint>.ufdb.txt (the fingerprint changes with the solvers)."""
    folder = os.environ["MIOPEN_USER_DB_PATH"]
    names = glob.glob(os.path.join(folder, "cpu-*.ufdb.txt")) if os.path.isdir(folder) else []
    assert len(names) <= 1, names
    return names[0] if names else os.path.join(folder, "cpu-00000000.ufdb.txt")


def create_db_file(handle):
    """Makes the find-db file exist (a tiny benchmarked Find) and returns its path, so a test can
    then write records of its own into the right file."""
    case = Case(1, 1, (3, 3), 1, (1, 1), (0, 0), (1, 1), (1, 1))
    x = np.ones(case.xshape, np.float32)
    w = np.ones(case.wshape, np.float32)
    find_fwd(handle, case, x, w, poisoned((1, 1, 3, 3)))
    assert os.path.exists(db_file())
    return db_file()


def db_lines():
    with open(db_file()) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


# ---- Find results ------------------------------------------------------------------------------

def test_find_returns_best_per_algorithm_sorted_and_writes_y(handle, rng):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    y = poisoned(y_ref.shape)
    perf = find_fwd(handle, LAYER, x, w, y)
    algos = [int(p.fwd_algo) for p in perf]
    assert len(algos) == len(set(algos)) and set(algos) == {0, 1, 3, 5}
    assert [p.time for p in perf] == sorted(p.time for p in perf)
    assert all(p.time > 0 for p in perf)
    assert rel_l2(y, y_ref) <= 1e-5


def test_find_truncates_to_request_count(handle, rng):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    cd, xd, wd, yd = LAYER.conv_desc(), desc(x.shape), desc(w.shape), desc(y_ref.shape)
    size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poisoned(y_ref.shape), 1,
                                              np.empty(size, np.uint8), size, False)
    assert len(perf) == 1


def test_find_without_workspace_never_fails_and_skips_workspace_solvers(handle, rng):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    perf = find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape), ws=False)
    assert sorted(int(p.fwd_algo) for p in perf) == [1, 5]     # GEMM (im2col) needs workspace
    assert all(p.memory == 0 for p in perf)


def test_workspace_size_is_the_largest_of_the_applicable_solvers(handle, monkeypatch):
    case = LAYER
    cd, xd, wd = case.conv_desc(), desc(case.xshape), desc(case.wshape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    # Winograd F(2x2,3x3): 16 tile elements x (8 + 6 channels) x 2 x 5 x 5 tiles floats
    assert mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd) == 16 * 14 * 50 * 4
    # im2col of one image and group: C*R*S x Ho*Wo floats
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_WINOGRAD", "0")
    assert mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd) == 8 * 9 * 10 * 9 * 4


# ---- switches ----------------------------------------------------------------------------------------

def test_disabled_algorithm_never_appears(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM", "0")
    perf = find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    assert sorted(int(p.fwd_algo) for p in perf) == [1, 3, 5]
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM", "1")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_DIRECT", "disabled")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_IMPLICIT_GEMM", "no")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_WINOGRAD", "off")
    perf = find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    assert [int(p.fwd_algo) for p in perf] == [0]


def test_all_solvers_disabled_names_the_switches(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM", "off")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_DIRECT", "FALSE")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_IMPLICIT_GEMM", "0")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_WINOGRAD", "0")
    y = poisoned(y_ref.shape)
    with pytest.raises(mi.BadParmError) as info:
        find_fwd(handle, LAYER, x, w, y)
    msg = str(info.value)
    assert "MIOPEN_DEBUG_CONV_GEMM=off" in msg and "MIOPEN_DEBUG_CONV_DIRECT=FALSE" in msg
    assert "ConvMPBidirectWinograd<4-3> disabled by MIOPEN_DEBUG_CONV_WINOGRAD=0" in msg
    assert "GemmFwdRest" in msg and "ConvDirectNaiveConvFwd" in msg
    assert np.all(np.isnan(y))


def test_bad_toggle_value_is_an_error_naming_the_variable(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM", "maybe")
    with pytest.raises(mi.BadParmError, match="MIOPEN_DEBUG_CONV_GEMM='maybe' is not a boolean"):
        find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))


@pytest.mark.parametrize("value", ["GemmFwdRest", "91", "GemmFwdRest;ConvDirectNaiveConvBwd"])
def test_find_only_solver_by_name_or_id(handle, rng, monkeypatch, value):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", value)
    y = poisoned(y_ref.shape)
    perf = find_fwd(handle, LAYER, x, w, y)
    assert [int(p.fwd_algo) for p in perf] == [0]
    assert rel_l2(y, y_ref) <= 1e-5


def test_find_only_solver_unknown_name(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "NoSuchSolver")
    with pytest.raises(mi.BadParmError, match="'NoSuchSolver' is not a solver name or id"):
        find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))


def test_deterministic_attribute_keeps_the_deterministic_solvers(handle, rng):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    cd, xd, wd, yd = LAYER.conv_desc(), desc(x.shape), desc(w.shape), desc(y_ref.shape)
    mi.setConvolutionAttribute(cd, mi.MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1)
    y = poisoned(y_ref.shape)
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, y, 5, None, 0, False)
    assert perf and rel_l2(y, y_ref) <= 1e-5        # every CPU solver is deterministic


# ---- find modes and the find-db ----------------------------------------------------------------------

def test_find_writes_a_record_that_later_finds_reuse(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    first = find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    lines = db_lines()
    assert len(lines) == 1
    key, record = lines[0].split("=")
    assert key == "8-10-9-3x3-6-10-9-2-1x1-1x1-1x1-1-NCHW-FP32-F"
    assert re.fullmatch(r"([\w<>-]+:[0-9.e+-]+,\d+,\d;)*[\w<>-]+:[0-9.e+-]+,\d+,\d", record)   # MIOpen's names: ConvMPBidirectWinograd<4-3>
    # DYNAMIC_HYBRID (the default) answers from the db: nothing runs, y stays untouched.
    y = poisoned(y_ref.shape)
    again = find_fwd(handle, LAYER, x, w, y)
    assert [(p.fwd_algo, p.time) for p in again] == [(p.fwd_algo, pytest.approx(p.time, rel=1e-5)) for p in first]
    assert np.all(np.isnan(y))
    # NORMAL always benchmarks.
    monkeypatch.setenv("MIOPEN_FIND_MODE", "NORMAL")
    y = poisoned(y_ref.shape)
    find_fwd(handle, LAYER, x, w, y)
    assert rel_l2(y, y_ref) <= 1e-5


def nhwc_desc(shape):
    """A descriptor of NCHW lengths `shape` with packed channels-last strides."""
    n, c, h, w = shape
    return desc(shape, (h * w * c, 1, w * c, c))


def test_channels_last_records_its_layout_in_the_key(handle, rng):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    wl = np.ascontiguousarray(w.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    yl = poisoned(y_ref.shape).transpose(0, 2, 3, 1).copy().transpose(0, 3, 1, 2)
    cd = LAYER.conv_desc()
    perf = mi.findConvolutionForwardAlgorithm(handle, nhwc_desc(x.shape), xl, nhwc_desc(w.shape), wl, cd,
                                              nhwc_desc(y_ref.shape), yl, 5, None, 0, False)
    assert perf and rel_l2(yl, y_ref) <= 1e-5
    [line] = db_lines()
    assert line.split("=")[0] == "8-10-9-3x3-6-10-9-2-1x1-1x1-1x1-1-NHWC-NHWC-NHWC-FP32-F"


def test_mixed_layouts_are_refused_naming_both_tensors(handle, rng):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    y = poisoned(y_ref.shape)
    with pytest.raises(mi.BadParmError, match=r"mixed layouts: wDesc is packed channels-first \(NCHW\) but xDesc is packed channels-last \(NHWC\)"):
        mi.findConvolutionForwardAlgorithm(handle, nhwc_desc(x.shape), xl, desc(w.shape), w, LAYER.conv_desc(),
                                           desc(y_ref.shape), y, 5, None, 0, False)
    assert np.all(np.isnan(y))
    assert not os.path.exists(db_file())


def test_fast_mode_does_not_benchmark(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_FIND_MODE", "2")
    y = poisoned(y_ref.shape)
    perf = find_fwd(handle, LAYER, x, w, y)
    assert perf and np.all(np.isnan(y))
    assert not os.path.exists(db_file())


def test_find_enforce_db_update_and_clean(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    monkeypatch.setenv("MIOPEN_FIND_ENFORCE", "DB_UPDATE")
    y = poisoned(y_ref.shape)
    find_fwd(handle, LAYER, x, w, y)
    assert rel_l2(y, y_ref) <= 1e-5                   # benchmarked despite the record
    monkeypatch.setenv("MIOPEN_FIND_ENFORCE", "DB_CLEAN")
    monkeypatch.setenv("MIOPEN_FIND_MODE", "FAST")
    find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    assert db_lines() == []


@pytest.mark.parametrize("var,value", [("MIOPEN_FIND_MODE", "QUICK"), ("MIOPEN_FIND_ENFORCE", "9")])
def test_bad_find_mode_values(handle, rng, monkeypatch, var, value):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv(var, value)
    with pytest.raises(mi.BadParmError, match=f"{var}='{value}'"):
        find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))


def test_run_uses_the_recorded_solver(handle, rng, monkeypatch):
    """A find-db record decides which solver of an algorithm runs."""
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    key = "8-10-9-3x3-6-10-9-2-1x1-1x1-1x1-1-NCHW-FP32-F"
    with open(create_db_file(handle), "w") as f:
        f.write(f"{key}=GemmFwdRest:0.5,4000,0;ConvDirectNaiveConvFwd:1.0,0,1\n")
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING_CMD", "0")
    assert rel_l2(run(handle, LAYER, FWD, x, w, dy, algo=0), y_ref) <= 1e-5


def test_damaged_db_lines_are_skipped_and_dropped_at_next_write(handle, rng, capfd):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    with open(create_db_file(handle), "w") as f:
        f.write("garbage without equals\nKEY=Solver:notanumber,1,0\n\x00\x01binary=\n"
                "8-1-1-1x1-1-1-1-1-0x0-1x1-1x1-1-NCHW-FP32-F=ConvDirectNaiveConvFwd:0.1,0,1\ntrunc=Gemm")
    y = poisoned(y_ref.shape)
    find_fwd(handle, LAYER, x, w, y)
    assert rel_l2(y, y_ref) <= 1e-5
    assert "damaged line" in capfd.readouterr().err
    lines = db_lines()
    assert len(lines) == 2 and all("=" in l and ":" in l for l in lines)


def test_unusable_db_directory_degrades_to_memory(handle, rng, monkeypatch, tmp_path, capfd):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("a file")
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(blocker))
    find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    assert "keeping find results in memory only" in capfd.readouterr().err
    y = poisoned(y_ref.shape)
    find_fwd(handle, LAYER, x, w, y)                 # the in-memory record answers
    assert np.all(np.isnan(y))
    assert blocker.read_text() == "a file"


def test_disable_find_db(handle, rng, monkeypatch):
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_DISABLE_FIND_DB", "1")
    find_fwd(handle, LAYER, x, w, poisoned(y_ref.shape))
    assert not os.path.exists(db_file())


_WORKER = textwrap.dedent("""
    import sys, numpy as np, miopen_cy as mi
    c, repeat = int(sys.argv[1]), int(sys.argv[2])
    def desc(shape):
        d = mi.TensorDescriptor(); mi.setTensorDescriptor(d, mi.miopenFloat, len(shape), list(shape), None)
        return d
    h = mi.Handle()
    rng = np.random.default_rng(c)
    x = rng.standard_normal((1, c, 6, 5)).astype(np.float32)
    w = rng.standard_normal((2, c, 3, 3)).astype(np.float32)
    cd = mi.ConvolutionDescriptor(); mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    xd, wd, yd = desc(x.shape), desc(w.shape), desc((1, 2, 6, 5))
    y = np.empty((1, 2, 6, 5), np.float32)
    # The workspace every solver needs: Find short of it would store no record (MIOpen's rule).
    size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
    ws = np.empty(max(size, 1), np.uint8)
    for _ in range(repeat):
        mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 5, ws, size, False)
""")

# Solver names may carry template arguments (ConvMPBidirectWinograd<4-3>).
RECORD = re.compile(r"[\w-]+=([\w<>-]+:[0-9.e+-]+,\d+,\d;)*[\w<>-]+:[0-9.e+-]+,\d+,\d")


def _spawn(channels, repeat, env, capture=True):
    out = subprocess.PIPE if capture else subprocess.DEVNULL
    return subprocess.Popen([sys.executable, "-c", _WORKER, str(channels), str(repeat)], env=env,
                            cwd=os.path.dirname(mi.get_include()), stdout=out, stderr=out, text=True)


def test_eight_processes_finding_at_once_lose_nothing():
    env = dict(os.environ, MIOPEN_FIND_MODE="NORMAL", OMP_NUM_THREADS="1")
    procs = [_spawn(c, 3, env) for c in range(1, 9)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    lines = db_lines()
    assert all(RECORD.fullmatch(l) for l in lines), lines
    assert sorted(int(l.split("-")[0]) for l in lines) == list(range(1, 9))


def test_killed_writers_never_leave_a_damaged_db():
    env = dict(os.environ, MIOPEN_FIND_MODE="NORMAL", OMP_NUM_THREADS="1")
    rng = np.random.default_rng(0)
    for round_ in range(4):
        procs = [_spawn(c, 100000, env, capture=False) for c in (1, 2, 3)]
        deadline = time.time() + 60
        while not os.path.exists(db_file()) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.05, 0.5))          # kill somewhere in the middle of the writes
        for p in procs:
            p.send_signal(signal.SIGKILL)
        for p in procs:
            p.wait()
        lines = db_lines()
        assert lines and all(RECORD.fullmatch(l) for l in lines), lines
        assert len({l.split("=")[0] for l in lines}) == len(lines)


# ---- the logged driver command ------------------------------------------------------------------------

def test_logging_cmd_prints_the_driver_line(handle, rng, monkeypatch, capfd):
    x, w, dy, y_ref, *_ = reference(CASES[1], rng)
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING_CMD", "1")
    run(handle, CASES[1], FWD, x, w, dy, algo=1)
    err = capfd.readouterr().err
    assert ("miopen-driver conv -n 2 -c 8 -H 9 -W 8 -k 6 -y 3 -x 2 -p 1 -q 2 -u 2 -v 1 -l 1 -j 2 "
            "-m conv -g 2 -F 1 -t 1") in err
