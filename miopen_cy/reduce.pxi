# The tensor reduction group of miopen.h: the reduction descriptor, miopenGetReductionIndicesSize,
# miopenGetReductionWorkspaceSize and miopenReduceTensor (C = alpha * reduce(A) + beta * C over the
# dimensions where C has length 1).


class ReduceTensorOp(_enum.IntEnum):
    """C: miopenReduceTensorOp_t"""
    MIOPEN_REDUCE_TENSOR_ADD = 0
    MIOPEN_REDUCE_TENSOR_MUL = 1
    MIOPEN_REDUCE_TENSOR_MIN = 2
    MIOPEN_REDUCE_TENSOR_MAX = 3
    MIOPEN_REDUCE_TENSOR_AMAX = 4
    MIOPEN_REDUCE_TENSOR_AVG = 5
    MIOPEN_REDUCE_TENSOR_NORM1 = 6
    MIOPEN_REDUCE_TENSOR_NORM2 = 7


class NanPropagation(_enum.IntEnum):
    """C: miopenNanPropagation_t"""
    MIOPEN_NOT_PROPAGATE_NAN = 0
    MIOPEN_PROPAGATE_NAN = 1


class ReduceTensorIndices(_enum.IntEnum):
    """C: miopenReduceTensorIndices_t"""
    MIOPEN_REDUCE_TENSOR_NO_INDICES = 0
    MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES = 1


class IndicesType(_enum.IntEnum):
    """C: miopenIndicesType_t"""
    MIOPEN_32BIT_INDICES = 0
    MIOPEN_64BIT_INDICES = 1
    MIOPEN_16BIT_INDICES = 2
    MIOPEN_8BIT_INDICES = 3


ENUMS = ENUMS + (ReduceTensorOp, NanPropagation, ReduceTensorIndices, IndicesType)


cdef class ReduceTensorDescriptor:
    """A tensor reduction: operation, compType, NaN propagation, indices, index type.
    C: miopenCreateReduceTensorDescriptor"""
    cdef miopenReduceTensorDescriptor_t c_desc          # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateReduceTensorDescriptor(&self.c_desc))

    def __dealloc__(self):                     # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyReduceTensorDescriptor(self.c_desc)

    cdef tuple c_get(self):
        cdef miopenReduceTensorOp_t op = MIOPEN_REDUCE_TENSOR_ADD
        cdef miopenDataType_t comp = miopenFloat
        cdef miopenNanPropagation_t nan = MIOPEN_NOT_PROPAGATE_NAN
        cdef miopenReduceTensorIndices_t ind = MIOPEN_REDUCE_TENSOR_NO_INDICES
        cdef miopenIndicesType_t it = MIOPEN_32BIT_INDICES
        if self.c_desc is NULL or miopenGetReduceTensorDescriptor(
                self.c_desc, &op, &comp, &nan, &ind, &it) != miopenStatusSuccess:
            return None
        return (ReduceTensorOp(op), DataType(comp), NanPropagation(nan), ReduceTensorIndices(ind),
                IndicesType(it))

    @property
    def reduceTensorOp(self):
        """The ReduceTensorOp (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def reduceTensorCompType(self):
        """The accumulation DataType as set (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[1]

    @property
    def reduceTensorNanOpt(self):
        """The NanPropagation (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[2]

    @property
    def reduceTensorIndices(self):
        """The ReduceTensorIndices (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[3]

    @property
    def reduceTensorIndicesType(self):
        """The IndicesType (read-only; None while unset)."""
        got = self.c_get()
        return None if got is None else got[4]

    def __repr__(self):
        if self.c_desc is NULL:
            return "ReduceTensorDescriptor(destroyed)"
        got = self.c_get()
        if got is None:
            return "ReduceTensorDescriptor(unset)"
        return (f"ReduceTensorDescriptor({got[0].name}, {got[1].name}, {got[2].name}, "
                f"{got[3].name}, {got[4].name})")


cdef miopenReduceTensorDescriptor_t c_reduce(ReduceTensorDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


def createReduceTensorDescriptor():
    """A new, unset reduction descriptor.  C: miopenCreateReduceTensorDescriptor"""
    return ReduceTensorDescriptor()


def setReduceTensorDescriptor(ReduceTensorDescriptor reduceTensorDesc, reduceTensorOp,
                              reduceTensorCompType, reduceTensorNanOpt, reduceTensorIndices,
                              reduceTensorIndicesType):
    """Sets the operation, the accumulation type (fp64 when miopenDouble or the data are fp64 /
    int8 / int32, else fp32), NaN propagation, whether MIN / MAX / AMAX return indices, and their
    type (MIOPEN_32BIT_INDICES only with indices).  C: miopenSetReduceTensorDescriptor"""
    check_status(miopenSetReduceTensorDescriptor(
        c_reduce(reduceTensorDesc, "reduceTensorDesc"),
        <miopenReduceTensorOp_t>c_int(reduceTensorOp, "reduceTensorOp"),
        <miopenDataType_t>c_int(reduceTensorCompType, "reduceTensorCompType"),
        <miopenNanPropagation_t>c_int(reduceTensorNanOpt, "reduceTensorNanOpt"),
        <miopenReduceTensorIndices_t>c_int(reduceTensorIndices, "reduceTensorIndices"),
        <miopenIndicesType_t>c_int(reduceTensorIndicesType, "reduceTensorIndicesType")))


def getReduceTensorDescriptor(ReduceTensorDescriptor reduceTensorDesc):
    """(reduceTensorOp, reduceTensorCompType, reduceTensorNanOpt, reduceTensorIndices,
    reduceTensorIndicesType) of a set descriptor.  C: miopenGetReduceTensorDescriptor"""
    cdef miopenReduceTensorOp_t op = MIOPEN_REDUCE_TENSOR_ADD
    cdef miopenDataType_t comp = miopenFloat
    cdef miopenNanPropagation_t nan = MIOPEN_NOT_PROPAGATE_NAN
    cdef miopenReduceTensorIndices_t ind = MIOPEN_REDUCE_TENSOR_NO_INDICES
    cdef miopenIndicesType_t it = MIOPEN_32BIT_INDICES
    check_status(miopenGetReduceTensorDescriptor(
        c_reduce(reduceTensorDesc, "reduceTensorDesc"), &op, &comp, &nan, &ind, &it))
    return (ReduceTensorOp(op), DataType(comp), NanPropagation(nan), ReduceTensorIndices(ind),
            IndicesType(it))


def getReductionIndicesSize(Handle handle, ReduceTensorDescriptor reduceTensorDesc,
                            TensorDescriptor aDesc, TensorDescriptor cDesc):
    """Bytes of indices reduceTensor writes: numel(C) * 4 for MIN / MAX / AMAX with
    FLATTENED_INDICES, else 0.  C: miopenGetReductionIndicesSize"""
    cdef size_t n = 0
    check_status(miopenGetReductionIndicesSize(
        c_handle(handle), c_reduce(reduceTensorDesc, "reduceTensorDesc"),
        c_tensor(aDesc, "aDesc"), c_tensor(cDesc, "cDesc"), &n))
    return n


def getReductionWorkspaceSize(Handle handle, ReduceTensorDescriptor reduceTensorDesc,
                              TensorDescriptor aDesc, TensorDescriptor cDesc):
    """Bytes of workspace reduceTensor needs (0 when the reduction is not split).
    C: miopenGetReductionWorkspaceSize"""
    cdef size_t n = 0
    check_status(miopenGetReductionWorkspaceSize(
        c_handle(handle), c_reduce(reduceTensorDesc, "reduceTensorDesc"),
        c_tensor(aDesc, "aDesc"), c_tensor(cDesc, "cDesc"), &n))
    return n


def reduceTensor(Handle handle, ReduceTensorDescriptor reduceTensorDesc, indices,
                 indicesSizeInBytes, workspace, workspaceSizeInBytes, alpha,
                 TensorDescriptor aDesc, A, beta, TensorDescriptor cDesc, C):
    """C = alpha * reduce(A) + beta * C over the dimensions where cDesc has length 1; indices
    (int32, numel(C) of them, or None) receive the chosen elements' row-major indices within the
    reduced dimensions for MIN / MAX / AMAX with FLATTENED_INDICES. The buffers must hold the
    sizes given.  C: miopenReduceTensor"""
    api = "miopenReduceTensor"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(aDesc)
    cdef const void* pa = c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef const void* pb = c_scalar_ptr(&s2, beta, "beta", dt)
    cdef miopenReduceTensorDescriptor_t rd = c_reduce(reduceTensorDesc, "reduceTensorDesc")
    cdef size_t nind = c_size(indicesSizeInBytes, "indicesSizeInBytes")
    cdef size_t nws = c_size(workspaceSizeInBytes, "workspaceSizeInBytes")
    cdef miopenTensorDescriptor_t ad = c_tensor(aDesc, "aDesc")
    cdef miopenTensorDescriptor_t cd = c_tensor(cDesc, "cDesc")
    cdef const void* pA = c_data(A, "A", api, handle, aDesc, False)
    cdef void* pC = c_data(C, "C", api, handle, cDesc, True)
    cdef void* pi = c_workspace(indices, "indices", api, handle, nind, True)
    cdef void* pw = c_workspace(workspace, "workspace", api, handle, nws, True)
    with nogil:
        check_status(miopenReduceTensor(h, rd, pi, nind, pw, nws, pa, ad, pA, pb, cd, pC))


def destroyReduceTensorDescriptor(ReduceTensorDescriptor reduceTensorDesc not None):
    """Destroys the descriptor; using it afterwards raises.
    C: miopenDestroyReduceTensorDescriptor"""
    cdef miopenReduceTensorDescriptor_t d = c_reduce(reduceTensorDesc, "reduceTensorDesc")
    reduceTensorDesc.c_desc = NULL
    check_status(miopenDestroyReduceTensorDescriptor(d))
