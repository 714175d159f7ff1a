# The LRN group of miopen.h: the LRN descriptor, miopenLRNGetWorkSpaceSize, miopenLRNForward and
# miopenLRNBackward. LRN takes 4-d N, C, H, W tensors (any strides).


cdef class LRNDescriptor:
    """Local response normalisation: mode, lrnN, lrnAlpha, lrnBeta, lrnK.
    C: miopenCreateLRNDescriptor"""
    cdef miopenLRNDescriptor_t c_desc          # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateLRNDescriptor(&self.c_desc))

    def __dealloc__(self):                     # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyLRNDescriptor(self.c_desc)

    cdef tuple c_get(self):
        cdef miopenLRNMode_t mode = miopenLRNCrossChannel
        cdef unsigned int n = 0
        cdef double a = 0, b = 0, k = 0
        if self.c_desc is NULL or miopenGetLRNDescriptor(self.c_desc, &mode, &n, &a, &b, &k) != \
                miopenStatusSuccess:
            return None
        return (LRNMode(mode), n, a, b, k)

    @property
    def mode(self):
        """The LRNMode (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def lrnN(self):
        """The window size N (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[1]

    @property
    def lrnAlpha(self):
        """alpha (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[2]

    @property
    def lrnBeta(self):
        """beta (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[3]

    @property
    def lrnK(self):
        """K (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[4]

    def __repr__(self):
        if self.c_desc is NULL:
            return "LRNDescriptor(destroyed)"
        got = self.c_get()
        if got is None:
            return "LRNDescriptor(unset)"
        return (f"LRNDescriptor({got[0].name}, lrnN={got[1]}, lrnAlpha={got[2]!r}, "
                f"lrnBeta={got[3]!r}, lrnK={got[4]!r})")


cdef miopenLRNDescriptor_t c_lrn(LRNDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


cdef unsigned int c_uint(object value, str name) except? 0xFFFFFFFF:
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < 0 or i > 0xFFFFFFFF:
        raise OverflowError(f"{name} = {i} does not fit in a C unsigned int")
    return i


cdef size_t c_lrn_workspace(TensorDescriptor yDesc):
    """miopenLRNGetWorkSpaceSize of yDesc, or 0 where yDesc is unusable (C reports it)."""
    cdef size_t n = 0
    if yDesc is None or yDesc.c_desc is NULL or \
            miopenLRNGetWorkSpaceSize(yDesc.c_desc, &n) != miopenStatusSuccess:
        return 0
    return n


def createLRNDescriptor():
    """A new, unset LRN descriptor.  C: miopenCreateLRNDescriptor"""
    return LRNDescriptor()


def setLRNDescriptor(LRNDescriptor lrnDesc, mode, lrnN, lrnAlpha, lrnBeta, lrnK):
    """Sets the mode (cross- or within-channel), window size lrnN >= 1, and the finite alpha, beta
    and K of y = x * (K + alpha/N * sum x^2)^-beta.
    C: miopenSetLRNDescriptor"""
    check_status(miopenSetLRNDescriptor(
        c_lrn(lrnDesc, "lrnDesc"), <miopenLRNMode_t>c_int(mode, "mode"), c_uint(lrnN, "lrnN"),
        c_double(lrnAlpha, "lrnAlpha"), c_double(lrnBeta, "lrnBeta"), c_double(lrnK, "lrnK")))


def getLRNDescriptor(LRNDescriptor lrnDesc):
    """(mode, lrnN, lrnAlpha, lrnBeta, lrnK) of a set descriptor.  C: miopenGetLRNDescriptor"""
    cdef miopenLRNMode_t mode = miopenLRNCrossChannel
    cdef unsigned int n = 0
    cdef double a = 0, b = 0, k = 0
    check_status(miopenGetLRNDescriptor(c_lrn(lrnDesc, "lrnDesc"), &mode, &n, &a, &b, &k))
    return (LRNMode(mode), n, a, b, k)


def LRNGetWorkSpaceSize(TensorDescriptor yDesc):
    """Bytes of workspace a forward with do_backward fills: numel(y) * element size.
    C: miopenLRNGetWorkSpaceSize"""
    cdef size_t n = 0
    check_status(miopenLRNGetWorkSpaceSize(c_tensor(yDesc, "yDesc"), &n))
    return n


def LRNForward(Handle handle, LRNDescriptor lrnDesc, alpha, TensorDescriptor xDesc, x, beta,
               TensorDescriptor yDesc, y, do_backward, workSpace):
    """y = alpha * lrn(x) + beta * y; with do_backward, also saves the scale in workSpace
    (LRNGetWorkSpaceSize bytes) for LRNBackward.  C: miopenLRNForward"""
    api = "miopenLRNForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenLRNDescriptor_t ld = c_lrn(lrnDesc, "lrnDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef cbool bwd = True if do_backward else False
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pw = c_workspace(workSpace, "workSpace", api, handle,
                                c_lrn_workspace(yDesc) if bwd else 0, True)
    with nogil:
        check_status(miopenLRNForward(h, ld, pa, xd, px, pb, yd, py, bwd, pw))


def LRNBackward(Handle handle, LRNDescriptor lrnDesc, alpha, TensorDescriptor yDesc, y,
                TensorDescriptor dyDesc, dy, TensorDescriptor xDesc, x, beta,
                TensorDescriptor dxDesc, dx, workSpace):
    """dx = alpha * (gradient of LRN at x, given y and dy) + beta * dx. workSpace is what the
    forward with do_backward saved, or None to recompute the scale from x.
    C: miopenLRNBackward"""
    api = "miopenLRNBackward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(dxDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenLRNDescriptor_t ld = c_lrn(lrnDesc, "lrnDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef const void* py = c_data(y, "y", api, handle, yDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef const void* pw = c_workspace(workSpace, "workSpace", api, handle,
                                      c_lrn_workspace(yDesc), False)
    with nogil:
        check_status(miopenLRNBackward(h, ld, pa, yd, py, dyd, pdy, xd, px, pb, dxd, pdx, pw))


def destroyLRNDescriptor(LRNDescriptor lrnDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyLRNDescriptor"""
    cdef miopenLRNDescriptor_t d = c_lrn(lrnDesc, "lrnDesc")
    lrnDesc.c_desc = NULL
    check_status(miopenDestroyLRNDescriptor(d))
