"""Which solver a convolution run takes from the find-db record (ConvRun looks at the recorded
solvers first, surveying only those, and surveys every solver only when none of them can run the
call): a record naming an unknown solver, a solver of another algorithm, or one that needs more
workspace than the call gives falls through to the next usable one, else to the best estimate;
every output checked against PyTorch float64, NaN-poisoned."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc, poisoned, rel_l2
from support.conv import FWD, Case, reference, run

LAYER = Case(2, 8, (10, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1))
KEY = "8-10-9-3x3-6-10-9-2-1x1-1x1-1x1-1-NCHW-FP32-F"


@pytest.fixture
def handle(tmp_path, monkeypatch):
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path))
    h = mi.Handle(device="cpu")
    return h


def write_record(tmp_path, handle, entries):
    # The find-db file name: the arch plus the solver-set tag, as the library writes it.
    x, w, dy, *_ = reference(LAYER, np.random.default_rng(1))
    run(handle, LAYER, FWD, x, w, dy)   # a Find creates the file
    (path,) = list(tmp_path.glob("*.ufdb.txt"))
    path.write_text(f"{KEY}={entries}\n")
    return path


@pytest.mark.parametrize("entries", [
    "NoSuchSolver:0.1,0,1;ConvDirectNaiveConvFwd:1.0,0,1",          # unknown name first
    "GemmFwdRest:0.1,4000,0;ConvDirectNaiveConvFwd:1.0,0,1",        # another algorithm first
    "NoSuchSolver:0.1,0,1",                                         # nothing usable: the estimate
])
def test_run_falls_through_unusable_records(handle, rng, tmp_path, entries):
    write_record(tmp_path, handle, entries)
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    got = run(handle, LAYER, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoDirect))
    assert np.isfinite(got).all()
    assert rel_l2(got, y_ref) <= 1e-5


def test_run_skips_a_recorded_solver_needing_more_workspace(handle, rng, tmp_path):
    write_record(tmp_path, handle, "GemmFwdRest:0.1,4000,0")
    x, w, dy, y_ref, *_ = reference(LAYER, rng)
    cd = LAYER.conv_desc()
    xd, wd = desc(x.shape), desc(w.shape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    y = poisoned(y_ref.shape)
    # GEMM with no workspace: the recorded GemmFwdRest cannot run; another GEMM solver does, or
    # the error names the algorithm (and y stays untouched).
    try:
        mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, int(mi.miopenConvolutionAlgoGEMM), 0.0, yd, y, None, 0)
    except mi.BadParmError as e:
        assert "GEMM" in str(e) or "Gemm" in str(e)
        assert np.isnan(y).all()
        return
    assert rel_l2(y, y_ref) <= 1e-5


def test_run_with_a_bad_algorithm_names_it_with_or_without_record(handle, rng, tmp_path):
    write_record(tmp_path, handle, "ConvDirectNaiveConvFwd:1.0,0,1")
    x, w, dy, *_ = reference(LAYER, rng)
    with pytest.raises(mi.BadParmError, match="algo"):
        run(handle, LAYER, FWD, x, w, dy, algo=4)
