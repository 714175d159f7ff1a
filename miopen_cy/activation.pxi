# The activation group of miopen.h: the activation descriptor, miopenActivationForward and
# miopenActivationBackward.


cdef class ActivationDescriptor:
    """An activation: mode and its parameters activAlpha, activBeta, activGamma.
    C: miopenCreateActivationDescriptor"""
    cdef miopenActivationDescriptor_t c_desc      # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateActivationDescriptor(&self.c_desc))

    def __dealloc__(self):                        # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyActivationDescriptor(self.c_desc)

    cdef tuple c_get(self):
        """(mode, activAlpha, activBeta, activGamma), or None when destroyed or unset."""
        cdef miopenActivationMode_t mode = miopenActivationPASTHRU
        cdef double a = 0, b = 0, g = 0
        if self.c_desc is NULL:
            return None
        if miopenGetActivationDescriptor(self.c_desc, &mode, &a, &b, &g) != miopenStatusSuccess:
            return None
        return (ActivationMode(mode), a, b, g)

    @property
    def mode(self):
        """The ActivationMode, None while unset (read-only)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def activAlpha(self):
        """The alpha parameter (read-only)."""
        got = self.c_get()
        return None if got is None else got[1]

    @property
    def activBeta(self):
        """The beta parameter (read-only)."""
        got = self.c_get()
        return None if got is None else got[2]

    @property
    def activGamma(self):
        """The gamma parameter (read-only)."""
        got = self.c_get()
        return None if got is None else got[3]

    def __repr__(self):
        if self.c_desc is NULL:
            return "ActivationDescriptor(destroyed)"
        got = self.c_get()
        if got is None:
            return "ActivationDescriptor(unset)"
        return (f"ActivationDescriptor({got[0].name}, activAlpha={got[1]!r}, "
                f"activBeta={got[2]!r}, activGamma={got[3]!r})")


cdef miopenActivationDescriptor_t c_activation(ActivationDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


def createActivationDescriptor():
    """A new, unset activation descriptor.  C: miopenCreateActivationDescriptor"""
    return ActivationDescriptor()


def setActivationDescriptor(ActivationDescriptor activDesc, mode, activAlpha, activBeta,
                            activGamma):
    """Sets the mode (an ActivationMode) and its parameters (finite floats; each mode uses the
    ones its formula names: TANH beta*tanh(alpha*x), POWER (alpha + beta*x)^gamma,
    CLIPPEDRELU / LEAKYRELU / ELU alpha).
    C: miopenSetActivationDescriptor"""
    check_status(miopenSetActivationDescriptor(
        c_activation(activDesc, "activDesc"), <miopenActivationMode_t>c_int(mode, "mode"),
        c_double(activAlpha, "activAlpha"), c_double(activBeta, "activBeta"),
        c_double(activGamma, "activGamma")))


def getActivationDescriptor(ActivationDescriptor activDesc):
    """(mode, activAlpha, activBeta, activGamma) of a set descriptor.
    C: miopenGetActivationDescriptor"""
    cdef miopenActivationMode_t mode = miopenActivationPASTHRU
    cdef double a = 0, b = 0, g = 0
    check_status(miopenGetActivationDescriptor(c_activation(activDesc, "activDesc"),
                                               &mode, &a, &b, &g))
    return (ActivationMode(mode), a, b, g)


def activationForward(Handle handle, ActivationDescriptor activDesc, alpha, TensorDescriptor xDesc,
                      x, beta, TensorDescriptor yDesc, y):
    """y = alpha * f(x) + beta * y, f the descriptor's activation; x and y of the same lengths,
    any strides, y may be x (same layout). y is not read when beta == 0.
    C: miopenActivationForward"""
    api = "miopenActivationForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenActivationDescriptor_t ad = c_activation(activDesc, "activDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenActivationForward(h, ad, pa, xd, px, pb, yd, py))


def activationBackward(Handle handle, ActivationDescriptor activDesc, alpha,
                       TensorDescriptor yDesc, y, TensorDescriptor dyDesc, dy,
                       TensorDescriptor xDesc, x, beta, TensorDescriptor dxDesc, dx):
    """dx = alpha * f'(x) * dy + beta * dx, with the true derivative of the descriptor's
    activation computed from x (y is checked but not read); dx may be dy or x (same layout).
    dx is not read when beta == 0.
    C: miopenActivationBackward"""
    api = "miopenActivationBackward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(dxDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenActivationDescriptor_t ad = c_activation(activDesc, "activDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef const void* py = c_data(y, "y", api, handle, yDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    with nogil:
        check_status(miopenActivationBackward(h, ad, pa, yd, py, dyd, pdy, xd, px, pb, dxd, pdx))


def destroyActivationDescriptor(ActivationDescriptor activDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyActivationDescriptor"""
    cdef miopenActivationDescriptor_t d = c_activation(activDesc, "activDesc")
    activDesc.c_desc = NULL
    check_status(miopenDestroyActivationDescriptor(d))
