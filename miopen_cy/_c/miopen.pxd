# Declarations of hip/include/miopen/miopen.h, and nothing else.
from libcpp cimport bool as cbool
from libc.stdint cimport uint64_t, int64_t

cdef extern from "miopen/miopen.h" nogil:
    ctypedef void* miopenAcceleratorQueue_t
    cdef struct miopenHandle:
        pass
    ctypedef miopenHandle* miopenHandle_t
    cdef struct miopenTensorDescriptor:
        pass
    ctypedef miopenTensorDescriptor* miopenTensorDescriptor_t
    cdef struct miopenPoolingDescriptor:
        pass
    ctypedef miopenPoolingDescriptor* miopenPoolingDescriptor_t
    cdef struct miopenLRNDescriptor:
        pass
    ctypedef miopenLRNDescriptor* miopenLRNDescriptor_t
    cdef struct miopenActivationDescriptor:
        pass
    ctypedef miopenActivationDescriptor* miopenActivationDescriptor_t
    cdef struct miopenConvolutionDescriptor:
        pass
    ctypedef miopenConvolutionDescriptor* miopenConvolutionDescriptor_t

    ctypedef enum miopenStatus_t:
        miopenStatusSuccess
        miopenStatusNotInitialized
        miopenStatusInvalidValue
        miopenStatusBadParm
        miopenStatusAllocFailed
        miopenStatusInternalError
        miopenStatusNotImplemented
        miopenStatusUnknownError
        miopenStatusUnsupportedOp
        miopenStatusGpuOperationsSkipped
        miopenStatusVersionMismatch
    ctypedef enum miopenDataType_t:
        miopenHalf
        miopenFloat
        miopenInt32
        miopenInt8
        miopenBFloat16
        miopenDouble
    ctypedef enum miopenTensorLayout_t:
        miopenTensorNCHW
        miopenTensorNHWC
        miopenTensorCHWN
        miopenTensorNCHWc4
        miopenTensorNCHWc8
        miopenTensorCHWNc4
        miopenTensorCHWNc8
        miopenTensorNCDHW
        miopenTensorNDHWC
    ctypedef enum miopenIndexType_t:
        miopenIndexUint8
        miopenIndexUint16
        miopenIndexUint32
        miopenIndexUint64
    ctypedef enum miopenTensorOp_t:
        miopenTensorOpAdd
        miopenTensorOpMul
        miopenTensorOpMin
        miopenTensorOpMax
    ctypedef enum miopenConvolutionMode_t:
        miopenConvolution
        miopenTranspose
        miopenGroupConv
        miopenDepthwise
    ctypedef enum miopenPaddingMode_t:
        miopenPaddingDefault
        miopenPaddingSame
        miopenPaddingValid
    ctypedef enum miopenPoolingMode_t:
        miopenPoolingMax
        miopenPoolingAverage
        miopenPoolingAverageInclusive
    ctypedef enum miopenPoolingWorkspaceIndexMode_t:
        miopenPoolingWorkspaceIndexMask
        miopenPoolingWorkspaceIndexImage
    ctypedef enum miopenLRNMode_t:
        miopenLRNWithinChannel
        miopenLRNCrossChannel
    ctypedef enum miopenBatchNormMode_t:
        miopenBNPerActivation
        miopenBNSpatial
    ctypedef enum miopenActivationMode_t:
        miopenActivationPASTHRU
        miopenActivationLOGISTIC
        miopenActivationTANH
        miopenActivationRELU
        miopenActivationSOFTRELU
        miopenActivationABS
        miopenActivationPOWER
        miopenActivationCLIPPEDRELU
        miopenActivationLEAKYRELU
        miopenActivationELU
    ctypedef enum miopenSoftmaxAlgorithm_t:
        MIOPEN_SOFTMAX_FAST
        MIOPEN_SOFTMAX_ACCURATE
        MIOPEN_SOFTMAX_LOG
    ctypedef enum miopenSoftmaxMode_t:
        MIOPEN_SOFTMAX_MODE_INSTANCE
        MIOPEN_SOFTMAX_MODE_CHANNEL

    ctypedef enum miopenConvolutionAttrib_t:
        MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL
        MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC
    ctypedef enum miopenConvFwdAlgorithm_t:
        miopenConvolutionFwdAlgoGEMM
        miopenConvolutionFwdAlgoDirect
        miopenConvolutionFwdAlgoFFT
        miopenConvolutionFwdAlgoWinograd
        miopenConvolutionFwdAlgoImplicitGEMM
    ctypedef enum miopenConvBwdWeightsAlgorithm_t:
        miopenConvolutionBwdWeightsAlgoGEMM
        miopenConvolutionBwdWeightsAlgoDirect
        miopenConvolutionBwdWeightsAlgoWinograd
        miopenConvolutionBwdWeightsAlgoImplicitGEMM
    ctypedef enum miopenConvBwdDataAlgorithm_t:
        miopenConvolutionBwdDataAlgoGEMM
        miopenConvolutionBwdDataAlgoDirect
        miopenConvolutionBwdDataAlgoFFT
        miopenConvolutionBwdDataAlgoWinograd
        miopenTransposeBwdDataAlgoGEMM
        miopenConvolutionBwdDataAlgoImplicitGEMM
    ctypedef enum miopenConvAlgorithm_t:
        miopenConvolutionAlgoGEMM
        miopenConvolutionAlgoDirect
        miopenConvolutionAlgoFFT
        miopenConvolutionAlgoWinograd
        miopenConvolutionAlgoImplicitGEMM
    ctypedef struct miopenConvAlgoPerf_t:
        miopenConvFwdAlgorithm_t fwd_algo
        miopenConvBwdWeightsAlgorithm_t bwd_weights_algo
        miopenConvBwdDataAlgorithm_t bwd_data_algo
        float time
        size_t memory
    ctypedef struct miopenConvSolution_t:
        float time
        size_t workspace_size
        uint64_t solution_id
        miopenConvAlgorithm_t algorithm

    ctypedef void* (*miopenAllocatorFunction)(void* context, size_t sizeBytes)
    ctypedef void (*miopenDeallocatorFunction)(void* context, void* memory)

    const char* miopenGetErrorString(miopenStatus_t error)
    miopenStatus_t miopenGetVersion(size_t* major, size_t* minor, size_t* patch)
    miopenStatus_t miopenCreate(miopenHandle_t* handle)
    miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle, miopenAcceleratorQueue_t stream)
    miopenStatus_t miopenDestroy(miopenHandle_t handle)
    miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
    miopenStatus_t miopenGetStream(miopenHandle_t handle, miopenAcceleratorQueue_t* streamID)
    miopenStatus_t miopenSetAllocator(miopenHandle_t handle, miopenAllocatorFunction allocator,
                                      miopenDeallocatorFunction deallocator, void* allocatorContext)
    miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time)
    miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, cbool enable)

    miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc)
    miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType,
                                               int n, int c, int h, int w)
    miopenStatus_t miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t dataType,
                                                         miopenTensorLayout_t tensorLayout,
                                                         const int* lens, int num_lens)
    miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType,
                                                 int n, int c, int h, int w,
                                                 int nStride, int cStride, int hStride, int wStride)
    miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc, miopenDataType_t* dataType,
                                               int* n, int* c, int* h, int* w,
                                               int* nStride, int* cStride, int* hStride, int* wStride)
    miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType,
                                             int nbDims, const int* dimsA, const int* stridesA)
    miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc, int* size)
    miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc, miopenDataType_t* dataType,
                                             int* dimsA, int* stridesA)
    miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc)
    miopenStatus_t miopenOpTensor(miopenHandle_t handle, miopenTensorOp_t tensorOp,
                                  const void* alpha1, const miopenTensorDescriptor_t aDesc, const void* A,
                                  const void* alpha2, const miopenTensorDescriptor_t bDesc, const void* B,
                                  const void* beta, const miopenTensorDescriptor_t cDesc, void* C)
    miopenStatus_t miopenSetTensor(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc, void* y,
                                   const void* alpha)
    miopenStatus_t miopenScaleTensor(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc, void* y,
                                     const void* alpha)
    miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc, size_t* numBytes)
    miopenStatus_t miopenTransformTensor(miopenHandle_t handle, const void* alpha,
                                         const miopenTensorDescriptor_t xDesc, const void* x,
                                         const void* beta, const miopenTensorDescriptor_t yDesc, void* y)

    miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void* alpha,
                                                const miopenTensorDescriptor_t bDesc, const void* b,
                                                const void* beta, const miopenTensorDescriptor_t yDesc, void* y)
    miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle, const void* alpha,
                                                 const miopenTensorDescriptor_t dyDesc, const void* dy,
                                                 const void* beta, const miopenTensorDescriptor_t dbDesc, void* db)

    miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t* poolDesc)
    miopenStatus_t miopenSetPoolingIndexType(miopenPoolingDescriptor_t poolDesc, miopenIndexType_t index_type)
    miopenStatus_t miopenGetPoolingIndexType(miopenPoolingDescriptor_t poolDesc, miopenIndexType_t* index_type)
    miopenStatus_t miopenSetPoolingWorkSpaceIndexMode(miopenPoolingDescriptor_t poolDesc,
                                                      miopenPoolingWorkspaceIndexMode_t workspace_index)
    miopenStatus_t miopenGetPoolingWorkSpaceIndexMode(miopenPoolingDescriptor_t poolDesc,
                                                      miopenPoolingWorkspaceIndexMode_t* workspace_index)
    miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc, miopenPoolingMode_t mode,
                                                int windowHeight, int windowWidth, int pad_h, int pad_w,
                                                int stride_h, int stride_w)
    miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc, miopenPoolingMode_t* mode,
                                                int* windowHeight, int* windowWidth, int* pad_h, int* pad_w,
                                                int* stride_h, int* stride_w)
    miopenStatus_t miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                    const miopenTensorDescriptor_t tensorDesc,
                                                    int* n, int* c, int* h, int* w)
    miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc, const miopenPoolingMode_t mode,
                                                int nbDims, const int* windowDimA, const int* padA,
                                                const int* stridesA)
    miopenStatus_t miopenGetNdPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc, int nbDimsRequested,
                                                miopenPoolingMode_t* mode, int* nbDims, int* windowDimA,
                                                int* padA, int* stridesA)
    miopenStatus_t miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                      const miopenTensorDescriptor_t tensorDesc,
                                                      int dims, int* tensorDimArr)
    miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize)
    miopenStatus_t miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                                   const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize)
    miopenStatus_t miopenPoolingForward(miopenHandle_t handle, const miopenPoolingDescriptor_t poolDesc,
                                        const void* alpha, const miopenTensorDescriptor_t xDesc, const void* x,
                                        const void* beta, const miopenTensorDescriptor_t yDesc, void* y,
                                        cbool do_backward, void* workSpace, size_t workSpaceSize)
    miopenStatus_t miopenPoolingBackward(miopenHandle_t handle, const miopenPoolingDescriptor_t poolDesc,
                                         const void* alpha, const miopenTensorDescriptor_t yDesc, const void* y,
                                         const miopenTensorDescriptor_t dyDesc, const void* dy,
                                         const miopenTensorDescriptor_t xDesc, const void* x,
                                         const void* beta, const miopenTensorDescriptor_t dxDesc, void* dx,
                                         void* workSpace)
    miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc)

    miopenStatus_t miopenCreateLRNDescriptor(miopenLRNDescriptor_t* lrnDesc)
    miopenStatus_t miopenSetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc, miopenLRNMode_t mode,
                                          unsigned int lrnN, double lrnAlpha, double lrnBeta, double lrnK)
    miopenStatus_t miopenGetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc, miopenLRNMode_t* mode,
                                          unsigned int* lrnN, double* lrnAlpha, double* lrnBeta, double* lrnK)
    miopenStatus_t miopenLRNGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize)
    miopenStatus_t miopenLRNForward(miopenHandle_t handle, const miopenLRNDescriptor_t lrnDesc,
                                    const void* alpha, const miopenTensorDescriptor_t xDesc, const void* x,
                                    const void* beta, const miopenTensorDescriptor_t yDesc, void* y,
                                    cbool do_backward, void* workSpace)
    miopenStatus_t miopenLRNBackward(miopenHandle_t handle, const miopenLRNDescriptor_t lrnDesc,
                                     const void* alpha, const miopenTensorDescriptor_t yDesc, const void* y,
                                     const miopenTensorDescriptor_t dyDesc, const void* dy,
                                     const miopenTensorDescriptor_t xDesc, const void* x,
                                     const void* beta, const miopenTensorDescriptor_t dxDesc, void* dx,
                                     const void* workSpace)
    miopenStatus_t miopenDestroyLRNDescriptor(miopenLRNDescriptor_t lrnDesc)

    # tensor reduction (miopen_cy/reduce.pxi)
    cdef struct miopenReduceTensorDescriptor:
        pass
    ctypedef miopenReduceTensorDescriptor* miopenReduceTensorDescriptor_t
    ctypedef enum miopenReduceTensorOp_t:
        MIOPEN_REDUCE_TENSOR_ADD
    ctypedef enum miopenNanPropagation_t:
        MIOPEN_NOT_PROPAGATE_NAN
    ctypedef enum miopenReduceTensorIndices_t:
        MIOPEN_REDUCE_TENSOR_NO_INDICES
    ctypedef enum miopenIndicesType_t:
        MIOPEN_32BIT_INDICES
    miopenStatus_t miopenCreateReduceTensorDescriptor(miopenReduceTensorDescriptor_t* reduceTensorDesc)
    miopenStatus_t miopenDestroyReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc)
    miopenStatus_t miopenSetReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc,
                                                   miopenReduceTensorOp_t reduceTensorOp,
                                                   miopenDataType_t reduceTensorCompType,
                                                   miopenNanPropagation_t reduceTensorNanOpt,
                                                   miopenReduceTensorIndices_t reduceTensorIndices,
                                                   miopenIndicesType_t reduceTensorIndicesType)
    miopenStatus_t miopenGetReduceTensorDescriptor(const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                                   miopenReduceTensorOp_t* reduceTensorOp,
                                                   miopenDataType_t* reduceTensorCompType,
                                                   miopenNanPropagation_t* reduceTensorNanOpt,
                                                   miopenReduceTensorIndices_t* reduceTensorIndices,
                                                   miopenIndicesType_t* reduceTensorIndicesType)
    miopenStatus_t miopenGetReductionIndicesSize(miopenHandle_t handle,
                                                 const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                                 const miopenTensorDescriptor_t aDesc,
                                                 const miopenTensorDescriptor_t cDesc, size_t* sizeInBytes)
    miopenStatus_t miopenGetReductionWorkspaceSize(miopenHandle_t handle,
                                                   const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                                   const miopenTensorDescriptor_t aDesc,
                                                   const miopenTensorDescriptor_t cDesc, size_t* sizeInBytes)
    miopenStatus_t miopenReduceTensor(miopenHandle_t handle,
                                      const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                      void* indices, size_t indicesSizeInBytes,
                                      void* workspace, size_t workspaceSizeInBytes,
                                      const void* alpha, const miopenTensorDescriptor_t aDesc, const void* A,
                                      const void* beta, const miopenTensorDescriptor_t cDesc, void* C)

    miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  miopenBatchNormMode_t bn_mode)
    miopenStatus_t miopenBatchNormalizationForwardTraining(
        miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc, void* y,
        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void* bnScale, void* bnBias,
        double expAvgFactor, void* resultRunningMean, void* resultRunningVariance, double epsilon,
        void* resultSaveMean, void* resultSaveInvVariance)
    miopenStatus_t miopenBatchNormalizationForwardInference(
        miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc, void* y,
        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void* bnScale, void* bnBias,
        void* estimatedMean, void* estimatedVariance, double epsilon)
    miopenStatus_t miopenBatchNormalizationBackward(
        miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void* alphaDataDiff,
        const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc,
        const void* dy, const miopenTensorDescriptor_t dxDesc, void* dx,
        const miopenTensorDescriptor_t bnScaleBiasDiffDesc, const void* bnScale, void* resultBnScaleDiff,
        void* resultBnBiasDiff, double epsilon, const void* savedMean, const void* savedInvVariance)
    miopenStatus_t miopenBatchNormalizationForwardTraining_V2(
        miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc, void* y,
        const miopenTensorDescriptor_t scaleDesc, const miopenTensorDescriptor_t biasVarDesc,
        const miopenTensorDescriptor_t savedMeanDesc, const miopenTensorDescriptor_t savedVarDesc,
        void* bnScale, void* bnBias, double expAvgFactor, void* resultRunningMean,
        void* resultRunningVariance, double epsilon, void* resultSaveMean, void* resultSaveInvVariance)
    miopenStatus_t miopenBatchNormalizationForwardInference_V2(
        miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc, void* y,
        const miopenTensorDescriptor_t scaleDesc, const miopenTensorDescriptor_t biasDesc,
        const miopenTensorDescriptor_t estMeanDesc, const miopenTensorDescriptor_t estVarianceDesc,
        void* bnScale, void* bnBias, void* estimatedMean, void* estimatedVariance, double epsilon)
    miopenStatus_t miopenBatchNormalizationBackward_V2(
        miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void* alphaDataDiff,
        const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc,
        const void* dy, const miopenTensorDescriptor_t dxDesc, void* dx,
        const miopenTensorDescriptor_t scaleDesc, const miopenTensorDescriptor_t biasDesc,
        const miopenTensorDescriptor_t savedMeanDesc, const miopenTensorDescriptor_t savedVarDesc,
        const void* bnScale, void* resultBnScaleDiff, void* resultBnBiasDiff, double epsilon,
        const void* savedMean, const void* savedInvVariance)

    miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc)
    miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                                 miopenActivationMode_t mode, double activAlpha,
                                                 double activBeta, double activGamma)
    miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                                 miopenActivationMode_t* mode, double* activAlpha,
                                                 double* activBeta, double* activGamma)
    miopenStatus_t miopenActivationForward(miopenHandle_t handle, const miopenActivationDescriptor_t activDesc,
                                           const void* alpha, const miopenTensorDescriptor_t xDesc,
                                           const void* x, const void* beta,
                                           const miopenTensorDescriptor_t yDesc, void* y)
    miopenStatus_t miopenActivationBackward(miopenHandle_t handle, const miopenActivationDescriptor_t activDesc,
                                            const void* alpha, const miopenTensorDescriptor_t yDesc,
                                            const void* y, const miopenTensorDescriptor_t dyDesc,
                                            const void* dy, const miopenTensorDescriptor_t xDesc,
                                            const void* x, const void* beta,
                                            const miopenTensorDescriptor_t dxDesc, void* dx)
    miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc)

    miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle, const void* alpha,
                                        const miopenTensorDescriptor_t xDesc, const void* x,
                                        const void* beta, const miopenTensorDescriptor_t yDesc, void* y)
    miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle, const void* alpha,
                                         const miopenTensorDescriptor_t yDesc, const void* y,
                                         const miopenTensorDescriptor_t dyDesc, const void* dy,
                                         const void* beta, const miopenTensorDescriptor_t dxDesc, void* dx)
    miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void* alpha,
                                           const miopenTensorDescriptor_t xDesc, const void* x,
                                           const void* beta, const miopenTensorDescriptor_t yDesc, void* y,
                                           miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)
    miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle, const void* alpha,
                                            const miopenTensorDescriptor_t yDesc, const void* y,
                                            const miopenTensorDescriptor_t dyDesc, const void* dy,
                                            const void* beta, const miopenTensorDescriptor_t dxDesc, void* dx,
                                            miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)

    miopenStatus_t miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc)
    miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                   miopenConvolutionMode_t c_mode, int pad_h, int pad_w,
                                                   int stride_h, int stride_w, int dilation_h, int dilation_w)
    miopenStatus_t miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc, int spatialDim,
                                                     const int* padA, const int* strideA, const int* dilationA,
                                                     miopenConvolutionMode_t c_mode)
    miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc, int* spatialDim)
    miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                  miopenConvolutionMode_t* c_mode, int* pad_h, int* pad_w,
                                                  int* stride_h, int* stride_w, int* dilation_h, int* dilation_w)
    miopenStatus_t miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc, int requestedSpatialDim,
                                                    int* spatialDim, int* padA, int* strideA, int* dilationA,
                                                    miopenConvolutionMode_t* c_mode)
    miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc, int* groupCount)
    miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc, int groupCount)
    miopenStatus_t miopenSetTransposeConvOutputPadding(miopenConvolutionDescriptor_t convDesc, int adj_h, int adj_w)
    miopenStatus_t miopenSetTransposeConvNdOutputPadding(miopenConvolutionDescriptor_t convDesc, int spatialDim,
                                                         const int* adjA)
    miopenStatus_t miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                                        const miopenTensorDescriptor_t inputTensorDesc,
                                                        const miopenTensorDescriptor_t filterDesc,
                                                        int* n, int* c, int* h, int* w)
    miopenStatus_t miopenGetConvolutionNdForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                                          const miopenTensorDescriptor_t inputTensorDesc,
                                                          const miopenTensorDescriptor_t filterDesc,
                                                          int* nDim, int* outputTensorDimA)
    miopenStatus_t miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc)
    miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                 const miopenConvolutionAttrib_t attr, int value)
    miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                 const miopenConvolutionAttrib_t attr, int* value)
    miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize)
    miopenStatus_t miopenFindConvolutionForwardAlgorithm(
        miopenHandle_t handle, const miopenTensorDescriptor_t xDesc, const void* x,
        const miopenTensorDescriptor_t wDesc, const void* w, const miopenConvolutionDescriptor_t convDesc,
        const miopenTensorDescriptor_t yDesc, void* y, const int requestAlgoCount, int* returnedAlgoCount,
        miopenConvAlgoPerf_t* perfResults, void* workSpace, size_t workSpaceSize, cbool exhaustiveSearch)
    miopenStatus_t miopenConvolutionForward(
        miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t xDesc, const void* x,
        const miopenTensorDescriptor_t wDesc, const void* w, const miopenConvolutionDescriptor_t convDesc,
        miopenConvFwdAlgorithm_t algo, const void* beta, const miopenTensorDescriptor_t yDesc, void* y,
        void* workSpace, size_t workSpaceSize)
    miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t wDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, size_t* workSpaceSize)
    miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void* dy,
        const miopenTensorDescriptor_t wDesc, const void* w, const miopenConvolutionDescriptor_t convDesc,
        const miopenTensorDescriptor_t dxDesc, void* dx, const int requestAlgoCount, int* returnedAlgoCount,
        miopenConvAlgoPerf_t* perfResults, void* workSpace, size_t workSpaceSize, cbool exhaustiveSearch)
    miopenStatus_t miopenConvolutionBackwardData(
        miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t dyDesc, const void* dy,
        const miopenTensorDescriptor_t wDesc, const void* w, const miopenConvolutionDescriptor_t convDesc,
        miopenConvBwdDataAlgorithm_t algo, const void* beta, const miopenTensorDescriptor_t dxDesc, void* dx,
        void* workSpace, size_t workSpaceSize)
    miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, size_t* workSpaceSize)
    miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void* dy,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenConvolutionDescriptor_t convDesc,
        const miopenTensorDescriptor_t dwDesc, void* dw, const int requestAlgoCount, int* returnedAlgoCount,
        miopenConvAlgoPerf_t* perfResults, void* workSpace, size_t workSpaceSize, cbool exhaustiveSearch)
    miopenStatus_t miopenConvolutionBackwardWeights(
        miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t dyDesc, const void* dy,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenConvolutionDescriptor_t convDesc,
        miopenConvBwdWeightsAlgorithm_t algo, const void* beta, const miopenTensorDescriptor_t dwDesc, void* dw,
        void* workSpace, size_t workSpaceSize)

    const char* miopenCyGetLastErrorMessage()
    miopenStatus_t miopenCyCreateOnDevice(miopenHandle_t* handle, const char* device)
    miopenStatus_t miopenCyGetHandleDevice(miopenHandle_t handle, int* kind, int* ordinal)
    miopenStatus_t miopenCyGetDeviceCount(int* count)
    miopenStatus_t miopenCyGetDLPackDevice(miopenHandle_t handle, int* deviceType, int* deviceId)
    miopenStatus_t miopenCyDeviceAlloc(miopenHandle_t handle, void** ptr, size_t sizeBytes)
    miopenStatus_t miopenCyDeviceFree(miopenHandle_t handle, void* ptr)
    miopenStatus_t miopenCyMemcpy(miopenHandle_t handle, void* dst, const void* src, size_t sizeBytes)
    miopenStatus_t miopenCyStreamSynchronize(miopenHandle_t handle)
    miopenStatus_t miopenCyStreamWait(miopenHandle_t handle, miopenAcceleratorQueue_t stream)
    miopenStatus_t miopenCyGetPointerDevice(const void* ptr, int* ordinal)
    miopenStatus_t miopenCyGetConfig(const char** config)
    miopenStatus_t miopenCyGetDbPaths(miopenHandle_t handle, const char** findDb, const char** perfDb)
    miopenStatus_t miopenCySgemm(miopenHandle_t handle, cbool transA, cbool transB, cbool sumBatch,
                                 int m, int n, int k, int batch, const float* A, int64_t lda,
                                 int64_t strideA, const float* B, int64_t ldb, int64_t strideB,
                                 float* C, int64_t ldc, int64_t strideC)

    # ---- convolution immediate mode ----
    miopenStatus_t miopenConvolutionForwardGetSolutionCount(
        miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, size_t* solutionCount)
    miopenStatus_t miopenConvolutionForwardGetSolution(
        miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc,
        const size_t maxSolutionCount, size_t* solutionCount, miopenConvSolution_t* solutions)
    miopenStatus_t miopenConvolutionForwardGetSolutionWorkspaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc,
        const uint64_t solution_id, size_t* workSpaceSize)
    miopenStatus_t miopenConvolutionForwardCompileSolution(
        miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc,
        const uint64_t solution_id)
    miopenStatus_t miopenConvolutionForwardImmediate(
        miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const void* w,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenConvolutionDescriptor_t convDesc,
        const miopenTensorDescriptor_t yDesc, void* y, void* workSpace, size_t workSpaceSize,
        const uint64_t solution_id)
    miopenStatus_t miopenConvolutionBackwardDataGetSolutionCount(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t wDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, size_t* solutionCount)
    miopenStatus_t miopenConvolutionBackwardDataGetSolution(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t wDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc,
        const size_t maxSolutionCount, size_t* solutionCount, miopenConvSolution_t* solutions)
    miopenStatus_t miopenConvolutionBackwardDataGetSolutionWorkspaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t wDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc,
        const uint64_t solution_id, size_t* workSpaceSize)
    miopenStatus_t miopenConvolutionBackwardDataCompileSolution(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t wDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc,
        const uint64_t solution_id)
    miopenStatus_t miopenConvolutionBackwardDataImmediate(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void* dy,
        const miopenTensorDescriptor_t wDesc, const void* w, const miopenConvolutionDescriptor_t convDesc,
        const miopenTensorDescriptor_t dxDesc, void* dx, void* workSpace, size_t workSpaceSize,
        const uint64_t solution_id)
    miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionCount(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, size_t* solutionCount)
    miopenStatus_t miopenConvolutionBackwardWeightsGetSolution(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc,
        const size_t maxSolutionCount, size_t* solutionCount, miopenConvSolution_t* solutions)
    miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc,
        const uint64_t solution_id, size_t* workSpaceSize)
    miopenStatus_t miopenConvolutionBackwardWeightsCompileSolution(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const miopenTensorDescriptor_t xDesc,
        const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc,
        const uint64_t solution_id)
    miopenStatus_t miopenConvolutionBackwardWeightsImmediate(
        miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void* dy,
        const miopenTensorDescriptor_t xDesc, const void* x, const miopenConvolutionDescriptor_t convDesc,
        const miopenTensorDescriptor_t dwDesc, void* dw, void* workSpace, size_t workSpaceSize,
        const uint64_t solution_id)

    # ---- find 2.0 ----
    cdef struct miopenProblem:
        pass
    ctypedef miopenProblem* miopenProblem_t
    cdef struct miopenFindOptions:
        pass
    ctypedef miopenFindOptions* miopenFindOptions_t
    cdef struct miopenSolution:
        pass
    ctypedef miopenSolution* miopenSolution_t
    ctypedef enum miopenProblemDirection_t:
        miopenProblemDirectionForward
        miopenProblemDirectionBackward
        miopenProblemDirectionBackwardWeights
    ctypedef enum miopenTensorArgumentId_t:
        miopenTensorArgumentIdInvalid
        miopenTensorConvolutionX
        miopenTensorConvolutionW
        miopenTensorConvolutionY
    ctypedef enum miopenFindResultsOrder_t:
        miopenFindResultsOrderByTime
        miopenFindResultsOrderByWorkspaceSize
    ctypedef struct miopenTensorArgument_t:
        miopenTensorArgumentId_t id
        miopenTensorDescriptor_t* descriptor
        void* buffer
    miopenStatus_t miopenCreateConvProblem(miopenProblem_t* problem, miopenConvolutionDescriptor_t operatorDesc,
                                           miopenProblemDirection_t direction)
    miopenStatus_t miopenDestroyProblem(miopenProblem_t problem)
    miopenStatus_t miopenSetProblemTensorDescriptor(miopenProblem_t problem, miopenTensorArgumentId_t id,
                                                    const miopenTensorDescriptor_t descriptor)
    miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t* options)
    miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options)
    miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value)
    miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options, miopenFindResultsOrder_t value)
    miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options, size_t value)
    miopenStatus_t miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options, void* buffer, size_t size)
    miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options, miopenTensorArgumentId_t id,
                                                         void* buffer)
    miopenStatus_t miopenFindSolutions(miopenHandle_t handle, miopenProblem_t problem, miopenFindOptions_t options,
                                       miopenSolution_t* solutions, size_t* numSolutions, size_t maxSolutions)
    miopenStatus_t miopenRunSolution(miopenHandle_t handle, miopenSolution_t solution, size_t nInputs,
                                     const miopenTensorArgument_t* tensors, void* workspace, size_t workspaceSize)
    miopenStatus_t miopenDestroySolution(miopenSolution_t solution)
    miopenStatus_t miopenLoadSolution(miopenSolution_t* solution, const char* data, size_t size)
    miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char* data)
    miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t* size)
    miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float* time)
    miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution, size_t* workspaceSize)
    miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution, uint64_t* solverId)
    miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId, miopenConvAlgorithm_t* result)
    miopenStatus_t miopenCyGetSolutionTensor(miopenSolution_t solution, miopenTensorArgumentId_t id,
                                             miopenDataType_t* dataType, size_t* numBytes)
    miopenStatus_t miopenCyGetSolutionTensorDescriptor(miopenSolution_t solution, miopenTensorArgumentId_t id,
                                                       miopenTensorDescriptor_t tensorDesc)
    miopenStatus_t miopenCyGetSolverCount(size_t* count)
    miopenStatus_t miopenCyGetSolverInfo(size_t index, uint64_t* solverId, const char** name,
                                         miopenConvAlgorithm_t* algorithm, const char** switchName)
    miopenStatus_t miopenCyGetSolverIdName(uint64_t solverId, const char** name)
    miopenStatus_t miopenCyGetSolverApplicability(miopenHandle_t handle, miopenProblem_t problem,
                                                  uint64_t solverId, cbool* switchedOn, cbool* applicable,
                                                  size_t* workspaceSize, const char** reason)

    # ---- Fusion ----
    cdef struct miopenFusionOpDescriptor:
        pass
    ctypedef miopenFusionOpDescriptor* miopenFusionOpDescriptor_t
    cdef struct miopenFusionPlanDescriptor:
        pass
    ctypedef miopenFusionPlanDescriptor* miopenFusionPlanDescriptor_t
    cdef struct miopenOperatorArgs:
        pass
    ctypedef miopenOperatorArgs* miopenOperatorArgs_t
    ctypedef enum miopenFusionDirection_t:
        miopenVerticalFusion
        miopenHorizontalFusion

    miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                          const miopenFusionDirection_t fuseDirection,
                                          const miopenTensorDescriptor_t inputDesc)
    miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc)
    miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle, miopenFusionPlanDescriptor_t fusePlanDesc)
    miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc, const int op_idx,
                                         miopenFusionOpDescriptor_t* op)
    miopenStatus_t miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                                    miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    size_t* workSpaceSize, miopenConvFwdAlgorithm_t algo)
    miopenStatus_t miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                      const int requestAlgoCount, int* returnedAlgoCount,
                                                      miopenConvFwdAlgorithm_t* returnedAlgos)
    miopenStatus_t miopenFusionPlanConvolutionSetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                      miopenConvFwdAlgorithm_t algo)
    miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                             miopenFusionOpDescriptor_t* convOp,
                                             miopenConvolutionDescriptor_t convDesc,
                                             const miopenTensorDescriptor_t wDesc)
    miopenStatus_t miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   miopenFusionOpDescriptor_t* activFwdOp,
                                                   miopenActivationMode_t mode)
    miopenStatus_t miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* activBwdOp,
                                                    miopenActivationMode_t mode)
    miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                             miopenFusionOpDescriptor_t* biasOp,
                                             const miopenTensorDescriptor_t bDesc)
    miopenStatus_t miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* bnOp,
                                                    const miopenBatchNormMode_t bn_mode,
                                                    const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc)
    miopenStatus_t miopenCreateOpBatchNormForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                  miopenFusionOpDescriptor_t* bnFwdOp,
                                                  const miopenBatchNormMode_t bn_mode,
                                                  cbool runningMeanVariance)
    miopenStatus_t miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   miopenFusionOpDescriptor_t* bnBwdOp,
                                                   const miopenBatchNormMode_t bn_mode)
    miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args)
    miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args)
    miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                              const miopenFusionOpDescriptor_t convOp,
                                              const void* alpha, const void* beta, const void* w)
    miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                               const miopenFusionOpDescriptor_t activFwdOp,
                                               const void* alpha, const void* beta,
                                               double activAlpha, double activBeta, double activGamma)
    miopenStatus_t miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                                                const miopenFusionOpDescriptor_t activBwdOp,
                                                const void* alpha, const void* beta, const void* y,
                                                const void* reserved, double activAlpha,
                                                double activBeta, double activGamma)
    miopenStatus_t miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t bnOp,
                                                     const void* alpha, const void* beta,
                                                     const void* bnScale, const void* bnBias,
                                                     const void* estimatedMean,
                                                     const void* estimatedVariance, double epsilon)
    miopenStatus_t miopenSetOpArgsBatchNormForward(miopenOperatorArgs_t args,
                                                   const miopenFusionOpDescriptor_t bnOp,
                                                   const void* alpha, const void* beta,
                                                   const void* bnScale, const void* bnBias,
                                                   void* savedMean, void* savedInvVariance,
                                                   void* runningMean, void* runningVariance,
                                                   double expAvgFactor, double epsilon)
    miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                    const miopenFusionOpDescriptor_t bnOp,
                                                    const void* alpha, const void* beta, const void* x,
                                                    const void* bnScale, const void* bnBias,
                                                    void* resultBnScaleDiff, void* resultBnBiasDiff,
                                                    const void* savedMean, const void* savedInvVariance)
    miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                              const miopenFusionOpDescriptor_t biasOp,
                                              const void* alpha, const void* beta, const void* bias)
    miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                           const miopenFusionPlanDescriptor_t fusePlanDesc,
                                           const miopenTensorDescriptor_t inputDesc, const void* input,
                                           const miopenTensorDescriptor_t outputDesc, void* output,
                                           miopenOperatorArgs_t args)
    miopenStatus_t miopenConvolutionBiasActivationForward(
        miopenHandle_t handle, const void* alpha1, const miopenTensorDescriptor_t xDesc, const void* x,
        const miopenTensorDescriptor_t wDesc, const void* w,
        const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, void* workspace,
        size_t workspaceSizeInBytes, const void* alpha2, const miopenTensorDescriptor_t zDesc,
        const void* z, const miopenTensorDescriptor_t biasDesc, const void* bias,
        const miopenActivationDescriptor_t activationDesc, const miopenTensorDescriptor_t yDesc,
        void* y)

    # ---- CTC loss (miopen_cy/ctc.pxi) ----
    cdef struct miopenCTCLossDescriptor:
        pass
    ctypedef miopenCTCLossDescriptor* miopenCTCLossDescriptor_t
    ctypedef enum miopenCTCLossAlgo_t:
        MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC
    miopenStatus_t miopenCreateCTCLossDescriptor(miopenCTCLossDescriptor_t* ctcLossDesc)
    miopenStatus_t miopenGetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                              miopenDataType_t* dataType, int* blank_label_id,
                                              cbool* apply_softmax_layer)
    miopenStatus_t miopenDestroyCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc)
    miopenStatus_t miopenSetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                              miopenDataType_t dataType, const int blank_label_id,
                                              cbool apply_softmax_layer)
    miopenStatus_t miopenGetCTCLossWorkspaceSize(
        miopenHandle_t handle, const miopenTensorDescriptor_t probsDesc,
        const miopenTensorDescriptor_t gradientsDesc, const int* labels, const int* labelLengths,
        const int* inputLengths, miopenCTCLossAlgo_t algo,
        const miopenCTCLossDescriptor_t ctcLossDesc, size_t* workSpaceSize)
    miopenStatus_t miopenCTCLoss(
        miopenHandle_t handle, const miopenTensorDescriptor_t probsDesc, const void* probs,
        const int* labels, const int* labelLengths, const int* inputLengths, void* losses,
        const miopenTensorDescriptor_t gradientsDesc, void* gradients, miopenCTCLossAlgo_t algo,
        const miopenCTCLossDescriptor_t ctcLossDesc, void* workSpace, size_t workSpaceSize)

    # ---- dropout ----
    cdef struct miopenDropoutDescriptor:
        pass
    ctypedef miopenDropoutDescriptor* miopenDropoutDescriptor_t
    ctypedef enum miopenRNGType_t:
        MIOPEN_RNG_PSEUDO_XORWOW
    miopenStatus_t miopenCreateDropoutDescriptor(miopenDropoutDescriptor_t* dropoutDesc)
    miopenStatus_t miopenDestroyDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc)
    miopenStatus_t miopenDropoutGetReserveSpaceSize(const miopenTensorDescriptor_t xDesc,
                                                    size_t* reserveSpaceSizeInBytes)
    miopenStatus_t miopenDropoutGetStatesSize(miopenHandle_t handle, size_t* stateSizeInBytes)
    miopenStatus_t miopenGetDropoutDescriptor(
        miopenDropoutDescriptor_t dropoutDesc, miopenHandle_t handle, float* dropout,
        void** states, unsigned long long* seed, cbool* use_mask, cbool* state_evo,
        miopenRNGType_t* rng_mode)
    miopenStatus_t miopenRestoreDropoutDescriptor(
        miopenDropoutDescriptor_t dropoutDesc, miopenHandle_t handle, float dropout, void* states,
        size_t stateSizeInBytes, unsigned long long seed, cbool use_mask, cbool state_evo,
        miopenRNGType_t rng_mode)
    miopenStatus_t miopenSetDropoutDescriptor(
        miopenDropoutDescriptor_t dropoutDesc, miopenHandle_t handle, float dropout, void* states,
        size_t stateSizeInBytes, unsigned long long seed, cbool use_mask, cbool state_evo,
        miopenRNGType_t rng_mode)
    miopenStatus_t miopenDropoutForward(
        miopenHandle_t handle, const miopenDropoutDescriptor_t dropoutDesc,
        const miopenTensorDescriptor_t noise_shape, const miopenTensorDescriptor_t xDesc,
        const void* x, const miopenTensorDescriptor_t yDesc, void* y, void* reserveSpace,
        size_t reserveSpaceSizeInBytes)
    miopenStatus_t miopenDropoutBackward(
        miopenHandle_t handle, const miopenDropoutDescriptor_t dropoutDesc,
        const miopenTensorDescriptor_t noise_shape, const miopenTensorDescriptor_t dyDesc,
        const void* dy, const miopenTensorDescriptor_t dxDesc, void* dx, void* reserveSpace,
        size_t reserveSpaceSizeInBytes)

    # ---- RNN and sequence tensors ----
    cdef struct miopenRNNDescriptor:
        pass
    ctypedef miopenRNNDescriptor* miopenRNNDescriptor_t
    cdef struct miopenSeqTensorDescriptor:
        pass
    ctypedef miopenSeqTensorDescriptor* miopenSeqTensorDescriptor_t
    ctypedef enum miopenRNNMode_t:
        miopenRNNRELU
        miopenRNNTANH
        miopenLSTM
        miopenGRU
    ctypedef enum miopenRNNInputMode_t:
        miopenRNNlinear
        miopenRNNskip
    ctypedef enum miopenRNNAlgo_t:
        miopenRNNdefault
        miopenRNNfundamental
    ctypedef enum miopenRNNDirectionMode_t:
        miopenRNNunidirection
        miopenRNNbidirection
    ctypedef enum miopenRNNBiasMode_t:
        miopenRNNNoBias
        miopenRNNwithBias
    ctypedef enum miopenRNNGEMMalgoMode_t:
        miopenRNNAlgoGEMM
    ctypedef enum miopenRNNPaddingMode_t:
        miopenRNNIONotPadded
        miopenRNNIOWithPadding
    ctypedef enum miopenRNNFWDMode_t:
        miopenRNNTraining
        miopenRNNInference
    ctypedef enum miopenRNNBaseLayout_t:
        miopenRNNDataUnknownLayout
        miopenRNNDataSeqMajorNotPadded
        miopenRNNDataSeqMajorPadded
        miopenRNNDataBatchMajorPadded
    miopenStatus_t miopenCreateSeqTensorDescriptor(miopenSeqTensorDescriptor_t* tensorDesc)
    miopenStatus_t miopenDestroySeqTensorDescriptor(miopenSeqTensorDescriptor_t tensorDesc)
    miopenStatus_t miopenCreateRNNDescriptor(miopenRNNDescriptor_t* rnnDesc)
    miopenStatus_t miopenGetRNNDescriptor(
        miopenRNNDescriptor_t rnnDesc, miopenRNNMode_t* rnnMode, miopenRNNAlgo_t* algoMode,
        miopenRNNInputMode_t* inputMode, miopenRNNDirectionMode_t* dirMode, miopenRNNBiasMode_t*
        biasMode, int* hiddenSize, int* layer)
    miopenStatus_t miopenGetRNNDescriptor_V2(
        miopenRNNDescriptor_t rnnDesc, int* hiddenSize, int* layer, miopenDropoutDescriptor_t*
        dropoutDesc, miopenRNNInputMode_t* inputMode, miopenRNNDirectionMode_t* dirMode,
        miopenRNNMode_t* rnnMode, miopenRNNBiasMode_t* biasMode, miopenRNNAlgo_t* algoMode,
        miopenDataType_t* dataType)
    miopenStatus_t miopenDestroyRNNDescriptor(miopenRNNDescriptor_t rnnDesc)
    miopenStatus_t miopenSetRNNDescriptor(
        miopenRNNDescriptor_t rnnDesc, const int hsize, const int nlayers, miopenRNNInputMode_t
        inMode, miopenRNNDirectionMode_t direction, miopenRNNMode_t rnnMode, miopenRNNBiasMode_t
        biasMode, miopenRNNAlgo_t algo, miopenDataType_t dataType)
    miopenStatus_t miopenSetRNNDescriptor_V2(
        miopenRNNDescriptor_t rnnDesc, const int hsize, const int nlayers, miopenDropoutDescriptor_t
        dropoutDesc, miopenRNNInputMode_t inMode, miopenRNNDirectionMode_t direction,
        miopenRNNMode_t rnnMode, miopenRNNBiasMode_t biasMode, miopenRNNAlgo_t algo,
        miopenDataType_t dataType)
    miopenStatus_t miopenSetRNNDataSeqTensorDescriptor(
        miopenSeqTensorDescriptor_t seqTensorDesc, miopenDataType_t dataType, miopenRNNBaseLayout_t
        layout, int maxSequenceLen, int batchSize, int vectorSize, const int* sequenceLenArray,
        void* paddingMarker)
    miopenStatus_t miopenGetRNNDataSeqTensorDescriptor(
        miopenSeqTensorDescriptor_t seqTensorDesc, miopenDataType_t* dataType,
        miopenRNNBaseLayout_t* layout, int* maxSequenceLen, int* batchSize, int* vectorSize, int
        sequenceLenArrayLimit, int* sequenceLenArray, void* paddingMarker)
    miopenStatus_t miopenGetRNNWorkspaceSize(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen, const
        miopenTensorDescriptor_t* xDesc, size_t* numBytes)
    miopenStatus_t miopenGetRNNTrainingReserveSize(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int sequenceLen, const
        miopenTensorDescriptor_t* xDesc, size_t* numBytes)
    miopenStatus_t miopenGetRNNTempSpaceSizes(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, miopenSeqTensorDescriptor_t xDesc,
        miopenRNNFWDMode_t fwdMode, size_t* workSpaceSize, size_t* reserveSpaceSize)
    miopenStatus_t miopenGetRNNParamsSize(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, miopenTensorDescriptor_t xDesc,
        size_t* numBytes, miopenDataType_t dtype)
    miopenStatus_t miopenGetRNNParamsDescriptor(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, miopenTensorDescriptor_t xDesc,
        miopenTensorDescriptor_t wDesc, miopenDataType_t dtype)
    miopenStatus_t miopenGetRNNInputTensorSize(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int seqLen,
        miopenTensorDescriptor_t* xDesc, size_t* numBytes)
    miopenStatus_t miopenGetRNNHiddenTensorSize(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int seqLen,
        miopenTensorDescriptor_t* xDesc, size_t* numBytes)
    miopenStatus_t miopenGetRNNLayerParamSize(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
        miopenTensorDescriptor_t xDesc, const int paramID, size_t* numBytes)
    miopenStatus_t miopenGetRNNLayerBiasSize(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer, const int biasID,
        size_t* numBytes)
    miopenStatus_t miopenGetRNNLayerParam(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
        miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, const void* w, const int
        paramID, miopenTensorDescriptor_t paramDesc, void* layerParam)
    miopenStatus_t miopenGetRNNLayerBias(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
        miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, const void* w, const int
        biasID, miopenTensorDescriptor_t biasDesc, void* layerBias)
    miopenStatus_t miopenGetRNNLayerParamOffset(
        miopenRNNDescriptor_t rnnDesc, const int layer, miopenTensorDescriptor_t xDesc, const int
        paramID, miopenTensorDescriptor_t paramDesc, size_t* layerParamOffset)
    miopenStatus_t miopenGetRNNLayerBiasOffset(
        miopenRNNDescriptor_t rnnDesc, const int layer, miopenTensorDescriptor_t xDesc, const int
        biasID, miopenTensorDescriptor_t biasDesc, size_t* layerBiasOffset)
    miopenStatus_t miopenSetRNNLayerParam(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
        miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, void* w, const int paramID,
        miopenTensorDescriptor_t paramDesc, const void* layerParam)
    miopenStatus_t miopenSetRNNLayerBias(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
        miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, void* w, const int biasID,
        miopenTensorDescriptor_t biasDesc, const void* layerBias)
    miopenStatus_t miopenSetRNNPaddingMode(
        miopenRNNDescriptor_t rnnDesc, miopenRNNPaddingMode_t paddingMode)
    miopenStatus_t miopenGetRNNPaddingMode(
        miopenRNNDescriptor_t rnnDesc, miopenRNNPaddingMode_t* paddingMode)
    miopenStatus_t miopenRNNForward(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, miopenRNNFWDMode_t fwdMode,
        const miopenSeqTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t
        hDesc, const void* hx, void* hy, const miopenTensorDescriptor_t cDesc, const void* cx, void*
        cy, const miopenSeqTensorDescriptor_t yDesc, void* y, const void* w, size_t weightSpaceSize,
        void* workSpace, size_t workSpaceNumBytes, void* reserveSpace, size_t reserveSpaceNumBytes)
    miopenStatus_t miopenRNNBackwardSeqData(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const
        miopenSeqTensorDescriptor_t yDesc, const void* y, const void* dy, const
        miopenTensorDescriptor_t hDesc, const void* hx, const void* dhy, void* dhx, const
        miopenTensorDescriptor_t cDesc, const void* cx, const void* dcy, void* dcx, const
        miopenSeqTensorDescriptor_t xDesc, void* dx, const void* w, size_t weightSpaceSize, void*
        workSpace, size_t workSpaceNumBytes, void* reserveSpace, size_t reserveSpaceNumBytes)
    miopenStatus_t miopenRNNBackwardWeightsSeqTensor(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const
        miopenSeqTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t hDesc,
        const void* hx, const miopenSeqTensorDescriptor_t yDesc, const void* y, void* dw, size_t
        weightSpaceSize, void* workSpace, size_t workSpaceNumBytes, const void* reserveSpace, size_t
        reserveSpaceNumBytes)
    miopenStatus_t miopenRNNForwardTraining(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen, const
        miopenTensorDescriptor_t* xDesc, const void* x, const miopenTensorDescriptor_t hxDesc, const
        void* hx, const miopenTensorDescriptor_t cxDesc, const void* cx, const
        miopenTensorDescriptor_t wDesc, const void* w, const miopenTensorDescriptor_t* yDesc, void*
        y, const miopenTensorDescriptor_t hyDesc, void* hy, const miopenTensorDescriptor_t cyDesc,
        void* cy, void* workSpace, size_t workSpaceNumBytes, void* reserveSpace, size_t
        reserveSpaceNumBytes)
    miopenStatus_t miopenRNNBackwardData(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen, const
        miopenTensorDescriptor_t* yDesc, const void* y, const miopenTensorDescriptor_t* dyDesc,
        const void* dy, const miopenTensorDescriptor_t dhyDesc, const void* dhy, const
        miopenTensorDescriptor_t dcyDesc, const void* dcy, const miopenTensorDescriptor_t wDesc,
        const void* w, const miopenTensorDescriptor_t hxDesc, const void* hx, const
        miopenTensorDescriptor_t cxDesc, const void* cx, const miopenTensorDescriptor_t* dxDesc,
        void* dx, const miopenTensorDescriptor_t dhxDesc, void* dhx, const miopenTensorDescriptor_t
        dcxDesc, void* dcx, void* workSpace, size_t workSpaceNumBytes, void* reserveSpace, size_t
        reserveSpaceNumBytes)
    miopenStatus_t miopenRNNBackwardWeights(
        miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen, const
        miopenTensorDescriptor_t* xDesc, const void* x, const miopenTensorDescriptor_t hxDesc, const
        void* hx, const miopenTensorDescriptor_t* yDesc, const void* y, const
        miopenTensorDescriptor_t dwDesc, void* dw, void* workSpace, size_t workSpaceNumBytes, const
        void* reserveSpace, size_t reserveSpaceNumBytes)
    miopenStatus_t miopenRNNForwardInference(
        miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int sequenceLen, const
        miopenTensorDescriptor_t* xDesc, const void* x, const miopenTensorDescriptor_t hxDesc, const
        void* hx, const miopenTensorDescriptor_t cxDesc, const void* cx, const
        miopenTensorDescriptor_t wDesc, const void* w, const miopenTensorDescriptor_t* yDesc, void*
        y, const miopenTensorDescriptor_t hyDesc, void* hy, const miopenTensorDescriptor_t cyDesc,
        void* cy, void* workSpace, size_t workSpaceNumBytes)

