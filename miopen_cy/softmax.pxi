# The softmax group of miopen.h: miopenSoftmaxForward[_V2], miopenSoftmaxBackward[_V2].
# MIOpen's softmax takes 4-d N, C, H, W tensors (any strides); x and y may be the same buffer
# (in place) when they have the same descriptor, as may dy and dx.


def softmaxForward(Handle handle, alpha, TensorDescriptor xDesc, x, beta, TensorDescriptor yDesc,
                   y):
    """y = alpha * softmax(x) + beta * y over C per (n, h, w) (ACCURATE algorithm, CHANNEL mode).
    C: miopenSoftmaxForward"""
    api = "miopenSoftmaxForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenSoftmaxForward(h, pa, xd, px, pb, yd, py))


def softmaxBackward(Handle handle, alpha, TensorDescriptor yDesc, y, TensorDescriptor dyDesc, dy,
                    beta, TensorDescriptor dxDesc, dx):
    """dx = alpha * y * (dy - sum_c(y * dy)) + beta * dx (ACCURATE algorithm, CHANNEL mode).
    C: miopenSoftmaxBackward"""
    api = "miopenSoftmaxBackward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(dxDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef const void* py = c_data(y, "y", api, handle, yDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    with nogil:
        check_status(miopenSoftmaxBackward(h, pa, yd, py, dyd, pdy, pb, dxd, pdx))


def softmaxForward_V2(Handle handle, alpha, TensorDescriptor xDesc, x, beta,
                      TensorDescriptor yDesc, y, algorithm, mode):
    """y = alpha * softmax(x) + beta * y; algorithm FAST (no max subtraction), ACCURATE or LOG
    (log-softmax); mode INSTANCE (over C*H*W per n) or CHANNEL (over C per n, h, w).
    C: miopenSoftmaxForward_V2"""
    api = "miopenSoftmaxForward_V2"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenSoftmaxAlgorithm_t algo = <miopenSoftmaxAlgorithm_t>c_int(algorithm, "algorithm")
    cdef miopenSoftmaxMode_t md = <miopenSoftmaxMode_t>c_int(mode, "mode")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenSoftmaxForward_V2(h, pa, xd, px, pb, yd, py, algo, md))


def softmaxBackward_V2(Handle handle, alpha, TensorDescriptor yDesc, y, TensorDescriptor dyDesc,
                       dy, beta, TensorDescriptor dxDesc, dx, algorithm, mode):
    """dx = alpha * y * (dy - sum(y * dy)) + beta * dx (FAST, ACCURATE) or
    alpha * (dy - exp(y) * sum(dy)) + beta * dx (LOG, y the log-softmax), the sums over the
    mode's extent.
    C: miopenSoftmaxBackward_V2"""
    api = "miopenSoftmaxBackward_V2"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(dxDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenSoftmaxAlgorithm_t algo = <miopenSoftmaxAlgorithm_t>c_int(algorithm, "algorithm")
    cdef miopenSoftmaxMode_t md = <miopenSoftmaxMode_t>c_int(mode, "mode")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef const void* py = c_data(y, "y", api, handle, yDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    with nogil:
        check_status(miopenSoftmaxBackward_V2(h, pa, yd, py, dyd, pdy, pb, dxd, pdx, algo, md))
