# The pooling group of miopen.h: the pooling descriptor, workspace sizes, forward and backward.


cdef class PoolingDescriptor:
    """Mode, window, pads and strides of a pooling layer, with its index workspace settings.
    C: miopenCreatePoolingDescriptor"""
    cdef miopenPoolingDescriptor_t c_desc         # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreatePoolingDescriptor(&self.c_desc))

    def __dealloc__(self):                        # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyPoolingDescriptor(self.c_desc)

    cdef tuple c_get(self):
        """(mode, window, pads, strides) or None when destroyed or unset."""
        cdef miopenPoolingMode_t mode = miopenPoolingMax
        cdef int nb = 0
        cdef int window[3]
        cdef int pads[3]
        cdef int strides[3]
        if self.c_desc is NULL or miopenGetNdPoolingDescriptor(
                self.c_desc, 3, &mode, &nb, window, pads, strides) != miopenStatusSuccess:
            return None
        return (PoolingMode(mode), tuple(window[i] for i in range(nb)),
                tuple(pads[i] for i in range(nb)), tuple(strides[i] for i in range(nb)))

    @property
    def mode(self):
        """The PoolingMode, or None while unset (read-only)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def window(self):
        """The window lengths, as a tuple (read-only)."""
        got = self.c_get()
        return None if got is None else got[1]

    @property
    def pads(self):
        """The pads, as a tuple (read-only)."""
        got = self.c_get()
        return None if got is None else got[2]

    @property
    def strides(self):
        """The strides, as a tuple (read-only)."""
        got = self.c_get()
        return None if got is None else got[3]

    def __repr__(self):
        cdef miopenIndexType_t it = miopenIndexUint8
        cdef miopenPoolingWorkspaceIndexMode_t im = miopenPoolingWorkspaceIndexMask
        if self.c_desc is NULL:
            return "PoolingDescriptor(destroyed)"
        got = self.c_get()
        if got is None:
            return "PoolingDescriptor(unset)"
        miopenGetPoolingIndexType(self.c_desc, &it)
        miopenGetPoolingWorkSpaceIndexMode(self.c_desc, &im)
        return (f"PoolingDescriptor({got[0].name}, window={got[1]}, pads={got[2]}, "
                f"strides={got[3]}, {IndexType(it).name}, {PoolingWorkspaceIndexMode(im).name})")


cdef miopenPoolingDescriptor_t c_pooling(PoolingDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


def createPoolingDescriptor():
    """A new, unset pooling descriptor.  C: miopenCreatePoolingDescriptor"""
    return PoolingDescriptor()


def destroyPoolingDescriptor(PoolingDescriptor poolDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyPoolingDescriptor"""
    cdef miopenPoolingDescriptor_t d = c_pooling(poolDesc, "poolDesc")
    poolDesc.c_desc = NULL
    check_status(miopenDestroyPoolingDescriptor(d))


def setPoolingIndexType(PoolingDescriptor poolDesc, index_type):
    """Sets the integer type of the max-pooling index workspace (default miopenIndexUint8).
    set2dPoolingDescriptor / setNdPoolingDescriptor reset it, as in MIOpen: call this after them.
    C: miopenSetPoolingIndexType"""
    check_status(miopenSetPoolingIndexType(
        c_pooling(poolDesc, "poolDesc"), <miopenIndexType_t>c_int(index_type, "index_type")))


def getPoolingIndexType(PoolingDescriptor poolDesc):
    """The IndexType of the index workspace.  C: miopenGetPoolingIndexType"""
    cdef miopenIndexType_t t = miopenIndexUint8
    check_status(miopenGetPoolingIndexType(c_pooling(poolDesc, "poolDesc"), &t))
    return IndexType(t)


def setPoolingWorkSpaceIndexMode(PoolingDescriptor poolDesc, workspace_index):
    """Sets what the index workspace records: the max's position in its window (Mask) or in the
    input image (Image). set2dPoolingDescriptor resets it to Mask, setNdPoolingDescriptor with 3
    dims to Image, as in MIOpen.  C: miopenSetPoolingWorkSpaceIndexMode"""
    check_status(miopenSetPoolingWorkSpaceIndexMode(
        c_pooling(poolDesc, "poolDesc"),
        <miopenPoolingWorkspaceIndexMode_t>c_int(workspace_index, "workspace_index")))


def getPoolingWorkSpaceIndexMode(PoolingDescriptor poolDesc):
    """The PoolingWorkspaceIndexMode.  C: miopenGetPoolingWorkSpaceIndexMode"""
    cdef miopenPoolingWorkspaceIndexMode_t m = miopenPoolingWorkspaceIndexMask
    check_status(miopenGetPoolingWorkSpaceIndexMode(c_pooling(poolDesc, "poolDesc"), &m))
    return PoolingWorkspaceIndexMode(m)


def set2dPoolingDescriptor(PoolingDescriptor poolDesc, mode, windowHeight, windowWidth, pad_h,
                           pad_w, stride_h, stride_w):
    """Sets 2-d pooling (for N, C, H, W tensors): window >= 1, stride >= 1, 0 <= pad < window.
    C: miopenSet2dPoolingDescriptor"""
    check_status(miopenSet2dPoolingDescriptor(
        c_pooling(poolDesc, "poolDesc"), <miopenPoolingMode_t>c_int(mode, "mode"),
        c_int(windowHeight, "windowHeight"), c_int(windowWidth, "windowWidth"),
        c_int(pad_h, "pad_h"), c_int(pad_w, "pad_w"),
        c_int(stride_h, "stride_h"), c_int(stride_w, "stride_w")))


def get2dPoolingDescriptor(PoolingDescriptor poolDesc):
    """(mode, windowHeight, windowWidth, pad_h, pad_w, stride_h, stride_w) of a 2-d descriptor.
    C: miopenGet2dPoolingDescriptor"""
    cdef miopenPoolingMode_t mode = miopenPoolingMax
    cdef int wh = 0, ww = 0, ph = 0, pw = 0, sh = 0, sw = 0
    check_status(miopenGet2dPoolingDescriptor(c_pooling(poolDesc, "poolDesc"), &mode, &wh, &ww,
                                              &ph, &pw, &sh, &sw))
    return (PoolingMode(mode), wh, ww, ph, pw, sh, sw)


def getPoolingForwardOutputDim(PoolingDescriptor poolDesc, TensorDescriptor tensorDesc):
    """(n, c, h, w) of the output of 2-d pooling of tensorDesc:
    floor((H + 2 * pad_h - windowHeight) / stride_h) + 1, likewise for W.
    C: miopenGetPoolingForwardOutputDim"""
    cdef int n = 0, c = 0, h = 0, w = 0
    check_status(miopenGetPoolingForwardOutputDim(c_pooling(poolDesc, "poolDesc"),
                                                  c_tensor(tensorDesc, "tensorDesc"),
                                                  &n, &c, &h, &w))
    return (n, c, h, w)


def setNdPoolingDescriptor(PoolingDescriptor poolDesc, mode, nbDims, windowDimA, padA, stridesA):
    """Sets N-d pooling with nbDims (2 or 3) spatial dims: sequences of window lengths, pads and
    strides in (D,) H, W order.  C: miopenSetNdPoolingDescriptor"""
    cdef int nb = c_int(nbDims, "nbDims")
    cdef miopenPoolingMode_t m = <miopenPoolingMode_t>c_int(mode, "mode")
    cdef vector[int] window, pads, strides
    if nb < 1:
        # Let C report the bad count (it names nbDims).
        window.resize(1)
        check_status(miopenSetNdPoolingDescriptor(c_pooling(poolDesc, "poolDesc"), m, nb,
                                                  window.data(), window.data(), window.data()))
    window = c_int_array(windowDimA, nb, "windowDimA", "nbDims")
    pads = c_int_array(padA, nb, "padA", "nbDims")
    strides = c_int_array(stridesA, nb, "stridesA", "nbDims")
    check_status(miopenSetNdPoolingDescriptor(c_pooling(poolDesc, "poolDesc"), m, nb,
                                              window.data(), pads.data(), strides.data()))


def getNdPoolingDescriptor(PoolingDescriptor poolDesc, nbDimsRequested):
    """(mode, nbDims, windowDimA, padA, stridesA); the arrays hold min(nbDimsRequested, nbDims)
    entries.  C: miopenGetNdPoolingDescriptor"""
    cdef int req = c_int(nbDimsRequested, "nbDimsRequested")
    cdef miopenPoolingMode_t mode = miopenPoolingMax
    cdef int nb = 0
    cdef vector[int] window = vector[int](max(min(req, C_MAX_DIMS), 0))
    cdef vector[int] pads = vector[int](max(min(req, C_MAX_DIMS), 0))
    cdef vector[int] strides = vector[int](max(min(req, C_MAX_DIMS), 0))
    check_status(miopenGetNdPoolingDescriptor(c_pooling(poolDesc, "poolDesc"), req, &mode, &nb,
                                              window.data(), pads.data(), strides.data()))
    count = min(req, nb)
    return (PoolingMode(mode), nb, tuple(window[i] for i in range(count)),
            tuple(pads[i] for i in range(count)), tuple(strides[i] for i in range(count)))


def getPoolingNdForwardOutputDim(PoolingDescriptor poolDesc, TensorDescriptor tensorDesc, dims):
    """The output lengths (a tuple of `dims` = spatial dims + 2 ints) of pooling tensorDesc.
    C: miopenGetPoolingNdForwardOutputDim"""
    cdef int d = c_int(dims, "dims")
    cdef vector[int] out = vector[int](max(min(d, C_MAX_DIMS), 1))
    check_status(miopenGetPoolingNdForwardOutputDim(c_pooling(poolDesc, "poolDesc"),
                                                    c_tensor(tensorDesc, "tensorDesc"), d,
                                                    out.data()))
    return tuple(out[i] for i in range(d))


def poolingGetWorkSpaceSize(TensorDescriptor yDesc):
    """Bytes of the max-pooling index workspace assuming uint8 indices: numel(y).
    C: miopenPoolingGetWorkSpaceSize"""
    cdef size_t size = 0
    check_status(miopenPoolingGetWorkSpaceSize(c_tensor(yDesc, "yDesc"), &size))
    return size


def poolingGetWorkSpaceSizeV2(PoolingDescriptor poolDesc, TensorDescriptor yDesc):
    """Bytes of the index workspace: numel(y) * sizeof(index type) in max mode, 0 otherwise.
    C: miopenPoolingGetWorkSpaceSizeV2"""
    cdef size_t size = 0
    check_status(miopenPoolingGetWorkSpaceSizeV2(c_pooling(poolDesc, "poolDesc"),
                                                 c_tensor(yDesc, "yDesc"), &size))
    return size


def poolingForward(Handle handle, PoolingDescriptor poolDesc, alpha, TensorDescriptor xDesc, x,
                   beta, TensorDescriptor yDesc, y, do_backward, workSpace, workSpaceSize):
    """y = alpha * pool(x) + beta * y. In max mode with do_backward, the index of each maximum
    goes to workSpace (workSpaceSize bytes, at least poolingGetWorkSpaceSizeV2) for
    poolingBackward; otherwise workSpace may be None.  C: miopenPoolingForward"""
    api = "miopenPoolingForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenPoolingDescriptor_t pd = c_pooling(poolDesc, "poolDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef cbool save = True if do_backward else False
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pw = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenPoolingForward(h, pd, pa, xd, px, pb, yd, py, save, pw, ws_size))


def poolingBackward(Handle handle, PoolingDescriptor poolDesc, alpha, TensorDescriptor yDesc, y,
                    TensorDescriptor dyDesc, dy, TensorDescriptor xDesc, x, beta,
                    TensorDescriptor dxDesc, dx, workSpace):
    """dx = alpha * pool'(dy) + beta * dx. Max mode sends each dy to the maximum recorded in
    workSpace by poolingForward(do_backward=True); with workSpace None it finds the maxima again
    from x. y is not read (as in MIOpen) and may be None.  C: miopenPoolingBackward"""
    api = "miopenPoolingBackward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(dxDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenPoolingDescriptor_t pd = c_pooling(poolDesc, "poolDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef size_t need = 0
    if workSpace is not None and pd is not NULL and yd is not NULL:
        if miopenPoolingGetWorkSpaceSizeV2(pd, yd, &need) != miopenStatusSuccess:
            need = 0                              # C reports what is wrong with the descriptors
    cdef const void* py = c_data(y, "y", api, handle, yDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef void* pw = c_workspace(workSpace, "workSpace", api, handle, need, False)
    with nogil:
        check_status(miopenPoolingBackward(h, pd, pa, yd, py, dyd, pdy, xd, px, pb, dxd, pdx, pw))
