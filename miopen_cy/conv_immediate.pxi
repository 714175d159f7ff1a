# Convolution immediate mode of miopen.h: list a problem's solutions, then compile and run one by
# its solution id, without benchmarking (miopenConvolution{Forward,BackwardData,BackwardWeights}
# GetSolutionCount / GetSolution / GetSolutionWorkspaceSize / CompileSolution / Immediate).


class ConvSolution:
    """One solution of immediate mode: its time in ms (find-db record, else the heuristic
    estimate), workspace bytes, solver id and algorithm.  C: miopenConvSolution_t"""
    __slots__ = ("time", "workspace_size", "solution_id", "algorithm")

    def __init__(self, time, workspace_size, solution_id, algorithm):
        self.time = time
        self.workspace_size = workspace_size
        self.solution_id = solution_id
        self.algorithm = ConvAlgorithm(algorithm)

    def __repr__(self):
        return (f"ConvSolution(solution_id={self.solution_id}, algorithm={self.algorithm.name}, "
                f"time={self.time:.4g} ms, workspace_size={self.workspace_size})")


# A bound on the solutions of one problem (every registered solver at most), so a huge requested
# count allocates no more than this.
cdef size_t C_MAX_SOLUTIONS = 1024


cdef uint64_t c_solution_id(object value, str name) except? 0:
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < 0 or i > 0xFFFFFFFFFFFFFFFF:
        raise OverflowError(f"{name} = {i} does not fit in a uint64_t")
    return i


cdef size_t c_count(object value, str name) except? 0:
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < 0:
        raise OverflowError(f"{name} = {i} is negative")
    return i


cdef list c_solution_list(miopenConvSolution_t* s, size_t n):
    return [ConvSolution(s[i].time, s[i].workspace_size, s[i].solution_id, <int>s[i].algorithm)
            for i in range(n)]


# ---- forward ---------------------------------------------------------------------------------------

def convolutionForwardGetSolutionCount(Handle handle, TensorDescriptor wDesc, TensorDescriptor xDesc,
                                       ConvolutionDescriptor convDesc, TensorDescriptor yDesc):
    """How many solutions (usable solvers) the forward problem has.
    C: miopenConvolutionForwardGetSolutionCount"""
    cdef size_t n = 0
    check_status(miopenConvolutionForwardGetSolutionCount(
        c_handle(handle), c_tensor(wDesc, "wDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(yDesc, "yDesc"), &n))
    return n


def convolutionForwardGetSolution(Handle handle, TensorDescriptor wDesc, TensorDescriptor xDesc,
                                  ConvolutionDescriptor convDesc, TensorDescriptor yDesc, maxSolutionCount):
    """The forward solutions, best first: a list of at most maxSolutionCount ConvSolution.
    C: miopenConvolutionForwardGetSolution"""
    cdef size_t cap = c_count(maxSolutionCount, "maxSolutionCount"), n = 0
    cdef vector[miopenConvSolution_t] out
    cap = min(cap, C_MAX_SOLUTIONS)       # more than any problem has
    out.resize(max(cap, 1))
    check_status(miopenConvolutionForwardGetSolution(
        c_handle(handle), c_tensor(wDesc, "wDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(yDesc, "yDesc"), cap, &n, out.data()))
    return c_solution_list(out.data(), n)


def convolutionForwardGetSolutionWorkspaceSize(Handle handle, TensorDescriptor wDesc, TensorDescriptor xDesc,
                                               ConvolutionDescriptor convDesc, TensorDescriptor yDesc,
                                               solution_id):
    """Workspace bytes the solution needs.  C: miopenConvolutionForwardGetSolutionWorkspaceSize"""
    cdef size_t size = 0
    check_status(miopenConvolutionForwardGetSolutionWorkspaceSize(
        c_handle(handle), c_tensor(wDesc, "wDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(yDesc, "yDesc"), c_solution_id(solution_id, "solution_id"), &size))
    return size


def convolutionForwardCompileSolution(Handle handle, TensorDescriptor wDesc, TensorDescriptor xDesc,
                                      ConvolutionDescriptor convDesc, TensorDescriptor yDesc, solution_id):
    """Prepares the solution for this problem (checks that it applies).
    C: miopenConvolutionForwardCompileSolution"""
    check_status(miopenConvolutionForwardCompileSolution(
        c_handle(handle), c_tensor(wDesc, "wDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(yDesc, "yDesc"), c_solution_id(solution_id, "solution_id")))


def convolutionForwardImmediate(Handle handle, TensorDescriptor wDesc, w, TensorDescriptor xDesc, x,
                                ConvolutionDescriptor convDesc, TensorDescriptor yDesc, y, workSpace,
                                workSpaceSize, solution_id):
    """y = conv(x, w) with the solver solution_id (y is overwritten).
    C: miopenConvolutionForwardImmediate"""
    api = "miopenConvolutionForwardImmediate"
    cdef miopenHandle_t h = c_handle(handle)
    cdef uint64_t sid = c_solution_id(solution_id, "solution_id")
    cdef size_t ws_size = _operator.index(workSpaceSize)
    cdef miopenTensorDescriptor_t wd = c_tensor(wDesc, "wDesc"), xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenConvolutionForwardImmediate(h, wd, pw, xd, px, cd, yd, py, pws, ws_size, sid))


# ---- backward data ---------------------------------------------------------------------------------

def convolutionBackwardDataGetSolutionCount(Handle handle, TensorDescriptor dyDesc, TensorDescriptor wDesc,
                                            ConvolutionDescriptor convDesc, TensorDescriptor dxDesc):
    """How many solutions the backward-data problem has.
    C: miopenConvolutionBackwardDataGetSolutionCount"""
    cdef size_t n = 0
    check_status(miopenConvolutionBackwardDataGetSolutionCount(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(wDesc, "wDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dxDesc, "dxDesc"), &n))
    return n


def convolutionBackwardDataGetSolution(Handle handle, TensorDescriptor dyDesc, TensorDescriptor wDesc,
                                       ConvolutionDescriptor convDesc, TensorDescriptor dxDesc,
                                       maxSolutionCount):
    """The backward-data solutions, best first (a list of ConvSolution).
    C: miopenConvolutionBackwardDataGetSolution"""
    cdef size_t cap = c_count(maxSolutionCount, "maxSolutionCount"), n = 0
    cdef vector[miopenConvSolution_t] out
    cap = min(cap, C_MAX_SOLUTIONS)       # more than any problem has
    out.resize(max(cap, 1))
    check_status(miopenConvolutionBackwardDataGetSolution(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(wDesc, "wDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dxDesc, "dxDesc"), cap, &n, out.data()))
    return c_solution_list(out.data(), n)


def convolutionBackwardDataGetSolutionWorkspaceSize(Handle handle, TensorDescriptor dyDesc,
                                                    TensorDescriptor wDesc, ConvolutionDescriptor convDesc,
                                                    TensorDescriptor dxDesc, solution_id):
    """Workspace bytes the solution needs.  C: miopenConvolutionBackwardDataGetSolutionWorkspaceSize"""
    cdef size_t size = 0
    check_status(miopenConvolutionBackwardDataGetSolutionWorkspaceSize(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(wDesc, "wDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dxDesc, "dxDesc"), c_solution_id(solution_id, "solution_id"), &size))
    return size


def convolutionBackwardDataCompileSolution(Handle handle, TensorDescriptor dyDesc, TensorDescriptor wDesc,
                                           ConvolutionDescriptor convDesc, TensorDescriptor dxDesc,
                                           solution_id):
    """Prepares the solution for this problem.  C: miopenConvolutionBackwardDataCompileSolution"""
    check_status(miopenConvolutionBackwardDataCompileSolution(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(wDesc, "wDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dxDesc, "dxDesc"), c_solution_id(solution_id, "solution_id")))


def convolutionBackwardDataImmediate(Handle handle, TensorDescriptor dyDesc, dy, TensorDescriptor wDesc, w,
                                     ConvolutionDescriptor convDesc, TensorDescriptor dxDesc, dx, workSpace,
                                     workSpaceSize, solution_id):
    """dx = conv_bwd_data(dy, w) with the solver solution_id (dx is overwritten).
    C: miopenConvolutionBackwardDataImmediate"""
    api = "miopenConvolutionBackwardDataImmediate"
    cdef miopenHandle_t h = c_handle(handle)
    cdef uint64_t sid = c_solution_id(solution_id, "solution_id")
    cdef size_t ws_size = _operator.index(workSpaceSize)
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc"), wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenConvolutionBackwardDataImmediate(h, dyd, pdy, wd, pw, cd, dxd, pdx, pws, ws_size,
                                                            sid))


# ---- backward weights ------------------------------------------------------------------------------

def convolutionBackwardWeightsGetSolutionCount(Handle handle, TensorDescriptor dyDesc, TensorDescriptor xDesc,
                                               ConvolutionDescriptor convDesc, TensorDescriptor dwDesc):
    """How many solutions the backward-weights problem has.
    C: miopenConvolutionBackwardWeightsGetSolutionCount"""
    cdef size_t n = 0
    check_status(miopenConvolutionBackwardWeightsGetSolutionCount(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dwDesc, "dwDesc"), &n))
    return n


def convolutionBackwardWeightsGetSolution(Handle handle, TensorDescriptor dyDesc, TensorDescriptor xDesc,
                                          ConvolutionDescriptor convDesc, TensorDescriptor dwDesc,
                                          maxSolutionCount):
    """The backward-weights solutions, best first (a list of ConvSolution).
    C: miopenConvolutionBackwardWeightsGetSolution"""
    cdef size_t cap = c_count(maxSolutionCount, "maxSolutionCount"), n = 0
    cdef vector[miopenConvSolution_t] out
    cap = min(cap, C_MAX_SOLUTIONS)       # more than any problem has
    out.resize(max(cap, 1))
    check_status(miopenConvolutionBackwardWeightsGetSolution(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dwDesc, "dwDesc"), cap, &n, out.data()))
    return c_solution_list(out.data(), n)


def convolutionBackwardWeightsGetSolutionWorkspaceSize(Handle handle, TensorDescriptor dyDesc,
                                                       TensorDescriptor xDesc, ConvolutionDescriptor convDesc,
                                                       TensorDescriptor dwDesc, solution_id):
    """Workspace bytes the solution needs.
    C: miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize"""
    cdef size_t size = 0
    check_status(miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dwDesc, "dwDesc"), c_solution_id(solution_id, "solution_id"), &size))
    return size


def convolutionBackwardWeightsCompileSolution(Handle handle, TensorDescriptor dyDesc, TensorDescriptor xDesc,
                                              ConvolutionDescriptor convDesc, TensorDescriptor dwDesc,
                                              solution_id):
    """Prepares the solution for this problem.  C: miopenConvolutionBackwardWeightsCompileSolution"""
    check_status(miopenConvolutionBackwardWeightsCompileSolution(
        c_handle(handle), c_tensor(dyDesc, "dyDesc"), c_tensor(xDesc, "xDesc"), c_conv(convDesc, "convDesc"),
        c_tensor(dwDesc, "dwDesc"), c_solution_id(solution_id, "solution_id")))


def convolutionBackwardWeightsImmediate(Handle handle, TensorDescriptor dyDesc, dy, TensorDescriptor xDesc, x,
                                        ConvolutionDescriptor convDesc, TensorDescriptor dwDesc, dw, workSpace,
                                        workSpaceSize, solution_id):
    """dw = conv_bwd_weights(dy, x) with the solver solution_id (dw is overwritten).
    C: miopenConvolutionBackwardWeightsImmediate"""
    api = "miopenConvolutionBackwardWeightsImmediate"
    cdef miopenHandle_t h = c_handle(handle)
    cdef uint64_t sid = c_solution_id(solution_id, "solution_id")
    cdef size_t ws_size = _operator.index(workSpaceSize)
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc"), xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dwd = c_tensor(dwDesc, "dwDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* pdw = c_data(dw, "dw", api, handle, dwDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenConvolutionBackwardWeightsImmediate(h, dyd, pdy, xd, px, cd, dwd, pdw, pws, ws_size,
                                                               sid))
