"""Type stubs of miopen_cy._mirror, the Cython mirror of miopen.h (one name per C function,
DESIGN.md's rule; parameters keep the C names and order). Kept in step with the module by
tools/gen_stubs.py; tests/api/test_stubs.py fails on a missing or mismatched name."""
import enum
from collections.abc import Sequence
from typing import Any, TypeAlias

# A data argument: a NumPy array, anything with __array_interface__, __cuda_array_interface__ or
# __dlpack__ (PyTorch tensors), a DLPack capsule, a DeviceBuffer, an int address, or None.
_Buffer: TypeAlias = Any


class Status(enum.IntEnum):
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


class DataType(enum.IntEnum):
    miopenHalf = 0
    miopenFloat = 1
    miopenInt32 = 2
    miopenInt8 = 3
    miopenBFloat16 = 5
    miopenDouble = 6


class TensorLayout(enum.IntEnum):
    miopenTensorNCHW = 0
    miopenTensorNHWC = 1
    miopenTensorCHWN = 2
    miopenTensorNCHWc4 = 3
    miopenTensorNCHWc8 = 4
    miopenTensorCHWNc4 = 5
    miopenTensorCHWNc8 = 6
    miopenTensorNCDHW = 7
    miopenTensorNDHWC = 8


class IndexType(enum.IntEnum):
    miopenIndexUint8 = 0
    miopenIndexUint16 = 1
    miopenIndexUint32 = 2
    miopenIndexUint64 = 3


class TensorOp(enum.IntEnum):
    miopenTensorOpAdd = 0
    miopenTensorOpMul = 1
    miopenTensorOpMin = 2
    miopenTensorOpMax = 3


class ConvolutionMode(enum.IntEnum):
    miopenConvolution = 0
    miopenTranspose = 1
    miopenGroupConv = 2
    miopenDepthwise = 3


class PaddingMode(enum.IntEnum):
    miopenPaddingDefault = 0
    miopenPaddingSame = 1
    miopenPaddingValid = 2


class PoolingMode(enum.IntEnum):
    miopenPoolingMax = 0
    miopenPoolingAverage = 1
    miopenPoolingAverageInclusive = 2


class PoolingWorkspaceIndexMode(enum.IntEnum):
    miopenPoolingWorkspaceIndexMask = 0
    miopenPoolingWorkspaceIndexImage = 1


class LRNMode(enum.IntEnum):
    miopenLRNWithinChannel = 0
    miopenLRNCrossChannel = 1


class BatchNormMode(enum.IntEnum):
    miopenBNPerActivation = 0
    miopenBNSpatial = 1


class ActivationMode(enum.IntEnum):
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


class SoftmaxAlgorithm(enum.IntEnum):
    MIOPEN_SOFTMAX_FAST = 0
    MIOPEN_SOFTMAX_ACCURATE = 1
    MIOPEN_SOFTMAX_LOG = 2


class SoftmaxMode(enum.IntEnum):
    MIOPEN_SOFTMAX_MODE_INSTANCE = 0
    MIOPEN_SOFTMAX_MODE_CHANNEL = 1


class ConvolutionAttrib(enum.IntEnum):
    MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL = 0
    MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1


class ConvFwdAlgorithm(enum.IntEnum):
    miopenConvolutionFwdAlgoGEMM = 0
    miopenConvolutionFwdAlgoDirect = 1
    miopenConvolutionFwdAlgoFFT = 2
    miopenConvolutionFwdAlgoWinograd = 3
    miopenConvolutionFwdAlgoImplicitGEMM = 5


class ConvBwdWeightsAlgorithm(enum.IntEnum):
    miopenConvolutionBwdWeightsAlgoGEMM = 0
    miopenConvolutionBwdWeightsAlgoDirect = 1
    miopenConvolutionBwdWeightsAlgoWinograd = 3
    miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5


class ConvBwdDataAlgorithm(enum.IntEnum):
    miopenConvolutionBwdDataAlgoGEMM = 0
    miopenConvolutionBwdDataAlgoDirect = 1
    miopenConvolutionBwdDataAlgoFFT = 2
    miopenConvolutionBwdDataAlgoWinograd = 3
    miopenTransposeBwdDataAlgoGEMM = 4
    miopenConvolutionBwdDataAlgoImplicitGEMM = 5


class ConvAlgorithm(enum.IntEnum):
    miopenConvolutionAlgoGEMM = 0
    miopenConvolutionAlgoDirect = 1
    miopenConvolutionAlgoFFT = 2
    miopenConvolutionAlgoWinograd = 3
    miopenConvolutionAlgoImplicitGEMM = 5


class ProblemDirection(enum.IntEnum):
    miopenProblemDirectionForward = 0
    miopenProblemDirectionBackward = 1
    miopenProblemDirectionBackwardWeights = 2


class TensorArgumentId(enum.IntEnum):
    miopenTensorArgumentIdInvalid = 0
    miopenTensorConvolutionX = 1
    miopenTensorConvolutionW = 2
    miopenTensorConvolutionY = 3


class FindResultsOrder(enum.IntEnum):
    miopenFindResultsOrderByTime = 0
    miopenFindResultsOrderByWorkspaceSize = 1


class MIOpenError(RuntimeError):
    status: Status
    api: str
    def __init__(self, status: int, api: str, message: str) -> None: ...


class NotInitializedError(MIOpenError): ...


class InvalidValueError(MIOpenError, ValueError): ...


class BadParmError(MIOpenError, ValueError): ...


class AllocFailedError(MIOpenError, MemoryError): ...


class InternalError(MIOpenError): ...


class MIOpenNotImplementedError(MIOpenError, NotImplementedError): ...


class UnknownError(MIOpenError): ...


class UnsupportedOpError(MIOpenError): ...


class GpuOperationsSkippedError(MIOpenError): ...


class VersionMismatchError(MIOpenError): ...


class PerformanceWarning(UserWarning): ...


ENUMS: tuple[type[enum.IntEnum], ...]


ERROR_CLASSES: dict[Status, type[MIOpenError]]


def c_raise(status: int, api: str, what: str) -> None: ...


class DeviceBuffer:
    @property
    def handle(self) -> Handle: ...
    @property
    def nbytes(self) -> int: ...
    def __init__(self, handle: Handle, nbytes: int) -> None: ...
    @property
    def ptr(self) -> Any: ...
    @property
    def __array_interface__(self) -> Any: ...
    @property
    def __cuda_array_interface__(self) -> Any: ...
    @staticmethod
    def from_numpy(handle: Handle, a: int) -> Any: ...
    def copy_from(self, a: int) -> Any: ...
    def to_numpy(self, shape: int, dtype: int) -> Any: ...
    def __dlpack_device__(self) -> Any: ...
    def __dlpack__(self, *, stream: int | None = ..., max_version: int | None = ..., dl_device: int | None = ..., copy: int | None = ...) -> Any: ...


class Handle:
    @property
    def device(self) -> str: ...
    def __init__(self, device: str | None = ...) -> None: ...


def getErrorString(error: int) -> str: ...


def getVersion() -> tuple[int, int, int]: ...


def create() -> Handle: ...


def createWithStream(stream: int | None) -> Handle: ...


def destroy(handle: Handle) -> None: ...


def setStream(handle: Handle, streamID: int | None) -> None: ...


def getStream(handle: Handle) -> int: ...


def setAllocator(handle: Handle, allocator: int | None, deallocator: int | None, allocatorContext: int | None) -> None: ...


def getKernelTime(handle: Handle) -> float: ...


def enableProfiling(handle: Handle, enable: bool) -> None: ...


def cyGetDeviceCount() -> int: ...


def cyDeviceAlloc(handle: Handle, sizeBytes: int) -> int: ...


def cyDeviceFree(handle: Handle, ptr: int | None) -> None: ...


def cyMemcpy(handle: Handle, dst: int | None, src: int | None, sizeBytes: int) -> None: ...


def cyStreamSynchronize(handle: Handle) -> None: ...


def cyStreamWait(handle: Handle, stream: int | None) -> None: ...


def cyGetPointerDevice(ptr: int | None) -> int: ...


class TensorDescriptor:
    def __init__(self) -> None: ...
    @property
    def dtype(self) -> Any: ...
    @property
    def shape(self) -> Any: ...
    @property
    def strides(self) -> Any: ...
    @property
    def layout(self) -> TensorLayout | None: ...


def createTensorDescriptor() -> TensorDescriptor: ...


def destroyTensorDescriptor(tensorDesc: TensorDescriptor) -> None: ...


def set4dTensorDescriptor(tensorDesc: TensorDescriptor, dataType: int, n: int, c: int, h: int, w: int) -> None: ...


def setNdTensorDescriptorWithLayout(tensorDesc: TensorDescriptor, dataType: int, tensorLayout: int, lens: Sequence[int], num_lens: int) -> None: ...


def set4dTensorDescriptorEx(tensorDesc: TensorDescriptor, dataType: int, n: int, c: int, h: int, w: int, nStride: int, cStride: int, hStride: int, wStride: int) -> None: ...


def get4dTensorDescriptor(tensorDesc: TensorDescriptor) -> tuple[DataType, int, int, int, int, int, int, int, int]: ...


def setTensorDescriptor(tensorDesc: TensorDescriptor, dataType: int, nbDims: int, dimsA: Sequence[int], stridesA: Sequence[int]) -> None: ...


def getTensorDescriptorSize(tensorDesc: TensorDescriptor) -> int: ...


def getTensorDescriptor(tensorDesc: TensorDescriptor) -> tuple[DataType, tuple[int, ...], tuple[int, ...]]: ...


def getTensorNumBytes(tensorDesc: TensorDescriptor) -> int: ...


def opTensor(handle: Handle, tensorOp: int, alpha1: float, aDesc: TensorDescriptor, A: _Buffer, alpha2: float, bDesc: TensorDescriptor, B: _Buffer, beta: float, cDesc: TensorDescriptor, C: _Buffer) -> None: ...


def setTensor(handle: Handle, yDesc: TensorDescriptor, y: _Buffer, alpha: float) -> None: ...


def scaleTensor(handle: Handle, yDesc: TensorDescriptor, y: _Buffer, alpha: float) -> None: ...


def transformTensor(handle: Handle, alpha: float, xDesc: TensorDescriptor, x: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer) -> None: ...


class ActivationDescriptor:
    def __init__(self) -> None: ...
    @property
    def mode(self) -> Any: ...
    @property
    def activAlpha(self) -> Any: ...
    @property
    def activBeta(self) -> Any: ...
    @property
    def activGamma(self) -> Any: ...


def createActivationDescriptor() -> ActivationDescriptor: ...


def setActivationDescriptor(activDesc: ActivationDescriptor, mode: int, activAlpha: float, activBeta: float, activGamma: float) -> None: ...


def getActivationDescriptor(activDesc: ActivationDescriptor) -> tuple[ActivationMode, float, float, float]: ...


def activationForward(handle: Handle, activDesc: ActivationDescriptor, alpha: float, xDesc: TensorDescriptor, x: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer) -> None: ...


def activationBackward(handle: Handle, activDesc: ActivationDescriptor, alpha: float, yDesc: TensorDescriptor, y: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, xDesc: TensorDescriptor, x: _Buffer, beta: float, dxDesc: TensorDescriptor, dx: _Buffer) -> None: ...


def destroyActivationDescriptor(activDesc: ActivationDescriptor) -> None: ...


def softmaxForward(handle: Handle, alpha: float, xDesc: TensorDescriptor, x: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer) -> None: ...


def softmaxBackward(handle: Handle, alpha: float, yDesc: TensorDescriptor, y: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, beta: float, dxDesc: TensorDescriptor, dx: _Buffer) -> None: ...


def softmaxForward_V2(handle: Handle, alpha: float, xDesc: TensorDescriptor, x: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer, algorithm: int, mode: int) -> None: ...


def softmaxBackward_V2(handle: Handle, alpha: float, yDesc: TensorDescriptor, y: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, beta: float, dxDesc: TensorDescriptor, dx: _Buffer, algorithm: int, mode: int) -> None: ...


class PoolingDescriptor:
    def __init__(self) -> None: ...
    @property
    def mode(self) -> Any: ...
    @property
    def window(self) -> Any: ...
    @property
    def pads(self) -> Any: ...
    @property
    def strides(self) -> Any: ...


def createPoolingDescriptor() -> PoolingDescriptor: ...


def destroyPoolingDescriptor(poolDesc: PoolingDescriptor) -> None: ...


def setPoolingIndexType(poolDesc: PoolingDescriptor, index_type: int) -> None: ...


def getPoolingIndexType(poolDesc: PoolingDescriptor) -> IndexType: ...


def setPoolingWorkSpaceIndexMode(poolDesc: PoolingDescriptor, workspace_index: int) -> None: ...


def getPoolingWorkSpaceIndexMode(poolDesc: PoolingDescriptor) -> PoolingWorkspaceIndexMode: ...


def set2dPoolingDescriptor(poolDesc: PoolingDescriptor, mode: int, windowHeight: int, windowWidth: int, pad_h: int, pad_w: int, stride_h: int, stride_w: int) -> None: ...


def get2dPoolingDescriptor(poolDesc: PoolingDescriptor) -> tuple[PoolingMode, int, int, int, int, int, int]: ...


def getPoolingForwardOutputDim(poolDesc: PoolingDescriptor, tensorDesc: TensorDescriptor) -> tuple[int, int, int, int]: ...


def setNdPoolingDescriptor(poolDesc: PoolingDescriptor, mode: int, nbDims: int, windowDimA: Sequence[int], padA: Sequence[int], stridesA: Sequence[int]) -> None: ...


def getNdPoolingDescriptor(poolDesc: PoolingDescriptor, nbDimsRequested: int) -> tuple[PoolingMode, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]: ...


def getPoolingNdForwardOutputDim(poolDesc: PoolingDescriptor, tensorDesc: TensorDescriptor, dims: int) -> tuple[int, ...]: ...


def poolingGetWorkSpaceSize(yDesc: TensorDescriptor) -> int: ...


def poolingGetWorkSpaceSizeV2(poolDesc: PoolingDescriptor, yDesc: TensorDescriptor) -> int: ...


def poolingForward(handle: Handle, poolDesc: PoolingDescriptor, alpha: float, xDesc: TensorDescriptor, x: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer, do_backward: bool, workSpace: _Buffer, workSpaceSize: int) -> None: ...


def poolingBackward(handle: Handle, poolDesc: PoolingDescriptor, alpha: float, yDesc: TensorDescriptor, y: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, xDesc: TensorDescriptor, x: _Buffer, beta: float, dxDesc: TensorDescriptor, dx: _Buffer, workSpace: _Buffer) -> None: ...


class LRNDescriptor:
    def __init__(self) -> None: ...
    @property
    def mode(self) -> Any: ...
    @property
    def lrnN(self) -> Any: ...
    @property
    def lrnAlpha(self) -> Any: ...
    @property
    def lrnBeta(self) -> Any: ...
    @property
    def lrnK(self) -> Any: ...


def createLRNDescriptor() -> LRNDescriptor: ...


def setLRNDescriptor(lrnDesc: LRNDescriptor, mode: int, lrnN: int, lrnAlpha: float, lrnBeta: float, lrnK: float) -> None: ...


def getLRNDescriptor(lrnDesc: LRNDescriptor) -> tuple[LRNMode, int, float, float, float]: ...


def LRNGetWorkSpaceSize(yDesc: TensorDescriptor) -> int: ...


def LRNForward(handle: Handle, lrnDesc: LRNDescriptor, alpha: float, xDesc: TensorDescriptor, x: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer, do_backward: bool, workSpace: _Buffer) -> None: ...


def LRNBackward(handle: Handle, lrnDesc: LRNDescriptor, alpha: float, yDesc: TensorDescriptor, y: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, xDesc: TensorDescriptor, x: _Buffer, beta: float, dxDesc: TensorDescriptor, dx: _Buffer, workSpace: _Buffer) -> None: ...


def destroyLRNDescriptor(lrnDesc: LRNDescriptor) -> None: ...


class ReduceTensorOp(enum.IntEnum):
    MIOPEN_REDUCE_TENSOR_ADD = 0
    MIOPEN_REDUCE_TENSOR_MUL = 1
    MIOPEN_REDUCE_TENSOR_MIN = 2
    MIOPEN_REDUCE_TENSOR_MAX = 3
    MIOPEN_REDUCE_TENSOR_AMAX = 4
    MIOPEN_REDUCE_TENSOR_AVG = 5
    MIOPEN_REDUCE_TENSOR_NORM1 = 6
    MIOPEN_REDUCE_TENSOR_NORM2 = 7


class NanPropagation(enum.IntEnum):
    MIOPEN_NOT_PROPAGATE_NAN = 0
    MIOPEN_PROPAGATE_NAN = 1


class ReduceTensorIndices(enum.IntEnum):
    MIOPEN_REDUCE_TENSOR_NO_INDICES = 0
    MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES = 1


class IndicesType(enum.IntEnum):
    MIOPEN_32BIT_INDICES = 0
    MIOPEN_64BIT_INDICES = 1
    MIOPEN_16BIT_INDICES = 2
    MIOPEN_8BIT_INDICES = 3


class ReduceTensorDescriptor:
    def __init__(self) -> None: ...
    @property
    def reduceTensorOp(self) -> ReduceTensorOp | None: ...
    @property
    def reduceTensorCompType(self) -> DataType | None: ...
    @property
    def reduceTensorNanOpt(self) -> NanPropagation | None: ...
    @property
    def reduceTensorIndices(self) -> ReduceTensorIndices | None: ...
    @property
    def reduceTensorIndicesType(self) -> IndicesType | None: ...


def createReduceTensorDescriptor() -> ReduceTensorDescriptor: ...


def setReduceTensorDescriptor(reduceTensorDesc: ReduceTensorDescriptor, reduceTensorOp: int, reduceTensorCompType: int, reduceTensorNanOpt: int, reduceTensorIndices: int, reduceTensorIndicesType: int) -> None: ...


def getReduceTensorDescriptor(reduceTensorDesc: ReduceTensorDescriptor) -> tuple[ReduceTensorOp, DataType, NanPropagation, ReduceTensorIndices, IndicesType]: ...


def getReductionIndicesSize(handle: Handle, reduceTensorDesc: ReduceTensorDescriptor, aDesc: TensorDescriptor, cDesc: TensorDescriptor) -> int: ...


def getReductionWorkspaceSize(handle: Handle, reduceTensorDesc: ReduceTensorDescriptor, aDesc: TensorDescriptor, cDesc: TensorDescriptor) -> int: ...


def reduceTensor(handle: Handle, reduceTensorDesc: ReduceTensorDescriptor, indices: _Buffer, indicesSizeInBytes: int, workspace: _Buffer, workspaceSizeInBytes: int, alpha: float, aDesc: TensorDescriptor, A: _Buffer, beta: float, cDesc: TensorDescriptor, C: _Buffer) -> None: ...


def destroyReduceTensorDescriptor(reduceTensorDesc: ReduceTensorDescriptor) -> None: ...


def deriveBNTensorDescriptor(derivedBnDesc: TensorDescriptor, xDesc: TensorDescriptor, bn_mode: int) -> None: ...


def batchNormalizationForwardTraining(handle: Handle, bn_mode: int, alpha: float, beta: float, xDesc: TensorDescriptor, x: _Buffer, yDesc: TensorDescriptor, y: _Buffer, bnScaleBiasMeanVarDesc: TensorDescriptor, bnScale: _Buffer, bnBias: _Buffer, expAvgFactor: float, resultRunningMean: _Buffer, resultRunningVariance: _Buffer, epsilon: float, resultSaveMean: _Buffer, resultSaveInvVariance: _Buffer) -> None: ...


def batchNormalizationForwardInference(handle: Handle, bn_mode: int, alpha: float, beta: float, xDesc: TensorDescriptor, x: _Buffer, yDesc: TensorDescriptor, y: _Buffer, bnScaleBiasMeanVarDesc: TensorDescriptor, bnScale: _Buffer, bnBias: _Buffer, estimatedMean: _Buffer, estimatedVariance: _Buffer, epsilon: float) -> None: ...


def batchNormalizationBackward(handle: Handle, bn_mode: int, alphaDataDiff: float, betaDataDiff: float, alphaParamDiff: float, betaParamDiff: float, xDesc: TensorDescriptor, x: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, dxDesc: TensorDescriptor, dx: _Buffer, bnScaleBiasDiffDesc: TensorDescriptor, bnScale: _Buffer, resultBnScaleDiff: _Buffer, resultBnBiasDiff: _Buffer, epsilon: float, savedMean: _Buffer, savedInvVariance: _Buffer) -> None: ...


def convolutionForwardBias(handle: Handle, alpha: float, bDesc: TensorDescriptor, b: _Buffer, beta: float, yDesc: TensorDescriptor, y: _Buffer) -> None: ...


def convolutionBackwardBias(handle: Handle, alpha: float, dyDesc: TensorDescriptor, dy: _Buffer, beta: float, dbDesc: TensorDescriptor, db: _Buffer) -> None: ...


class ConvolutionDescriptor:
    def __init__(self) -> None: ...


class ConvAlgoPerf:
    fwd_algo: Any
    bwd_data_algo: Any
    bwd_weights_algo: Any
    time: Any
    memory: Any
    def __init__(self, algo: int, time: float, memory: int) -> None: ...


def createConvolutionDescriptor() -> ConvolutionDescriptor: ...


def destroyConvolutionDescriptor(convDesc: ConvolutionDescriptor) -> None: ...


def initConvolutionDescriptor(convDesc: ConvolutionDescriptor, c_mode: int, pad_h: int, pad_w: int, stride_h: int, stride_w: int, dilation_h: int, dilation_w: int) -> None: ...


def initConvolutionNdDescriptor(convDesc: ConvolutionDescriptor, spatialDim: int, padA: Sequence[int], strideA: Sequence[int], dilationA: Sequence[int], c_mode: int) -> None: ...


def getConvolutionSpatialDim(convDesc: ConvolutionDescriptor) -> int: ...


def getConvolutionDescriptor(convDesc: ConvolutionDescriptor) -> tuple[ConvolutionMode, int, int, int, int, int, int]: ...


def getConvolutionNdDescriptor(convDesc: ConvolutionDescriptor, requestedSpatialDim: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], ConvolutionMode]: ...


def getConvolutionGroupCount(convDesc: ConvolutionDescriptor) -> int: ...


def setConvolutionGroupCount(convDesc: ConvolutionDescriptor, groupCount: int) -> None: ...


def setTransposeConvOutputPadding(convDesc: ConvolutionDescriptor, adj_h: int, adj_w: int) -> None: ...


def setTransposeConvNdOutputPadding(convDesc: ConvolutionDescriptor, spatialDim: int, adjA: Sequence[int]) -> None: ...


def getConvolutionForwardOutputDim(convDesc: ConvolutionDescriptor, inputTensorDesc: TensorDescriptor, filterDesc: TensorDescriptor) -> tuple[int, int, int, int]: ...


def getConvolutionNdForwardOutputDim(convDesc: ConvolutionDescriptor, inputTensorDesc: TensorDescriptor, filterDesc: TensorDescriptor) -> tuple[int, ...]: ...


def setConvolutionAttribute(convDesc: ConvolutionDescriptor, attr: int, value: float) -> None: ...


def getConvolutionAttribute(convDesc: ConvolutionDescriptor, attr: int) -> int: ...


def convolutionForwardGetWorkSpaceSize(handle: Handle, wDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor) -> int: ...


def convolutionBackwardDataGetWorkSpaceSize(handle: Handle, dyDesc: TensorDescriptor, wDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor) -> int: ...


def convolutionBackwardWeightsGetWorkSpaceSize(handle: Handle, dyDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor) -> int: ...


def findConvolutionForwardAlgorithm(handle: Handle, xDesc: TensorDescriptor, x: _Buffer, wDesc: TensorDescriptor, w: _Buffer, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor, y: _Buffer, requestAlgoCount: int, workSpace: _Buffer, workSpaceSize: int, exhaustiveSearch: bool) -> list[ConvAlgoPerf]: ...


def findConvolutionBackwardDataAlgorithm(handle: Handle, dyDesc: TensorDescriptor, dy: _Buffer, wDesc: TensorDescriptor, w: _Buffer, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor, dx: _Buffer, requestAlgoCount: int, workSpace: _Buffer, workSpaceSize: int, exhaustiveSearch: bool) -> list[ConvAlgoPerf]: ...


def findConvolutionBackwardWeightsAlgorithm(handle: Handle, dyDesc: TensorDescriptor, dy: _Buffer, xDesc: TensorDescriptor, x: _Buffer, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor, dw: _Buffer, requestAlgoCount: int, workSpace: _Buffer, workSpaceSize: int, exhaustiveSearch: bool) -> list[ConvAlgoPerf]: ...


def convolutionForward(handle: Handle, alpha: float, xDesc: TensorDescriptor, x: _Buffer, wDesc: TensorDescriptor, w: _Buffer, convDesc: ConvolutionDescriptor, algo: int, beta: float, yDesc: TensorDescriptor, y: _Buffer, workSpace: _Buffer, workSpaceSize: int) -> None: ...


def convolutionBackwardData(handle: Handle, alpha: float, dyDesc: TensorDescriptor, dy: _Buffer, wDesc: TensorDescriptor, w: _Buffer, convDesc: ConvolutionDescriptor, algo: int, beta: float, dxDesc: TensorDescriptor, dx: _Buffer, workSpace: _Buffer, workSpaceSize: int) -> None: ...


def convolutionBackwardWeights(handle: Handle, alpha: float, dyDesc: TensorDescriptor, dy: _Buffer, xDesc: TensorDescriptor, x: _Buffer, convDesc: ConvolutionDescriptor, algo: int, beta: float, dwDesc: TensorDescriptor, dw: _Buffer, workSpace: _Buffer, workSpaceSize: int) -> None: ...


class ConvSolution:
    time: Any
    workspace_size: Any
    solution_id: Any
    algorithm: Any
    def __init__(self, time: float, workspace_size: int, solution_id: int, algorithm: int) -> None: ...


def convolutionForwardGetSolutionCount(handle: Handle, wDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor) -> int: ...


def convolutionForwardGetSolution(handle: Handle, wDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor, maxSolutionCount: int) -> list[ConvSolution]: ...


def convolutionForwardGetSolutionWorkspaceSize(handle: Handle, wDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor, solution_id: int) -> int: ...


def convolutionForwardCompileSolution(handle: Handle, wDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor, solution_id: int) -> None: ...


def convolutionForwardImmediate(handle: Handle, wDesc: TensorDescriptor, w: _Buffer, xDesc: TensorDescriptor, x: _Buffer, convDesc: ConvolutionDescriptor, yDesc: TensorDescriptor, y: _Buffer, workSpace: _Buffer, workSpaceSize: int, solution_id: int) -> None: ...


def convolutionBackwardDataGetSolutionCount(handle: Handle, dyDesc: TensorDescriptor, wDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor) -> int: ...


def convolutionBackwardDataGetSolution(handle: Handle, dyDesc: TensorDescriptor, wDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor, maxSolutionCount: int) -> list[ConvSolution]: ...


def convolutionBackwardDataGetSolutionWorkspaceSize(handle: Handle, dyDesc: TensorDescriptor, wDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor, solution_id: int) -> int: ...


def convolutionBackwardDataCompileSolution(handle: Handle, dyDesc: TensorDescriptor, wDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor, solution_id: int) -> None: ...


def convolutionBackwardDataImmediate(handle: Handle, dyDesc: TensorDescriptor, dy: _Buffer, wDesc: TensorDescriptor, w: _Buffer, convDesc: ConvolutionDescriptor, dxDesc: TensorDescriptor, dx: _Buffer, workSpace: _Buffer, workSpaceSize: int, solution_id: int) -> None: ...


def convolutionBackwardWeightsGetSolutionCount(handle: Handle, dyDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor) -> int: ...


def convolutionBackwardWeightsGetSolution(handle: Handle, dyDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor, maxSolutionCount: int) -> list[ConvSolution]: ...


def convolutionBackwardWeightsGetSolutionWorkspaceSize(handle: Handle, dyDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor, solution_id: int) -> int: ...


def convolutionBackwardWeightsCompileSolution(handle: Handle, dyDesc: TensorDescriptor, xDesc: TensorDescriptor, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor, solution_id: int) -> None: ...


def convolutionBackwardWeightsImmediate(handle: Handle, dyDesc: TensorDescriptor, dy: _Buffer, xDesc: TensorDescriptor, x: _Buffer, convDesc: ConvolutionDescriptor, dwDesc: TensorDescriptor, dw: _Buffer, workSpace: _Buffer, workSpaceSize: int, solution_id: int) -> None: ...


class TensorArgument:
    id: Any
    descriptor: Any
    buffer: Any
    def __init__(self, id: int, descriptor: TensorDescriptor, buffer: _Buffer) -> None: ...
    def __iter__(self) -> Any: ...


class ConvProblem:
    def __init__(self, operatorDesc: ConvolutionDescriptor, direction: int) -> None: ...


class FindOptions:
    def __init__(self) -> None: ...


class Solution:
    def __init__(self) -> None: ...


def createConvProblem(operatorDesc: ConvolutionDescriptor, direction: int) -> ConvProblem: ...


def destroyProblem(problem: ConvProblem) -> None: ...


def setProblemTensorDescriptor(problem: ConvProblem, id: int, descriptor: TensorDescriptor) -> None: ...


def createFindOptions() -> FindOptions: ...


def destroyFindOptions(options: FindOptions) -> None: ...


def setFindOptionTuning(options: FindOptions, value: float) -> None: ...


def setFindOptionResultsOrder(options: FindOptions, value: float) -> None: ...


def setFindOptionWorkspaceLimit(options: FindOptions, value: float) -> None: ...


def setFindOptionPreallocatedWorkspace(options: FindOptions, buffer: _Buffer, size: int) -> None: ...


def setFindOptionPreallocatedTensor(options: FindOptions, id: int, buffer: _Buffer) -> None: ...


def findSolutions(handle: Handle, problem: ConvProblem, options: FindOptions, maxSolutions: int) -> list[Solution]: ...


def runSolution(handle: Handle, solution: Solution, nInputs: int, tensors: Sequence[TensorArgument], workspace: _Buffer, workspaceSize: int) -> None: ...


def destroySolution(solution: Solution) -> None: ...


def getSolutionSize(solution: Solution) -> int: ...


def saveSolution(solution: Solution) -> bytes: ...


def loadSolution(data: int, size: int) -> Solution: ...


def getSolutionTime(solution: Solution) -> float: ...


def getSolutionWorkspaceSize(solution: Solution) -> int: ...


def getSolutionSolverId(solution: Solution) -> int: ...


def getSolverIdConvAlgorithm(solverId: int) -> ConvAlgorithm: ...


def cySgemm(handle: Handle, transA: bool, transB: bool, sumBatch: bool, m: int, n: int, k: int, batch: int, A: _Buffer, lda: int, strideA: int, B: _Buffer, ldb: int, strideB: int, C: _Buffer, ldc: int, strideC: int) -> None: ...


def cyGetConfig() -> dict[str, str]: ...


def cyGetDbPaths(handle: Handle) -> tuple[str, str]: ...


# ---- batch norm's _V2 calls and the solver registry (miopenCyGetSolver*) ----

def batchNormalizationForwardTraining_V2(handle: Handle, bn_mode: int, alpha: float, beta: float, xDesc: TensorDescriptor, x: _Buffer, yDesc: TensorDescriptor, y: _Buffer, scaleDesc: TensorDescriptor, biasVarDesc: TensorDescriptor, savedMeanDesc: TensorDescriptor, savedVarDesc: TensorDescriptor, bnScale: _Buffer, bnBias: _Buffer, expAvgFactor: float, resultRunningMean: _Buffer, resultRunningVariance: _Buffer, epsilon: float, resultSaveMean: _Buffer, resultSaveInvVariance: _Buffer) -> None: ...

def batchNormalizationForwardInference_V2(handle: Handle, bn_mode: int, alpha: float, beta: float, xDesc: TensorDescriptor, x: _Buffer, yDesc: TensorDescriptor, y: _Buffer, scaleDesc: TensorDescriptor, biasDesc: TensorDescriptor, estMeanDesc: TensorDescriptor, estVarianceDesc: TensorDescriptor, bnScale: _Buffer, bnBias: _Buffer, estimatedMean: _Buffer, estimatedVariance: _Buffer, epsilon: float) -> None: ...

def batchNormalizationBackward_V2(handle: Handle, bn_mode: int, alphaDataDiff: float, betaDataDiff: float, alphaParamDiff: float, betaParamDiff: float, xDesc: TensorDescriptor, x: _Buffer, dyDesc: TensorDescriptor, dy: _Buffer, dxDesc: TensorDescriptor, dx: _Buffer, scaleDesc: TensorDescriptor, biasDesc: TensorDescriptor, savedMeanDesc: TensorDescriptor, savedVarDesc: TensorDescriptor, bnScale: _Buffer, resultBnScaleDiff: _Buffer, resultBnBiasDiff: _Buffer, epsilon: float, savedMean: _Buffer, savedInvVariance: _Buffer) -> None: ...

def cyGetSolverCount() -> int: ...

def cyGetSolverInfo(index: int) -> tuple[int, str, ConvAlgorithm, str]: ...

def cyGetSolverIdName(solverId: int) -> str: ...

def cyGetSolverApplicability(handle: Handle, problem: ConvProblem, solverId: int) -> tuple[bool, bool, int, str]: ...



# ---- fusion ----

class FusionDirection(enum.IntEnum):
    miopenVerticalFusion = 0
    miopenHorizontalFusion = 1


class FusionPlanDescriptor:
    def __init__(self, fuseDirection: int, inputDesc: TensorDescriptor) -> None: ...
    @property
    def ops(self) -> tuple[FusionOpDescriptor, ...]: ...


class FusionOpDescriptor:
    def __init__(self) -> None: ...
    @property
    def kind(self) -> str: ...


class OperatorArgs:
    def __init__(self) -> None: ...


def createFusionPlan(fuseDirection: int, inputDesc: TensorDescriptor) -> FusionPlanDescriptor: ...

def destroyFusionPlan(fusePlanDesc: FusionPlanDescriptor) -> None: ...

def compileFusionPlan(handle: Handle, fusePlanDesc: FusionPlanDescriptor) -> None: ...

def fusionPlanGetOp(fusePlanDesc: FusionPlanDescriptor, op_idx: int) -> FusionOpDescriptor: ...

def fusionPlanGetWorkSpaceSize(handle: Handle, fusePlanDesc: FusionPlanDescriptor, algo: int) -> int: ...

def fusionPlanConvolutionGetAlgo(fusePlanDesc: FusionPlanDescriptor, requestAlgoCount: int) -> list[ConvFwdAlgorithm]: ...

def fusionPlanConvolutionSetAlgo(fusePlanDesc: FusionPlanDescriptor, algo: int) -> None: ...

def createOpConvForward(fusePlanDesc: FusionPlanDescriptor, convDesc: ConvolutionDescriptor, wDesc: TensorDescriptor) -> FusionOpDescriptor: ...

def createOpActivationForward(fusePlanDesc: FusionPlanDescriptor, mode: int) -> FusionOpDescriptor: ...

def createOpActivationBackward(fusePlanDesc: FusionPlanDescriptor, mode: int) -> FusionOpDescriptor: ...

def createOpBiasForward(fusePlanDesc: FusionPlanDescriptor, bDesc: TensorDescriptor) -> FusionOpDescriptor: ...

def createOpBatchNormInference(fusePlanDesc: FusionPlanDescriptor, bn_mode: int, bnScaleBiasMeanVarDesc: TensorDescriptor) -> FusionOpDescriptor: ...

def createOpBatchNormForward(fusePlanDesc: FusionPlanDescriptor, bn_mode: int, runningMeanVariance: bool) -> FusionOpDescriptor: ...

def createOpBatchNormBackward(fusePlanDesc: FusionPlanDescriptor, bn_mode: int) -> FusionOpDescriptor: ...

def createOperatorArgs() -> OperatorArgs: ...

def destroyOperatorArgs(args: OperatorArgs) -> None: ...

def setOpArgsConvForward(args: OperatorArgs, convOp: FusionOpDescriptor, alpha: float, beta: float, w: _Buffer) -> None: ...

def setOpArgsActivForward(args: OperatorArgs, activFwdOp: FusionOpDescriptor, alpha: float, beta: float, activAlpha: float, activBeta: float, activGamma: float) -> None: ...

def setOpArgsActivBackward(args: OperatorArgs, activBwdOp: FusionOpDescriptor, alpha: float, beta: float, y: _Buffer, reserved: _Buffer, activAlpha: float, activBeta: float, activGamma: float) -> None: ...

def setOpArgsBatchNormInference(args: OperatorArgs, bnOp: FusionOpDescriptor, alpha: float, beta: float, bnScale: _Buffer, bnBias: _Buffer, estimatedMean: _Buffer, estimatedVariance: _Buffer, epsilon: float) -> None: ...

def setOpArgsBatchNormForward(args: OperatorArgs, bnOp: FusionOpDescriptor, alpha: float, beta: float, bnScale: _Buffer, bnBias: _Buffer, savedMean: _Buffer, savedInvVariance: _Buffer, runningMean: _Buffer, runningVariance: _Buffer, expAvgFactor: float, epsilon: float) -> None: ...

def setOpArgsBatchNormBackward(args: OperatorArgs, bnOp: FusionOpDescriptor, alpha: float, beta: float, x: _Buffer, bnScale: _Buffer, bnBias: _Buffer, resultBnScaleDiff: _Buffer, resultBnBiasDiff: _Buffer, savedMean: _Buffer, savedInvVariance: _Buffer) -> None: ...

def setOpArgsBiasForward(args: OperatorArgs, biasOp: FusionOpDescriptor, alpha: float, beta: float, bias: _Buffer) -> None: ...

def executeFusionPlan(handle: Handle, fusePlanDesc: FusionPlanDescriptor, inputDesc: TensorDescriptor, input: _Buffer, outputDesc: TensorDescriptor, output: _Buffer, args: OperatorArgs) -> None: ...

def convolutionBiasActivationForward(handle: Handle, alpha1: float, xDesc: TensorDescriptor, x: _Buffer, wDesc: TensorDescriptor, w: _Buffer, convDesc: ConvolutionDescriptor, algo: int, workspace: _Buffer, workspaceSizeInBytes: int, alpha2: float, zDesc: TensorDescriptor | None, z: _Buffer, biasDesc: TensorDescriptor, bias: _Buffer, activationDesc: ActivationDescriptor, yDesc: TensorDescriptor, y: _Buffer) -> None: ...



# ---- dropout ----

class RNGType(enum.IntEnum):
    MIOPEN_RNG_PSEUDO_XORWOW = 0

class DropoutDescriptor:
    def __init__(self) -> None: ...
    @property
    def dropout(self) -> float | None: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def use_mask(self) -> bool | None: ...
    @property
    def state_evo(self) -> bool | None: ...

def createDropoutDescriptor() -> DropoutDescriptor: ...

def dropoutGetReserveSpaceSize(xDesc: TensorDescriptor) -> int: ...

def dropoutGetStatesSize(handle: Handle) -> int: ...

def getDropoutDescriptor(dropoutDesc: DropoutDescriptor, handle: Handle) -> tuple[float, int, int, bool, bool, RNGType]: ...

def setDropoutDescriptor(dropoutDesc: DropoutDescriptor, handle: Handle, dropout: float, states: _Buffer, stateSizeInBytes: int, seed: int, use_mask: bool, state_evo: bool, rng_mode: int) -> None: ...

def restoreDropoutDescriptor(dropoutDesc: DropoutDescriptor, handle: Handle, dropout: float, states: _Buffer, stateSizeInBytes: int, seed: int, use_mask: bool, state_evo: bool, rng_mode: int) -> None: ...

def dropoutForward(handle: Handle, dropoutDesc: DropoutDescriptor, noise_shape: TensorDescriptor, xDesc: TensorDescriptor, x: _Buffer, yDesc: TensorDescriptor, y: _Buffer, reserveSpace: _Buffer, reserveSpaceSizeInBytes: int) -> None: ...

def dropoutBackward(handle: Handle, dropoutDesc: DropoutDescriptor, noise_shape: TensorDescriptor, dyDesc: TensorDescriptor, dy: _Buffer, dxDesc: TensorDescriptor, dx: _Buffer, reserveSpace: _Buffer, reserveSpaceSizeInBytes: int) -> None: ...

def destroyDropoutDescriptor(dropoutDesc: DropoutDescriptor) -> None: ...


# ---- RNN and sequence tensors (rnn.pxi) ----

class RNNMode(enum.IntEnum):
    miopenRNNRELU = 0
    miopenRNNTANH = 1
    miopenLSTM = 2
    miopenGRU = 3

class RNNInputMode(enum.IntEnum):
    miopenRNNlinear = 0
    miopenRNNskip = 1

class RNNAlgo(enum.IntEnum):
    miopenRNNdefault = 0
    miopenRNNfundamental = 1

class RNNDirectionMode(enum.IntEnum):
    miopenRNNunidirection = 0
    miopenRNNbidirection = 1

class RNNBiasMode(enum.IntEnum):
    miopenRNNNoBias = 0
    miopenRNNwithBias = 1

class RNNGEMMalgoMode(enum.IntEnum):
    miopenRNNAlgoGEMM = 0

class RNNPaddingMode(enum.IntEnum):
    miopenRNNIONotPadded = 0
    miopenRNNIOWithPadding = 1

class RNNFWDMode(enum.IntEnum):
    miopenRNNTraining = 0
    miopenRNNInference = 1

class RNNBaseLayout(enum.IntEnum):
    miopenRNNDataUnknownLayout = 0
    miopenRNNDataSeqMajorNotPadded = 1
    miopenRNNDataSeqMajorPadded = 2
    miopenRNNDataBatchMajorPadded = 3

class RNNDescriptor:
    def __init__(self) -> None: ...

class SeqTensorDescriptor:
    def __init__(self) -> None: ...

def createRNNDescriptor() -> RNNDescriptor: ...

def destroyRNNDescriptor(rnnDesc: RNNDescriptor) -> None: ...

def setRNNDescriptor(rnnDesc: RNNDescriptor, hsize: int, nlayers: int, inMode: int, direction: int, rnnMode: int, biasMode: int, algo: int, dataType: int) -> None: ...

def setRNNDescriptor_V2(rnnDesc: RNNDescriptor, hsize: int, nlayers: int, dropoutDesc: DropoutDescriptor, inMode: int, direction: int, rnnMode: int, biasMode: int, algo: int, dataType: int) -> None: ...

def getRNNDescriptor(rnnDesc: RNNDescriptor) -> tuple[RNNMode, RNNAlgo, RNNInputMode, RNNDirectionMode, RNNBiasMode, int, int]: ...

def getRNNDescriptor_V2(rnnDesc: RNNDescriptor) -> tuple[int, int, DropoutDescriptor | None, RNNInputMode, RNNDirectionMode, RNNMode, RNNBiasMode, RNNAlgo, DataType]: ...

def setRNNPaddingMode(rnnDesc: RNNDescriptor, paddingMode: int) -> None: ...

def getRNNPaddingMode(rnnDesc: RNNDescriptor) -> RNNPaddingMode: ...

def createSeqTensorDescriptor() -> SeqTensorDescriptor: ...

def destroySeqTensorDescriptor(tensorDesc: SeqTensorDescriptor) -> None: ...

def setRNNDataSeqTensorDescriptor(seqTensorDesc: SeqTensorDescriptor, dataType: int, layout: int, maxSequenceLen: int, batchSize: int, vectorSize: int, sequenceLenArray: Sequence[int], paddingMarker: float | None) -> None: ...

def getRNNDataSeqTensorDescriptor(seqTensorDesc: SeqTensorDescriptor, sequenceLenArrayLimit: int) -> tuple[DataType, RNNBaseLayout, int, int, int, list[int], float]: ...

def getRNNWorkspaceSize(handle: Handle, rnnDesc: RNNDescriptor, sequenceLen: int, xDesc: Sequence[TensorDescriptor]) -> int: ...

def getRNNTrainingReserveSize(handle: Handle, rnnDesc: RNNDescriptor, sequenceLen: int, xDesc: Sequence[TensorDescriptor]) -> int: ...

def getRNNTempSpaceSizes(handle: Handle, rnnDesc: RNNDescriptor, xDesc: SeqTensorDescriptor, fwdMode: int) -> tuple[int, int]: ...

def getRNNParamsSize(handle: Handle, rnnDesc: RNNDescriptor, xDesc: TensorDescriptor, dtype: int) -> int: ...

def getRNNParamsDescriptor(handle: Handle, rnnDesc: RNNDescriptor, xDesc: TensorDescriptor, wDesc: TensorDescriptor, dtype: int) -> None: ...

def getRNNInputTensorSize(handle: Handle, rnnDesc: RNNDescriptor, seqLen: int, xDesc: Sequence[TensorDescriptor]) -> int: ...

def getRNNHiddenTensorSize(handle: Handle, rnnDesc: RNNDescriptor, seqLen: int, xDesc: Sequence[TensorDescriptor]) -> int: ...

def getRNNLayerParamSize(handle: Handle, rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, paramID: int) -> int: ...

def getRNNLayerBiasSize(handle: Handle, rnnDesc: RNNDescriptor, layer: int, biasID: int) -> int: ...

def getRNNLayerParamOffset(rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, paramID: int, paramDesc: TensorDescriptor) -> int: ...

def getRNNLayerBiasOffset(rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, biasID: int, biasDesc: TensorDescriptor) -> int: ...

def getRNNLayerParam(handle: Handle, rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, wDesc: TensorDescriptor, w: _Buffer, paramID: int, paramDesc: TensorDescriptor, layerParam: _Buffer) -> None: ...

def getRNNLayerBias(handle: Handle, rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, wDesc: TensorDescriptor, w: _Buffer, biasID: int, biasDesc: TensorDescriptor, layerBias: _Buffer) -> None: ...

def setRNNLayerParam(handle: Handle, rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, wDesc: TensorDescriptor, w: _Buffer, paramID: int, paramDesc: TensorDescriptor, layerParam: _Buffer) -> None: ...

def setRNNLayerBias(handle: Handle, rnnDesc: RNNDescriptor, layer: int, xDesc: TensorDescriptor, wDesc: TensorDescriptor, w: _Buffer, biasID: int, biasDesc: TensorDescriptor, layerBias: _Buffer) -> None: ...

def RNNForwardTraining(handle: Handle, rnnDesc: RNNDescriptor, sequenceLen: int, xDesc: Sequence[TensorDescriptor], x: _Buffer, hxDesc: TensorDescriptor | None, hx: _Buffer, cxDesc: TensorDescriptor | None, cx: _Buffer, wDesc: TensorDescriptor, w: _Buffer, yDesc: Sequence[TensorDescriptor], y: _Buffer, hyDesc: TensorDescriptor | None, hy: _Buffer, cyDesc: TensorDescriptor | None, cy: _Buffer, workSpace: _Buffer, workSpaceNumBytes: int, reserveSpace: _Buffer, reserveSpaceNumBytes: int) -> None: ...

def RNNForwardInference(handle: Handle, rnnDesc: RNNDescriptor, sequenceLen: int, xDesc: Sequence[TensorDescriptor], x: _Buffer, hxDesc: TensorDescriptor | None, hx: _Buffer, cxDesc: TensorDescriptor | None, cx: _Buffer, wDesc: TensorDescriptor, w: _Buffer, yDesc: Sequence[TensorDescriptor], y: _Buffer, hyDesc: TensorDescriptor | None, hy: _Buffer, cyDesc: TensorDescriptor | None, cy: _Buffer, workSpace: _Buffer, workSpaceNumBytes: int) -> None: ...

def RNNBackwardData(handle: Handle, rnnDesc: RNNDescriptor, sequenceLen: int, yDesc: Sequence[TensorDescriptor], y: _Buffer, dyDesc: Sequence[TensorDescriptor], dy: _Buffer, dhyDesc: TensorDescriptor | None, dhy: _Buffer, dcyDesc: TensorDescriptor | None, dcy: _Buffer, wDesc: TensorDescriptor, w: _Buffer, hxDesc: TensorDescriptor | None, hx: _Buffer, cxDesc: TensorDescriptor | None, cx: _Buffer, dxDesc: Sequence[TensorDescriptor], dx: _Buffer, dhxDesc: TensorDescriptor | None, dhx: _Buffer, dcxDesc: TensorDescriptor | None, dcx: _Buffer, workSpace: _Buffer, workSpaceNumBytes: int, reserveSpace: _Buffer, reserveSpaceNumBytes: int) -> None: ...

def RNNBackwardWeights(handle: Handle, rnnDesc: RNNDescriptor, sequenceLen: int, xDesc: Sequence[TensorDescriptor], x: _Buffer, hxDesc: TensorDescriptor | None, hx: _Buffer, yDesc: Sequence[TensorDescriptor], y: _Buffer, dwDesc: TensorDescriptor, dw: _Buffer, workSpace: _Buffer, workSpaceNumBytes: int, reserveSpace: _Buffer, reserveSpaceNumBytes: int) -> None: ...

def RNNForward(handle: Handle, rnnDesc: RNNDescriptor, fwdMode: int, xDesc: SeqTensorDescriptor, x: _Buffer, hDesc: TensorDescriptor | None, hx: _Buffer, hy: _Buffer, cDesc: TensorDescriptor | None, cx: _Buffer, cy: _Buffer, yDesc: SeqTensorDescriptor, y: _Buffer, w: _Buffer, weightSpaceSize: int, workSpace: _Buffer, workSpaceNumBytes: int, reserveSpace: _Buffer, reserveSpaceNumBytes: int) -> None: ...

def RNNBackwardSeqData(handle: Handle, rnnDesc: RNNDescriptor, yDesc: SeqTensorDescriptor, y: _Buffer, dy: _Buffer, hDesc: TensorDescriptor | None, hx: _Buffer, dhy: _Buffer, dhx: _Buffer, cDesc: TensorDescriptor | None, cx: _Buffer, dcy: _Buffer, dcx: _Buffer, xDesc: SeqTensorDescriptor, dx: _Buffer, w: _Buffer, weightSpaceSize: int, workSpace: _Buffer, workSpaceNumBytes: int, reserveSpace: _Buffer, reserveSpaceNumBytes: int) -> None: ...

def RNNBackwardWeightsSeqTensor(handle: Handle, rnnDesc: RNNDescriptor, xDesc: SeqTensorDescriptor, x: _Buffer, hDesc: TensorDescriptor | None, hx: _Buffer, yDesc: SeqTensorDescriptor, y: _Buffer, dw: _Buffer, weightSpaceSize: int, workSpace: _Buffer, workSpaceNumBytes: int, reserveSpace: _Buffer, reserveSpaceNumBytes: int) -> None: ...
# ---- CTC loss (ctc.pxi) ----

class CTCLossAlgo(enum.IntEnum):
    MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC = 0

class CTCLossDescriptor:
    def __init__(self) -> None: ...
    @property
    def dataType(self) -> DataType | None: ...
    @property
    def blank_label_id(self) -> int | None: ...
    @property
    def apply_softmax_layer(self) -> bool | None: ...

def createCTCLossDescriptor() -> CTCLossDescriptor: ...

def setCTCLossDescriptor(ctcLossDesc: CTCLossDescriptor, dataType: int, blank_label_id: int, apply_softmax_layer: bool) -> None: ...

def getCTCLossDescriptor(ctcLossDesc: CTCLossDescriptor) -> tuple[DataType, int, bool]: ...

def getCTCLossWorkspaceSize(handle: Handle, probsDesc: TensorDescriptor, gradientsDesc: TensorDescriptor, labels: Sequence[int], labelLengths: Sequence[int], inputLengths: Sequence[int], algo: int, ctcLossDesc: CTCLossDescriptor) -> int: ...

def CTCLoss(handle: Handle, probsDesc: TensorDescriptor, probs: _Buffer, labels: Sequence[int], labelLengths: Sequence[int], inputLengths: Sequence[int], losses: _Buffer, gradientsDesc: TensorDescriptor, gradients: _Buffer, algo: int, ctcLossDesc: CTCLossDescriptor, workSpace: _Buffer, workSpaceSize: int) -> None: ...

def destroyCTCLossDescriptor(ctcLossDesc: CTCLossDescriptor) -> None: ...
