"""Find 2.0: problems, find options, miopenFindSolutions, miopenRunSolution with tensor
arguments, the solution getters and the save / load round trip; every solution found run and
compared with PyTorch in all three directions; the errors of bad arguments and damaged blobs
(nothing written). Every test taking `handle` runs on each device present (conftest.py): on a GPU
handle the arrays given to runSolution are staged, and the preallocated buffers of the find
options are DeviceBuffers (a NumPy array there would be a host pointer: refused, see the GPU-only
tests at the end, which also pass PyTorch CUDA tensors)."""
import gc
import struct
import warnings
import zlib

import numpy as np
import pytest
import torch
from hypothesis import given, settings

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.conv import BWD, CASES, FWD, WIDE, WRW, Case, cases, is_gpu, needy, reference
from support.devices import TORCH_CUDA, requires_gpu

LAYER = Case(2, 8, (10, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1))
APPROX = (mi.miopenConvolutionAlgoWinograd, mi.miopenConvolutionAlgoFFT)
X, W, Y = mi.miopenTensorConvolutionX, mi.miopenTensorConvolutionW, mi.miopenTensorConvolutionY
DIRECTION = {FWD: mi.miopenProblemDirectionForward, BWD: mi.miopenProblemDirectionBackward,
             WRW: mi.miopenProblemDirectionBackwardWeights}


class Setup:
    """A problem of one direction with its buffers by role: the written role poisoned, and
    PyTorch's float64 answer for it."""

    def __init__(self, case, direction, rng):
        x, w, dy, y, dx, dw = reference(case, rng)
        self.cd = case.conv_desc()
        self.descs = {X: desc(x.shape), W: desc(w.shape), Y: desc(y.shape)}
        self.problem = mi.createConvProblem(self.cd, DIRECTION[direction])
        for role, d in self.descs.items():
            mi.setProblemTensorDescriptor(self.problem, role, d)
        self.written = {FWD: Y, BWD: X, WRW: W}[direction]
        self.expected = {FWD: y, BWD: dx, WRW: dw}[direction]
        self.data = {X: x, W: w, Y: dy if direction != FWD else None}

    def buffers(self):
        bufs = dict(self.data)
        bufs[self.written] = poisoned(self.expected.shape)
        return bufs

    def run(self, handle, solution, bufs=None, tensors=None, ws_size=None):
        bufs = self.buffers() if bufs is None else bufs
        if tensors is None:
            tensors = [mi.TensorArgument(role, None, bufs[role]) for role in (X, W, Y)]
        if ws_size is None:
            ws_size = mi.getSolutionWorkspaceSize(solution)
        ws = np.empty(max(ws_size, 1), np.uint8)
        mi.runSolution(handle, solution, len(tensors), tensors, ws, ws_size)
        return bufs[self.written]


def on_device(handle, a):
    """A preallocated buffer for the find options: the array itself on the CPU (used in place),
    a DeviceBuffer holding a copy on a GPU."""
    return mi.DeviceBuffer.from_numpy(handle, a) if is_gpu(handle) else a


def on_host(handle, b, shape):
    return b.to_numpy(shape, np.float32) if is_gpu(handle) else b


def listed(handle, s, direction):
    """Immediate mode's solutions of the Setup's problem."""
    d = s.descs
    if direction == FWD:
        return mi.convolutionForwardGetSolution(handle, d[W], d[X], s.cd, d[Y], 16)
    if direction == BWD:
        return mi.convolutionBackwardDataGetSolution(handle, d[Y], d[W], s.cd, d[X], 16)
    return mi.convolutionBackwardWeightsGetSolution(handle, d[Y], d[X], s.cd, d[W], 16)


def check(out, expected, solution):
    bound = 1e-4 if mi.getSolverIdConvAlgorithm(mi.getSolutionSolverId(solution)) in APPROX else 1e-5
    err = rel_l2(out, expected)
    assert err <= bound, (solution, err)


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_every_solution_found_matches_torch(handle, rng, case, direction):
    s = Setup(case, direction, rng)
    found = mi.findSolutions(handle, s.problem, None, 16)
    assert len(found) >= 1
    ids = [mi.getSolutionSolverId(f) for f in found]
    assert len(set(ids)) == len(ids)
    times = [mi.getSolutionTime(f) for f in found]
    assert times == sorted(times) and all(t > 0 for t in times)
    for f in found:
        check(s.run(handle, f), s.expected, f)


def test_find_returns_what_immediate_mode_lists(handle, rng):
    s = Setup(LAYER, FWD, rng)
    found = {mi.getSolutionSolverId(f): mi.getSolutionWorkspaceSize(f)
             for f in mi.findSolutions(handle, s.problem, None, 16)}
    listed = {c.solution_id: c.workspace_size for c in mi.convolutionForwardGetSolution(
        handle, s.descs[W], s.descs[X], s.cd, s.descs[Y], 16)}
    assert set(found) <= set(listed) and len(found) >= 4
    assert all(found[i] == listed[i] for i in found)
    assert len(mi.findSolutions(handle, s.problem, None, 2)) == 2


def test_results_order_and_workspace_limit(handle, rng):
    s = Setup(*needy(handle), rng)          # a problem with workspace solutions on the device
    opts = mi.createFindOptions()
    mi.setFindOptionResultsOrder(opts, mi.miopenFindResultsOrderByWorkspaceSize)
    by_ws = mi.findSolutions(handle, s.problem, opts, 16)
    sizes = [mi.getSolutionWorkspaceSize(f) for f in by_ws]
    assert sizes == sorted(sizes) and sizes[-1] > 0
    mi.setFindOptionWorkspaceLimit(opts, 0)
    mi.setFindOptionTuning(opts, 1)
    limited = mi.findSolutions(handle, s.problem, opts, 16)
    assert limited and all(mi.getSolutionWorkspaceSize(f) == 0 for f in limited)
    for f in limited:
        check(s.run(handle, f), s.expected, f)
    mi.destroyFindOptions(opts)


def test_preallocated_workspace_caps_and_preallocated_tensors_are_used(handle, rng):
    case, direction = needy(handle)
    s = Setup(case, direction, rng)
    sizes = sorted({c.workspace_size for c in listed(handle, s, direction)})
    cap = sizes[1]                       # the smallest nonzero workspace
    opts = mi.FindOptions()
    ws = mi.DeviceBuffer(handle, cap) if is_gpu(handle) else np.empty(cap, np.uint8)
    mi.setFindOptionPreallocatedWorkspace(opts, ws, cap)
    bufs = {role: on_device(handle, a) for role, a in s.buffers().items()}
    for role in (X, W, Y):
        mi.setFindOptionPreallocatedTensor(opts, role, bufs[role])
    found = mi.findSolutions(handle, s.problem, opts, 16)
    assert all(mi.getSolutionWorkspaceSize(f) <= cap for f in found)
    assert any(mi.getSolutionWorkspaceSize(f) == cap for f in found)
    # The benchmark ran on the preallocated buffers: the written one holds the convolution.
    assert rel_l2(on_host(handle, bufs[s.written], s.expected.shape), s.expected) <= 1e-4


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_save_load_round_trip_runs_the_same_solver(handle, rng, direction):
    case = Case(2, 8, (9, 8), 6, (3, 2), (1, 2), (2, 1), (1, 2), groups=2)
    s = Setup(case, direction, rng)
    for f in mi.findSolutions(handle, s.problem, None, 16):
        blob = mi.saveSolution(f)
        assert isinstance(blob, bytes) and len(blob) == mi.getSolutionSize(f)
        g = mi.loadSolution(blob, len(blob))
        assert mi.getSolutionSolverId(g) == mi.getSolutionSolverId(f)
        assert mi.getSolutionTime(g) == mi.getSolutionTime(f)
        assert mi.getSolutionWorkspaceSize(g) == mi.getSolutionWorkspaceSize(f)
        assert mi.saveSolution(g) == blob
        mi.destroySolution(f)            # the loaded one stands alone
        check(s.run(handle, g), s.expected, g)


def test_a_transposed_problem_round_trips(handle, rng):
    case = Case(2, 4, (5, 6), 6, (3, 3), (1, 1), (2, 2), (1, 1), transpose=True, adj=(1, 0))
    s = Setup(case, FWD, rng)
    f = mi.findSolutions(handle, s.problem, None, 1)[0]
    blob = mi.saveSolution(f)
    check(s.run(handle, mi.loadSolution(blob, len(blob))), s.expected, f)


def _blob(handle, rng):
    s = Setup(LAYER, FWD, rng)
    return s, mi.saveSolution(mi.findSolutions(handle, s.problem, None, 1)[0])


def test_a_damaged_blob_is_refused(handle, rng):
    s, blob = _blob(handle, rng)
    for at in (0, 9, 20, len(blob) // 2, len(blob) - 1):
        bad = bytearray(blob)
        bad[at] ^= 0x10
        with pytest.raises(mi.BadParmError, match="saved solution"):
            mi.loadSolution(bytes(bad), len(bad))
    with pytest.raises(mi.BadParmError, match="saved solution"):
        mi.loadSolution(blob[:-1], len(blob) - 1)
    with pytest.raises(mi.BadParmError, match="too small"):
        mi.loadSolution(blob[:5], 5)
    with pytest.raises(mi.BadParmError, match="version 7"):
        mi.loadSolution(blob[:8] + struct.pack("<I", 7) + blob[12:], len(blob))
    with pytest.raises(ValueError, match="size"):
        mi.loadSolution(blob, len(blob) + 1)


def test_a_blob_of_an_unknown_solver_is_refused(handle, rng):
    # A well-formed blob (right checksum) whose solver id this build lacks.
    s, blob = _blob(handle, rng)
    body = bytearray(blob[:-8])
    body[20 + 4:20 + 12] = struct.pack("<Q", 999999)        # header 20 bytes, direction i32, id u64
    fnv = 1469598103934665603
    for b in body:
        fnv = ((fnv ^ b) * 1099511628211) % (1 << 64)
    forged = bytes(body) + struct.pack("<Q", fnv)
    with pytest.raises(mi.BadParmError, match="solver id 999999"):
        mi.loadSolution(forged, len(forged))


def test_missing_duplicate_and_bad_tensor_arguments(handle, rng):
    s = Setup(LAYER, FWD, rng)
    f = mi.findSolutions(handle, s.problem, None, 1)[0]
    bufs = s.buffers()
    y = bufs[Y]
    ws = mi.getSolutionWorkspaceSize(f)
    args = [(X, None, bufs[X]), (Y, None, y)]
    with pytest.raises(mi.MIOpenError, match="miopenTensorConvolutionW is missing") as e:
        s.run(handle, f, bufs, args, ws)
    assert e.value.status == mi.miopenStatusInvalidValue
    with pytest.raises(mi.BadParmError, match="given twice"):
        s.run(handle, f, bufs, args + [(X, None, bufs[X]), (W, None, bufs[W])], ws)
    with pytest.raises(mi.BadParmError, match=r"tensors\[2\]\.id = 7"):
        s.run(handle, f, bufs, args + [(7, None, bufs[W])], ws)
    other = desc((2, 6, 10, 8))
    with pytest.raises(mi.BadParmError, match=r"tensors\[1\]\.descriptor .*found for"):
        s.run(handle, f, bufs, [(X, None, bufs[X]), (Y, other, np.empty(960, np.float32)),
                                (W, None, bufs[W])], ws)
    with pytest.raises(mi.BadParmError, match=r"tensors\[1\]\.buffer"):
        s.run(handle, f, bufs, [(X, None, bufs[X]), (Y, None, np.empty(10, np.float32)),
                                (W, None, bufs[W])], ws)
    with pytest.raises(ValueError, match="nInputs"):
        mi.runSolution(handle, f, 2, [(X, None, bufs[X])], None, 0)
    assert np.isnan(y).all()
    # The explicit, matching descriptor works.
    out = s.run(handle, f, bufs, [(X, s.descs[X], bufs[X]), (W, s.descs[W], bufs[W]),
                                  (Y, s.descs[Y], y)], ws)
    check(out, s.expected, f)


def test_bad_enums_and_unset_problem_tensors(handle, rng):
    cd = LAYER.conv_desc()
    with pytest.raises(mi.BadParmError, match="direction = 3"):
        mi.createConvProblem(cd, 3)
    p = mi.createConvProblem(cd, mi.miopenProblemDirectionForward)
    for bad in (0, 4):
        with pytest.raises(mi.BadParmError, match=f"id = {bad}"):
            mi.setProblemTensorDescriptor(p, bad, desc((2, 8, 10, 9)))
    opts = mi.FindOptions()
    with pytest.raises(mi.BadParmError, match="value = 2"):
        mi.setFindOptionResultsOrder(opts, 2)
    with pytest.raises(mi.BadParmError, match="id = 9"):
        mi.setFindOptionPreallocatedTensor(opts, 9, np.empty(4, np.float32))
    mi.setProblemTensorDescriptor(p, X, desc((2, 8, 10, 9)))
    mi.setProblemTensorDescriptor(p, Y, desc((2, 6, 10, 9)))
    with pytest.raises(mi.MIOpenError, match="no descriptor for miopenTensorConvolutionW") as e:
        mi.findSolutions(handle, p, None, 4)
    assert e.value.status == mi.miopenStatusInvalidValue
    mi.setProblemTensorDescriptor(p, W, desc((6, 8, 5, 5)))       # y no longer matches
    with pytest.raises(mi.BadParmError, match="miopenTensorConvolutionY"):
        mi.findSolutions(handle, p, None, 4)
    with pytest.raises(mi.BadParmError, match="maxSolutions = 0"):
        mi.findSolutions(handle, p, None, 0)


def test_solver_id_algorithms(handle):
    expect = {85: 1, 86: 1, 87: 1, 91: 0, 102: 0, 67: 3, 69: 3, 1001: 5}
    for sid, algo in expect.items():
        assert mi.getSolverIdConvAlgorithm(sid) == algo
    with pytest.raises(mi.BadParmError, match="solverId = 12345"):
        mi.getSolverIdConvAlgorithm(12345)


def test_objects_die_cleanly_and_raise_after_destroy(handle, rng):
    s = Setup(LAYER, FWD, rng)
    f = mi.findSolutions(handle, s.problem, None, 1)[0]
    mi.destroyProblem(s.problem)
    with pytest.raises(ValueError, match="destroyed"):
        mi.findSolutions(handle, s.problem, None, 1)
    check(s.run(handle, f), s.expected, f)              # a solution outlives its problem
    mi.destroySolution(f)
    with pytest.raises(ValueError, match="destroyed"):
        mi.getSolutionTime(f)
    assert "destroyed" in repr(f)
    opts = mi.FindOptions()
    mi.destroyFindOptions(opts)
    with pytest.raises(ValueError, match="destroyed"):
        mi.setFindOptionTuning(opts, 1)
    for _ in range(3):
        mi.findSolutions(handle, Setup(LAYER, WRW, rng).problem, mi.FindOptions(), 4)
    gc.collect()


def _hypothesis_every_solution_found(case, device):
    handle = mi.Handle(device=device)
    rng = np.random.default_rng(zlib.crc32(str(case).encode()))
    for direction in (FWD, BWD, WRW):
        s = Setup(case, direction, rng)
        found = mi.findSolutions(handle, s.problem, None, 16)
        assert found, (str(case), direction)
        for f in found:
            blob = mi.saveSolution(f)
            g = mi.loadSolution(blob, len(blob))
            check(s.run(handle, g), s.expected, g)


@settings(max_examples=15, deadline=None)
@given(case=cases())
def test_hypothesis_geometries_every_solution_found(case):
    _hypothesis_every_solution_found(case, "cpu")


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@settings(max_examples=8, deadline=None)
@given(case=cases())
def test_hypothesis_geometries_every_solution_found_gpu(case):
    _hypothesis_every_solution_found(case, "gpu")


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_strided_tensors(handle, rng, direction):
    case = Case(2, 4, (7, 6), 5, (3, 3), (1, 1), (1, 1), (1, 1))
    x, w, dy, y, dx, dw = reference(case, rng)
    T = {X: Strided(x.shape, fill=x), W: Strided(w.shape, fill=w), Y: Strided(dy.shape, fill=dy)}
    written, expected = {FWD: (Y, y), BWD: (X, dx), WRW: (W, dw)}[direction]
    T[written] = Strided(T[written].shape, fill=np.nan)
    problem = mi.createConvProblem(case.conv_desc(), DIRECTION[direction])
    for role, t in T.items():
        mi.setProblemTensorDescriptor(problem, role, t.desc())
    found = mi.findSolutions(handle, problem, None, 16)
    # On the CPU only the direct solver takes strided tensors; the GPU implicit GEMM takes any.
    strided_ok = ({mi.miopenConvolutionAlgoDirect, mi.miopenConvolutionAlgoImplicitGEMM} if is_gpu(handle)
                  else {mi.miopenConvolutionAlgoDirect})
    assert found and all(mi.getSolverIdConvAlgorithm(mi.getSolutionSolverId(f)) in strided_ok
                         for f in found)
    for f in found:
        T[written].buf[...] = np.nan
        mi.runSolution(handle, f, 3, [(role, None, t.buf) for role, t in T.items()], None, 0)
        assert rel_l2(T[written].view, expected) <= 1e-5 and T[written].gaps_untouched()


def test_fast_find_mode_answers_with_estimates_without_running(handle, rng, monkeypatch):
    monkeypatch.setenv("MIOPEN_FIND_MODE", "FAST")
    s = Setup(LAYER, FWD, rng)
    opts = mi.FindOptions()
    bufs = {role: on_device(handle, a) for role, a in s.buffers().items()}
    for role in (X, W, Y):
        mi.setFindOptionPreallocatedTensor(opts, role, bufs[role])
    found = mi.findSolutions(handle, s.problem, opts, 16)
    listed = mi.convolutionForwardGetSolution(handle, s.descs[W], s.descs[X], s.cd, s.descs[Y], 16)
    est = {c.solution_id: c.time for c in listed}
    assert {mi.getSolutionSolverId(f) for f in found} == set(est)
    assert all(mi.getSolutionTime(f) == pytest.approx(est[mi.getSolutionSolverId(f)]) for f in found)
    assert np.isnan(on_host(handle, bufs[Y], s.expected.shape)).all()      # nothing was benchmarked
    for f in found:
        check(s.run(handle, f), s.expected, f)


def test_find_stores_its_benchmark_for_immediate_mode(handle, rng):
    s = Setup(LAYER, BWD, rng)
    found = mi.findSolutions(handle, s.problem, None, 16)
    measured = {mi.getSolutionSolverId(f): mi.getSolutionTime(f) for f in found}
    listed = mi.convolutionBackwardDataGetSolution(handle, s.descs[Y], s.descs[W], s.cd, s.descs[X], 16)
    head = listed[:len(measured)]
    assert {c.solution_id for c in head} == set(measured)
    assert all(c.time == pytest.approx(measured[c.solution_id], rel=1e-4) for c in head)   # db: %.6g


def test_logging_cmd_prints_the_driver_line_of_find_and_run(handle, rng, monkeypatch, capfd):
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING_CMD", "1")
    s = Setup(LAYER, WRW, rng)
    f = mi.findSolutions(handle, s.problem, None, 1)[0]
    s.run(handle, f)
    lines = [ln for ln in capfd.readouterr().err.splitlines() if "[LogCmdConvolution]" in ln]
    assert len(lines) == 2
    assert all(ln.endswith("-n 2 -c 8 -H 10 -W 9 -k 6 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 "
                           "-F 4 -t 1") for ln in lines), lines


def test_preallocated_cpu_device_buffer_and_torch_tensors_on_a_cpu_handle(rng):
    # A CPU handle: a CPU DeviceBuffer and PyTorch CPU tensors are host memory, used in place.
    handle = mi.Handle(device="cpu")
    s = Setup(LAYER, FWD, rng)
    opts = mi.FindOptions()
    cap = max(c.workspace_size for c in listed(handle, s, FWD))
    mi.setFindOptionPreallocatedWorkspace(opts, mi.DeviceBuffer(handle, cap), cap)
    bufs = {role: torch.from_numpy(a) for role, a in s.buffers().items()}
    for role in (X, W, Y):
        mi.setFindOptionPreallocatedTensor(opts, role, bufs[role])
    assert mi.findSolutions(handle, s.problem, opts, 16)
    assert rel_l2(bufs[Y].numpy(), s.expected) <= 1e-4


def test_a_gpu_array_this_process_cannot_use_is_refused_when_set():
    # Host memory dressed as a GPU array: no GPU backend here, or not device memory on a GPU.
    class Fake:
        __cuda_array_interface__ = {"data": (4096, False), "shape": (4,), "typestr": "<f4", "version": 3}
    opts = mi.FindOptions()
    with pytest.raises(mi.BadParmError, match="buffer lives on"):
        mi.setFindOptionPreallocatedTensor(opts, X, Fake())
    with pytest.raises(mi.BadParmError, match="buffer lives on"):
        mi.setFindOptionPreallocatedWorkspace(opts, Fake(), 16)


# ---- GPU handles: preallocated buffers and tensor arguments on the device -----------------------

@requires_gpu
@pytest.mark.parametrize("host_role", ["workspace", X, Y])
def test_a_host_array_preallocated_for_a_gpu_handle_is_refused(rng, host_role):
    """A NumPy array in the find options would be a host pointer on a GPU handle: findSolutions
    refuses it naming the buffer, before anything runs (the device buffers stay NaN)."""
    handle = mi.Handle(device="gpu")
    s = Setup(LAYER, FWD, rng)
    opts = mi.FindOptions()
    host = s.buffers()
    bufs = {role: (host[role] if role == host_role else mi.DeviceBuffer.from_numpy(handle, host[role]))
            for role in (X, W, Y)}
    for role in (X, W, Y):
        mi.setFindOptionPreallocatedTensor(opts, role, bufs[role])
    if host_role == "workspace":
        mi.setFindOptionPreallocatedWorkspace(opts, np.empty(64, np.uint8), 64)
    what = "workspace" if host_role == "workspace" else mi.TensorArgumentId(host_role).name
    with pytest.raises(mi.BadParmError, match=rf"preallocated {what} .* lives on cpu .*DeviceBuffer.*"
                                              rf"the handle on gpu:\d"):
        mi.findSolutions(handle, s.problem, opts, 16)
    y = bufs[Y] if host_role == Y else bufs[Y].to_numpy(s.expected.shape, np.float32)
    assert np.isnan(y).all()
    # The same options on a CPU handle are refused too (the device buffers are on the GPU).
    with pytest.raises(mi.BadParmError, match=r"lives on gpu:\d+, the handle on cpu"):
        mi.findSolutions(mi.Handle(device="cpu"), s.problem, opts, 16)


@requires_gpu
def test_gpu_buffers_preallocated_for_a_cpu_handle_are_refused(rng):
    handle = mi.Handle(device="gpu")
    s = Setup(LAYER, FWD, rng)
    opts = mi.FindOptions()
    mi.setFindOptionPreallocatedWorkspace(opts, mi.DeviceBuffer(handle, 256), 256)
    with pytest.raises(mi.BadParmError, match=r"preallocated workspace .*lives on gpu:\d+, the handle on cpu"):
        mi.findSolutions(mi.Handle(device="cpu"), s.problem, opts, 16)
    assert mi.findSolutions(handle, s.problem, opts, 16)              # its own device: fine


@requires_gpu
@pytest.mark.parametrize("kind", ["DeviceBuffer", "torch"])
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gpu_data_find_and_run_in_place(rng, kind, direction):
    """Preallocated workspace and tensors, and runSolution's tensors and workspace, as
    DeviceBuffers or PyTorch CUDA tensors: no staging (a PerformanceWarning fails the test); the
    benchmark writes the preallocated output; every solution found matches PyTorch."""
    if kind == "torch" and not TORCH_CUDA:
        pytest.skip("PyTorch without CUDA")
    handle = mi.Handle(device="gpu")
    s = Setup(WIDE, direction, rng)         # WIDE: backward weights has workspace solutions

    def dev(a):
        a = np.ascontiguousarray(a, np.float32)
        return mi.DeviceBuffer.from_numpy(handle, a) if kind == "DeviceBuffer" else torch.from_numpy(a).cuda()

    def raw(n):
        return (mi.DeviceBuffer(handle, max(n, 1)) if kind == "DeviceBuffer"
                else torch.empty(max(n, 1), dtype=torch.uint8, device="cuda"))

    def host(b):
        if kind == "DeviceBuffer":
            return b.to_numpy(s.expected.shape, np.float32)
        torch.cuda.synchronize()
        return b.cpu().numpy()

    cap = max(c.workspace_size for c in listed(handle, s, direction))
    with warnings.catch_warnings():
        warnings.simplefilter("error", mi.PerformanceWarning)
        mi._mirror._reset_performance_warning()          # a staged call warns (once) again
        opts = mi.FindOptions()
        mi.setFindOptionPreallocatedWorkspace(opts, raw(cap), cap)
        bufs = {role: dev(a) for role, a in s.buffers().items()}
        for role in (X, W, Y):
            mi.setFindOptionPreallocatedTensor(opts, role, bufs[role])
        found = mi.findSolutions(handle, s.problem, opts, 16)
        assert found
        assert rel_l2(host(bufs[s.written]), s.expected) <= 1e-4      # the benchmark wrote it
        for f in found:
            size = mi.getSolutionWorkspaceSize(f)
            bufs[s.written] = dev(poisoned(s.expected.shape))
            tensors = [mi.TensorArgument(role, None, bufs[role]) for role in (X, W, Y)]
            ws = raw(size)                      # alive until the result is read back
            mi.runSolution(handle, f, 3, tensors, ws, size)
            check(host(bufs[s.written]), s.expected, f)
