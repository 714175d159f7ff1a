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

    def __cinit__(self):
        self.c_options = NULL
        self.c_keep = {}
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


cdef object _host_handle = None


cdef Handle c_buffer_handle(object buffer):
    """The handle a preallocated buffer is checked against: a DeviceBuffer's own, else the CPU."""
    global _host_handle
    if isinstance(buffer, DeviceBuffer):
        return (<DeviceBuffer>buffer).handle
    if _host_handle is None:
        _host_handle = Handle(device="cpu")
    return _host_handle


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
    cdef void* p = c_workspace(buffer, "buffer", api, c_buffer_handle(buffer), n, True)
    check_status(miopenSetFindOptionPreallocatedWorkspace(o, p, n))
    options.c_keep["workspace"] = buffer


def setFindOptionPreallocatedTensor(FindOptions options not None, id, buffer):
    """A buffer for one tensor role that miopenFindSolutions benchmarks with (it may be
    overwritten; kept alive by the options).  C: miopenSetFindOptionPreallocatedTensor"""
    api = "miopenSetFindOptionPreallocatedTensor"
    cdef miopenFindOptions_t o = c_options(options, "options")
    cdef int role = c_int(id, "id")
    cdef void* p = c_pointer(buffer, "buffer", api, c_buffer_handle(buffer), 0, -1, True)
    check_status(miopenSetFindOptionPreallocatedTensor(o, <miopenTensorArgumentId_t>role, p))
    options.c_keep[role] = buffer


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
                args[i].buffer = c_pointer(buf, f"tensors[{i}].buffer", api, handle, need, <int>dtype,
                                           True)
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
