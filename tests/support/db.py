"""The find-db and perf-db for the tests: a tunable solver's Find (find), the perf-db file read and
rewritten (perf_db, write_perf_db), and the fault tests' child environments and file listings
(env_with, read, listing)."""
import glob
import os

import numpy as np

import miopen_cy as mi
from support.buffers import desc, poisoned
from support.conv import BWD, FWD


def find(handle, case, direction, x, w, dy, exhaustive, out=None):
    cd = case.conv_desc()
    xd, wd = desc(x.shape), desc(w.shape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    if direction == FWD:
        size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
        out = poisoned(yd_shape(cd, xd, wd)) if out is None else out
        return mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, out, 5, np.empty(max(size, 1), np.uint8),
                                                  size, exhaustive), out
    if direction == BWD:
        size = mi.convolutionBackwardDataGetWorkSpaceSize(handle, yd, wd, cd, xd)
        out = poisoned(x.shape) if out is None else out
        return mi.findConvolutionBackwardDataAlgorithm(handle, yd, dy, wd, w, cd, xd, out, 5,
                                                       np.empty(max(size, 1), np.uint8), size, exhaustive), out
    size = mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, wd)
    out = poisoned(w.shape) if out is None else out
    return mi.findConvolutionBackwardWeightsAlgorithm(handle, yd, dy, xd, x, cd, wd, out, 5,
                                                      np.empty(max(size, 1), np.uint8), size, exhaustive), out


def yd_shape(cd, xd, wd):
    return tuple(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))


def perf_db_file():
    names = glob.glob(os.path.join(os.environ["MIOPEN_USER_DB_PATH"], "cpu-*.updb.txt"))
    assert len(names) <= 1, names
    return names[0] if names else None


def perf_db():
    """{key: {solver: variant}} from the perf-db file ({} when there is none)."""
    path = perf_db_file()
    out = {}
    if path is None:
        return out
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            key, _, rest = line.partition("=")
            out[key] = dict(item.split(":", 1) for item in rest.split(";"))
    return out


def write_perf_db(records, extra_lines=()):
    """Replaces the file through a rename, as the library does: a new inode, so the library's cache
    (size, inode, mtime) sees the change even within one timestamp tick."""
    path = perf_db_file()
    with open(path + ".tmp", "w") as f:
        for line in extra_lines:
            f.write(line + "\n")
        for key, rec in records.items():
            f.write(key + "=" + ";".join(f"{s}:{v}" for s, v in rec.items()) + "\n")
    os.replace(path + ".tmp", path)


def env_with(**values):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MIOPEN_")}
    env["MIOPEN_CY_DEVICE"] = "cpu"
    env["OMP_NUM_THREADS"] = "1"
    for k, v in values.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = str(v)
    return env


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def listing(folder):
    return sorted(os.listdir(str(folder)))
