# The dropout group of miopen.h: the dropout descriptor (rate, generator states, seed, use_mask,
# state_evo, RNG mode), its sizes, and miopenDropoutForward / Backward. The generator is
# Philox-4x32-10 (hip/src/dropout/dropout_args.hpp): the same seed gives the same mask on the CPU
# and the GPU.


class RNGType(_enum.IntEnum):
    """C: miopenRNGType_t"""
    MIOPEN_RNG_PSEUDO_XORWOW = 0


ENUMS = ENUMS + (RNGType,)


cdef class DropoutDescriptor:
    """Dropout rate, generator states, seed, use_mask, state_evo and RNG mode.
    C: miopenCreateDropoutDescriptor"""
    cdef miopenDropoutDescriptor_t c_desc      # NULL once destroyed
    cdef object c_states                       # the states buffer, kept alive while set

    def __cinit__(self):
        self.c_desc = NULL
        self.c_states = None
        self.c_set_handle = None
        check_status(miopenCreateDropoutDescriptor(&self.c_desc))

    def __dealloc__(self):                     # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyDropoutDescriptor(self.c_desc)

    cdef object c_set_handle                   # the handle of the last set / restore

    cdef tuple c_get(self):
        if self.c_desc is NULL or self.c_set_handle is None:
            return None
        return getDropoutDescriptor(self, self.c_set_handle)

    @property
    def dropout(self):
        """The dropout rate (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def seed(self):
        """The seed (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[2]

    @property
    def use_mask(self):
        """Whether forward reads the mask from reserveSpace (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[3]

    @property
    def state_evo(self):
        """Whether each forward advances the generator (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[4]

    def __repr__(self):
        if self.c_desc is NULL:
            return "DropoutDescriptor(destroyed)"
        got = self.c_get()
        if got is None:
            return "DropoutDescriptor(unset)"
        return (f"DropoutDescriptor(dropout={got[0]!r}, seed={got[2]}, use_mask={got[3]}, "
                f"state_evo={got[4]}, rng_mode={got[5].name})")


cdef miopenDropoutDescriptor_t c_dropout(DropoutDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


cdef bint c_host_memory(object obj):
    """Whether a data argument is host memory that a GPU handle would stage (copy in and out)."""
    if obj is None or isinstance(obj, (DeviceBuffer, int)):
        return False
    try:
        if getattr(obj, "__cuda_array_interface__", None) is not None:
            return False
    except Exception:
        pass
    try:
        if hasattr(obj, "__dlpack_device__") and obj.__dlpack_device__()[0] in (_DL_CUDA, _DL_ROCM):
            return False
    except Exception:
        pass
    torch = _sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor) and obj.is_cuda:
        return False
    return True


cdef unsigned long long c_seed(object value, str name) except? 0xFFFFFFFFFFFFFFFF:
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < 0 or i > 0xFFFFFFFFFFFFFFFF:
        raise OverflowError(f"{name} = {i} does not fit in a C unsigned long long")
    return i


def createDropoutDescriptor():
    """A new, unset dropout descriptor.  C: miopenCreateDropoutDescriptor"""
    return DropoutDescriptor()


def dropoutGetReserveSpaceSize(TensorDescriptor xDesc):
    """Bytes of reserve space (the mask, one byte per element of x).
    C: miopenDropoutGetReserveSpaceSize"""
    cdef size_t n = 0
    check_status(miopenDropoutGetReserveSpaceSize(c_tensor(xDesc, "xDesc"), &n))
    return n


def dropoutGetStatesSize(Handle handle):
    """Bytes of generator states setDropoutDescriptor takes (MIOpen's size).
    C: miopenDropoutGetStatesSize"""
    cdef size_t n = 0
    check_status(miopenDropoutGetStatesSize(c_handle(handle), &n))
    return n


def getDropoutDescriptor(DropoutDescriptor dropoutDesc, Handle handle):
    """(dropout, states, seed, use_mask, state_evo, rng_mode) of a set descriptor; states is the
    address of the states buffer.  C: miopenGetDropoutDescriptor"""
    cdef float p = 0
    cdef void* states = NULL
    cdef unsigned long long seed = 0
    cdef cbool use_mask = False, state_evo = False
    cdef miopenRNGType_t mode = MIOPEN_RNG_PSEUDO_XORWOW
    check_status(miopenGetDropoutDescriptor(c_dropout(dropoutDesc, "dropoutDesc"),
                                            c_handle(handle), &p, &states, &seed, &use_mask,
                                            &state_evo, &mode))
    return (p, <uintptr_t>states, seed, bool(use_mask), bool(state_evo), RNGType(mode))


cdef c_set_dropout(str api, DropoutDescriptor dropoutDesc, Handle handle, dropout, states,
                   stateSizeInBytes, seed, use_mask, state_evo, rng_mode, bint init):
    cdef miopenDropoutDescriptor_t d = c_dropout(dropoutDesc, "dropoutDesc")
    cdef miopenHandle_t h = c_handle(handle)
    cdef float p = <float>c_double(dropout, "dropout")
    cdef size_t n = c_size(stateSizeInBytes, "stateSizeInBytes")
    cdef unsigned long long s = c_seed(seed, "seed")
    cdef cbool um = True if use_mask else False
    cdef cbool evo = True if state_evo else False
    cdef miopenRNGType_t mode = <miopenRNGType_t>c_int(rng_mode, "rng_mode")
    if handle.c_gpu and c_host_memory(states):
        c_raise(miopenStatusBadParm, api,
                f"states must be device memory on a GPU handle (a DeviceBuffer, a CuPy array, a "
                f"PyTorch CUDA tensor or an address): the descriptor keeps the pointer")
    cdef void* ps = c_workspace(states, "states", api, handle, n, True)
    if init:
        with nogil:
            check_status(miopenSetDropoutDescriptor(d, h, p, ps, n, s, um, evo, mode))
    else:
        with nogil:
            check_status(miopenRestoreDropoutDescriptor(d, h, p, ps, n, s, um, evo, mode))
    dropoutDesc.c_states = states
    dropoutDesc.c_set_handle = handle


def setDropoutDescriptor(DropoutDescriptor dropoutDesc, Handle handle, dropout, states,
                         stateSizeInBytes, seed, use_mask, state_evo, rng_mode):
    """Sets the rate (in [0, 1]), the states buffer (dropoutGetStatesSize bytes on the handle's
    device, kept by the descriptor) initialised from seed, use_mask (forward reads the mask from
    reserveSpace), state_evo (each forward advances the generator) and rng_mode.
    C: miopenSetDropoutDescriptor"""
    c_set_dropout("miopenSetDropoutDescriptor", dropoutDesc, handle, dropout, states,
                  stateSizeInBytes, seed, use_mask, state_evo, rng_mode, True)


def restoreDropoutDescriptor(DropoutDescriptor dropoutDesc, Handle handle, dropout, states,
                             stateSizeInBytes, seed, use_mask, state_evo, rng_mode):
    """As setDropoutDescriptor, on states that already hold a generator state (not reset).
    C: miopenRestoreDropoutDescriptor"""
    c_set_dropout("miopenRestoreDropoutDescriptor", dropoutDesc, handle, dropout, states,
                  stateSizeInBytes, seed, use_mask, state_evo, rng_mode, False)


def dropoutForward(Handle handle, DropoutDescriptor dropoutDesc, TensorDescriptor noise_shape,
                   TensorDescriptor xDesc, x, TensorDescriptor yDesc, y, reserveSpace,
                   reserveSpaceSizeInBytes):
    """y = mask ? x / (1 - dropout) : 0; the mask is drawn (and written to reserveSpace when
    given) or, with use_mask, read from reserveSpace.  C: miopenDropoutForward"""
    api = "miopenDropoutForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenDropoutDescriptor_t d = c_dropout(dropoutDesc, "dropoutDesc")
    cdef miopenTensorDescriptor_t nd = c_tensor(noise_shape, "noise_shape")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef size_t n = c_size(reserveSpaceSizeInBytes, "reserveSpaceSizeInBytes")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pr = c_workspace(reserveSpace, "reserveSpace", api, handle, n, True)
    with nogil:
        check_status(miopenDropoutForward(h, d, nd, xd, px, yd, py, pr, n))


def dropoutBackward(Handle handle, DropoutDescriptor dropoutDesc, TensorDescriptor noise_shape,
                    TensorDescriptor dyDesc, dy, TensorDescriptor dxDesc, dx, reserveSpace,
                    reserveSpaceSizeInBytes):
    """dx = mask ? dy / (1 - dropout) : 0 with the forward's mask from reserveSpace, or (None)
    drawn again from the generator.  C: miopenDropoutBackward"""
    api = "miopenDropoutBackward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenDropoutDescriptor_t d = c_dropout(dropoutDesc, "dropoutDesc")
    cdef miopenTensorDescriptor_t nd = c_tensor(noise_shape, "noise_shape")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef size_t n = c_size(reserveSpaceSizeInBytes, "reserveSpaceSizeInBytes")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef void* pr = c_workspace(reserveSpace, "reserveSpace", api, handle, n, False)
    with nogil:
        check_status(miopenDropoutBackward(h, d, nd, dyd, pdy, dxd, pdx, pr, n))


def destroyDropoutDescriptor(DropoutDescriptor dropoutDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyDropoutDescriptor"""
    cdef miopenDropoutDescriptor_t d = c_dropout(dropoutDesc, "dropoutDesc")
    dropoutDesc.c_desc = NULL
    dropoutDesc.c_states = None
    dropoutDesc.c_set_handle = None
    check_status(miopenDestroyDropoutDescriptor(d))
