"""Hardening of the miopen_cy extensions: device memory calls that are given nonsense (double free,
foreign addresses, sizes that cannot exist) raise typed errors naming the parameter instead of
corrupting the heap, and the Nd getters never size arrays by a caller's count."""
import numpy as np
import pytest

import miopen_cy as mi


def test_device_free_of_unknown_or_freed_pointer_is_bad_parm():
    h = mi.Handle(device="cpu")
    p = mi.cyDeviceAlloc(h, 100)
    assert p != 0
    mi.cyDeviceFree(h, p)
    with pytest.raises(mi.BadParmError, match="ptr .* already freed"):
        mi.cyDeviceFree(h, p)                              # double free
    a = np.zeros(16, np.uint8)
    with pytest.raises(mi.BadParmError, match="not allocated by miopenCyDeviceAlloc"):
        mi.cyDeviceFree(h, a.ctypes.data)                  # NumPy's memory
    with pytest.raises(mi.BadParmError):
        mi.cyDeviceFree(h, 12345)                          # a made-up address
    mi.cyDeviceFree(h, 0)                                  # NULL is fine, as free(NULL)
    mi.cyDeviceFree(h, None)


def test_device_memory_round_trip_still_works():
    h = mi.Handle(device="cpu")
    a = np.arange(64, dtype=np.float32)
    b = np.full(64, np.nan, np.float32)
    p = mi.cyDeviceAlloc(h, a.nbytes)
    try:
        mi.cyMemcpy(h, p, a.ctypes.data, a.nbytes)
        mi.cyMemcpy(h, b.ctypes.data, p, a.nbytes)
    finally:
        mi.cyDeviceFree(h, p)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("size", [2**64 - 1, 2**64 - 32, 2**63])
def test_impossible_sizes_are_alloc_failed(size):
    h = mi.Handle(device="cpu")
    with pytest.raises(mi.AllocFailedError, match="allocating"):
        mi.cyDeviceAlloc(h, size)
    assert mi.cyDeviceAlloc(h, 0) == 0                     # the handle keeps working
    p = mi.cyDeviceAlloc(h, 8)
    mi.cyDeviceFree(h, p)


@pytest.mark.parametrize("size, error", [(-1, OverflowError), (2**64, OverflowError),
                                         (1.5, TypeError), ("8", TypeError)])
def test_size_and_address_arguments_name_the_parameter(size, error):
    h = mi.Handle(device="cpu")
    with pytest.raises(error, match="sizeBytes"):
        mi.cyDeviceAlloc(h, size)
    with pytest.raises(error, match="sizeBytes"):
        mi.cyMemcpy(h, 0, 0, size)
    with pytest.raises((TypeError, OverflowError), match="ptr"):
        mi.cyDeviceFree(h, -5 if error is OverflowError else "x")
    with pytest.raises((TypeError, OverflowError), match="ptr"):
        mi.cyGetPointerDevice(2**70 if error is OverflowError else 1.0)


def test_host_device_buffer_too_big_is_alloc_failed():
    h = mi.Handle(device="cpu")
    with pytest.raises(mi.AllocFailedError, match="nbytes"):
        mi.DeviceBuffer(h, 2**62)
    with pytest.raises(OverflowError, match="nbytes"):
        mi.DeviceBuffer(h, 2**64)
    buf = mi.DeviceBuffer(h, 16)                           # and the handle still works
    assert buf.nbytes == 16


def test_nd_getters_with_huge_requested_counts_do_not_allocate_by_them():
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionNdDescriptor(cd, 3, (1, 2, 3), (1, 1, 2), (1, 1, 1), mi.miopenConvolution)
    pads, strides, dils, mode = mi.getConvolutionNdDescriptor(cd, 2**31 - 1)
    assert pads == (1, 2, 3) and strides == (1, 1, 2) and dils == (1, 1, 1)
    pd = mi.PoolingDescriptor()
    mi.setNdPoolingDescriptor(pd, mi.miopenPoolingMax, 2, (2, 3), (0, 1), (2, 2))
    mode, nb, window, pad, stride = mi.getNdPoolingDescriptor(pd, 2**31 - 1)
    assert nb == 2 and window == (2, 3) and pad == (0, 1) and stride == (2, 2)
    xd = mi.TensorDescriptor()
    mi.setTensorDescriptor(xd, mi.miopenFloat, 4, (1, 1, 8, 8), None)
    with pytest.raises(mi.BadParmError, match="dims"):
        mi.getPoolingNdForwardOutputDim(pd, xd, 2**31 - 1)
    assert mi.getPoolingNdForwardOutputDim(pd, xd, 4) == (1, 1, 4, 4)
