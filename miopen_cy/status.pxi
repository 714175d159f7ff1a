# Status codes, enums and exceptions: miopenStatus_t -> MIOpenError subclasses.
import enum as _enum
import operator as _operator


class Status(_enum.IntEnum):
    """C: miopenStatus_t"""
    miopenStatusSuccess = 0
    miopenStatusNotInitialized = 1
    miopenStatusInvalidValue = 2
    miopenStatusBadParm = 3
    miopenStatusAllocFailed = 4
    miopenStatusInternalError = 5
    miopenStatusNotImplemented = 6
    miopenStatusUnknownError = 7
    miopenStatusUnsupportedOp = 8
    miopenStatusGpuOperationsSkipped = 9
    miopenStatusVersionMismatch = 10


class DataType(_enum.IntEnum):
    """C: miopenDataType_t"""
    miopenHalf = 0
    miopenFloat = 1
    miopenInt32 = 2
    miopenInt8 = 3
    miopenBFloat16 = 5
    miopenDouble = 6


class TensorLayout(_enum.IntEnum):
    """C: miopenTensorLayout_t"""
    miopenTensorNCHW = 0
    miopenTensorNHWC = 1
    miopenTensorCHWN = 2
    miopenTensorNCHWc4 = 3
    miopenTensorNCHWc8 = 4
    miopenTensorCHWNc4 = 5
    miopenTensorCHWNc8 = 6
    miopenTensorNCDHW = 7
    miopenTensorNDHWC = 8


class IndexType(_enum.IntEnum):
    """C: miopenIndexType_t"""
    miopenIndexUint8 = 0
    miopenIndexUint16 = 1
    miopenIndexUint32 = 2
    miopenIndexUint64 = 3


class TensorOp(_enum.IntEnum):
    """C: miopenTensorOp_t"""
    miopenTensorOpAdd = 0
    miopenTensorOpMul = 1
    miopenTensorOpMin = 2
    miopenTensorOpMax = 3


class ConvolutionMode(_enum.IntEnum):
    """C: miopenConvolutionMode_t"""
    miopenConvolution = 0
    miopenTranspose = 1
    miopenGroupConv = 2
    miopenDepthwise = 3


class PaddingMode(_enum.IntEnum):
    """C: miopenPaddingMode_t"""
    miopenPaddingDefault = 0
    miopenPaddingSame = 1
    miopenPaddingValid = 2


class PoolingMode(_enum.IntEnum):
    """C: miopenPoolingMode_t"""
    miopenPoolingMax = 0
    miopenPoolingAverage = 1
    miopenPoolingAverageInclusive = 2


class PoolingWorkspaceIndexMode(_enum.IntEnum):
    """C: miopenPoolingWorkspaceIndexMode_t"""
    miopenPoolingWorkspaceIndexMask = 0
    miopenPoolingWorkspaceIndexImage = 1


class LRNMode(_enum.IntEnum):
    """C: miopenLRNMode_t"""
    miopenLRNWithinChannel = 0
    miopenLRNCrossChannel = 1


class BatchNormMode(_enum.IntEnum):
    """C: miopenBatchNormMode_t"""
    miopenBNPerActivation = 0
    miopenBNSpatial = 1


class ActivationMode(_enum.IntEnum):
    """C: miopenActivationMode_t"""
    miopenActivationPASTHRU = 0
    miopenActivationLOGISTIC = 1
    miopenActivationTANH = 2
    miopenActivationRELU = 3
    miopenActivationSOFTRELU = 4
    miopenActivationABS = 5
    miopenActivationPOWER = 6
    miopenActivationCLIPPEDRELU = 7
    miopenActivationLEAKYRELU = 8
    miopenActivationELU = 9


class SoftmaxAlgorithm(_enum.IntEnum):
    """C: miopenSoftmaxAlgorithm_t"""
    MIOPEN_SOFTMAX_FAST = 0
    MIOPEN_SOFTMAX_ACCURATE = 1
    MIOPEN_SOFTMAX_LOG = 2


class SoftmaxMode(_enum.IntEnum):
    """C: miopenSoftmaxMode_t"""
    MIOPEN_SOFTMAX_MODE_INSTANCE = 0
    MIOPEN_SOFTMAX_MODE_CHANNEL = 1


class ConvolutionAttrib(_enum.IntEnum):
    """C: miopenConvolutionAttrib_t"""
    MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL = 0
    MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1


class ConvFwdAlgorithm(_enum.IntEnum):
    """C: miopenConvFwdAlgorithm_t"""
    miopenConvolutionFwdAlgoGEMM = 0
    miopenConvolutionFwdAlgoDirect = 1
    miopenConvolutionFwdAlgoFFT = 2
    miopenConvolutionFwdAlgoWinograd = 3
    miopenConvolutionFwdAlgoImplicitGEMM = 5


class ConvBwdWeightsAlgorithm(_enum.IntEnum):
    """C: miopenConvBwdWeightsAlgorithm_t"""
    miopenConvolutionBwdWeightsAlgoGEMM = 0
    miopenConvolutionBwdWeightsAlgoDirect = 1
    miopenConvolutionBwdWeightsAlgoWinograd = 3
    miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5


class ConvBwdDataAlgorithm(_enum.IntEnum):
    """C: miopenConvBwdDataAlgorithm_t"""
    miopenConvolutionBwdDataAlgoGEMM = 0
    miopenConvolutionBwdDataAlgoDirect = 1
    miopenConvolutionBwdDataAlgoFFT = 2
    miopenConvolutionBwdDataAlgoWinograd = 3
    miopenTransposeBwdDataAlgoGEMM = 4
    miopenConvolutionBwdDataAlgoImplicitGEMM = 5


class ConvAlgorithm(_enum.IntEnum):
    """C: miopenConvAlgorithm_t"""
    miopenConvolutionAlgoGEMM = 0
    miopenConvolutionAlgoDirect = 1
    miopenConvolutionAlgoFFT = 2
    miopenConvolutionAlgoWinograd = 3
    miopenConvolutionAlgoImplicitGEMM = 5


ENUMS = (Status, DataType, TensorLayout, IndexType, TensorOp, ConvolutionMode, PaddingMode,
         PoolingMode, PoolingWorkspaceIndexMode, LRNMode, BatchNormMode, ActivationMode,
         SoftmaxAlgorithm, SoftmaxMode, ConvolutionAttrib, ConvFwdAlgorithm, ConvBwdWeightsAlgorithm,
         ConvBwdDataAlgorithm, ConvAlgorithm)


class MIOpenError(RuntimeError):
    """A MIOpen call returned a status other than miopenStatusSuccess.

    .status is the Status member, .api the C function that failed; str() is
    'miopenXxx: miopenStatusBadParm: what was wrong'."""

    def __init__(self, status, api, message):
        super().__init__(message)
        self.status = Status(status)
        self.api = api

    def __reduce__(self):
        return (_make_error, (int(self.status), self.api, str(self)))


class NotInitializedError(MIOpenError):
    """miopenStatusNotInitialized"""


class InvalidValueError(MIOpenError, ValueError):
    """miopenStatusInvalidValue"""


class BadParmError(MIOpenError, ValueError):
    """miopenStatusBadParm: a parameter is invalid (the message names it)."""


class AllocFailedError(MIOpenError, MemoryError):
    """miopenStatusAllocFailed"""


class InternalError(MIOpenError):
    """miopenStatusInternalError"""


class MIOpenNotImplementedError(MIOpenError, NotImplementedError):
    """miopenStatusNotImplemented: valid, but not implemented by this backend."""


class UnknownError(MIOpenError):
    """miopenStatusUnknownError"""


class UnsupportedOpError(MIOpenError):
    """miopenStatusUnsupportedOp"""


class GpuOperationsSkippedError(MIOpenError):
    """miopenStatusGpuOperationsSkipped"""


class VersionMismatchError(MIOpenError):
    """miopenStatusVersionMismatch"""


ERROR_CLASSES = {
    Status.miopenStatusNotInitialized: NotInitializedError,
    Status.miopenStatusInvalidValue: InvalidValueError,
    Status.miopenStatusBadParm: BadParmError,
    Status.miopenStatusAllocFailed: AllocFailedError,
    Status.miopenStatusInternalError: InternalError,
    Status.miopenStatusNotImplemented: MIOpenNotImplementedError,
    Status.miopenStatusUnknownError: UnknownError,
    Status.miopenStatusUnsupportedOp: UnsupportedOpError,
    Status.miopenStatusGpuOperationsSkipped: GpuOperationsSkippedError,
    Status.miopenStatusVersionMismatch: VersionMismatchError,
}


def _make_error(status, api, message):
    return ERROR_CLASSES.get(status, MIOpenError)(status, api, message)


def c_raise(status, str api, str what):
    """Raises the exception of `status` for a check made on the Python side of `api`."""
    raise _make_error(status, api, f"{api}: {Status(status).name}: {what}")


cdef int c_raise_last(miopenStatus_t status) except -1:
    message = miopenCyGetLastErrorMessage().decode("utf-8", "replace")
    api = message.split(":", 1)[0] if message else "miopen"
    if not message:
        message = f"{api}: {miopenGetErrorString(status).decode()}"
    raise _make_error(status, api, message)


# NumPy arrays staged to a GPU handle for the call in progress on this thread (buffers.pxi): the
# C call's check copies outputs back and frees the copies, so every op needs nothing more.
cdef extern from *:
    """
    static thread_local int miopen_cy_staged_pending = 0;
    """
    int miopen_cy_staged_pending


cdef inline int check_status(miopenStatus_t status) except -1 nogil:
    """Raises the MIOpenError of a failed call; takes the GIL only on failure (or to finish the
    NumPy arrays staged for a GPU call: copied back on success, dropped on failure)."""
    if status != miopenStatusSuccess:
        with gil:
            c_raise_staged(status)
    if miopen_cy_staged_pending:
        with gil:
            c_unstage(True)
    return 0


# ---- argument conversion: Python values to C, with errors that name the parameter ----------

cdef int c_int(object value, str name) except? -1:
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < INT32_MIN or i > INT32_MAX:
        raise OverflowError(f"{name} = {i} does not fit in a C int")
    return i


# The most dims a MIOpen descriptor has (kMaxTensorDims in hip/src/core/tensor.hpp): the Nd
# getters size their output arrays by it, never by a caller's (possibly huge) count.
cdef enum:
    C_MAX_DIMS = 8


cdef size_t c_size(object value, str name) except? <size_t>-1:
    """A byte count: an int in [0, SIZE_MAX], else TypeError / OverflowError naming `name`."""
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < 0 or i > <size_t>-1:
        raise OverflowError(f"{name} = {i} is not a size (0 to {<size_t>-1})")
    return i


cdef uintptr_t c_address(object value, str name) except? <uintptr_t>-1:
    """An address as an int (None is 0): TypeError / OverflowError naming `name`."""
    if value is None:
        return 0
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an address (an int), not {type(value).__name__}") from None
    if i < 0 or i > <uintptr_t>-1:
        raise OverflowError(f"{name} = {i} is not an address")
    return i


cdef double c_double(object value, str name) except? -1.0:
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a float, not {type(value).__name__}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a float, not {type(value).__name__}") from None


cdef vector[int] c_int_array(object values, int count, str name, str count_name) except *:
    cdef vector[int] out
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of ints, not {type(values).__name__}") from None
    if len(items) != count:
        raise ValueError(f"{name} has {len(items)} entries but {count_name} = {count}")
    for i, v in enumerate(items):
        out.push_back(c_int(v, f"{name}[{i}]"))
    return out


cdef struct c_scalar:
    float f
    double d


cdef const void* c_scalar_ptr(c_scalar* s, object value, str name, miopenDataType_t dtype) except? NULL:
    """A host scalar (alpha, beta) as MIOpen reads it: a double for miopenDouble tensors, else a float."""
    s.d = c_double(value, name)
    s.f = <float>s.d
    return <const void*>&s.d if dtype == miopenDouble else <const void*>&s.f
