"""The guard: on a GPU handle every data pointer passed as a raw address (a Python int here, a C
pointer in tests/api/c/host_pointer_guard.c) is checked before anything is queued. Host memory the
GPU cannot read and another GPU's memory are a BadParmError naming the parameter and what was
expected; the handle, and every other handle of the process, keep working afterwards. The C
program is compiled everywhere (so it stays right) and run where there is a GPU. The cost of the
check per pointer is printed (run with -s), never asserted."""
import os
import shutil
import subprocess
import time

import numpy as np
import pytest

import miopen_cy as mi
from support.c_program import cc_command
from support.buffers import desc
from support.devices import GPU, requires_gpu

HERE = os.path.dirname(__file__)
C_PROGRAM = os.path.join(HERE, "..", "api", "c", "host_pointer_guard.c")
HOST = r"is host memory that the GPU cannot read; the handle is on gpu:\d+ and expects device memory"

try:
    import torch
    TORCH_CUDA = GPU and torch.cuda.is_available()
except ImportError:          # pragma: no cover - torch is a test dependency
    torch = None
    TORCH_CUDA = False


@pytest.fixture
def gpu():
    return mi.Handle(device="gpu")


def relu():
    d = mi.ActivationDescriptor()
    mi.setActivationDescriptor(d, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
    return d


def check_relu_works(h, x):
    """The handle still runs kernels and gives the right result."""
    d = desc(x.shape)
    bx, by = mi.DeviceBuffer.from_numpy(h, x), mi.DeviceBuffer(h, x.nbytes)
    mi.activationForward(h, relu(), 1.0, d, bx, 0.0, d, by)
    assert np.array_equal(by.to_numpy(x.shape, np.float32), np.maximum(x, 0))


def conv_shapes():
    xd, wd = desc((2, 4, 8, 8)), desc((4, 4, 3, 3))
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    return xd, wd, desc((2, 4, 8, 8)), cd


# Each case: (name, call(h, host_address, device buffers) that passes the host address as `param`).
def _activation_x(h, a, b):
    d = desc((2, 3, 4, 5))
    mi.activationForward(h, relu(), 1.0, d, a, 0.0, d, b["y"])


def _activation_y(h, a, b):
    d = desc((2, 3, 4, 5))
    mi.activationForward(h, relu(), 1.0, d, b["x"], 0.0, d, a)


def _op_tensor_b(h, a, b):
    d = desc((2, 3, 4, 5))
    mi.opTensor(h, mi.miopenTensorOpAdd, 1.0, d, b["x"], 1.0, d, a, 0.0, d, b["y"])


def _conv_w(h, a, b):
    xd, wd, yd, cd = conv_shapes()
    mi.convolutionForward(h, 1.0, xd, b["cx"], wd, a, cd, mi.miopenConvolutionFwdAlgoDirect, 0.0, yd,
                          b["cy"], None, 0)


def _conv_workspace(h, a, b):
    xd, wd, yd, cd = conv_shapes()
    mi.convolutionForward(h, 1.0, xd, b["cx"], wd, b["cw"], cd, mi.miopenConvolutionFwdAlgoDirect, 0.0,
                          yd, b["cy"], a, 64)


def _find_x(h, a, b):
    xd, wd, yd, cd = conv_shapes()
    mi.findConvolutionForwardAlgorithm(h, xd, a, wd, b["cw"], cd, yd, b["cy"], 1, None, 0, False)


def _pool_workspace(h, a, b):
    pd = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(pd, mi.miopenPoolingMax, 2, 2, 0, 0, 2, 2)
    xd, yd = desc((2, 3, 4, 4)), desc((2, 3, 2, 2))
    mi.poolingForward(h, pd, 1.0, xd, b["x"], 0.0, yd, b["y"], True, a, 4096)


def _batchnorm_running_mean(h, a, b):
    xd, pd = desc((2, 3, 4, 5)), desc((1, 3, 1, 1))
    mi.batchNormalizationForwardTraining(h, mi.miopenBNSpatial, 1.0, 0.0, xd, b["x"], xd, b["y"], pd,
                                         b["p1"], b["p2"], 0.1, a, b["p3"], 1e-5, None, None)


def _sgemm_a(h, a, b):
    mi.cySgemm(h, False, False, False, 4, 4, 4, 1, a, 4, 16, b["x"], 4, 16, b["y"], 4, 16)


CASES = [("x", _activation_x), ("y", _activation_y), ("B", _op_tensor_b), ("w", _conv_w),
         ("workSpace", _conv_workspace), ("x", _find_x), ("workSpace", _pool_workspace),
         ("resultRunningMean", _batchnorm_running_mean), ("A", _sgemm_a)]


@requires_gpu
@pytest.mark.parametrize("param,call", CASES, ids=[c[1].__name__[1:] for c in CASES])
def test_host_address_is_refused_and_the_handle_works_after(gpu, param, call):
    rng = np.random.default_rng(0)
    host = rng.standard_normal(4096).astype(np.float32)           # plain (pageable) host memory
    bufs = {k: mi.DeviceBuffer(gpu, 4096 * 4) for k in ("x", "y", "cx", "cw", "cy", "p1", "p2", "p3")}
    for b in bufs.values():
        b.copy_from(np.ones(4096, np.float32))
    with pytest.raises(mi.BadParmError, match=rf"{param} = 0x[0-9a-f]+ {HOST}") as e:
        call(gpu, host.ctypes.data, bufs)
    assert e.value.status == mi.miopenStatusBadParm
    mi.cyStreamSynchronize(gpu)                  # nothing faulted: the stream is clean
    check_relu_works(gpu, rng.standard_normal((2, 3, 4, 5)).astype(np.float32))
    check_relu_works(mi.Handle(device="gpu"), rng.standard_normal((3, 2)).astype(np.float32))


@requires_gpu
def test_many_refusals_leave_the_process_working(gpu):
    host = np.ones(64, np.float32)
    d = desc((64,))
    out = mi.DeviceBuffer(gpu, host.nbytes)
    for _ in range(100):
        with pytest.raises(mi.BadParmError):
            mi.activationForward(gpu, relu(), 1.0, d, host.ctypes.data, 0.0, d, out)
    check_relu_works(gpu, np.linspace(-1, 1, 64, dtype=np.float32))


@requires_gpu
def test_device_memory_of_another_gpu_is_refused():
    if mi.cyGetDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    h0, h1 = mi.Handle(device="gpu:0"), mi.Handle(device="gpu:1")
    other = mi.DeviceBuffer(h1, 4096)
    mine = mi.DeviceBuffer(h0, 4096)
    d = desc((1024,))
    with pytest.raises(mi.BadParmError, match=r"x = 0x[0-9a-f]+ is memory of gpu:1; the handle is on gpu:0"):
        mi.activationForward(h0, relu(), 1.0, d, other.ptr, 0.0, d, mine)
    check_relu_works(h0, np.linspace(-1, 1, 1024, dtype=np.float32))


@pytest.mark.skipif(not TORCH_CUDA, reason="needs PyTorch with CUDA and a GPU")
def test_pinned_host_memory_is_accepted(gpu):
    """Pinned (page-locked, mapped) host memory is readable by the GPU: the guard lets it through."""
    x = torch.linspace(-1, 1, 120).reshape(2, 3, 4, 5).pin_memory()
    y = torch.empty_like(x).pin_memory()
    d = desc((2, 3, 4, 5))
    mi.activationForward(gpu, relu(), 1.0, d, x.data_ptr(), 0.0, d, y.data_ptr())
    mi.cyStreamSynchronize(gpu)
    assert torch.equal(y, torch.relu(x))


@requires_gpu
def test_guard_cost_per_pointer(gpu):
    """Prints what the guard's runtime query costs per pointer (cudaPointerGetAttributes /
    hipPointerGetAttributes through miopenCyGetPointerDevice, minus the same call on a null pointer,
    which makes no query). No assertion: timings are not tests."""
    dev = mi.DeviceBuffer(gpu, 1 << 20)
    host = np.ones(1 << 18, np.float32)
    n = 20000

    def per_call(addr):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(n):
                mi.cyGetPointerDevice(addr)
            best = min(best, (time.perf_counter() - t0) / n)
        return best

    base = per_call(0)
    for what, addr in (("device", dev.ptr), ("host", host.ctypes.data)):
        print(f"\npointer guard: {what} pointer {1e6 * (per_call(addr) - base):.3f} us per pointer")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_program_with_malloc_pointers_gets_badparm_and_no_fault(tmp_path):
    exe = tmp_path / "host_pointer_guard"
    build = subprocess.run(cc_command(C_PROGRAM, exe), capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    if not GPU:
        pytest.skip("compiled; running it needs a GPU")
    env = dict(os.environ)
    env.pop("MIOPEN_CY_DEVICE", None)                 # miopenCreate's default: GPU 0
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "guard ok" in run.stdout
    assert run.stdout.count("refused:") == 5
