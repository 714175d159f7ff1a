"""The find-db under faults: 8 processes at once, a writer killed (SIGKILL) in the middle of a write,
truncated / garbage / read-only files, no HOME, MIOPEN_USER_DB_PATH at a file, at a symlink to
elsewhere or at a directory owned by someone else. No record is lost or corrupt, nothing crashes,
a warning is logged, and nothing is written outside the configured directory.

Each scenario runs Finds in child processes (find_db_child.py, the code of CHILD below), so the db
starts cold in each, as it does for separate jobs sharing a home directory."""
import glob
import os
import pwd
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from support.db import env_with, listing, read

# A child: Finds the forward convolution of problem k (k output channels: one db record per k)
# for each k in argv, checks y against a float64 reference when the Find ran the kernels, and
# prints "ran" or "db" per problem (db: the record answered, y untouched).
CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import miopen_cy as mi

    def find(k):
        h = mi.Handle(device="cpu")
        x = np.arange(2 * 3 * 6 * 6, dtype=np.float32).reshape(2, 3, 6, 6) / 50.0
        w = (np.arange(k * 3 * 3 * 3, dtype=np.float32).reshape(k, 3, 3, 3) % 7 - 3.0) / 10.0
        cd = mi.ConvolutionDescriptor()
        mi.initConvolutionNdDescriptor(cd, 2, (1, 1), (1, 1), (1, 1), mi.miopenConvolution)
        xd, wd = mi.TensorDescriptor(), mi.TensorDescriptor()
        mi.setTensorDescriptor(xd, mi.miopenFloat, 4, x.shape, None)
        mi.setTensorDescriptor(wd, mi.miopenFloat, 4, w.shape, None)
        yshape = mi.getConvolutionNdForwardOutputDim(cd, xd, wd)
        yd = mi.TensorDescriptor()
        mi.setTensorDescriptor(yd, mi.miopenFloat, 4, yshape, None)
        y = np.full(yshape, np.nan, np.float32)
        size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        ws = np.empty(max(size, 1), np.uint8)
        perf = mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 5, ws, size, False)
        assert len(perf) >= 1
        if np.all(np.isnan(y)):
            return "db"
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        ref = np.zeros(yshape)
        for i in range(3):
            for j in range(3):
                ref += np.einsum("nchw,kc->nkhw", xp[:, :, i:i + 6, j:j + 6], w[:, :, i, j])
        assert np.abs(y - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max()), "wrong y"
        return "ran"

    print(" ".join(find(int(k)) for k in sys.argv[1:]), flush=True)
""")


@pytest.fixture
def child(tmp_path):
    path = tmp_path / "find_db_child.py"
    path.write_text(CHILD)
    return str(path)


def run_child(child, problems, env, cwd=None, check=True):
    r = subprocess.run([sys.executable, child, *map(str, problems)], env=env, cwd=cwd,
                       capture_output=True, text=True, timeout=300)
    if check:
        assert r.returncode == 0, r.stderr
    return r


def db_files(folder):
    return sorted(glob.glob(os.path.join(str(folder), "cpu-*.ufdb.txt")))


def db_records(folder):
    """{key: line} of the one db file in `folder`; every line must be whole."""
    (path,) = db_files(folder)
    text = read(path)
    assert text == "" or text.endswith("\n"), "a record without its newline"
    lines = text.splitlines()
    records = {}
    for line in lines:
        key, _, rest = line.partition("=")
        assert key and rest and all(len(item.split(":")) == 2 and len(item.split(",")) == 3
                                    for item in rest.split(";")), line
        records[key] = line
    assert len(records) == len(lines), "a key stored twice"
    return records


# ---- several processes --------------------------------------------------------------------------

def test_8_processes_finding_the_same_and_different_problems_lose_nothing(child, tmp_path):
    db = tmp_path / "db"
    # Each process finds problem 1 (the same for all) and problem 2 + i (its own), with writes
    # slowed down so that they overlap.
    env = env_with(MIOPEN_USER_DB_PATH=db, MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS=30)
    procs = [subprocess.Popen([sys.executable, child, "1", str(2 + i)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(8)]
    results = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 0, err
        assert "Warning" not in err, err
    records = db_records(db)
    assert len(records) == 9                         # problem 1 once, and the 8 own problems
    assert listing(db) == [os.path.basename(db_files(db)[0]), os.path.basename(db_files(db)[0]) + ".lock"]
    # Every record answers a later process (nothing lost, nothing corrupt).
    r = run_child(child, range(1, 10), env_with(MIOPEN_USER_DB_PATH=db))
    assert r.stdout.split() == ["db"] * 9


def test_writer_killed_mid_write_loses_no_record_and_its_temp_file_is_cleaned(child, tmp_path):
    db = tmp_path / "db"
    run_child(child, [1], env_with(MIOPEN_USER_DB_PATH=db))
    before = db_records(db)
    (path,) = db_files(db)
    # A writer that sleeps 20 s halfway through writing its temp file: killed there.
    p = subprocess.Popen([sys.executable, child, "2"],
                         env=env_with(MIOPEN_USER_DB_PATH=db, MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS=20000),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    temps = []
    deadline = time.monotonic() + 120
    while not temps and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
        temps = [t for t in glob.glob(path + ".*") if not t.endswith(".lock")]
    assert temps, "the writer never started its temp file"
    time.sleep(0.2)                                   # inside the delayed write
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL
    assert db_records(db) == before                   # the db is as it was
    assert os.path.exists(temps[0])                   # the half-written temp file is left...
    r = run_child(child, [3, 1], env_with(MIOPEN_USER_DB_PATH=db))
    assert r.stdout.split() == ["ran", "db"]
    assert "Warning" not in r.stderr, r.stderr
    assert not os.path.exists(temps[0])               # ...and removed by the next writer
    after = db_records(db)
    assert len(after) == 2 and before.items() <= after.items()


# ---- damaged files ------------------------------------------------------------------------------

def test_truncated_and_garbage_lines_are_dropped_and_valid_records_kept(child, tmp_path):
    db = tmp_path / "db"
    run_child(child, [1, 2], env_with(MIOPEN_USER_DB_PATH=db))
    (path,) = db_files(db)
    lines = sorted(db_records(db).values())
    # problem 1's record whole; garbage and binary; problem 2's record cut short (no newline).
    with open(path, "wb") as f:
        f.write(lines[0].encode() + b"\n" + b"garbage without equals\n\x00\xff\xfe=\n;;;=:\n"
                + lines[1].encode()[:-3])
    r = run_child(child, [1, 2], env_with(MIOPEN_USER_DB_PATH=db))
    # One of the two (whichever record survived) answers from the db; the truncated one re-runs.
    kept_key = lines[0].split("=")[0]
    assert sorted(r.stdout.split()) == ["db", "ran"]
    assert "damaged line" in r.stderr
    assert r.stderr.count("damaged line") == 1      # one warning per file
    records = db_records(db)                         # rewritten: only whole, valid lines
    assert len(records) == 2 and records[kept_key] == lines[0]


def test_a_complete_looking_record_without_its_newline_is_not_trusted(child, tmp_path):
    db = tmp_path / "db"
    run_child(child, [1], env_with(MIOPEN_USER_DB_PATH=db))
    (path,) = db_files(db)
    (line,) = db_records(db).values()
    with open(path, "w") as f:
        f.write(line)                                # a write cut exactly before the newline
    r = run_child(child, [1], env_with(MIOPEN_USER_DB_PATH=db))
    assert r.stdout.split() == ["ran"]
    assert "damaged line" in r.stderr
    assert read(path).endswith("\n")


def test_read_only_file_is_read_but_never_replaced(child, tmp_path):
    db = tmp_path / "db"
    run_child(child, [1], env_with(MIOPEN_USER_DB_PATH=db))
    (path,) = db_files(db)
    os.chmod(path, 0o444)
    before = read(path, "rb")
    st = os.stat(path)
    r = run_child(child, [1, 2, 2], env_with(MIOPEN_USER_DB_PATH=db))
    assert r.stdout.split() == ["db", "ran", "db"]   # read; the new record kept in memory
    assert r.stderr.count("is read-only") == 1
    assert read(path, "rb") == before
    assert os.stat(path).st_ino == st.st_ino and os.stat(path).st_mode & 0o777 == 0o444


def test_a_symlinked_db_file_is_ignored(child, tmp_path):
    db, elsewhere = tmp_path / "db", tmp_path / "elsewhere"
    run_child(child, [1], env_with(MIOPEN_USER_DB_PATH=db))
    (path,) = db_files(db)
    elsewhere.mkdir()
    target = elsewhere / "target.txt"
    os.replace(path, target)
    os.symlink(target, path)
    before = target.read_bytes()
    r = run_child(child, [1, 2], env_with(MIOPEN_USER_DB_PATH=db))
    assert r.stdout.split() == ["ran", "ran"]       # the linked file's record is not used
    assert "is a symbolic link" in r.stderr
    assert os.path.islink(path) and target.read_bytes() == before
    assert listing(elsewhere) == ["target.txt"]


# ---- unusable or missing directories ------------------------------------------------------------

def test_no_home_keeps_the_db_in_memory_with_one_warning_and_writes_no_file(child, tmp_path):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    r = run_child(child, [1, 2, 1], env_with(HOME=None, MIOPEN_USER_DB_PATH=None), cwd=cwd)
    assert r.stdout.split() == ["ran", "ran", "db"]  # the in-memory db answers
    assert r.stderr.count("neither MIOPEN_USER_DB_PATH nor HOME is set") == 1
    assert listing(cwd) == []


def test_home_default_directory_is_created_owner_only(child, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    run_child(child, [1], env_with(HOME=home, MIOPEN_USER_DB_PATH=None))
    folder = home / ".cache" / "miopen_cy"
    assert len(db_files(folder)) == 1
    assert os.stat(folder).st_mode & 0o777 == 0o700


def test_db_path_at_a_file(child, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    r = run_child(child, [1, 1], env_with(MIOPEN_USER_DB_PATH=blocker))
    assert r.stdout.split() == ["ran", "db"]
    assert r.stderr.count("keeping find results in memory only") == 1
    assert blocker.read_text() == "not a directory" and listing(tmp_path) == ["a_file", "find_db_child.py"]


def test_db_path_at_a_symlink_to_elsewhere_writes_nothing_there(child, tmp_path):
    elsewhere, link = tmp_path / "elsewhere", tmp_path / "link"
    elsewhere.mkdir()
    os.symlink(elsewhere, link)
    r = run_child(child, [1, 1], env_with(MIOPEN_USER_DB_PATH=link))
    assert r.stdout.split() == ["ran", "db"]
    assert r.stderr.count("is a symbolic link") == 1
    assert listing(elsewhere) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
def test_db_path_at_a_directory_owned_by_someone_else(child, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    nobody = pwd.getpwnam("nobody")
    os.chown(other, nobody.pw_uid, nobody.pw_gid)
    r = run_child(child, [1, 1], env_with(MIOPEN_USER_DB_PATH=other))
    assert r.stdout.split() == ["ran", "db"]
    assert r.stderr.count("is owned by another user") == 1
    assert listing(other) == []


def test_bad_write_delay_hook_value_is_a_clear_error(child, tmp_path):
    r = run_child(child, [1], env_with(MIOPEN_USER_DB_PATH=tmp_path / "db",
                                       MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS="soon"), check=False)
    assert r.returncode != 0
    assert "MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS" in r.stderr
    assert db_files(tmp_path / "db") == [] or db_records(tmp_path / "db") == {}
