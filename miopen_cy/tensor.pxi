# The tensor group of miopen.h: descriptors and the whole-tensor ops.


cdef class TensorDescriptor:
    """Shape, strides and dtype of one tensor.  C: miopenCreateTensorDescriptor"""
    cdef miopenTensorDescriptor_t c_desc          # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateTensorDescriptor(&self.c_desc))

    def __dealloc__(self):                        # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyTensorDescriptor(self.c_desc)

    cdef tuple c_get(self):
        cdef int n = 0
        cdef miopenDataType_t dtype = miopenFloat
        if self.c_desc is NULL or miopenGetTensorDescriptorSize(self.c_desc, &n) != miopenStatusSuccess:
            return None
        cdef vector[int] lens = vector[int](n)
        cdef vector[int] strides = vector[int](n)
        # c_ok, not check_status: this runs while a call's arguments are converted (buffers.pxi's
        # stride check), and check_status would finish the arrays already staged for that call.
        c_ok(miopenGetTensorDescriptor(self.c_desc, &dtype, lens.data(), strides.data()))
        return (DataType(dtype), tuple(lens), tuple(strides))

    @property
    def dtype(self):
        """The DataType (read-only)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def shape(self):
        """The lengths, as a tuple (read-only)."""
        got = self.c_get()
        return None if got is None else got[1]

    @property
    def strides(self):
        """The strides in elements, as a tuple (read-only)."""
        got = self.c_get()
        return None if got is None else got[2]

    @property
    def layout(self):
        """The TensorLayout whose packed strides the descriptor has (miopenTensorNCHW, NHWC, CHWN
        for 4-d; NCDHW, NDHWC for 5-d), or None when its strides are none of them (read-only;
        MIOpen's C API has no call that reads a layout back: miopenGetTensorDescriptor's
        strides say it). Packed NCHW wins where several fit (dims of length 1)."""
        got = self.c_get()
        if got is None or len(got[1]) not in (4, 5):
            return None
        lens, strides = got[1], got[2]
        orders = ({TensorLayout.miopenTensorNCHW: (0, 1, 2, 3), TensorLayout.miopenTensorNHWC: (0, 2, 3, 1),
                   TensorLayout.miopenTensorCHWN: (1, 2, 3, 0)} if len(lens) == 4 else
                  {TensorLayout.miopenTensorNCDHW: (0, 1, 2, 3, 4),
                   TensorLayout.miopenTensorNDHWC: (0, 2, 3, 4, 1)})
        for layout, order in orders.items():
            expect, ok = 1, True
            for axis in reversed(order):
                if lens[axis] != 1 and strides[axis] != expect:
                    ok = False
                    break
                expect *= lens[axis]
            if ok:
                return layout
        return None

    def __repr__(self):
        if self.c_desc is NULL:
            return "TensorDescriptor(destroyed)"
        got = self.c_get()
        if got is None:
            return "TensorDescriptor(unset)"
        return f"TensorDescriptor({got[0].name}, lens={got[1]}, strides={got[2]})"


cdef miopenTensorDescriptor_t c_tensor(TensorDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


cdef miopenDataType_t c_dtype(TensorDescriptor desc):
    cdef miopenDataType_t dtype = miopenFloat
    if desc is not None and desc.c_desc is not NULL:
        miopenGetTensorDescriptor(desc.c_desc, &dtype, NULL, NULL)
    return dtype


def createTensorDescriptor():
    """A new, unset tensor descriptor.  C: miopenCreateTensorDescriptor"""
    return TensorDescriptor()


def destroyTensorDescriptor(TensorDescriptor tensorDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyTensorDescriptor"""
    cdef miopenTensorDescriptor_t d = c_tensor(tensorDesc, "tensorDesc")
    tensorDesc.c_desc = NULL
    check_status(miopenDestroyTensorDescriptor(d))


def set4dTensorDescriptor(TensorDescriptor tensorDesc, dataType, n, c, h, w):
    """Sets a packed NCHW tensor.  C: miopenSet4dTensorDescriptor"""
    check_status(miopenSet4dTensorDescriptor(
        c_tensor(tensorDesc, "tensorDesc"), <miopenDataType_t>c_int(dataType, "dataType"),
        c_int(n, "n"), c_int(c, "c"), c_int(h, "h"), c_int(w, "w")))


def setNdTensorDescriptorWithLayout(TensorDescriptor tensorDesc, dataType, tensorLayout, lens,
                                    num_lens):
    """Sets an N-d tensor whose strides follow a layout; lens in N, C, [D,] H, W order.
    C: miopenSetNdTensorDescriptorWithLayout"""
    cdef int count = c_int(num_lens, "num_lens")
    cdef vector[int] l = c_int_array(lens, count, "lens", "num_lens")
    check_status(miopenSetNdTensorDescriptorWithLayout(
        c_tensor(tensorDesc, "tensorDesc"), <miopenDataType_t>c_int(dataType, "dataType"),
        <miopenTensorLayout_t>c_int(tensorLayout, "tensorLayout"), l.data(), count))


def set4dTensorDescriptorEx(TensorDescriptor tensorDesc, dataType, n, c, h, w, nStride, cStride,
                            hStride, wStride):
    """Sets a 4-d tensor with explicit strides (in elements).  C: miopenSet4dTensorDescriptorEx"""
    check_status(miopenSet4dTensorDescriptorEx(
        c_tensor(tensorDesc, "tensorDesc"), <miopenDataType_t>c_int(dataType, "dataType"),
        c_int(n, "n"), c_int(c, "c"), c_int(h, "h"), c_int(w, "w"),
        c_int(nStride, "nStride"), c_int(cStride, "cStride"), c_int(hStride, "hStride"),
        c_int(wStride, "wStride")))


def get4dTensorDescriptor(TensorDescriptor tensorDesc):
    """(dataType, n, c, h, w, nStride, cStride, hStride, wStride) of a 4-d tensor.
    C: miopenGet4dTensorDescriptor"""
    cdef miopenDataType_t dt = miopenFloat
    cdef int n = 0, c = 0, h = 0, w = 0, ns = 0, cs = 0, hs = 0, ws = 0
    check_status(miopenGet4dTensorDescriptor(c_tensor(tensorDesc, "tensorDesc"), &dt,
                                             &n, &c, &h, &w, &ns, &cs, &hs, &ws))
    return (DataType(dt), n, c, h, w, ns, cs, hs, ws)


def setTensorDescriptor(TensorDescriptor tensorDesc, dataType, nbDims, dimsA, stridesA):
    """Sets an N-d tensor; stridesA None means packed.  C: miopenSetTensorDescriptor"""
    cdef int count = c_int(nbDims, "nbDims")
    cdef vector[int] dims, strides
    if count < 1:
        check_status(miopenSetTensorDescriptor(c_tensor(tensorDesc, "tensorDesc"),
                                               <miopenDataType_t>c_int(dataType, "dataType"),
                                               count, NULL, NULL))
    dims = c_int_array(dimsA, count, "dimsA", "nbDims")
    if stridesA is not None:
        strides = c_int_array(stridesA, count, "stridesA", "nbDims")
    check_status(miopenSetTensorDescriptor(
        c_tensor(tensorDesc, "tensorDesc"), <miopenDataType_t>c_int(dataType, "dataType"), count,
        dims.data(), strides.data() if stridesA is not None else NULL))


def getTensorDescriptorSize(TensorDescriptor tensorDesc):
    """The number of dimensions.  C: miopenGetTensorDescriptorSize"""
    cdef int size = 0
    check_status(miopenGetTensorDescriptorSize(c_tensor(tensorDesc, "tensorDesc"), &size))
    return size


def getTensorDescriptor(TensorDescriptor tensorDesc):
    """(dataType, dimsA, stridesA) of an N-d tensor.  C: miopenGetTensorDescriptor"""
    cdef int size = 0
    cdef miopenDataType_t dt = miopenFloat
    cdef miopenTensorDescriptor_t d = c_tensor(tensorDesc, "tensorDesc")
    check_status(miopenGetTensorDescriptorSize(d, &size))
    cdef vector[int] dims = vector[int](size)
    cdef vector[int] strides = vector[int](size)
    check_status(miopenGetTensorDescriptor(d, &dt, dims.data(), strides.data()))
    return (DataType(dt), tuple(dims), tuple(strides))


def getTensorNumBytes(TensorDescriptor tensorDesc):
    """Bytes spanned by the tensor: (largest offset + 1) * element size.  C: miopenGetTensorNumBytes"""
    cdef size_t n = 0
    check_status(miopenGetTensorNumBytes(c_tensor(tensorDesc, "tensorDesc"), &n))
    return n


def opTensor(Handle handle, tensorOp, alpha1, TensorDescriptor aDesc, A, alpha2,
             TensorDescriptor bDesc, B, beta, TensorDescriptor cDesc, C):
    """C = op(alpha1 * A, alpha2 * B) + beta * C; B broadcasts where its length is 1.
    C: miopenOpTensor"""
    api = "miopenOpTensor"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2, s3
    cdef miopenDataType_t dt = c_dtype(cDesc)
    cdef const void* pa1 = c_scalar_ptr(&s1, alpha1, "alpha1", dt)
    cdef const void* pa2 = c_scalar_ptr(&s2, alpha2, "alpha2", dt)
    cdef const void* pb = c_scalar_ptr(&s3, beta, "beta", dt)
    cdef miopenTensorOp_t op = <miopenTensorOp_t>c_int(tensorOp, "tensorOp")
    cdef miopenTensorDescriptor_t ad = c_tensor(aDesc, "aDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(bDesc, "bDesc")
    cdef miopenTensorDescriptor_t cd = c_tensor(cDesc, "cDesc")
    cdef const void* pA = c_data(A, "A", api, handle, aDesc, False)
    cdef const void* pB = c_data(B, "B", api, handle, bDesc, False)
    cdef void* pC = c_data(C, "C", api, handle, cDesc, True)
    with nogil:
        check_status(miopenOpTensor(h, op, pa1, ad, pA, pa2, bd, pB, pb, cd, pC))


cdef bytes c_fill_value(object alpha, miopenDataType_t dt, str api):
    """miopenSetTensor's fill value as C reads it: one element of y's type (MIOpen and cuDNN read
    the value in the tensor's type, unlike the float scaling factors of the other calls). Floats
    round to nearest even; the integer types take integral values in their range."""
    import struct
    if dt == miopenDouble:
        return struct.pack("=d", c_double(alpha, "alpha"))
    if dt == miopenInt8 or dt == miopenInt32:
        v = c_double(alpha, "alpha")
        lo, hi, fmt = (-128, 127, "=b") if dt == miopenInt8 else (-2 ** 31, 2 ** 31 - 1, "=i")
        if v != v or v != int(v) or not lo <= int(v) <= hi:
            c_raise(miopenStatusBadParm, api,
                    f"alpha = {alpha!r} is not an integer in [{lo}, {hi}] for {DataType(dt).name}")
        return struct.pack(fmt, int(v))
    cdef float f = <float>c_double(alpha, "alpha")
    if dt == miopenHalf:
        import numpy
        return numpy.float32(f).astype(numpy.float16).tobytes()
    bits = struct.unpack("=I", struct.pack("=f", f))[0]
    if dt == miopenBFloat16:
        if (bits & 0x7fffffff) > 0x7f800000:
            return struct.pack("=H", (bits >> 16) | 0x40)
        return struct.pack("=H", ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) & 0xffff)
    return struct.pack("=f", f)


def setTensor(Handle handle, TensorDescriptor yDesc, y, alpha):
    """Fills y with the value alpha (rounded once to y's type).  C: miopenSetTensor"""
    api = "miopenSetTensor"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef bytes value = c_fill_value(alpha, c_dtype(yDesc), api)
    cdef const void* pa = <const char*>value
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenSetTensor(h, yd, py, pa))


def scaleTensor(Handle handle, TensorDescriptor yDesc, y, alpha):
    """y = alpha * y.  C: miopenScaleTensor"""
    api = "miopenScaleTensor"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s
    cdef const void* pa = c_scalar_ptr(&s, alpha, "alpha", c_dtype(yDesc))
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenScaleTensor(h, yd, py, pa))


def transformTensor(Handle handle, alpha, TensorDescriptor xDesc, x, beta,
                    TensorDescriptor yDesc, y):
    """y = alpha * x + beta * y, x and y of the same lengths, any strides.
    C: miopenTransformTensor"""
    api = "miopenTransformTensor"
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
        check_status(miopenTransformTensor(h, pa, xd, px, pb, yd, py))
