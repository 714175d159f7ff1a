"""DLPack and PyTorch tensors as operands: DeviceBuffer.__dlpack__ / __dlpack_device__ (round trips
with NumPy and PyTorch), DLPack capsules passed as arguments, and the PyTorch CUDA tensor fast path
(data_ptr read directly; torch's current stream followed). GPU tests skip where no GPU (or no GPU
backend) is present; the DLPack tests on the CPU handle run everywhere."""
import gc
import sys

import numpy as np
import pytest
import torch
from torch.utils.dlpack import to_dlpack

import miopen_cy as mi
from support.buffers import desc
from support.devices import requires_torch_cuda


def relu_desc():
    d = mi.ActivationDescriptor()
    mi.setActivationDescriptor(d, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
    return d


# ---- DLPack export of DeviceBuffer, everywhere -----------------------------------------------

def test_cpu_buffer_dlpack_round_trip_with_numpy_and_torch(rng):
    h = mi.Handle(device="cpu")
    a = rng.standard_normal(12).astype(np.float32)
    buf = mi.DeviceBuffer.from_numpy(h, a)
    assert buf.__dlpack_device__() == (1, 0)
    v = np.from_dlpack(buf)
    assert v.dtype == np.uint8 and v.shape == (buf.nbytes,)
    assert np.array_equal(v.view(np.float32), a)
    t = torch.from_dlpack(buf)
    assert t.data_ptr() == buf.ptr                       # a view, not a copy
    t.view(torch.float32).mul_(2.0)
    assert np.array_equal(buf.to_numpy((12,), np.float32), 2.0 * a)


def test_dlpack_capsule_keeps_the_buffer_alive():
    h = mi.Handle(device="cpu")
    buf = mi.DeviceBuffer.from_numpy(h, np.arange(4, dtype=np.float32))
    before = sys.getrefcount(buf)
    cap = buf.__dlpack__()
    assert sys.getrefcount(buf) == before + 1
    del cap                                              # never consumed: the capsule frees it
    gc.collect()
    assert sys.getrefcount(buf) == before
    t = torch.from_dlpack(buf)
    del buf
    gc.collect()
    assert torch.equal(t.view(torch.float32), torch.arange(4, dtype=torch.float32))


def test_dlpack_export_rejects_copy_and_other_devices():
    buf = mi.DeviceBuffer(mi.Handle(device="cpu"), 8)
    with pytest.raises(BufferError, match="copy"):
        buf.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="dl_device"):
        buf.__dlpack__(dl_device=(2, 0))


def test_dlpack_capsules_are_accepted_as_arguments_on_the_cpu(rng):
    h = mi.Handle(device="cpu")
    x = torch.from_numpy(rng.standard_normal((2, 3, 4, 5)).astype(np.float32))
    y = torch.full_like(x, float("nan"))
    d = desc(x.shape)
    mi.activationForward(h, relu_desc(), 1.0, d, to_dlpack(x), 0.0, d, to_dlpack(y))
    assert torch.equal(y, torch.relu(x))


def test_a_dlpack_capsule_of_the_wrong_dtype_is_refused_and_nothing_is_written():
    h = mi.Handle(device="cpu")
    x = torch.ones((2, 3), dtype=torch.float64)
    y = torch.full((2, 3), float("nan"))
    d = desc((2, 3))
    with pytest.raises(mi.BadParmError, match="xDesc|x: array dtype"):
        mi.activationForward(h, relu_desc(), 1.0, d, to_dlpack(x), 0.0, d, to_dlpack(y))
    assert torch.isnan(y).all()


# ---- GPU: DLPack and the PyTorch fast path ---------------------------------------------------

@requires_torch_cuda
def test_gpu_buffer_dlpack_round_trip_with_torch(rng):
    h = mi.Handle(device="gpu")
    a = rng.standard_normal(64).astype(np.float32)
    buf = mi.DeviceBuffer.from_numpy(h, a)
    assert buf.__dlpack_device__()[1] == torch.cuda.current_device()
    assert buf.__dlpack_device__()[0] in (2, 10)
    t = torch.from_dlpack(buf)
    assert t.is_cuda and t.data_ptr() == buf.ptr
    f = t.view(torch.float32)
    assert np.array_equal(f.cpu().numpy(), a)
    f.add_(1.0)
    torch.cuda.synchronize()
    assert np.array_equal(buf.to_numpy((64,), np.float32), a + 1.0)
    # and back: the torch view of the buffer as an argument of a call
    y = torch.full((64,), float("nan"), device="cuda")
    d = desc((1, 1, 8, 8))
    mi.activationForward(h, relu_desc(), 1.0, d, f, 0.0, d, y)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.relu(f))


@requires_torch_cuda
def test_torch_fast_path_matches_torch_and_the_buffer_path(rng):
    h = mi.Handle(device="gpu")
    a = rng.standard_normal((4, 8, 16, 16)).astype(np.float32)
    x = torch.from_numpy(a).cuda()
    y = torch.full_like(x, float("nan"))
    d = desc(a.shape)
    mi.activationForward(h, relu_desc(), 1.0, d, x, 0.0, d, y)
    xb, yb = mi.DeviceBuffer.from_numpy(h, a), mi.DeviceBuffer(h, a.nbytes)
    mi.activationForward(h, relu_desc(), 1.0, d, xb, 0.0, d, yb)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.relu(x))
    assert np.array_equal(yb.to_numpy(a.shape, np.float32), y.cpu().numpy())


@requires_torch_cuda
@pytest.mark.parametrize("what", ["strided", "dtype", "small"])
def test_torch_tensors_that_do_not_fit_are_refused_by_name(what):
    h = mi.Handle(device="gpu")
    d = desc((2, 3, 4, 4))
    x = torch.randn((2, 3, 4, 4), device="cuda")
    if what == "strided":
        x = torch.randn((2, 3, 4, 8), device="cuda")[..., ::2]
        pattern = "x: .*contiguous"
    elif what == "dtype":
        x = x.double()
        pattern = "x: array dtype"
    else:
        x = x[:1]
        pattern = "x: the buffer has"
    y = torch.full((2, 3, 4, 4), float("nan"), device="cuda")
    with pytest.raises(mi.BadParmError, match=pattern):
        mi.activationForward(h, relu_desc(), 1.0, d, x, 0.0, d, y)
    torch.cuda.synchronize()
    assert torch.isnan(y).all()


@requires_torch_cuda
def test_torch_fast_path_follows_torchs_current_stream(rng):
    h = mi.Handle(device="gpu")
    s = torch.cuda.Stream()
    a = rng.standard_normal((8, 1024)).astype(np.float32)
    d = desc((8, 1024, 1, 1))
    with torch.cuda.stream(s):
        x = torch.from_numpy(a).cuda(non_blocking=False) * 3.0     # produced on stream s
        y = torch.full_like(x, float("nan"))
        mi.activationForward(h, relu_desc(), 1.0, d, x, 0.0, d, y)
    mi.cyStreamSynchronize(h)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.relu(torch.from_numpy(a).cuda() * 3.0))

