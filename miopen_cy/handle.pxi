# The handle group of miopen.h: miopenCreate ... miopenEnableProfiling.


cdef class Handle:
    """The device a sequence of calls runs on, with its stream.  C: miopenCreate

    Handle() binds to GPU 0 when a GPU backend is built and a GPU is present, else the CPU;
    MIOPEN_CY_DEVICE or Handle(device="cpu"|"gpu"|"gpu:N") choose."""
    cdef miopenHandle_t c_handle
    cdef readonly str device
    cdef bint c_gpu
    cdef int c_ordinal

    def __cinit__(self, device=None):
        cdef int kind = 0, ordinal = 0
        cdef bytes name
        self.c_handle = NULL
        if device is None:
            with nogil:
                check_status(miopenCyCreateOnDevice(&self.c_handle, NULL))
        else:
            if not isinstance(device, str):
                raise TypeError(f"device must be a str, not {type(device).__name__}")
            name = device.encode()
            check_status(miopenCyCreateOnDevice(&self.c_handle, name))
        check_status(miopenCyGetHandleDevice(self.c_handle, &kind, &ordinal))
        self.device = "cpu" if kind == 0 else f"gpu:{ordinal}"
        self.c_gpu = kind != 0
        self.c_ordinal = ordinal if kind != 0 else -1

    def __dealloc__(self):
        if self.c_handle is not NULL:
            miopenDestroy(self.c_handle)

    cdef int c_check(self) except -1:
        if self.c_handle is NULL:
            raise ValueError("the handle has been destroyed")
        return 0

    cdef object c_stream_int(self):
        """The handle's platform stream as an int (0: the default stream)."""
        cdef miopenAcceleratorQueue_t s = NULL
        c_ok(miopenGetStream(self.c_handle, &s))
        return <uintptr_t>s

    cdef int c_wait_for(self, object stream) except -1:
        """Makes the handle's stream wait for `stream`, the stream an array was produced on
        (__cuda_array_interface__'s convention: 1 is the legacy default stream, 2 the per-thread
        default stream)."""
        cdef uintptr_t producer
        try:
            producer = _operator.index(stream)
        except TypeError:
            raise TypeError(f"__cuda_array_interface__ stream must be an int or None, "
                            f"not {type(stream).__name__}") from None
        mine = self.c_stream_int()
        if producer == mine or (producer == 1 and mine == 0):
            return 0
        c_ok(miopenCyStreamWait(self.c_handle, <miopenAcceleratorQueue_t>producer))
        return 0

    def __repr__(self):
        state = self.device if self.c_handle is not NULL else "destroyed"
        return f"Handle({state})"


cdef miopenHandle_t c_handle(Handle handle) except NULL:
    if handle is None:
        raise TypeError("handle must be a Handle, not None")
    handle.c_check()
    c_drop_stale_staging()
    return handle.c_handle


def getErrorString(error):
    """The name of a status code.  C: miopenGetErrorString"""
    return miopenGetErrorString(<miopenStatus_t>c_int(error, "error")).decode()


def getVersion():
    """(major, minor, patch) of the MIOpen API this library implements.  C: miopenGetVersion"""
    cdef size_t major = 0, minor = 0, patch = 0
    check_status(miopenGetVersion(&major, &minor, &patch))
    return (major, minor, patch)


def create():
    """A new handle on the default device.  C: miopenCreate"""
    return Handle()


def createWithStream(stream):
    """A new handle using the platform stream `stream` (an int address).  C: miopenCreateWithStream"""
    h = Handle()
    setStream(h, stream)
    return h


def destroy(Handle handle):
    """Destroys the handle; using it afterwards raises.  C: miopenDestroy"""
    cdef miopenHandle_t h = c_handle(handle)
    handle.c_handle = NULL
    check_status(miopenDestroy(h))


def setStream(Handle handle, streamID):
    """Sets the platform stream (hipStream_t / cudaStream_t as an int; ignored on the CPU).
    C: miopenSetStream"""
    cdef uintptr_t s = c_address(streamID, "streamID")
    check_status(miopenSetStream(c_handle(handle), <miopenAcceleratorQueue_t>s))


def getStream(Handle handle):
    """The handle's platform stream as an int.  C: miopenGetStream"""
    cdef miopenAcceleratorQueue_t s = NULL
    check_status(miopenGetStream(c_handle(handle), &s))
    return <uintptr_t>s


def setAllocator(Handle handle, allocator, deallocator, allocatorContext):
    """Sets allocation callbacks (C function addresses as ints, 0 for the default).
    C: miopenSetAllocator"""
    cdef uintptr_t a = c_address(allocator, "allocator")
    cdef uintptr_t d = c_address(deallocator, "deallocator")
    cdef uintptr_t ctx = c_address(allocatorContext, "allocatorContext")
    check_status(miopenSetAllocator(c_handle(handle), <miopenAllocatorFunction>a,
                                    <miopenDeallocatorFunction>d, <void*>ctx))


def getKernelTime(Handle handle):
    """Time of the last op in ms (profiling must be enabled).  C: miopenGetKernelTime"""
    cdef float t = 0
    check_status(miopenGetKernelTime(c_handle(handle), &t))
    return t


def enableProfiling(Handle handle, enable):
    """Turns kernel timing on or off.  C: miopenEnableProfiling"""
    check_status(miopenEnableProfiling(c_handle(handle), <cbool>(True if enable else False)))


# ---- miopen_cy extensions: devices, device memory and streams -----------------------------------

def cyGetDeviceCount():
    """Number of GPUs this build can use (0 without a GPU backend, driver or GPU).
    C: miopenCyGetDeviceCount"""
    cdef int count = 0
    check_status(miopenCyGetDeviceCount(&count))
    return count


def cyDeviceAlloc(Handle handle, sizeBytes):
    """Allocates sizeBytes on the handle's device; returns the address as an int (free it with
    cyDeviceFree; DeviceBuffer does both for you).  C: miopenCyDeviceAlloc"""
    cdef void* p = NULL
    cdef size_t n = c_size(sizeBytes, "sizeBytes")
    cdef miopenHandle_t h = c_handle(handle)
    with nogil:
        check_status(miopenCyDeviceAlloc(h, &p, n))
    return <uintptr_t>p


def cyDeviceFree(Handle handle, ptr):
    """Frees memory from cyDeviceAlloc.  C: miopenCyDeviceFree"""
    cdef uintptr_t p = c_address(ptr, "ptr")
    check_status(miopenCyDeviceFree(c_handle(handle), <void*>p))


def cyMemcpy(Handle handle, dst, src, sizeBytes):
    """Copies sizeBytes from address src to address dst (host or device memory, the direction
    inferred) on the handle's stream, and waits for it.  C: miopenCyMemcpy"""
    cdef uintptr_t d = c_address(dst, "dst")
    cdef uintptr_t s = c_address(src, "src")
    cdef size_t n = c_size(sizeBytes, "sizeBytes")
    cdef miopenHandle_t h = c_handle(handle)
    with nogil:
        check_status(miopenCyMemcpy(h, <void*>d, <const void*>s, n))


def cyStreamSynchronize(Handle handle):
    """Waits for the work queued on the handle's stream.  C: miopenCyStreamSynchronize"""
    cdef miopenHandle_t h = c_handle(handle)
    with nogil:
        check_status(miopenCyStreamSynchronize(h))


def cyStreamWait(Handle handle, stream):
    """Makes later work on the handle's stream wait for the work queued on `stream` (an int
    cudaStream_t / hipStream_t) so far.  C: miopenCyStreamWait"""
    cdef uintptr_t s = c_address(stream, "stream")
    check_status(miopenCyStreamWait(c_handle(handle), <miopenAcceleratorQueue_t>s))


def cyGetPointerDevice(ptr):
    """The GPU ordinal of a device address, or -1 for host memory.  C: miopenCyGetPointerDevice"""
    cdef uintptr_t p = c_address(ptr, "ptr")
    cdef int ordinal = -1
    check_status(miopenCyGetPointerDevice(<const void*>p, &ordinal))
    return ordinal
