# The handle group of miopen.h: miopenCreate ... miopenEnableProfiling.


cdef class Handle:
    """The device a sequence of calls runs on, with its stream.  C: miopenCreate

    Handle() binds to GPU 0 when a GPU backend is built and a GPU is present, else the CPU;
    MIOPEN_CY_DEVICE or Handle(device="cpu"|"gpu"|"gpu:N") choose."""
    cdef miopenHandle_t c_handle
    cdef readonly str device

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

    def __dealloc__(self):
        if self.c_handle is not NULL:
            miopenDestroy(self.c_handle)

    cdef int c_check(self) except -1:
        if self.c_handle is NULL:
            raise ValueError("the handle has been destroyed")
        return 0

    def __repr__(self):
        state = self.device if self.c_handle is not NULL else "destroyed"
        return f"Handle({state})"


cdef miopenHandle_t c_handle(Handle handle) except NULL:
    if handle is None:
        raise TypeError("handle must be a Handle, not None")
    handle.c_check()
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
    cdef uintptr_t s = 0 if streamID is None else _operator.index(streamID)
    check_status(miopenSetStream(c_handle(handle), <miopenAcceleratorQueue_t>s))


def getStream(Handle handle):
    """The handle's platform stream as an int.  C: miopenGetStream"""
    cdef miopenAcceleratorQueue_t s = NULL
    check_status(miopenGetStream(c_handle(handle), &s))
    return <uintptr_t>s


def setAllocator(Handle handle, allocator, deallocator, allocatorContext):
    """Sets allocation callbacks (C function addresses as ints, 0 for the default).
    C: miopenSetAllocator"""
    cdef uintptr_t a = _operator.index(allocator or 0)
    cdef uintptr_t d = _operator.index(deallocator or 0)
    cdef uintptr_t ctx = _operator.index(allocatorContext or 0)
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
