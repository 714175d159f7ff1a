# Find 2.0 of miopen.h: problem objects, find options, miopenFindSolutions, solutions (run, save,
# load, getters). ConvProblem, FindOptions and Solution own their C objects.


class ProblemDirection(_enum.IntEnum):
    """C: miopenProblemDirection_t"""
    miopenProblemDirectionForward = 0
    miopenProblemDirectionBackward = 1
    miopenProblemDirectionBackwardWeights = 2


class TensorArgumentId(_enum.IntEnum):
    """C: miopenTensorArgumentId_t"""
    miopenTensorArgumentIdInvalid = 0
    miopenTensorConvolutionX = 1
    miopenTensorConvolutionW = 2
    miopenTensorConvolutionY = 3


class FindResultsOrder(_enum.IntEnum):
    """C: miopenFindResultsOrder_t"""
    miopenFindResultsOrderByTime = 0
    miopenFindResultsOrderByWorkspaceSize = 1


ENUMS = ENUMS + (ProblemDirection, TensorArgumentId, FindResultsOrder)


class TensorArgument:
    """One tensor of miopenRunSolution: its role, its descriptor (None: the problem's) and its
    buffer. A plain tuple (id, descriptor, buffer) works too.  C: miopenTensorArgument_t"""
    __slots__ = ("id", "descriptor", "buffer")

    def __init__(self, id, descriptor, buffer):
        self.id = id
        self.descriptor = descriptor
        self.buffer = buffer

    def __iter__(self):
        return iter((self.id, self.descriptor, self.buffer))

    def __repr__(self):
        return f"TensorArgument({self.id!r}, {self.descriptor!r}, {type(self.buffer).__name__})"


cdef class ConvProblem:
    """A convolution problem of Find 2.0: the convolution, the direction and the tensors by role.
    C: miopenCreateConvProblem"""
    cdef miopenProblem_t c_problem

    def __cinit__(self, ConvolutionDescriptor operatorDesc, direction):
        self.c_problem = NULL
        check_status(miopenCreateConvProblem(&self.c_problem, c_conv(operatorDesc, "operatorDesc"),
                                             <miopenProblemDirection_t>c_int(direction, "direction")))

    def __dealloc__(self):
        if self.c_problem is not NULL:
            miopenDestroyProblem(self.c_problem)

    def __repr__(self):
        return "ConvProblem(destroyed)" if self.c_problem is NULL else "ConvProblem()"


cdef miopenProblem_t c_problem(ConvProblem p, str name) except NULL:
    if p is None:
        raise TypeError(f"{name} must be a ConvProblem, not None")
    if p.c_problem is NULL:
        raise ValueError(f"{name} has been destroyed")
    return p.c_problem


cdef class FindOptions:
    """Options of miopenFindSolutions: tuning, results order, workspace limit, preallocated
    buffers (kept alive by the options).  C: miopenCreateFindOptions"""
    cdef miopenFindOptions_t c_options
    cdef dict c_keep
    cdef dict c_where            # key of c_keep -> the device its buffer lives on (None: unknown)

    def __cinit__(self):
        self.c_options = NULL
        self.c_keep = {}
        self.c_where = {}
        check_status(miopenCreateFindOptions(&self.c_options))

    def __dealloc__(self):
        if self.c_options is not NULL:
            miopenDestroyFindOptions(self.c_options)

    def __repr__(self):
        return "FindOptions(destroyed)" if self.c_options is NULL else "FindOptions()"


cdef miopenFindOptions_t c_options(FindOptions o, str name) except? NULL:
    if o is None:
        return NULL
    if o.c_options is NULL:
        raise ValueError(f"{name} has been destroyed")
    return o.c_options


cdef class Solution:
    """One solution found (or loaded) for a problem: a solver with its time and workspace.
    C: miopenSolution_t"""
    cdef miopenSolution_t c_solution

    def __cinit__(self):
        self.c_solution = NULL

    def __dealloc__(self):
        if self.c_solution is not NULL:
            miopenDestroySolution(self.c_solution)

    def __repr__(self):
        if self.c_solution is NULL:
            return "Solution(destroyed)"
        return (f"Solution(solver_id={getSolutionSolverId(self)}, time={getSolutionTime(self):.4g} ms, "
                f"workspace_size={getSolutionWorkspaceSize(self)})")


cdef miopenSolution_t c_solution(Solution s, str name) except NULL:
    if s is None:
        raise TypeError(f"{name} must be a Solution, not None")
    if s.c_solution is NULL:
        raise ValueError(f"{name} has been destroyed")
    return s.c_solution


cdef Solution c_wrap_solution(miopenSolution_t s):
    cdef Solution out = Solution.__new__(Solution)
    out.c_solution = s
    return out


cdef dict _buffer_handles = {}     # device name -> a Handle that checks buffers set on it


cdef Handle c_buffer_handle(object buffer, str name, str api):
    """The handle a preallocated buffer is checked against when it is set (find options know no
    handle yet): a DeviceBuffer's own; a GPU handle on the device of a GPU array (a PyTorch CUDA
    tensor, an object with __cuda_array_interface__ or a CUDA/ROCm DLPack); else the CPU's.
    c_check_option_buffers then checks it against the handle of miopenFindSolutions."""
    cdef int ordinal = -1
    cdef int dev = -1
    cdef miopen_cy_DLManagedTensor* m
    if isinstance(buffer, DeviceBuffer):
        return (<DeviceBuffer>buffer).handle
    torch = _sys.modules.get("torch")
    if torch is not None and isinstance(buffer, getattr(torch, "Tensor", ())):
        ordinal = buffer.get_device()                      # -1 for a CPU tensor
    elif PyCapsule_IsValid(buffer, b"dltensor"):
        m = <miopen_cy_DLManagedTensor*>PyCapsule_GetPointer(buffer, b"dltensor")
        if m.dl_tensor.device.device_type in (_DL_CUDA, _DL_ROCM):
            ordinal = m.dl_tensor.device.device_id
    elif not isinstance(buffer, int) and hasattr(buffer, "__cuda_array_interface__"):
        data = buffer.__cuda_array_interface__.get("data")
        ordinal = 0
        if isinstance(data, tuple) and data[0]:
            if miopenCyGetPointerDevice(<const void*><uintptr_t>data[0], &dev) == miopenStatusSuccess \
                    and dev >= 0:
                ordinal = dev
    elif not isinstance(buffer, int) and hasattr(buffer, "__dlpack_device__") \
            and not hasattr(buffer, "__array_interface__"):
        kind, dev = buffer.__dlpack_device__()
        if kind in (_DL_CUDA, _DL_ROCM):
            ordinal = dev
    where = "cpu" if ordinal < 0 else f"gpu:{ordinal}"
    h = _buffer_handles.get(where)
    if h is None:
        try:
            h = Handle(device=where)
        except MIOpenError as e:
            c_raise(miopenStatusBadParm, api, f"{name} lives on {where}, which this process cannot "
                    f"use: {e}")
        _buffer_handles[where] = h
    return h


cdef int c_keep_option_buffer(FindOptions options, object key, object buffer, Handle checked) except -1:
    options.c_keep[key] = buffer
    # A raw int address is used as given on any handle (as in C); anything else is checked.
    options.c_where[key] = None if isinstance(buffer, int) else checked.device
    return 0


cdef int c_check_option_buffers(FindOptions options, Handle handle) except -1:
    """The preallocated buffers of the options must live on the handle's device: a host array
    (NumPy) on a GPU handle would be used as a host pointer, a GPU array on a CPU handle as a
    host one. Checked before miopenFindSolutions runs (nothing is written when it fails); a GPU
    buffer is looked up again on the handle so that the handle's stream waits for its producer."""
    if options is None or options.c_options is NULL:
        return 0
    api = "miopenFindSolutions"
    for key, where in options.c_where.items():
        if key == "workspace":
            what, setter = "the preallocated workspace", "miopenSetFindOptionPreallocatedWorkspace"
        else:
            what = f"the preallocated {TensorArgumentId(key).name}"
            setter = "miopenSetFindOptionPreallocatedTensor"
        if where is None:
            continue
        if where != handle.device:
            hint = (" (a host array: pass a DeviceBuffer on the handle, a CuPy array or a PyTorch "
                    "CUDA tensor)" if where == "cpu" else "")
            c_raise(miopenStatusBadParm, api,
                    f"options: {what} ({setter}) lives on {where}{hint}, the handle on {handle.device}")
        if handle.c_gpu:
            c_pointer(options.c_keep[key], f"options: {what}", api, handle, 0, -1, True)
    return 0


# ---- problems --------------------------------------------------------------------------------------

def createConvProblem(ConvolutionDescriptor operatorDesc, direction):
    """A new convolution problem (a copy of operatorDesc).  C: miopenCreateConvProblem"""
    return ConvProblem(operatorDesc, direction)


def destroyProblem(ConvProblem problem not None):
    """Destroys the problem; using it afterwards raises.  C: miopenDestroyProblem"""
    cdef miopenProblem_t p = c_problem(problem, "problem")
    problem.c_problem = NULL
    check_status(miopenDestroyProblem(p))


def setProblemTensorDescriptor(ConvProblem problem, id, TensorDescriptor descriptor):
    """Sets (copies) the descriptor of one tensor role.  C: miopenSetProblemTensorDescriptor"""
    check_status(miopenSetProblemTensorDescriptor(c_problem(problem, "problem"),
                                                  <miopenTensorArgumentId_t>c_int(id, "id"),
                                                  c_tensor(descriptor, "descriptor")))


# ---- find options ----------------------------------------------------------------------------------

def createFindOptions():
    """New find options (no tuning, by time, no workspace limit).  C: miopenCreateFindOptions"""
    return FindOptions()


def destroyFindOptions(FindOptions options not None):
    """Destroys the options.  C: miopenDestroyFindOptions"""
    cdef miopenFindOptions_t o = c_options(options, "options")
    options.c_options = NULL
    options.c_keep = {}
    options.c_where = {}
    check_status(miopenDestroyFindOptions(o))


def setFindOptionTuning(FindOptions options not None, value):
    """Nonzero: exhaustive search.  C: miopenSetFindOptionTuning"""
    check_status(miopenSetFindOptionTuning(c_options(options, "options"), c_int(value, "value")))


def setFindOptionResultsOrder(FindOptions options not None, value):
    """By time or by workspace size.  C: miopenSetFindOptionResultsOrder"""
    check_status(miopenSetFindOptionResultsOrder(c_options(options, "options"),
                                                 <miopenFindResultsOrder_t>c_int(value, "value")))


def setFindOptionWorkspaceLimit(FindOptions options not None, value):
    """Solutions needing more workspace bytes are not returned.  C: miopenSetFindOptionWorkspaceLimit"""
    check_status(miopenSetFindOptionWorkspaceLimit(c_options(options, "options"), c_count(value, "value")))


def setFindOptionPreallocatedWorkspace(FindOptions options not None, buffer, size):
    """The workspace miopenFindSolutions benchmarks with (kept alive by the options).
    C: miopenSetFindOptionPreallocatedWorkspace"""
    api = "miopenSetFindOptionPreallocatedWorkspace"
    cdef miopenFindOptions_t o = c_options(options, "options")
    cdef size_t n = c_count(size, "size")
    cdef Handle checked = c_buffer_handle(buffer, "buffer", api)
    cdef void* p = c_workspace(buffer, "buffer", api, checked, n, True)
    check_status(miopenSetFindOptionPreallocatedWorkspace(o, p, n))
    c_keep_option_buffer(options, "workspace", buffer, checked)


def setFindOptionPreallocatedTensor(FindOptions options not None, id, buffer):
    """A buffer for one tensor role that miopenFindSolutions benchmarks with (it may be
    overwritten; kept alive by the options).  C: miopenSetFindOptionPreallocatedTensor"""
    api = "miopenSetFindOptionPreallocatedTensor"
    cdef miopenFindOptions_t o = c_options(options, "options")
    cdef int role = c_int(id, "id")
    cdef Handle checked = c_buffer_handle(buffer, "buffer", api)
    cdef void* p = c_pointer(buffer, "buffer", api, checked, 0, -1, True)
    check_status(miopenSetFindOptionPreallocatedTensor(o, <miopenTensorArgumentId_t>role, p))
    c_keep_option_buffer(options, role, buffer, checked)


# ---- find and run ----------------------------------------------------------------------------------

def findSolutions(Handle handle, ConvProblem problem, FindOptions options, maxSolutions):
    """Benchmarks the usable solvers of the problem (on preallocated or scratch buffers) and
    returns a list of at most maxSolutions Solution, ordered as the options say.
    C: miopenFindSolutions"""
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenProblem_t p = c_problem(problem, "problem")
    cdef miopenFindOptions_t o = c_options(options, "options")
    cdef size_t cap = c_count(maxSolutions, "maxSolutions"), n = 0
    cdef vector[miopenSolution_t] out
    cap = min(cap, C_MAX_SOLUTIONS)       # more than any problem has
    out.resize(max(cap, 1))
    c_check_option_buffers(options, handle)
    with nogil:
        check_status(miopenFindSolutions(h, p, o, out.data(), &n, cap))
    return [c_wrap_solution(out[i]) for i in range(n)]


def runSolution(Handle handle, Solution solution, nInputs, tensors, workspace, workspaceSize):
    """Runs the solution on the given tensors: a sequence of TensorArgument or (id, descriptor,
    buffer) tuples, descriptor None for the problem's.  C: miopenRunSolution"""
    api = "miopenRunSolution"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenSolution_t s = c_solution(solution, "solution")
    cdef size_t count = c_count(nInputs, "nInputs")
    cdef size_t ws_size = c_count(workspaceSize, "workspaceSize")
    cdef miopenDataType_t dtype = miopenFloat
    cdef size_t need = 0
    cdef int role
    items = [tuple(t) for t in tensors]
    if len(items) != count:
        raise ValueError(f"tensors has {len(items)} entries but nInputs = {count}")
    cdef vector[miopenTensorArgument_t] args
    cdef vector[miopenTensorDescriptor_t] descs
    args.resize(max(count, 1))
    descs.resize(max(count, 1))
    for i, item in enumerate(items):
        if len(item) != 3:
            raise ValueError(f"tensors[{i}] must be (id, descriptor, buffer)")
        tid, desc, buf = item
        role = c_int(tid, f"tensors[{i}].id")
        args[i].id = <miopenTensorArgumentId_t>role
        if desc is None:
            args[i].descriptor = NULL
            if miopenCyGetSolutionTensor(s, <miopenTensorArgumentId_t>role, &dtype, &need) == miopenStatusSuccess:
                # The problem's descriptor lets a strided (channels-last) array whose element
                # strides are its own through.
                pdesc = TensorDescriptor()
                if miopenCyGetSolutionTensorDescriptor(s, <miopenTensorArgumentId_t>role,
                                                       pdesc.c_desc) != miopenStatusSuccess:
                    pdesc = None
                args[i].buffer = c_pointer(buf, f"tensors[{i}].buffer", api, handle, need, <int>dtype,
                                           True, pdesc)
            else:
                args[i].buffer = c_pointer(buf, f"tensors[{i}].buffer", api, handle, 0, -1, True)
        else:
            if not isinstance(desc, TensorDescriptor):
                raise TypeError(f"tensors[{i}].descriptor must be a TensorDescriptor or None, "
                                f"not {type(desc).__name__}")
            descs[i] = c_tensor(desc, f"tensors[{i}].descriptor")
            args[i].descriptor = &descs[i]
            args[i].buffer = c_data(buf, f"tensors[{i}].buffer", api, handle, desc, True)
    cdef void* pws = c_workspace(workspace, "workspace", api, handle, ws_size, True)
    with nogil:
        check_status(miopenRunSolution(h, s, count, args.data(), pws, ws_size))


# ---- solutions -------------------------------------------------------------------------------------

def destroySolution(Solution solution not None):
    """Destroys the solution.  C: miopenDestroySolution"""
    cdef miopenSolution_t s = c_solution(solution, "solution")
    solution.c_solution = NULL
    check_status(miopenDestroySolution(s))


def getSolutionSize(Solution solution):
    """Bytes of the saved form.  C: miopenGetSolutionSize"""
    cdef size_t n = 0
    check_status(miopenGetSolutionSize(c_solution(solution, "solution"), &n))
    return n


def saveSolution(Solution solution):
    """The saved form (versioned, checksummed) as bytes.  C: miopenSaveSolution"""
    cdef miopenSolution_t s = c_solution(solution, "solution")
    cdef size_t n = 0
    check_status(miopenGetSolutionSize(s, &n))
    cdef bytearray data = bytearray(n)
    cdef char* p = data
    check_status(miopenSaveSolution(s, p))
    return bytes(data)


def loadSolution(data, size):
    """A solution from bytes written by saveSolution (size = len(data)); a damaged blob raises
    BadParmError.  C: miopenLoadSolution"""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    cdef size_t n = c_count(size, "size")
    if n != len(data):
        raise ValueError(f"data has {len(data)} bytes but size = {n}")
    cdef bytes b = bytes(data)
    cdef const char* p = b
    cdef miopenSolution_t s = NULL
    check_status(miopenLoadSolution(&s, p, n))
    return c_wrap_solution(s)


def getSolutionTime(Solution solution):
    """Measured (or estimated) time in ms.  C: miopenGetSolutionTime"""
    cdef float t = 0
    check_status(miopenGetSolutionTime(c_solution(solution, "solution"), &t))
    return t


def getSolutionWorkspaceSize(Solution solution):
    """Workspace bytes the solution needs.  C: miopenGetSolutionWorkspaceSize"""
    cdef size_t n = 0
    check_status(miopenGetSolutionWorkspaceSize(c_solution(solution, "solution"), &n))
    return n


def getSolutionSolverId(Solution solution):
    """The solver's id.  C: miopenGetSolutionSolverId"""
    cdef uint64_t v = 0
    check_status(miopenGetSolutionSolverId(c_solution(solution, "solution"), &v))
    return v


def getSolverIdConvAlgorithm(solverId):
    """The ConvAlgorithm a solver id belongs to.  C: miopenGetSolverIdConvAlgorithm"""
    cdef miopenConvAlgorithm_t a = miopenConvolutionAlgoGEMM
    check_status(miopenGetSolverIdConvAlgorithm(c_solution_id(solverId, "solverId"), &a))
    return ConvAlgorithm(<int>a)


def cyGetSolverCount():
    """Number of convolution solvers the library has.  C: miopenCyGetSolverCount"""
    cdef size_t n = 0
    check_status(miopenCyGetSolverCount(&n))
    return n


def cyGetSolverInfo(index):
    """Solver `index` of the registry (priority order): (solverId, name, algorithm, switchName),
    switchName being the environment variable that switches it off.  C: miopenCyGetSolverInfo"""
    i = _operator.index(index)
    if i < 0:
        raise OverflowError(f"index = {i} is negative")
    cdef uint64_t sid = 0
    cdef const char* name = NULL
    cdef const char* switch_name = NULL
    cdef miopenConvAlgorithm_t a = miopenConvolutionAlgoGEMM
    check_status(miopenCyGetSolverInfo(<size_t>i, &sid, &name, &a, &switch_name))
    return sid, name.decode(), ConvAlgorithm(<int>a), switch_name.decode()


def cyGetSolverIdName(solverId):
    """The name of the solver with this id.  C: miopenCyGetSolverIdName"""
    cdef const char* name = NULL
    check_status(miopenCyGetSolverIdName(c_solution_id(solverId, "solverId"), &name))
    return name.decode()


def cyGetSolverApplicability(Handle handle, ConvProblem problem, solverId):
    """One solver on a Find 2.0 problem on this handle: (switchedOn, applicable, workspaceSize,
    reason), reason "" when applicable.  C: miopenCyGetSolverApplicability"""
    cdef cbool on = False, ok = False
    cdef size_t ws = 0
    cdef const char* why = NULL
    check_status(miopenCyGetSolverApplicability(c_handle(handle), c_problem(problem, "problem"),
                                                c_solution_id(solverId, "solverId"), &on, &ok, &ws, &why))
    return bool(on), bool(ok), ws, why.decode()
