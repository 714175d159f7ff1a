"""The GPU runtime as Python sees it: device choice, DeviceBuffer on the GPU and its
__cuda_array_interface__, PyTorch CUDA tensors and DLPack capsules used in place, NumPy arrays
staged with a one-time PerformanceWarning, streams, profiling, determinism of the reductions and
the miopenCy* extension calls. GPU tests are skipped where no GPU (or no GPU backend) is present;
the rest run everywhere."""
import warnings

import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc, rel_l2
from support.devices import GPU, requires_gpu

try:
    import torch
    TORCH_CUDA = GPU and torch.cuda.is_available()
except ImportError:          # pragma: no cover - torch is a test dependency
    torch = None
    TORCH_CUDA = False

requires_torch_cuda = pytest.mark.skipif(not TORCH_CUDA, reason="needs PyTorch with CUDA and a GPU")


@pytest.fixture
def gpu():
    return mi.Handle(device="gpu")


def activation(mode=mi.miopenActivationRELU, a=0.0, b=0.0, g=0.0):
    d = mi.ActivationDescriptor()
    mi.setActivationDescriptor(d, mode, a, b, g)
    return d


# ---- everywhere ------------------------------------------------------------------------------

def test_extension_calls_are_mirrored_by_the_rule():
    for name in ("cyGetDeviceCount", "cyDeviceAlloc", "cyDeviceFree", "cyMemcpy",
                 "cyStreamSynchronize", "cyStreamWait", "cyGetPointerDevice"):
        assert callable(getattr(mi, name)), name
    assert mi.cyGetDeviceCount() >= 0


def test_extension_memory_calls_work_on_a_cpu_handle():
    h = mi.Handle(device="cpu")
    a = np.arange(16, dtype=np.float32)
    p = mi.cyDeviceAlloc(h, a.nbytes)
    assert p != 0 and mi.cyGetPointerDevice(p) == -1
    mi.cyMemcpy(h, p, a.ctypes.data, a.nbytes)
    b = np.empty_like(a)
    mi.cyMemcpy(h, b.ctypes.data, p, a.nbytes)
    mi.cyStreamSynchronize(h)
    mi.cyStreamWait(h, 0)
    mi.cyDeviceFree(h, p)
    assert np.array_equal(a, b)
    assert mi.cyDeviceAlloc(h, 0) == 0


def test_cpu_buffer_has_no_cuda_array_interface():
    buf = mi.DeviceBuffer(mi.Handle(device="cpu"), 16)
    assert not hasattr(buf, "__cuda_array_interface__")
    assert buf.__array_interface__["shape"] == (16,)


@pytest.mark.skipif(GPU, reason="a GPU is present")
def test_gpu_handle_without_a_gpu_raises_a_clear_error():
    with pytest.raises(mi.MIOpenError, match="device = 'gpu'") as info:
        mi.Handle(device="gpu")
    assert "GPU backend" in str(info.value) or "no GPU" in str(info.value)


@pytest.mark.skipif(GPU, reason="a GPU is present")
def test_default_handle_falls_back_to_the_cpu(monkeypatch):
    monkeypatch.delenv("MIOPEN_CY_DEVICE", raising=False)
    assert mi.Handle().device == "cpu"


# ---- device choice ---------------------------------------------------------------------------

@requires_gpu
def test_default_handle_is_gpu0_and_the_environment_chooses(monkeypatch):
    monkeypatch.delenv("MIOPEN_CY_DEVICE", raising=False)
    assert mi.Handle().device == "gpu:0"
    monkeypatch.setenv("MIOPEN_CY_DEVICE", "cpu")
    assert mi.Handle().device == "cpu"
    monkeypatch.setenv("MIOPEN_CY_DEVICE", "gpu:0")
    assert mi.Handle().device == "gpu:0"
    assert mi.Handle(device="gpu:0").device == "gpu:0"
    with pytest.raises(mi.BadParmError, match="GPU 4096 does not exist"):
        mi.Handle(device="gpu:4096")


# ---- DeviceBuffer ----------------------------------------------------------------------------

@requires_gpu
def test_device_buffer_round_trip_and_interfaces(gpu):
    a = np.random.default_rng(0).standard_normal((3, 5, 7)).astype(np.float32)
    buf = mi.DeviceBuffer.from_numpy(gpu, a)
    assert buf.nbytes == a.nbytes and mi.cyGetPointerDevice(buf.ptr) == 0
    assert np.array_equal(buf.to_numpy(a.shape, np.float32), a)
    cai = buf.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (a.nbytes,) and cai["typestr"] == "|u1"
    assert cai["data"] == (buf.ptr, False) and cai["stream"] is None
    assert not hasattr(buf, "__array_interface__")
    b = mi.DeviceBuffer(gpu, a.nbytes)
    b.copy_from(buf)                                   # device to device
    assert np.array_equal(b.to_numpy(a.shape, np.float32), a)
    b.copy_from(2 * a)                                 # host to device
    assert np.array_equal(b.to_numpy(a.shape, np.float32), 2 * a)
    with pytest.raises(ValueError, match="the buffer holds"):
        mi.DeviceBuffer(gpu, 4).copy_from(a)
    assert repr(buf).startswith("DeviceBuffer(gpu:0, nbytes=420")


@requires_gpu
def test_device_buffer_outlives_its_destroyed_handle():
    h = mi.Handle(device="gpu")
    buf = mi.DeviceBuffer(h, 1 << 20)
    mi.destroy(h)
    del buf                                            # freed through a handle of its own


@requires_gpu
def test_buffers_of_another_device_are_refused(gpu):
    cpu_buf = mi.DeviceBuffer(mi.Handle(device="cpu"), 64)
    with pytest.raises(mi.BadParmError, match="lives on cpu, the handle on gpu:0"):
        mi.setTensor(gpu, desc((16,)), cpu_buf, 1.0)
    gpu_buf = mi.DeviceBuffer(gpu, 64)
    with pytest.raises(mi.BadParmError, match="lives on gpu:0, the handle on cpu"):
        mi.setTensor(mi.Handle(device="cpu"), desc((16,)), gpu_buf, 1.0)


@requires_gpu
def test_ops_on_device_buffers_and_addresses(gpu):
    a = np.random.default_rng(1).standard_normal((4, 6, 5, 5)).astype(np.float32)
    x, y = mi.DeviceBuffer.from_numpy(gpu, a), mi.DeviceBuffer(gpu, a.nbytes)
    d = desc(a.shape)
    mi.activationForward(gpu, activation(), 1.0, d, x, 0.0, d, y.ptr)
    assert np.array_equal(y.to_numpy(a.shape, np.float32), np.maximum(a, 0))


# ---- PyTorch CUDA tensors and DLPack ---------------------------------------------------------

@requires_torch_cuda
def test_torch_cuda_tensors_are_used_in_place_without_a_warning(gpu):
    x = torch.randn(8, 16, 9, 9, device="cuda")
    y = torch.full_like(x, float("nan"))
    d = desc(x.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mi.activationForward(gpu, activation(mi.miopenActivationTANH, 1.0, 1.0), 1.0, d, x, 0.0,
                             d, y)
        mi.cyStreamSynchronize(gpu)
    assert torch.allclose(y, torch.tanh(x), rtol=1e-6, atol=1e-6)


@requires_torch_cuda
def test_torch_tensor_checks(gpu):
    d = desc((4, 4))
    with pytest.raises(mi.BadParmError, match=r"dtype 'f8' \(float64\) does not match the descriptor's miopenFloat"):
        mi.setTensor(gpu, d, torch.zeros(4, 4, dtype=torch.float64, device="cuda"), 1.0)
    with pytest.raises(mi.BadParmError, match="not C-contiguous"):
        mi.setTensor(gpu, d, torch.zeros(4, 8, device="cuda")[:, ::2], 1.0)
    with pytest.raises(mi.BadParmError, match="the buffer has 32 bytes"):
        mi.setTensor(gpu, d, torch.zeros(8, device="cuda"), 1.0)


@requires_torch_cuda
def test_device_buffer_is_visible_to_torch(gpu):
    buf = mi.DeviceBuffer(gpu, 64 * 4)
    t = torch.as_tensor(buf, device="cuda").view(torch.float32)
    mi.setTensor(gpu, desc((64,)), buf, 2.5)
    mi.cyStreamSynchronize(gpu)
    assert t.data_ptr() == buf.ptr and torch.all(t == 2.5)


class _DLPackOnly:
    """An array that offers only DLPack (as JAX arrays do)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


@requires_torch_cuda
def test_dlpack_cuda_arrays_are_used_in_place(gpu):
    x = torch.randn(1000, device="cuda")
    y = torch.zeros(1000, device="cuda")
    d = desc((1000,))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mi.transformTensor(gpu, 3.0, d, _DLPackOnly(x), 0.0, d, _DLPackOnly(y))
    mi.cyStreamSynchronize(gpu)
    assert torch.allclose(y, 3 * x)


@requires_torch_cuda
def test_torch_streams_drive_the_handle(monkeypatch):
    monkeypatch.delenv("MIOPEN_CY_DEVICE", raising=False)
    s = torch.cuda.Stream()
    h = mi.createWithStream(s.cuda_stream)
    assert mi.getStream(h) == s.cuda_stream and h.device == "gpu:0"
    with torch.cuda.stream(s):
        x = torch.randn(64, 1000, device="cuda")
        y = torch.empty_like(x)
        d = desc((64, 1000, 1, 1))
        mi.softmaxForward_V2(h, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE,
                             mi.MIOPEN_SOFTMAX_MODE_CHANNEL)
    s.synchronize()
    assert torch.allclose(y.view(64, 1000), torch.softmax(x, dim=1), rtol=1e-5, atol=1e-7)
    mi.setStream(h, 0)
    assert mi.getStream(h) == 0


class _OnStream:
    """A CUDA array that says which stream produced it (__cuda_array_interface__ v3)."""

    def __init__(self, t, stream):
        self.t, self.stream = t, stream

    @property
    def __cuda_array_interface__(self):
        return dict(self.t.__cuda_array_interface__, version=3, stream=self.stream.cuda_stream)


@requires_torch_cuda
def test_array_from_another_stream_is_waited_for(gpu):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(20_000_000)                        # keep s busy for a while
        x = torch.ones(1 << 22, device="cuda") * 3.0          # produced on s
    y = torch.empty(1 << 22, device="cuda")
    torch.cuda.current_stream().synchronize()
    d = desc(x.shape)
    mi.transformTensor(gpu, 2.0, d, _OnStream(x, s), 0.0, d, y)   # the handle's default stream
    mi.cyStreamSynchronize(gpu)
    assert torch.all(y == 6.0)
    torch.cuda.synchronize()


# ---- staging of NumPy arrays -----------------------------------------------------------------

@requires_gpu
def test_numpy_arrays_are_staged_with_a_one_time_warning(gpu):
    mi._mirror._reset_performance_warning()
    y = np.full((32, 32), np.nan, np.float32)
    with pytest.warns(mi.PerformanceWarning, match="copied to the device"):
        mi.setTensor(gpu, desc(y.shape), y, 4.0)
    assert np.all(y == 4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mi.scaleTensor(gpu, desc(y.shape), y, 0.5)           # warned once only
    assert np.all(y == 2.0)


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_staging_keeps_in_place_calls_and_failed_calls_change_nothing(gpu):
    x = np.random.default_rng(2).standard_normal((5, 7)).astype(np.float32)
    ref = np.maximum(x, 0)
    d = desc(x.shape)
    mi.activationForward(gpu, activation(), 1.0, d, x, 0.0, d, x)     # in place
    assert np.array_equal(x, ref)
    y = np.zeros_like(x)
    with pytest.raises(mi.BadParmError):
        mi.activationForward(gpu, activation(), 1.0, d, x, 0.0, desc((5, 8)), y)
    assert np.all(y == 0)
    with pytest.raises(TypeError):                                   # fails after x was staged
        mi.activationForward(gpu, activation(), 1.0, d, x, 0.0, d, "not an array")
    mi.transformTensor(gpu, 2.0, d, x, 0.0, d, y)                     # the next call is clean
    assert np.array_equal(y, 2 * ref)


# ---- profiling, determinism, unsupported ops -------------------------------------------------

@requires_gpu
def test_profiling_times_ops_with_events(gpu):
    x = mi.DeviceBuffer(gpu, 1 << 24)
    d = desc((1 << 22,))
    mi.enableProfiling(gpu, True)
    mi.setTensor(gpu, d, x, 1.0)
    t = mi.getKernelTime(gpu)
    mi.enableProfiling(gpu, False)
    assert 0 < t < 1000


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_reductions_are_deterministic(gpu):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((16, 8, 33, 65)) * 3 + 10).astype(np.float32)
    dy = rng.standard_normal(x.shape).astype(np.float32)
    xd = desc(x.shape)
    bn = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(bn, xd, mi.miopenBNSpatial)
    scale, bias = np.ones(8, np.float32), np.zeros(8, np.float32)
    outs = []
    for _ in range(2):
        y = np.empty_like(x)
        sm, si = np.empty(8, np.float32), np.empty(8, np.float32)
        mi.batchNormalizationForwardTraining(gpu, mi.miopenBNSpatial, 1.0, 0.0, xd, x, xd, y, bn,
                                             scale, bias, 0.1, None, None, 1e-5, sm, si)
        dx, ds, db = np.empty_like(x), np.empty(8, np.float32), np.empty(8, np.float32)
        mi.batchNormalizationBackward(gpu, mi.miopenBNSpatial, 1.0, 0.0, 1.0, 0.0, xd, x, xd, dy,
                                      xd, dx, bn, scale, ds, db, 1e-5, None, None)
        sy = np.empty_like(x)
        mi.softmaxForward_V2(gpu, 1.0, xd, x, 0.0, xd, sy, mi.MIOPEN_SOFTMAX_LOG,
                             mi.MIOPEN_SOFTMAX_MODE_INSTANCE)
        bd = desc((1, 8, 1, 1))
        dbias = np.empty(8, np.float32)
        mi.convolutionBackwardBias(gpu, 1.0, xd, dy, 0.0, bd, dbias)
        outs.append((y, sm, si, dx, ds, db, sy, dbias))
    for a, b in zip(*outs):
        assert np.array_equal(a.view(np.uint32), b.view(np.uint32))
    mean = x.mean(axis=(0, 2, 3), dtype=np.float64)
    assert rel_l2(outs[0][1], mean) < 1e-6


# ---- hardening: allocation failure, launch errors, bad frees (issue 9) ------------------------

def _check_relu_works(handle):
    x = np.random.default_rng(9).standard_normal((4, 33)).astype(np.float32)
    y = np.full_like(x, np.nan)
    d = desc(x.shape)
    mi.activationForward(handle, activation(), 1.0, d, x, 0.0, d, y)
    assert np.array_equal(y, np.maximum(x, 0))


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_gpu_allocation_failure_is_alloc_failed_and_the_handle_keeps_working(gpu):
    too_much = 1 << 50                                   # a petabyte: more than any GPU has
    with pytest.raises(mi.AllocFailedError) as e:
        mi.cyDeviceAlloc(gpu, too_much)
    assert e.value.status == mi.miopenStatusAllocFailed and str(too_much) in str(e.value)
    with pytest.raises(mi.AllocFailedError):
        mi.DeviceBuffer(gpu, too_much)
    _check_relu_works(gpu)
    p = mi.cyDeviceAlloc(gpu, 1 << 20)                   # and it can still allocate
    assert p != 0 and mi.cyGetPointerDevice(p) >= 0
    mi.cyDeviceFree(gpu, p)
    with pytest.raises(mi.BadParmError, match="already freed"):
        mi.cyDeviceFree(gpu, p)                          # double free: an error, not a crash
    _check_relu_works(gpu)


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_gpu_kernel_launch_error_names_the_op_and_changes_nothing(gpu, monkeypatch):
    x = np.random.default_rng(3).standard_normal((6, 5)).astype(np.float32)
    y = np.full_like(x, np.nan)
    d = desc(x.shape)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_GPU_FAIL_LAUNCH", "miopenActivationForward")
    with pytest.raises(mi.InternalError, match="miopenActivationForward: kernel launch failed") as e:
        mi.activationForward(gpu, activation(), 1.0, d, x, 0.0, d, y)
    assert e.value.status == mi.miopenStatusInternalError
    assert np.all(np.isnan(y))                           # the staged output was not copied back
    # Another op is not affected by the hook for this one.
    t = np.full_like(x, np.nan)
    mi.transformTensor(gpu, 2.0, d, x, 0.0, d, t)
    assert np.array_equal(t, 2 * x)
    monkeypatch.delenv("MIOPEN_CY_DEBUG_GPU_FAIL_LAUNCH")
    _check_relu_works(gpu)


def test_launch_failure_hook_is_inert_on_the_cpu(monkeypatch):
    monkeypatch.setenv("MIOPEN_CY_DEBUG_GPU_FAIL_LAUNCH", "1")
    _check_relu_works(mi.Handle(device="cpu"))
