# Data arguments: the one place that turns a Python object into a device pointer and checks it.
# Accepted: None (a null pointer), a DeviceBuffer, an int address, an object with
# __cuda_array_interface__ (GPU handles), __array_interface__ (NumPy and friends) or __dlpack__.
import warnings as _warnings


class PerformanceWarning(UserWarning):
    """A call had to copy data (a NumPy array staged to a GPU handle)."""


_TYPESTR_OF = {
    miopenHalf: ("f2",),
    miopenFloat: ("f4",),
    miopenDouble: ("f8",),
    miopenInt32: ("i4",),
    miopenInt8: ("i1",),
    miopenBFloat16: ("V2", "b2"),
}


cdef class DeviceBuffer:
    """Memory on a handle's device (host memory on a CPU handle).

    The one place that allocates device memory for Python users; it exposes
    __array_interface__ on the CPU so NumPy can view it."""
    cdef readonly Handle handle
    cdef readonly size_t nbytes
    cdef object _host            # the NumPy bytes that back a CPU buffer
    cdef uintptr_t _ptr

    def __cinit__(self, Handle handle not None, nbytes):
        import numpy as np
        handle.c_check()
        n = _operator.index(nbytes)
        if n < 0:
            raise ValueError(f"nbytes = {n} must be non-negative")
        self.handle = handle
        self.nbytes = n
        self._host = np.empty(max(n, 1), dtype=np.uint8)
        self._ptr = self._host.__array_interface__["data"][0]

    @property
    def ptr(self):
        """The device address, as an int."""
        return self._ptr

    @staticmethod
    def from_numpy(Handle handle not None, a):
        """A new buffer holding a copy of the array `a`."""
        import numpy as np
        a = np.ascontiguousarray(a)
        buf = DeviceBuffer(handle, a.nbytes)
        buf.copy_from(a)
        return buf

    def copy_from(self, a):
        """Copies the bytes of array `a` (at most nbytes) into the buffer."""
        import numpy as np
        src = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
        if src.nbytes > self.nbytes:
            raise ValueError(f"array has {src.nbytes} bytes; the buffer holds {self.nbytes}")
        self._host[:src.nbytes] = src

    def to_numpy(self, shape, dtype):
        """A NumPy copy of the buffer's first prod(shape) elements of `dtype`."""
        import numpy as np
        dt = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        if count * dt.itemsize > self.nbytes:
            raise ValueError(f"shape {tuple(shape)} of {dt} needs {count * dt.itemsize} bytes; "
                             f"the buffer holds {self.nbytes}")
        return self._host[:count * dt.itemsize].view(dt).reshape(shape).copy()

    @property
    def __array_interface__(self):
        return {"shape": (self.nbytes,), "typestr": "|u1", "data": (self._ptr, False), "version": 3}

    def __repr__(self):
        return f"DeviceBuffer({self.handle.device}, nbytes={self.nbytes}, ptr=0x{self._ptr:x})"


cdef int c_array_region(object iface, str name, str api, size_t need, int dtype, bint writable,
                        uintptr_t* ptr) except -1:
    """Checks an __array_interface__-style dict against what the call needs."""
    data = iface.get("data")
    if data is None or not isinstance(data, tuple):
        c_raise(miopenStatusBadParm, api, f"{name}: the array exposes no data pointer")
    if writable and data[1]:
        c_raise(miopenStatusBadParm, api, f"{name}: the array is read-only but {name} is written")
    typestr = iface["typestr"]
    shape = tuple(iface["shape"])
    itemsize = int(typestr[2:])
    count = 1
    for s in shape:
        count *= s
    strides = iface.get("strides")
    if strides is not None and count > 1:
        expect = itemsize
        for s, st in zip(reversed(shape), reversed(strides)):
            if s != 1 and st != expect:
                c_raise(miopenStatusBadParm, api,
                        f"{name}: the array is not C-contiguous; pass a contiguous array and "
                        f"describe its layout with the tensor descriptor")
            expect *= s
    if dtype >= 0:
        if typestr[0] == ">":
            c_raise(miopenStatusBadParm, api, f"{name}: big-endian arrays are not supported")
        if typestr[1:] not in _TYPESTR_OF.get(dtype, ()):
            c_raise(miopenStatusBadParm, api,
                    f"{name}: array dtype '{typestr[1:]}' does not match the descriptor's "
                    f"{DataType(dtype).name}")
    have = count * itemsize
    if have < need:
        c_raise(miopenStatusBadParm, api,
                f"{name}: the buffer has {have} bytes; its descriptor needs {need}")
    ptr[0] = <uintptr_t>data[0]
    return 0


# Fast path: a C-contiguous buffer (NumPy arrays and the like) whose format, size and
# writability already fit is used through the buffer protocol, which costs a fraction of building
# __array_interface__. Anything else takes the general path, which also words the errors.
from cpython.buffer cimport PyObject_CheckBuffer, PyObject_GetBuffer, PyBuffer_Release
from cpython.buffer cimport PyBuffer_IsContiguous, PyBUF_RECORDS_RO

_FORMAT_OF = {miopenHalf: b"e", miopenFloat: b"f", miopenDouble: b"d", miopenInt32: b"i",
              miopenInt8: b"b"}


cdef bint c_buffer_fits(object obj, size_t need, int dtype, bint writable, uintptr_t* ptr):
    cdef Py_buffer view
    try:
        PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO)
    except BufferError:
        return False
    try:
        if (writable and view.readonly) or <size_t>view.len < need or \
                not PyBuffer_IsContiguous(&view, b"C"):
            return False
        if dtype >= 0 and (view.format is NULL or view.format != _FORMAT_OF.get(dtype)):
            return False
        ptr[0] = <uintptr_t>view.buf
        return True
    finally:
        PyBuffer_Release(&view)


cdef void* c_pointer(object obj, str name, str api, Handle handle, size_t need, int dtype,
                     bint writable) except? NULL:
    """The device pointer behind a data argument; checks size, dtype, writability and device."""
    cdef uintptr_t ptr = 0
    if obj is None:
        return NULL
    if isinstance(obj, DeviceBuffer):
        buf = <DeviceBuffer>obj
        if buf.handle.device != handle.device:
            c_raise(miopenStatusBadParm, api,
                    f"{name}: the buffer lives on {buf.handle.device}, the handle on {handle.device}")
        if buf.nbytes < need:
            c_raise(miopenStatusBadParm, api,
                    f"{name}: the buffer has {buf.nbytes} bytes; its descriptor needs {need}")
        return <void*>buf._ptr
    if isinstance(obj, int):
        if obj < 0:
            c_raise(miopenStatusBadParm, api, f"{name} = {obj} is not an address")
        return <void*><uintptr_t>obj
    if PyObject_CheckBuffer(obj) and c_buffer_fits(obj, need, dtype, writable, &ptr):
        return <void*>ptr
    if hasattr(obj, "__cuda_array_interface__"):
        c_raise(miopenStatusBadParm, api,
                f"{name} is a GPU array but the handle is on {handle.device}")
    iface = getattr(obj, "__array_interface__", None)
    if iface is None and hasattr(obj, "__dlpack__"):
        import numpy as np
        dev = obj.__dlpack_device__() if hasattr(obj, "__dlpack_device__") else (1, 0)
        if dev[0] != 1:   # kDLCPU
            c_raise(miopenStatusBadParm, api,
                    f"{name} lives on DLPack device {dev}, the handle on {handle.device}")
        iface = np.from_dlpack(obj).__array_interface__
    if iface is None:
        raise TypeError(f"{name} must be a DeviceBuffer, an int address, None or an array "
                        f"(NumPy, DLPack, __array_interface__), not {type(obj).__name__}")
    c_array_region(iface, name, api, need, dtype, writable, &ptr)
    return <void*>ptr


cdef void* c_data(object obj, str name, str api, Handle handle, TensorDescriptor desc,
                  bint writable) except? NULL:
    """A tensor argument described by `desc`: the buffer must hold the descriptor's bytes."""
    cdef size_t need = 0
    cdef miopenDataType_t dtype = miopenFloat
    if desc is None or desc.c_desc is NULL or obj is None:
        return c_pointer(obj, name, api, handle, 0, -1, writable)   # C reports the bad descriptor
    if miopenGetTensorNumBytes(desc.c_desc, &need) != miopenStatusSuccess:
        return c_pointer(obj, name, api, handle, 0, -1, writable)   # unset: C reports it
    miopenGetTensorDescriptor(desc.c_desc, &dtype, NULL, NULL)
    return c_pointer(obj, name, api, handle, need, <int>dtype, writable)


cdef void* c_workspace(object obj, str name, str api, Handle handle, size_t need,
                       bint writable) except? NULL:
    """A workspace argument: raw bytes, at least `need` of them."""
    return c_pointer(obj, name, api, handle, need, -1, writable)
