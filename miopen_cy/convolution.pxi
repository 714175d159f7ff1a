# The convolution group of miopen.h: descriptor, workspace queries, legacy Find, run calls.


cdef class ConvolutionDescriptor:
    """Mode, pads, strides, dilations, groups of one convolution layer.
    C: miopenCreateConvolutionDescriptor"""
    cdef miopenConvolutionDescriptor_t c_desc

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateConvolutionDescriptor(&self.c_desc))

    def __dealloc__(self):
        if self.c_desc is not NULL:
            miopenDestroyConvolutionDescriptor(self.c_desc)

    def __repr__(self):
        if self.c_desc is NULL:
            return "ConvolutionDescriptor(destroyed)"
        cdef int dims = 0, groups = 0
        check_status(miopenGetConvolutionSpatialDim(self.c_desc, &dims))
        check_status(miopenGetConvolutionGroupCount(self.c_desc, &groups))
        pads, strides, dil, mode = getConvolutionNdDescriptor(self, dims)
        return (f"ConvolutionDescriptor({ConvolutionMode(mode).name}, pads={pads}, strides={strides}, "
                f"dilations={dil}, groups={groups})")


class ConvAlgoPerf:
    """One result of a legacy Find: the algorithm (under the name of each direction), its
    time in ms and the workspace it needs in bytes.  C: miopenConvAlgoPerf_t"""
    __slots__ = ("fwd_algo", "bwd_weights_algo", "bwd_data_algo", "time", "memory")

    def __init__(self, algo, time, memory):
        self.fwd_algo = ConvFwdAlgorithm(algo)
        self.bwd_data_algo = ConvBwdDataAlgorithm(algo)
        self.bwd_weights_algo = ConvBwdWeightsAlgorithm(algo) if algo != 2 else algo
        self.time = time
        self.memory = memory

    def __repr__(self):
        return (f"ConvAlgoPerf(algo={ConvAlgorithm(int(self.fwd_algo)).name}, time={self.time:.4g} ms, "
                f"memory={self.memory})")


cdef miopenConvolutionDescriptor_t c_conv(ConvolutionDescriptor desc, str name) except? NULL:
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


def createConvolutionDescriptor():
    """A new convolution descriptor (2-d, zero pads, unit strides).  C: miopenCreateConvolutionDescriptor"""
    return ConvolutionDescriptor()


def destroyConvolutionDescriptor(ConvolutionDescriptor convDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyConvolutionDescriptor"""
    cdef miopenConvolutionDescriptor_t d = c_conv(convDesc, "convDesc")
    convDesc.c_desc = NULL
    check_status(miopenDestroyConvolutionDescriptor(d))


def initConvolutionDescriptor(ConvolutionDescriptor convDesc, c_mode, pad_h, pad_w, stride_h,
                              stride_w, dilation_h, dilation_w):
    """Sets a 2-d convolution.  C: miopenInitConvolutionDescriptor"""
    check_status(miopenInitConvolutionDescriptor(
        c_conv(convDesc, "convDesc"), <miopenConvolutionMode_t>c_int(c_mode, "c_mode"),
        c_int(pad_h, "pad_h"), c_int(pad_w, "pad_w"), c_int(stride_h, "stride_h"),
        c_int(stride_w, "stride_w"), c_int(dilation_h, "dilation_h"), c_int(dilation_w, "dilation_w")))


def initConvolutionNdDescriptor(ConvolutionDescriptor convDesc, spatialDim, padA, strideA,
                                dilationA, c_mode):
    """Sets an N-d convolution (1 to 3 spatial dims).  C: miopenInitConvolutionNdDescriptor"""
    cdef int dims = c_int(spatialDim, "spatialDim")
    cdef vector[int] p, s, d
    if dims < 1 or dims > 3:
        check_status(miopenInitConvolutionNdDescriptor(c_conv(convDesc, "convDesc"), dims, NULL, NULL,
                                                       NULL, miopenConvolution))
    p = c_int_array(padA, dims, "padA", "spatialDim")
    s = c_int_array(strideA, dims, "strideA", "spatialDim")
    d = c_int_array(dilationA, dims, "dilationA", "spatialDim")
    check_status(miopenInitConvolutionNdDescriptor(
        c_conv(convDesc, "convDesc"), dims, p.data(), s.data(), d.data(),
        <miopenConvolutionMode_t>c_int(c_mode, "c_mode")))


def getConvolutionSpatialDim(ConvolutionDescriptor convDesc):
    """The number of spatial dims.  C: miopenGetConvolutionSpatialDim"""
    cdef int dims = 0
    check_status(miopenGetConvolutionSpatialDim(c_conv(convDesc, "convDesc"), &dims))
    return dims


def getConvolutionDescriptor(ConvolutionDescriptor convDesc):
    """(c_mode, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w) of a 2-d convolution.
    C: miopenGetConvolutionDescriptor"""
    cdef miopenConvolutionMode_t mode = miopenConvolution
    cdef int ph = 0, pw = 0, sh = 0, sw = 0, dh = 0, dw = 0
    check_status(miopenGetConvolutionDescriptor(c_conv(convDesc, "convDesc"), &mode, &ph, &pw, &sh,
                                                &sw, &dh, &dw))
    return (ConvolutionMode(mode), ph, pw, sh, sw, dh, dw)


def getConvolutionNdDescriptor(ConvolutionDescriptor convDesc, requestedSpatialDim):
    """(padA, strideA, dilationA, c_mode); the arrays' length is the returned spatialDim.
    C: miopenGetConvolutionNdDescriptor"""
    cdef int req = c_int(requestedSpatialDim, "requestedSpatialDim")
    cdef int dims = 0
    cdef miopenConvolutionMode_t mode = miopenConvolution
    cdef vector[int] p = vector[int](max(min(req, C_MAX_DIMS), 1))
    cdef vector[int] s = vector[int](max(min(req, C_MAX_DIMS), 1))
    cdef vector[int] d = vector[int](max(min(req, C_MAX_DIMS), 1))
    check_status(miopenGetConvolutionNdDescriptor(c_conv(convDesc, "convDesc"), req, &dims, p.data(),
                                                  s.data(), d.data(), &mode))
    return (tuple(p)[:dims], tuple(s)[:dims], tuple(d)[:dims], ConvolutionMode(mode))


def getConvolutionGroupCount(ConvolutionDescriptor convDesc):
    """The group count.  C: miopenGetConvolutionGroupCount"""
    cdef int g = 0
    check_status(miopenGetConvolutionGroupCount(c_conv(convDesc, "convDesc"), &g))
    return g


def setConvolutionGroupCount(ConvolutionDescriptor convDesc, groupCount):
    """Sets the group count (groupCount = C for depthwise).  C: miopenSetConvolutionGroupCount"""
    check_status(miopenSetConvolutionGroupCount(c_conv(convDesc, "convDesc"),
                                                c_int(groupCount, "groupCount")))


def setTransposeConvOutputPadding(ConvolutionDescriptor convDesc, adj_h, adj_w):
    """Output padding of a 2-d transposed convolution.  C: miopenSetTransposeConvOutputPadding"""
    check_status(miopenSetTransposeConvOutputPadding(c_conv(convDesc, "convDesc"),
                                                     c_int(adj_h, "adj_h"), c_int(adj_w, "adj_w")))


def setTransposeConvNdOutputPadding(ConvolutionDescriptor convDesc, spatialDim, adjA):
    """Output padding of an N-d transposed convolution.  C: miopenSetTransposeConvNdOutputPadding"""
    cdef int dims = c_int(spatialDim, "spatialDim")
    cdef vector[int] a
    if dims < 1 or dims > 3:
        check_status(miopenSetTransposeConvNdOutputPadding(c_conv(convDesc, "convDesc"), dims, NULL))
    a = c_int_array(adjA, dims, "adjA", "spatialDim")
    check_status(miopenSetTransposeConvNdOutputPadding(c_conv(convDesc, "convDesc"), dims, a.data()))


def getConvolutionForwardOutputDim(ConvolutionDescriptor convDesc, TensorDescriptor inputTensorDesc,
                                   TensorDescriptor filterDesc):
    """(n, c, h, w) of the forward output of a 2-d convolution.
    C: miopenGetConvolutionForwardOutputDim"""
    cdef int n = 0, c = 0, h = 0, w = 0
    check_status(miopenGetConvolutionForwardOutputDim(
        c_conv(convDesc, "convDesc"), c_tensor(inputTensorDesc, "inputTensorDesc"),
        c_tensor(filterDesc, "filterDesc"), &n, &c, &h, &w))
    return (n, c, h, w)


def getConvolutionNdForwardOutputDim(ConvolutionDescriptor convDesc, TensorDescriptor inputTensorDesc,
                                     TensorDescriptor filterDesc):
    """The forward output's lengths, as a tuple (its length is nDim).
    C: miopenGetConvolutionNdForwardOutputDim"""
    cdef int ndim = 0
    cdef int dims[8]
    check_status(miopenGetConvolutionNdForwardOutputDim(
        c_conv(convDesc, "convDesc"), c_tensor(inputTensorDesc, "inputTensorDesc"),
        c_tensor(filterDesc, "filterDesc"), &ndim, dims))
    return tuple(dims[i] for i in range(ndim))


def setConvolutionAttribute(ConvolutionDescriptor convDesc, attr, value):
    """Sets an attribute (MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC: 1 restricts solvers to
    deterministic ones; MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL: -1, 0 or 1, MIOpen's choice of
    gfx90a's alternate fp16 MFMA rounding, overridden there by
    MIOPEN_DEBUG_CONVOLUTION_ATTRIB_FP16_ALT_IMPL; kept and read back, but it changes nothing
    here: every solver accumulates fp16/bf16 in fp32 and rounds once). A bad value is a
    BadParmError naming it.  C: miopenSetConvolutionAttribute"""
    check_status(miopenSetConvolutionAttribute(c_conv(convDesc, "convDesc"),
                                               <miopenConvolutionAttrib_t>c_int(attr, "attr"),
                                               c_int(value, "value")))


def getConvolutionAttribute(ConvolutionDescriptor convDesc, attr):
    """An attribute's value.  C: miopenGetConvolutionAttribute"""
    cdef int value = 0
    check_status(miopenGetConvolutionAttribute(c_conv(convDesc, "convDesc"),
                                               <miopenConvolutionAttrib_t>c_int(attr, "attr"), &value))
    return value


# ---- workspace queries -------------------------------------------------------------------------

def convolutionForwardGetWorkSpaceSize(Handle handle, TensorDescriptor wDesc, TensorDescriptor xDesc,
                                       ConvolutionDescriptor convDesc, TensorDescriptor yDesc):
    """Bytes of workspace the forward solvers may need (the largest).
    C: miopenConvolutionForwardGetWorkSpaceSize"""
    cdef size_t size = 0
    check_status(miopenConvolutionForwardGetWorkSpaceSize(
        c_handle(handle), c_tensor(wDesc, "wDesc"), c_tensor(xDesc, "xDesc"),
        c_conv(convDesc, "convDesc"), c_tensor(yDesc, "yDesc"), &size))
    return size


def convolutionBackwardDataGetWorkSpaceSize(Handle handle, TensorDescriptor dyDesc,
                                            TensorDescriptor wDesc, ConvolutionDescriptor convDesc,
                                            TensorDescriptor dxDesc):
    """Bytes of workspace the backward-data solvers may need (the largest).
    C: miopenConvolutionBackwardDataGetWorkSpaceSize"""
    cdef size_t size = 0
    check_status(miopenConvolutionBackwardDataGetWorkSpaceSize(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(wDesc, "wDesc"),
        c_conv(convDesc, "convDesc"), c_tensor(dxDesc, "dxDesc"), &size))
    return size


def convolutionBackwardWeightsGetWorkSpaceSize(Handle handle, TensorDescriptor dyDesc,
                                               TensorDescriptor xDesc, ConvolutionDescriptor convDesc,
                                               TensorDescriptor dwDesc):
    """Bytes of workspace the backward-weights solvers may need (the largest).
    C: miopenConvolutionBackwardWeightsGetWorkSpaceSize"""
    cdef size_t size = 0
    check_status(miopenConvolutionBackwardWeightsGetWorkSpaceSize(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(xDesc, "xDesc"),
        c_conv(convDesc, "convDesc"), c_tensor(dwDesc, "dwDesc"), &size))
    return size


# ---- Find ----------------------------------------------------------------------------------------

cdef list c_perf_list(miopenConvAlgoPerf_t* perf, int count):
    return [ConvAlgoPerf(<int>perf[i].fwd_algo, perf[i].time, perf[i].memory) for i in range(count)]


def findConvolutionForwardAlgorithm(Handle handle, TensorDescriptor xDesc, x, TensorDescriptor wDesc,
                                    w, ConvolutionDescriptor convDesc, TensorDescriptor yDesc, y,
                                    requestAlgoCount, workSpace, workSpaceSize, exhaustiveSearch):
    """Benchmarks the forward solvers on these buffers (y is overwritten) and returns the best
    per algorithm, fastest first: a list of at most requestAlgoCount ConvAlgoPerf.
    C: miopenFindConvolutionForwardAlgorithm"""
    api = "miopenFindConvolutionForwardAlgorithm"
    cdef miopenHandle_t h = c_handle(handle)
    cdef int request = c_int(requestAlgoCount, "requestAlgoCount")
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef miopenConvAlgoPerf_t perf[8]
    cdef int returned = 0
    cdef cbool exhaustive = True if exhaustiveSearch else False
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc"), wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenFindConvolutionForwardAlgorithm(h, xd, px, wd, pw, cd, yd, py,
                                                           min(request, 8), &returned, perf, pws,
                                                           ws_size, exhaustive))
    return c_perf_list(perf, returned)


def findConvolutionBackwardDataAlgorithm(Handle handle, TensorDescriptor dyDesc, dy,
                                         TensorDescriptor wDesc, w, ConvolutionDescriptor convDesc,
                                         TensorDescriptor dxDesc, dx, requestAlgoCount, workSpace,
                                         workSpaceSize, exhaustiveSearch):
    """Benchmarks the backward-data solvers (dx is overwritten); returns a list of ConvAlgoPerf.
    C: miopenFindConvolutionBackwardDataAlgorithm"""
    api = "miopenFindConvolutionBackwardDataAlgorithm"
    cdef miopenHandle_t h = c_handle(handle)
    cdef int request = c_int(requestAlgoCount, "requestAlgoCount")
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef miopenConvAlgoPerf_t perf[8]
    cdef int returned = 0
    cdef cbool exhaustive = True if exhaustiveSearch else False
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc"), wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenFindConvolutionBackwardDataAlgorithm(h, dyd, pdy, wd, pw, cd, dxd, pdx,
                                                                min(request, 8), &returned, perf, pws,
                                                                ws_size, exhaustive))
    return c_perf_list(perf, returned)


def findConvolutionBackwardWeightsAlgorithm(Handle handle, TensorDescriptor dyDesc, dy,
                                            TensorDescriptor xDesc, x, ConvolutionDescriptor convDesc,
                                            TensorDescriptor dwDesc, dw, requestAlgoCount, workSpace,
                                            workSpaceSize, exhaustiveSearch):
    """Benchmarks the backward-weights solvers (dw is overwritten); returns a list of ConvAlgoPerf.
    C: miopenFindConvolutionBackwardWeightsAlgorithm"""
    api = "miopenFindConvolutionBackwardWeightsAlgorithm"
    cdef miopenHandle_t h = c_handle(handle)
    cdef int request = c_int(requestAlgoCount, "requestAlgoCount")
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef miopenConvAlgoPerf_t perf[8]
    cdef int returned = 0
    cdef cbool exhaustive = True if exhaustiveSearch else False
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc"), xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dwd = c_tensor(dwDesc, "dwDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* pdw = c_data(dw, "dw", api, handle, dwDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenFindConvolutionBackwardWeightsAlgorithm(h, dyd, pdy, xd, px, cd, dwd, pdw,
                                                                   min(request, 8), &returned, perf,
                                                                   pws, ws_size, exhaustive))
    return c_perf_list(perf, returned)


# ---- run calls -------------------------------------------------------------------------------------

def convolutionForward(Handle handle, alpha, TensorDescriptor xDesc, x, TensorDescriptor wDesc, w,
                       ConvolutionDescriptor convDesc, algo, beta, TensorDescriptor yDesc, y,
                       workSpace, workSpaceSize):
    """y = alpha * conv(x, w) + beta * y with the best known solver of algo.
    C: miopenConvolutionForward"""
    api = "miopenConvolutionForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar sa, sb
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa = c_scalar_ptr(&sa, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&sb, beta, "beta", dt)
    cdef miopenConvFwdAlgorithm_t al = <miopenConvFwdAlgorithm_t>c_int(algo, "algo")
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc"), wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenConvolutionForward(h, pa, xd, px, wd, pw, cd, al, pb, yd, py, pws, ws_size))


def convolutionBackwardData(Handle handle, alpha, TensorDescriptor dyDesc, dy, TensorDescriptor wDesc,
                            w, ConvolutionDescriptor convDesc, algo, beta, TensorDescriptor dxDesc,
                            dx, workSpace, workSpaceSize):
    """dx = alpha * conv_bwd_data(dy, w) + beta * dx with the best known solver of algo.
    C: miopenConvolutionBackwardData"""
    api = "miopenConvolutionBackwardData"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar sa, sb
    cdef miopenDataType_t dt = c_dtype(dxDesc)
    cdef const void* pa = c_scalar_ptr(&sa, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&sb, beta, "beta", dt)
    cdef miopenConvBwdDataAlgorithm_t al = <miopenConvBwdDataAlgorithm_t>c_int(algo, "algo")
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc"), wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenConvolutionBackwardData(h, pa, dyd, pdy, wd, pw, cd, al, pb, dxd, pdx, pws,
                                                   ws_size))


def convolutionBackwardWeights(Handle handle, alpha, TensorDescriptor dyDesc, dy,
                               TensorDescriptor xDesc, x, ConvolutionDescriptor convDesc, algo, beta,
                               TensorDescriptor dwDesc, dw, workSpace, workSpaceSize):
    """dw = alpha * conv_bwd_weights(dy, x) + beta * dw with the best known solver of algo.
    C: miopenConvolutionBackwardWeights"""
    api = "miopenConvolutionBackwardWeights"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar sa, sb
    cdef miopenDataType_t dt = c_dtype(dwDesc)
    cdef const void* pa = c_scalar_ptr(&sa, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&sb, beta, "beta", dt)
    cdef miopenConvBwdWeightsAlgorithm_t al = <miopenConvBwdWeightsAlgorithm_t>c_int(algo, "algo")
    cdef size_t ws_size = c_size(workSpaceSize, "workSpaceSize")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc"), xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dwd = c_tensor(dwDesc, "dwDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* pdw = c_data(dw, "dw", api, handle, dwDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenConvolutionBackwardWeights(h, pa, dyd, pdy, xd, px, cd, al, pb, dwd, pdw,
                                                      pws, ws_size))
