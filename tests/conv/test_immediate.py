"""Immediate mode: every solution id that *GetSolution returns, in all three directions, run with
*Immediate and compared with PyTorch; the count, order, workspace and compile calls; and the
errors of an id that does not apply (nothing written). Every test taking `handle` runs on each
device present (conftest.py); on a GPU handle the NumPy arrays are staged, and the GPU-only tests
at the end pass DeviceBuffers and PyTorch CUDA tensors, which are used in place."""
import warnings
import zlib

import numpy as np
import pytest
import torch
from hypothesis import given, settings

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.conv import BWD, CASES, FWD, LAYER, WIDE, WRW, Call, Case, cases, is_gpu, needy, reference
from support.devices import TORCH_CUDA, requires_gpu

APPROX = (mi.miopenConvolutionAlgoWinograd, mi.miopenConvolutionAlgoFFT)
# The algorithms a 3x3 layer offers by device: the CPU has GEMM (0), direct (1), Winograd (3) and
# implicit GEMM (5) solvers; the GPU the direct (naive, depthwise), Winograd and implicit GEMM ones.
ALGORITHMS = {"cpu": {0, 1, 3, 5}, "gpu": {1, 3, 5}}
def device_kind(handle):
    return "gpu" if is_gpu(handle) else "cpu"


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_every_solution_id_matches_torch(handle, rng, case, direction):
    call = Call(case, direction, rng)
    sols = call.solutions(handle)
    assert len(sols) == call.count(handle) >= 1
    assert len({s.solution_id for s in sols}) == len(sols)
    for s in sols:
        assert mi.getSolverIdConvAlgorithm(s.solution_id) == s.algorithm
        assert call.workspace(handle, s.solution_id) == s.workspace_size
        call.compile(handle, s.solution_id)
        out = call.run(handle, s.solution_id)
        bound = 1e-4 if s.algorithm in APPROX else 1e-5
        assert rel_l2(out, call.expected) <= bound, (s, rel_l2(out, call.expected))


def test_a_3x3_layer_offers_every_algorithm_of_the_device_and_orders_by_estimate(handle, rng):
    call = Call(LAYER, FWD, rng)
    sols = call.solutions(handle)
    assert {int(s.algorithm) for s in sols} >= ALGORITHMS[device_kind(handle)]
    assert [s.time for s in sols] == sorted(s.time for s in sols)   # no record: the estimates
    assert all(s.time > 0 for s in sols)
    assert len(call.solutions(handle, 1)) == 1
    assert [s.solution_id for s in call.solutions(handle, 2)] == [s.solution_id for s in sols[:2]]


def test_a_find_db_record_orders_the_solutions_by_measured_time(handle, rng):
    call = Call(LAYER, FWD, rng)
    wd, xd, cd, yd = call.descs
    (_, w), (_, x) = call.inputs
    size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
    mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poisoned(call.expected.shape), 5,
                                       np.empty(size, np.uint8), size, False)
    # The record, read back through a Find 2.0 find (which answers from it without benchmarking).
    problem = mi.ConvProblem(cd, mi.miopenProblemDirectionForward)
    for role, d in ((mi.miopenTensorConvolutionX, xd), (mi.miopenTensorConvolutionW, wd),
                    (mi.miopenTensorConvolutionY, yd)):
        mi.setProblemTensorDescriptor(problem, role, d)
    recorded = {mi.getSolutionSolverId(s): mi.getSolutionTime(s)
                for s in mi.findSolutions(handle, problem, None, 16)}
    sols = call.solutions(handle)
    head = [s for s in sols if s.solution_id in recorded]
    assert sols[:len(head)] == head and len(head) == len(recorded) >= 2
    assert [s.time for s in head] == sorted(recorded.values())
    assert all(s.time == pytest.approx(recorded[s.solution_id]) for s in head)


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_an_unknown_id_is_bad_parm_and_writes_nothing(handle, rng, direction):
    call = Call(LAYER, direction, rng)
    for fn in ("GetSolutionWorkspaceSize", "CompileSolution"):
        with pytest.raises(mi.BadParmError, match="solution_id = 424242 is not the id of any solver"):
            call.fn(fn)(handle, *call.descs, 424242)
    out = poisoned(call.expected.shape)
    with pytest.raises(mi.BadParmError, match="424242"):
        call.run(handle, 424242, None, 0, out)
    assert np.isnan(out).all()


@pytest.mark.parametrize("direction, other_id, name", [
    (FWD, 86, "ConvDirectNaiveConvBwd"), (BWD, 87, "ConvDirectNaiveConvWrw"),
    (WRW, 85, "ConvDirectNaiveConvFwd")])
def test_an_id_of_another_direction_names_the_solver_and_the_reason(handle, rng, direction, other_id, name):
    call = Call(LAYER, direction, rng)
    out = poisoned(call.expected.shape)
    with pytest.raises(mi.BadParmError, match=rf"solution_id = {other_id} \({name}\) does not apply .*only"):
        call.run(handle, other_id, None, 0, out)
    assert np.isnan(out).all()
    with pytest.raises(mi.BadParmError, match=name):
        call.compile(handle, other_id)


def test_a_solver_that_does_not_fit_the_geometry_is_refused(handle, rng):
    case = Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (2, 2), (1, 1))     # 1x1 stride 2: no Winograd
    call = Call(case, FWD, rng)
    assert 67 not in [s.solution_id for s in call.solutions(handle)]
    with pytest.raises(mi.BadParmError, match=r"ConvMPBidirectWinograd<2-3>\) does not apply"):
        call.run(handle, 67, None, 0)


def test_too_small_a_workspace_is_refused_before_anything_runs(handle, rng):
    call = Call(*needy(handle), rng)
    needy_ = [s for s in call.solutions(handle) if s.workspace_size > 0]
    assert needy_
    out = poisoned(call.expected.shape)
    ws = np.empty(needy_[0].workspace_size, np.uint8)
    with pytest.raises(mi.BadParmError, match="workspace"):
        call.run(handle, needy_[0].solution_id, ws, needy_[0].workspace_size - 1, out)
    assert np.isnan(out).all()
    with pytest.raises(mi.BadParmError, match="workspace"):
        call.run(handle, needy_[0].solution_id, None, 0, out)
    assert np.isnan(out).all()


def test_a_disabled_algorithm_is_neither_listed_nor_runnable(handle, rng, monkeypatch):
    # GEMM on the CPU; the GPU has no GEMM solver, so its implicit GEMM there.
    algo, toggle = ((mi.miopenConvolutionAlgoImplicitGEMM, "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM") if is_gpu(handle)
                    else (mi.miopenConvolutionAlgoGEMM, "MIOPEN_DEBUG_CONV_GEMM"))
    call = Call(LAYER, FWD, rng)
    gemm = [s.solution_id for s in call.solutions(handle) if s.algorithm == algo]
    assert gemm
    monkeypatch.setenv(toggle, "0")
    assert all(s.algorithm != algo for s in call.solutions(handle))
    with pytest.raises(mi.BadParmError, match=f"disabled by {toggle}=0"):
        call.run(handle, gemm[0], None, 0)


def test_bad_arguments_name_the_parameter(handle, rng):
    call = Call(LAYER, FWD, rng)
    with pytest.raises(mi.BadParmError, match="maxSolutionCount = 0"):
        call.solutions(handle, 0)
    with pytest.raises(OverflowError, match="solution_id"):
        call.compile(handle, -1)
    with pytest.raises(TypeError, match="solution_id"):
        call.compile(handle, "85")
    wd, xd, cd, yd = call.descs
    bad_y = desc((2, 6, 10, 8))
    with pytest.raises(mi.BadParmError, match="yDesc"):
        mi.convolutionForwardGetSolutionCount(handle, wd, xd, cd, bad_y)
    (_, w), (_, x) = call.inputs
    small = np.full(10, np.nan, np.float32)
    with pytest.raises(mi.BadParmError, match="y"):
        mi.convolutionForwardImmediate(handle, wd, w, xd, x, cd, yd, small, None, 0, 85)
    assert np.isnan(small).all()


def _hypothesis_every_solution_id(case, device):
    handle = mi.Handle(device=device)
    rng = np.random.default_rng(zlib.crc32(str(case).encode()))
    for direction in (FWD, BWD, WRW):
        call = Call(case, direction, rng)
        sols = call.solutions(handle)
        assert sols, (str(case), direction)
        for s in sols:
            out = call.run(handle, s.solution_id)
            bound = 1e-4 if s.algorithm in APPROX else 1e-5
            assert rel_l2(out, call.expected) <= bound, (str(case), direction, s)


@settings(max_examples=20, deadline=None)
@given(case=cases())
def test_hypothesis_geometries_every_solution_id(case):
    _hypothesis_every_solution_id(case, "cpu")


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@settings(max_examples=10, deadline=None)
@given(case=cases())
def test_hypothesis_geometries_every_solution_id_gpu(case):
    _hypothesis_every_solution_id(case, "gpu")


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_strided_tensors_list_and_run_only_what_applies(handle, rng, direction):
    case = Case(2, 4, (7, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1))
    x, w, dy, y, dx, dw = reference(case, rng)
    T = {"x": Strided(x.shape, fill=x), "w": Strided(w.shape, fill=w), "y": Strided(dy.shape, fill=dy)}
    written, expected = {FWD: ("y", y), BWD: ("x", dx), WRW: ("w", dw)}[direction]
    cd = case.conv_desc()
    d = {k: t.desc() for k, t in T.items()}
    if direction == FWD:
        descs, prefix, ins = (d["w"], d["x"], cd, d["y"]), "convolutionForward", ("w", "x")
    elif direction == BWD:
        descs, prefix, ins = (d["y"], d["w"], cd, d["x"]), "convolutionBackwardData", ("y", "w")
    else:
        descs, prefix, ins = (d["y"], d["x"], cd, d["w"]), "convolutionBackwardWeights", ("y", "x")
    sols = getattr(mi, prefix + "GetSolution")(handle, *descs, 16)
    # On the CPU only the direct solver takes strided tensors; the GPU implicit GEMM takes any.
    strided_ok = ({mi.miopenConvolutionAlgoDirect, mi.miopenConvolutionAlgoImplicitGEMM} if is_gpu(handle)
                  else {mi.miopenConvolutionAlgoDirect})
    assert sols and all(s.algorithm in strided_ok for s in sols)
    for s in sols:
        out = Strided(T[written].shape, fill=np.nan)
        args = [descs[0], T[ins[0]].buf, descs[1], T[ins[1]].buf, cd, descs[3], out.buf, None, 0, s.solution_id]
        getattr(mi, prefix + "Immediate")(handle, *args)
        assert rel_l2(out.view, expected) <= 1e-5 and out.gaps_untouched()
    with pytest.raises(mi.BadParmError, match=r"\(Gemm\w+\) does not apply"):
        getattr(mi, prefix + "Immediate")(handle, descs[0], T[ins[0]].buf, descs[1], T[ins[1]].buf, cd,
                                          descs[3], Strided(T[written].shape).buf, None, 0,
                                          {FWD: 91, BWD: 97, WRW: 102}[direction])


# ---- GPU data used in place ------------------------------------------------------------------------

@requires_gpu
@pytest.mark.parametrize("kind", ["DeviceBuffer", "torch"])
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gpu_data_is_used_in_place(rng, kind, direction):
    """Inputs, output and workspace as DeviceBuffers or PyTorch CUDA tensors on a GPU handle: no
    staging (a PerformanceWarning would fail the test), every solution id matches PyTorch."""
    if kind == "torch" and not TORCH_CUDA:
        pytest.skip("PyTorch without CUDA")
    handle = mi.Handle(device="gpu")
    call = Call(WIDE, direction, rng)            # WIDE: backward weights has workspace solutions

    def dev(a):
        a = np.ascontiguousarray(a, np.float32)
        return mi.DeviceBuffer.from_numpy(handle, a) if kind == "DeviceBuffer" else torch.from_numpy(a).cuda()

    def host(b):
        if kind == "DeviceBuffer":
            return b.to_numpy(call.expected.shape, np.float32)
        torch.cuda.synchronize()
        return b.cpu().numpy()

    (ad, a), (bd, b) = call.inputs
    da, db = dev(a), dev(b)
    sols = call.solutions(handle)
    assert sols
    with warnings.catch_warnings():
        warnings.simplefilter("error", mi.PerformanceWarning)
        mi._mirror._reset_performance_warning()          # a staged call warns (once) again
        for s in sols:
            size = call.workspace(handle, s.solution_id)
            ws = (mi.DeviceBuffer(handle, max(size, 1)) if kind == "DeviceBuffer"
                  else torch.empty(max(size, 1), dtype=torch.uint8, device="cuda"))
            out = dev(poisoned(call.expected.shape))
            call.fn("Immediate")(handle, ad, da, bd, db, call.cd, call.out_desc, out, ws, size, s.solution_id)
            bound = 1e-4 if s.algorithm in APPROX else 1e-5
            assert rel_l2(host(out), call.expected) <= bound, (s, kind)


@requires_gpu
def test_a_buffer_of_another_device_is_refused(rng):
    handle = mi.Handle(device="gpu")
    call = Call(LAYER, FWD, rng)
    (ad, a), (bd, b) = call.inputs
    out = mi.DeviceBuffer.from_numpy(handle, poisoned(call.expected.shape))
    cpu_buf = mi.DeviceBuffer.from_numpy(mi.Handle(device="cpu"), np.ascontiguousarray(a, np.float32))
    sid = call.solutions(handle)[0].solution_id
    with pytest.raises(mi.BadParmError, match=r"w: the buffer lives on cpu, the handle on gpu"):
        call.fn("Immediate")(handle, ad, cpu_buf, bd, b, call.cd, call.out_desc, out, None, 0, sid)
    assert np.isnan(out.to_numpy(call.expected.shape, np.float32)).all()
