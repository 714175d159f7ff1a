# Data arguments: the one place that turns a Python object into a device pointer and checks it.
# Accepted: None (a null pointer), a DeviceBuffer, an int address, an object with
# __cuda_array_interface__ or a CUDA/ROCm __dlpack__ (GPU handles, used in place), or a host
# array: __array_interface__ / the buffer protocol / a CPU __dlpack__ (NumPy and friends). On a
# CPU handle a host array is used in place; on a GPU handle it is staged: copied to the device
# before the call and back after it when the call writes it (check_status in status.pxi finishes
# the staging), with a one-time PerformanceWarning.
# Layout: an array must be C-contiguous and hold the descriptor's bytes, or have exactly the
# descriptor's lengths and element strides (a channels_last tensor with an NHWC descriptor, a
# transposed NumPy view): either is used in place. Its dtype must be the descriptor's (NumPy
# float16 for miopenHalf; ml_dtypes.bfloat16 or a DLPack bf16 tensor for miopenBFloat16).
import threading as _threading
import warnings as _warnings


class PerformanceWarning(UserWarning):
    """A call had to copy data (a NumPy array staged to a GPU handle)."""


# What the errors call a typestr: NumPy's dtype names.
_TYPESTR_NAME = {"f2": "float16", "f4": "float32", "f8": "float64", "i4": "int32", "i1": "int8",
                 "V2": "bfloat16", "b2": "bfloat16"}

_TYPESTR_OF = {
    miopenHalf: ("f2",),
    miopenFloat: ("f4",),
    miopenDouble: ("f8",),
    miopenInt32: ("i4",),
    miopenInt8: ("i1",),
    miopenBFloat16: ("V2", "b2"),
}


cdef int c_ok(miopenStatus_t status) except -1:
    """check_status for the calls staging itself makes: raises, never finishes the staging."""
    if status != miopenStatusSuccess:
        c_raise_last(status)
    return 0


cdef class DeviceBuffer:
    """Memory on a handle's device: GPU memory on a GPU handle, host memory on a CPU handle.

    The one place that allocates device memory for Python users. On a GPU it exposes
    __cuda_array_interface__ (so CuPy and PyTorch can view it: torch.as_tensor(buf,
    device="cuda")), on the CPU __array_interface__ (so NumPy can)."""
    cdef readonly Handle handle
    cdef readonly size_t nbytes
    cdef object _host            # the NumPy bytes that back a CPU buffer
    cdef uintptr_t _ptr
    cdef bint _gpu

    def __cinit__(self, Handle handle not None, nbytes):
        cdef void* p = NULL
        cdef size_t n
        cdef miopenStatus_t status
        handle.c_check()
        i = _operator.index(nbytes)
        if i < 0:
            raise ValueError(f"nbytes = {i} must be non-negative")
        n = c_size(i, "nbytes")
        self.handle = handle
        self.nbytes = n
        self._gpu = handle.c_gpu
        if self._gpu:
            with nogil:
                status = miopenCyDeviceAlloc(handle.c_handle, &p, n)
            c_ok(status)
            self._ptr = <uintptr_t>p
        else:
            import numpy as np
            try:
                self._host = np.empty(max(n, 1), dtype=np.uint8)
            except (MemoryError, ValueError):
                c_raise(miopenStatusAllocFailed, "DeviceBuffer",
                        f"out of host memory allocating nbytes = {n}")
            self._ptr = self._host.__array_interface__["data"][0]

    def __dealloc__(self):
        cdef miopenHandle_t tmp = NULL
        if not self._gpu or self._ptr == 0:
            return
        if self.handle is not None and self.handle.c_handle is not NULL:
            miopenCyDeviceFree(self.handle.c_handle, <void*>self._ptr)
        elif self.handle is not None:
            # The handle was destroyed first: free through a handle on the same device.
            name = self.handle.device.encode()
            if miopenCyCreateOnDevice(&tmp, name) == miopenStatusSuccess:
                miopenCyDeviceFree(tmp, <void*>self._ptr)
                miopenDestroy(tmp)
        self._ptr = 0

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
        """Copies the bytes of array `a` (at most nbytes) into the buffer: a host array (NumPy),
        or on a GPU an object with __cuda_array_interface__ (a device-to-device copy)."""
        cdef uintptr_t src = 0
        cdef size_t n = 0
        if self._gpu and hasattr(a, "__cuda_array_interface__"):
            c_device_region(a.__cuda_array_interface__, "a", "DeviceBuffer.copy_from",
                            self.handle, 0, -1, False, &src, &n)
        else:
            import numpy as np
            host = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
            n = host.nbytes
            if not self._gpu:
                if n > self.nbytes:
                    raise ValueError(f"array has {n} bytes; the buffer holds {self.nbytes}")
                self._host[:n] = host
                return
            src = host.__array_interface__["data"][0]
            self._copy(<void*>self._ptr, <const void*>src, n, host)
            return
        self._copy(<void*>self._ptr, <const void*>src, n, a)

    cdef _copy(self, void* dst, const void* src, size_t n, object keep):
        cdef miopenStatus_t status
        if n > self.nbytes:
            raise ValueError(f"array has {n} bytes; the buffer holds {self.nbytes}")
        self.handle.c_check()
        with nogil:
            status = miopenCyMemcpy(self.handle.c_handle, dst, src, n)
        c_ok(status)

    def to_numpy(self, shape, dtype):
        """A NumPy copy of the buffer's first prod(shape) elements of `dtype`."""
        import numpy as np
        dt = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        need = count * dt.itemsize
        if need > self.nbytes:
            raise ValueError(f"shape {tuple(shape)} of {dt} needs {need} bytes; "
                             f"the buffer holds {self.nbytes}")
        if not self._gpu:
            return self._host[:need].view(dt).reshape(shape).copy()
        out = np.empty(shape, dtype=dt)
        if need:
            self._copy_out(out, need)
        return out

    cdef _copy_out(self, object out, size_t need):
        cdef uintptr_t dst = out.__array_interface__["data"][0]
        cdef miopenStatus_t status
        self.handle.c_check()
        with nogil:
            status = miopenCyMemcpy(self.handle.c_handle, <void*>dst, <const void*>self._ptr, need)
        c_ok(status)

    @property
    def __array_interface__(self):
        if self._gpu:
            raise AttributeError("a GPU DeviceBuffer has no __array_interface__; use to_numpy() "
                                 "or its __cuda_array_interface__")
        return {"shape": (self.nbytes,), "typestr": "|u1", "data": (self._ptr, False), "version": 3}

    @property
    def __cuda_array_interface__(self):
        if not self._gpu:
            raise AttributeError("a CPU DeviceBuffer has no __cuda_array_interface__")
        stream = self.handle.c_stream_int() if self.handle.c_handle is not NULL else 0
        return {"shape": (self.nbytes,), "typestr": "|u1", "data": (self._ptr, False),
                "version": 3, "strides": None, "stream": stream if stream else None}

    def __dlpack_device__(self):
        """(DLPack device type, device id): (1, 0) on the CPU, (2, N) on CUDA GPU N, (10, N) on
        ROCm GPU N."""
        cdef int kind = 1, ordinal = 0
        self.handle.c_check()
        c_ok(miopenCyGetDLPackDevice(self.handle.c_handle, &kind, &ordinal))
        return (kind, ordinal)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The buffer as a DLPack capsule of nbytes uint8 (torch.from_dlpack(buf),
        np.from_dlpack(buf) on the CPU): a view, never a copy. The capsule keeps the buffer
        alive. `stream` is the consumer's stream (DLPack's convention: None or 1 the legacy
        default stream, 2 the per-thread default, -1 no synchronisation); when it is not the
        handle's stream the handle's stream is synchronised first."""
        if copy:
            raise BufferError("DeviceBuffer.__dlpack__: copy=True is not supported (the export "
                              "is always a view)")
        dev = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != dev:
            raise BufferError(f"DeviceBuffer.__dlpack__: dl_device={tuple(dl_device)} but the "
                              f"buffer lives on {dev}")
        if self._gpu and stream != -1:
            mine = self.handle.c_stream_int()
            consumer = 1 if stream is None else _operator.index(stream)
            if not (consumer == mine or (consumer == 1 and mine == 0)):
                c_ok(miopenCyStreamSynchronize(self.handle.c_handle))
        return c_dlpack_export(self, self._ptr, self.nbytes, dev[0], dev[1])

    def __repr__(self):
        return f"DeviceBuffer({self.handle.device}, nbytes={self.nbytes}, ptr=0x{self._ptr:x})"


cdef bint c_strides_match(object shape, object strides, Py_ssize_t itemsize, object desc):
    """Whether an array of `shape` and byte `strides` has exactly the lengths and element strides
    of the TensorDescriptor `desc` (dims of length 1 may have any stride). Read from the
    descriptor's C arrays: this runs for every strided array of every call."""
    if desc is None:
        return False
    cdef miopenTensorDescriptor_t d = (<TensorDescriptor>desc).c_desc
    cdef int n = 0
    cdef int lens[C_MAX_DIMS]
    cdef int dstr[C_MAX_DIMS]
    cdef miopenDataType_t dtype = miopenFloat
    if d is NULL or miopenGetTensorDescriptorSize(d, &n) != miopenStatusSuccess or n > C_MAX_DIMS or n < 0:
        return False
    if len(shape) != n or len(strides) != n:
        return False
    # c_ok, not check_status: this runs while a call's arguments are converted, and check_status
    # would finish the arrays already staged for that call.
    c_ok(miopenGetTensorDescriptor(d, &dtype, lens, dstr))
    cdef Py_ssize_t i
    for i in range(n):
        if shape[i] != lens[i]:
            return False
        if lens[i] != 1 and strides[i] != dstr[i] * itemsize:
            return False
    return True


cdef str c_dtype_words(str typestr, int dtype):
    """"'f4' (float32) does not match the descriptor's miopenHalf (float16)"."""
    want = _TYPESTR_OF.get(dtype, ("",))[0]
    mine = _TYPESTR_NAME.get(typestr)
    theirs = _TYPESTR_NAME.get(want)
    return (f"'{typestr}'" + (f" ({mine})" if mine else "") +
            f" does not match the descriptor's {DataType(dtype).name}" +
            (f" ({theirs})" if theirs else ""))


cdef int c_array_region(object iface, str name, str api, size_t need, int dtype, bint writable,
                        uintptr_t* ptr, size_t* nbytes=NULL, object desc=None) except -1:
    """Checks an __array_interface__-style dict (__cuda_array_interface__ too) against what the
    call needs; gives the data pointer and, when asked, the array's size in bytes. A strided
    array is accepted when its lengths and element strides are the descriptor's (`desc`)."""
    data = iface.get("data")
    if data is None or not isinstance(data, tuple):
        c_raise(miopenStatusBadParm, api, f"{name}: the array exposes no data pointer")
    if writable and data[1]:
        c_raise(miopenStatusBadParm, api, f"{name}: the array is read-only but {name} is written")
    if iface.get("mask") is not None:
        c_raise(miopenStatusBadParm, api, f"{name}: masked arrays are not supported")
    typestr = iface["typestr"]
    shape = tuple(iface["shape"])
    itemsize = int(typestr[2:])
    count = 1
    for s in shape:
        count *= s
    strides = iface.get("strides")
    have = count * itemsize
    if strides is not None and count > 1:
        expect = itemsize
        contiguous = True
        for s, st in zip(reversed(shape), reversed(strides)):
            if s != 1 and st != expect:
                contiguous = False
                break
            expect *= s
        if not contiguous:
            if not c_strides_match(shape, strides, itemsize, desc):
                c_raise(miopenStatusBadParm, api,
                        f"{name}: the array is not C-contiguous and its strides are not the "
                        f"descriptor's; pass a contiguous array, or one whose lengths and element "
                        f"strides equal the descriptor's")
            # exactly the descriptor's elements: its span
            have = itemsize
            for s, st in zip(shape, strides):
                have += (s - 1) * st
    if dtype >= 0:
        if typestr[0] == ">":
            c_raise(miopenStatusBadParm, api, f"{name}: big-endian arrays are not supported")
        if typestr[1:] not in _TYPESTR_OF.get(dtype, ()):
            c_raise(miopenStatusBadParm, api,
                    f"{name}: array dtype {c_dtype_words(typestr[1:], dtype)}")
    if have < need:
        c_raise(miopenStatusBadParm, api,
                f"{name}: the buffer has {have} bytes; its descriptor needs {need}")
    ptr[0] = <uintptr_t>data[0]
    if nbytes is not NULL:
        nbytes[0] = have
    return 0


cdef int c_device_region(object iface, str name, str api, Handle handle, size_t need, int dtype,
                         bint writable, uintptr_t* ptr, size_t* nbytes, object desc=None) except -1:
    """A __cuda_array_interface__ on a GPU handle: the checks of a host array, plus that the
    memory is on the handle's GPU and that the handle's stream waits for the producer's."""
    cdef int dev = -1
    c_array_region(iface, name, api, need, dtype, writable, ptr, nbytes, desc)
    if ptr[0] == 0:
        return 0
    c_ok(miopenCyGetPointerDevice(<const void*>ptr[0], &dev))
    if dev != handle.c_ordinal:
        where = "host memory" if dev < 0 else f"gpu:{dev}"
        c_raise(miopenStatusBadParm, api,
                f"{name} lives on {where}, the handle on {handle.device}")
    stream = iface.get("stream")
    if stream is not None:
        handle.c_wait_for(stream)
    return 0


# ---- DLPack (a device array without __cuda_array_interface__) ---------------------------------

cdef extern from *:
    """
    typedef struct { int device_type; int device_id; } miopen_cy_DLDevice;
    typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } miopen_cy_DLDataType;
    typedef struct {
        void* data; miopen_cy_DLDevice device; int ndim; miopen_cy_DLDataType dtype;
        int64_t* shape; int64_t* strides; uint64_t byte_offset;
    } miopen_cy_DLTensor;
    typedef struct { miopen_cy_DLTensor dl_tensor; } miopen_cy_DLManagedTensor;
    """
    ctypedef struct miopen_cy_DLDevice:
        int device_type
        int device_id
    ctypedef struct miopen_cy_DLDataType:
        unsigned char code
        unsigned char bits
        unsigned short lanes
    ctypedef struct miopen_cy_DLTensor:
        void* data
        miopen_cy_DLDevice device
        int ndim
        miopen_cy_DLDataType dtype
        long long* shape
        long long* strides
        unsigned long long byte_offset
    ctypedef struct miopen_cy_DLManagedTensor:
        miopen_cy_DLTensor dl_tensor

from cpython.pycapsule cimport PyCapsule_IsValid, PyCapsule_GetPointer

cdef extern from *:
    """
    #include <stdlib.h>
    /* A 1-d uint8 DLManagedTensor over [data, data + nbytes) that owns a reference to `owner`
       (the DeviceBuffer); its deleter drops the reference, with the GIL, from any thread. */
    typedef struct {
        miopen_cy_DLTensor dl_tensor; void* manager_ctx; void (*deleter)(void*);
        int64_t shape[1]; int64_t strides[1];
    } miopen_cy_DLExport;
    static void miopen_cy_dl_deleter(void* self) {
        miopen_cy_DLExport* e = (miopen_cy_DLExport*)self;
        PyGILState_STATE g = PyGILState_Ensure();
        Py_XDECREF((PyObject*)e->manager_ctx);
        PyGILState_Release(g);
        free(e);
    }
    static void miopen_cy_dl_capsule_destructor(PyObject* capsule) {
        /* A consumer renames the capsule "used_dltensor" and owns the tensor from then on. */
        if (PyCapsule_IsValid(capsule, "dltensor")) {
            miopen_cy_DLExport* e = (miopen_cy_DLExport*)PyCapsule_GetPointer(capsule, "dltensor");
            if (e) e->deleter(e);
        }
    }
    static PyObject* miopen_cy_dl_export(PyObject* owner, uintptr_t data, size_t nbytes,
                                         int device_type, int device_id) {
        miopen_cy_DLExport* e = (miopen_cy_DLExport*)calloc(1, sizeof(miopen_cy_DLExport));
        if (!e) return PyErr_NoMemory();
        e->shape[0] = (int64_t)nbytes;
        e->strides[0] = 1;
        e->dl_tensor.data = (void*)data;
        e->dl_tensor.device.device_type = device_type;
        e->dl_tensor.device.device_id = device_id;
        e->dl_tensor.ndim = 1;
        e->dl_tensor.dtype.code = 1;   /* kDLUInt */
        e->dl_tensor.dtype.bits = 8;
        e->dl_tensor.dtype.lanes = 1;
        e->dl_tensor.shape = e->shape;
        e->dl_tensor.strides = e->strides;
        e->dl_tensor.byte_offset = 0;
        Py_INCREF(owner);
        e->manager_ctx = owner;
        e->deleter = miopen_cy_dl_deleter;
        PyObject* cap = PyCapsule_New(e, "dltensor", miopen_cy_dl_capsule_destructor);
        if (!cap) { Py_DECREF(owner); free(e); }
        return cap;
    }
    """
    object c_dlpack_export "miopen_cy_dl_export" (object owner, uintptr_t data, size_t nbytes,
                                                  int device_type, int device_id)

_DL_CPU, _DL_CUDA, _DL_ROCM = 1, 2, 10
_DL_TYPECHAR = {0: "i", 1: "u", 2: "f", 4: "b"}


cdef dict c_dlpack_iface(object capsule, str name, str api):
    """__cuda_array_interface__-style dict of a DLPack capsule (which stays unconsumed: its
    destructor frees the tensor once the caller drops it)."""
    if not PyCapsule_IsValid(capsule, b"dltensor"):
        c_raise(miopenStatusBadParm, api, f"{name}: __dlpack__ did not return a DLPack capsule")
    cdef miopen_cy_DLManagedTensor* m = <miopen_cy_DLManagedTensor*>PyCapsule_GetPointer(
        capsule, b"dltensor")
    cdef miopen_cy_DLTensor* t = &m.dl_tensor
    if t.dtype.lanes != 1 or t.dtype.code not in _DL_TYPECHAR:
        c_raise(miopenStatusBadParm, api, f"{name}: unsupported DLPack dtype "
                f"(code {t.dtype.code}, bits {t.dtype.bits}, lanes {t.dtype.lanes})")
    itemsize = t.dtype.bits // 8
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = None
    if t.strides is not NULL:
        strides = tuple(t.strides[i] * itemsize for i in range(t.ndim))
    typechar = _DL_TYPECHAR[t.dtype.code]
    if typechar == "b":
        typechar = "V"          # bfloat16, as _TYPESTR_OF spells it
    return {"data": (<uintptr_t>t.data + <uintptr_t>t.byte_offset, False), "shape": shape,
            "strides": strides, "typestr": f"<{typechar}{itemsize}", "version": 3}


# ---- staging of host arrays on GPU handles -----------------------------------------------------

cdef object _staging = _threading.local()   # .records: [[handle, dev, host, nbytes, writable]]
_staging_warned = False


def _reset_performance_warning():
    """Lets the next staged call warn again (for tests)."""
    global _staging_warned
    _staging_warned = False


cdef list c_staged_records():
    records = getattr(_staging, "records", None)
    if records is None:
        records = []
        _staging.records = records
        _staging.keep = []
    return records


cdef int c_unstage(bint copy_back) except -1:
    """Finishes this thread's staged arrays: waits for the call's stream, copies the written
    ones back (copy_back), frees the device copies and drops the DLPack capsules held for the
    call. Every record is released even when a copy fails; the first error is raised after."""
    cdef Handle handle
    cdef uintptr_t dev, host
    cdef size_t n
    cdef miopenStatus_t status
    records = c_staged_records()
    error = None
    done = set()
    for rec in records:
        handle = <Handle>rec[0]
        dev, host, n = rec[1], rec[2], rec[3]
        if handle.c_handle is NULL:
            continue
        if handle not in done:
            done.add(handle)
            if miopenCyStreamSynchronize(handle.c_handle) != miopenStatusSuccess and error is None:
                error = RuntimeError(miopenCyGetLastErrorMessage().decode("utf-8", "replace"))
        if copy_back and rec[4] and error is None:
            with nogil:
                status = miopenCyMemcpy(handle.c_handle, <void*>host, <const void*>dev, n)
            if status != miopenStatusSuccess:
                error = _make_error(status, "miopenCyMemcpy",
                                    miopenCyGetLastErrorMessage().decode("utf-8", "replace"))
        miopenCyDeviceFree(handle.c_handle, <void*>dev)
    records.clear()
    _staging.keep.clear()
    global miopen_cy_staged_pending
    miopen_cy_staged_pending = 0
    if error is not None:
        raise error
    return 0


cdef int c_raise_staged(miopenStatus_t status) except -1:
    """A failed call: its error, after the staged copies are dropped (nothing was written)."""
    if not miopen_cy_staged_pending:
        return c_raise_last(status)
    try:
        c_raise_last(status)      # reads the call's message before the frees below reset it
    finally:
        try:
            c_unstage(False)
        except Exception:
            pass                  # the call's own error is the one to report
    return 0


cdef int c_drop_stale_staging() except -1:
    """Called as each call starts (c_handle): copies staged by an earlier call that never
    reached C (an argument failed its checks) are dropped without copying back."""
    if miopen_cy_staged_pending:
        c_unstage(False)
    return 0


cdef void* c_stage(object holder, uintptr_t host, size_t nbytes, str name, str api, Handle handle,
                   bint writable) except? NULL:
    """A device copy of host bytes [host, host + nbytes) for this call; the same host range
    staged twice in one call (an in-place argument) shares one copy."""
    global _staging_warned, miopen_cy_staged_pending
    cdef void* dev = NULL
    cdef miopenStatus_t status
    records = c_staged_records()
    for rec in records:
        if rec[2] == host and rec[3] == nbytes and rec[0] is handle:
            rec[4] = rec[4] or writable
            return <void*><uintptr_t>rec[1]
    if not _staging_warned:
        _staging_warned = True
        _warnings.warn(
            f"{api}: {name} is a host (NumPy) array but the handle is on {handle.device}: it is "
            f"copied to the device for the call (and back when written). Pass a DeviceBuffer, a "
            f"CuPy array or a PyTorch CUDA tensor to avoid the copies. (Warned once.)",
            PerformanceWarning, stacklevel=3)
    if nbytes == 0:
        return NULL
    with nogil:
        status = miopenCyDeviceAlloc(handle.c_handle, &dev, nbytes)
    c_ok(status)
    records.append([handle, <uintptr_t>dev, host, nbytes, writable])
    _staging.keep.append(holder)
    miopen_cy_staged_pending = 1
    with nogil:
        status = miopenCyMemcpy(handle.c_handle, dev, <const void*>host, nbytes)
    c_ok(status)
    return dev


# Fast path: a C-contiguous buffer (NumPy arrays and the like) whose format, size and
# writability already fit is used through the buffer protocol, which costs a fraction of building
# __array_interface__. Anything else takes the general path, which also words the errors.
from cpython.buffer cimport PyObject_CheckBuffer, PyObject_GetBuffer, PyBuffer_Release
from cpython.buffer cimport PyBuffer_IsContiguous, PyBUF_RECORDS_RO

_FORMAT_OF = {miopenHalf: b"e", miopenFloat: b"f", miopenDouble: b"d", miopenInt32: b"i",
              miopenInt8: b"b"}


cdef bint c_buffer_fits(object obj, size_t need, int dtype, bint writable, uintptr_t* ptr,
                        size_t* nbytes):
    cdef Py_buffer view
    try:
        PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO)
    except (BufferError, ValueError):     # ml_dtypes.bfloat16 has no buffer format
        return False
    try:
        if (writable and view.readonly) or <size_t>view.len < need or \
                not PyBuffer_IsContiguous(&view, b"C"):
            return False
        if dtype >= 0 and (view.format is NULL or view.format != _FORMAT_OF.get(dtype)):
            return False
        ptr[0] = <uintptr_t>view.buf
        nbytes[0] = <size_t>view.len
        return True
    finally:
        PyBuffer_Release(&view)


cdef void* c_pointer(object obj, str name, str api, Handle handle, size_t need, int dtype,
                     bint writable, object desc=None) except? NULL:
    """The device pointer behind a data argument; checks size, dtype, writability and device.
    `desc`, the argument's TensorDescriptor when it has one, lets a strided array whose element
    strides are the descriptor's through."""
    global miopen_cy_staged_pending
    cdef uintptr_t ptr = 0
    cdef size_t nbytes = 0
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
    if handle.c_gpu and c_torch_fits(obj, handle, need, dtype, &ptr, desc):
        return <void*>ptr
    if PyObject_CheckBuffer(obj) and c_buffer_fits(obj, need, dtype, writable, &ptr, &nbytes):
        if handle.c_gpu:
            return c_stage(obj, ptr, nbytes, name, api, handle, writable)
        return <void*>ptr
    if PyCapsule_IsValid(obj, b"dltensor"):
        return c_capsule_pointer(obj, name, api, handle, need, dtype, writable, desc)
    try:
        cai = getattr(obj, "__cuda_array_interface__", None)
    except TypeError:
        cai = None          # PyTorch's raises for bf16 tensors: take __dlpack__ below
    if cai is not None:
        if not handle.c_gpu:
            c_raise(miopenStatusBadParm, api,
                    f"{name} is a GPU array but the handle is on {handle.device}")
        c_device_region(cai, name, api, handle, need, dtype, writable, &ptr, &nbytes, desc)
        return <void*>ptr
    iface = getattr(obj, "__array_interface__", None)
    holder = obj
    if iface is None and hasattr(obj, "__dlpack__"):
        dev = obj.__dlpack_device__() if hasattr(obj, "__dlpack_device__") else (_DL_CPU, 0)
        if dev[0] in (_DL_CUDA, _DL_ROCM):
            if not handle.c_gpu:
                c_raise(miopenStatusBadParm, api,
                        f"{name} lives on DLPack device {tuple(dev)}, the handle on {handle.device}")
            capsule = obj.__dlpack__(stream=handle.c_stream_int() or 1)
            c_device_region(c_dlpack_iface(capsule, name, api), name, api, handle, need, dtype,
                            writable, &ptr, &nbytes, desc)
            c_staged_records()
            _staging.keep.append(capsule)          # the tensor lives until the call has run
            miopen_cy_staged_pending = 1
            return <void*>ptr
        if dev[0] != _DL_CPU:
            c_raise(miopenStatusBadParm, api,
                    f"{name} lives on DLPack device {tuple(dev)}, the handle on {handle.device}")
        # The capsule, not np.from_dlpack: NumPy has no bfloat16. Its tensor stays alive in obj;
        # the capsule is kept for the call (a staged copy's holder).
        holder = obj.__dlpack__()
        iface = c_dlpack_iface(holder, name, api)
    if iface is None:
        raise TypeError(f"{name} must be a DeviceBuffer, an int address, None or an array "
                        f"(NumPy, DLPack, __array_interface__), not {type(obj).__name__}")
    c_array_region(iface, name, api, need, dtype, writable, &ptr, &nbytes, desc)
    if handle.c_gpu:
        return c_stage(holder, ptr, nbytes, name, api, handle, writable)
    return <void*>ptr


cdef void* c_capsule_pointer(object capsule, str name, str api, Handle handle, size_t need,
                             int dtype, bint writable, object desc=None) except? NULL:
    """A DLPack capsule passed as is (say torch.utils.dlpack.to_dlpack(t)): used in place on its
    device, never consumed (it stays valid for the caller); a CPU one is staged on a GPU handle."""
    global miopen_cy_staged_pending
    cdef uintptr_t ptr = 0
    cdef size_t nbytes = 0
    cdef miopen_cy_DLManagedTensor* m = <miopen_cy_DLManagedTensor*>PyCapsule_GetPointer(
        capsule, b"dltensor")
    cdef int kind = m.dl_tensor.device.device_type
    iface = c_dlpack_iface(capsule, name, api)
    if kind in (_DL_CUDA, _DL_ROCM):
        if not handle.c_gpu:
            c_raise(miopenStatusBadParm, api,
                    f"{name} is a GPU DLPack tensor but the handle is on {handle.device}")
        c_device_region(iface, name, api, handle, need, dtype, writable, &ptr, &nbytes, desc)
        return <void*>ptr
    if kind != _DL_CPU:
        c_raise(miopenStatusBadParm, api,
                f"{name} lives on DLPack device type {kind}, the handle on {handle.device}")
    c_array_region(iface, name, api, need, dtype, writable, &ptr, &nbytes, desc)
    if handle.c_gpu:
        return c_stage(capsule, ptr, nbytes, name, api, handle, writable)
    return <void*>ptr


# Fast path for PyTorch CUDA tensors: reading data_ptr() and friends costs a fraction of building
# torch's __cuda_array_interface__ (Python code in torch) and parsing it. Anything that does not
# fit (wrong device or dtype, too small, strided, requires_grad) takes the general path, which
# words the error or raises torch's own.
import sys as _sys
cdef object _torch_tensor_type = None
cdef object _torch_raw_stream = None
cdef dict _torch_dtype_of = None


cdef bint c_torch_fits(object obj, Handle handle, size_t need, int dtype,
                       uintptr_t* ptr, object desc=None) except -1:
    global _torch_tensor_type, _torch_raw_stream, _torch_dtype_of
    if _torch_tensor_type is None:
        torch = _sys.modules.get("torch")
        if torch is None or not hasattr(torch, "Tensor"):
            return False
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is None:
            return False
        _torch_dtype_of = {torch.float16: miopenHalf, torch.float32: miopenFloat,
                           torch.float64: miopenDouble, torch.int32: miopenInt32,
                           torch.int8: miopenInt8, torch.bfloat16: miopenBFloat16}
        _torch_raw_stream = raw
        _torch_tensor_type = torch.Tensor
    if not isinstance(obj, _torch_tensor_type):
        return False
    ordinal = obj.get_device()                  # -1 for a CPU tensor
    if ordinal != handle.c_ordinal or obj.requires_grad:
        return False
    contiguous = obj.is_contiguous()
    if not contiguous and not c_strides_match(obj.shape, obj.stride(), 1, desc):
        return False
    if dtype >= 0 and _torch_dtype_of.get(obj.dtype, -1) != dtype:
        return False
    if contiguous and <size_t>obj.nbytes < need:
        return False
    handle.c_wait_for(_torch_raw_stream(ordinal))
    ptr[0] = <uintptr_t>obj.data_ptr()
    return True


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
    return c_pointer(obj, name, api, handle, need, <int>dtype, writable, desc)


cdef void* c_workspace(object obj, str name, str api, Handle handle, size_t need,
                       bint writable) except? NULL:
    """A workspace argument: raw bytes, at least `need` of them."""
    return c_pointer(obj, name, api, handle, need, -1, writable)
