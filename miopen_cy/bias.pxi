# The convolution-bias group of miopen.h: per-channel bias forward and its gradient.


def convolutionForwardBias(Handle handle, alpha, TensorDescriptor bDesc, b, beta,
                           TensorDescriptor yDesc, y):
    """Adds the per-channel bias b (1xCx1x1, or 1xCx1x1x1 for 5-d y) to y in place:
    y = alpha * y + alpha * b + beta * y (MIOpen's definition; y + b for alpha = 1, beta = 0).
    C: miopenConvolutionForwardBias"""
    api = "miopenConvolutionForwardBias"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenTensorDescriptor_t bd = c_tensor(bDesc, "bDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef const void* pbias = c_data(b, "b", api, handle, bDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenConvolutionForwardBias(h, pa, bd, pbias, pb, yd, py))


def convolutionBackwardBias(Handle handle, alpha, TensorDescriptor dyDesc, dy, beta,
                            TensorDescriptor dbDesc, db):
    """Bias gradient: db = alpha * (dy summed over N and the spatial dims) + beta * db, db of
    shape 1xCx1x1 (1xCx1x1x1), written in place.
    C: miopenConvolutionBackwardBias"""
    api = "miopenConvolutionBackwardBias"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(dyDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t dbd = c_tensor(dbDesc, "dbDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef void* pdb = c_data(db, "db", api, handle, dbDesc, True)
    with nogil:
        check_status(miopenConvolutionBackwardBias(h, pa, dyd, pdy, pb, dbd, pdb))
