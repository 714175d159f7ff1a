/* miopen_cy: the MIOpen C API.
 *
 * Names, enum values and parameter order are MIOpen 6.x's (include/miopen/miopen.h), so a C or
 * C++ program written against MIOpen compiles against this header and links to libmiopen_cy
 * unchanged. Additions of miopen_cy's own are named miopenCy* and sit in the block marked
 * "miopen_cy extensions" at the end.
 *
 * Device memory: on a CPU handle (the default where no GPU is present) every "device" pointer is
 * host memory and calls are synchronous. On a GPU handle (built with a CUDA or HIP backend, on a
 * machine with a GPU) device pointers are GPU memory of the handle's device, and calls queue
 * their kernels on the handle's stream and return without waiting for them.
 */
#ifndef MIOPEN_GUARD_MIOPEN_H_
#define MIOPEN_GUARD_MIOPEN_H_

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(_WIN32)
#define MIOPEN_EXPORT __declspec(dllexport)
#else
#define MIOPEN_EXPORT __attribute__((visibility("default")))
#endif

/*! Constructs type name from a struct */
#define MIOPEN_DECLARE_OBJECT(name) \
    struct name                     \
    {                               \
    };                              \
    typedef struct name* name##_t;

#ifdef __cplusplus
extern "C" {
#endif

/*! The platform stream: hipStream_t on AMD, cudaStream_t on NVIDIA, ignored on the CPU. Both are
 * pointers to an opaque struct, so a void* carries either without the vendor headers. */
typedef void* miopenAcceleratorQueue_t;

/*! @ingroup handle
 * @brief Creates the miopenHandle_t type
 */
MIOPEN_DECLARE_OBJECT(miopenHandle);

/*! @enum miopenStatus_t
 * Error codes that are returned by all MIOpen API calls.
 */
typedef enum
{
    miopenStatusSuccess              = 0, /*!< No errors */
    miopenStatusNotInitialized       = 1, /*!< Data not initialized. */
    miopenStatusInvalidValue         = 2, /*!< Incorrect variable value. */
    miopenStatusBadParm              = 3, /*!< Incorrect parameter detected. */
    miopenStatusAllocFailed          = 4, /*!< Memory allocation error. */
    miopenStatusInternalError        = 5, /*!< MIOpen failure. */
    miopenStatusNotImplemented       = 6, /*!< Use of unimplemented feature. */
    miopenStatusUnknownError         = 7, /*!< Unknown error occurred. */
    miopenStatusUnsupportedOp        = 8, /*!< Unsupported operator for fusion. */
    miopenStatusGpuOperationsSkipped = 9, /*!< This is not an error. */
    miopenStatusVersionMismatch      = 10, /*!< Version mismatch of the supplied binary data. */
} miopenStatus_t;

/*! @brief Get character string for an error code.
 *
 * @param error  miopenStatus_t type error status (input)
 * @return       a NULL terminated, statically allocated string
 */
MIOPEN_EXPORT const char* miopenGetErrorString(miopenStatus_t error);

/*! @brief Custom allocator function (accepted for ABI compatibility) */
typedef void* (*miopenAllocatorFunction)(void* context, size_t sizeBytes);
/*! @brief Custom deallocator function (accepted for ABI compatibility) */
typedef void (*miopenDeallocatorFunction)(void* context, void* memory);

/*! @brief Method to return version of MIOpen whose API this library implements.
 *
 * Pointers that are NULL are ignored.
 * @param major     Major version number (output)
 * @param minor     Minor version number (output)
 * @param patch     Patch version number (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetVersion(size_t* major, size_t* minor, size_t* patch);

/*! @brief Method to create the MIOpen handle object.
 *
 * Binds to GPU 0 when a GPU backend was built and a GPU is present, else to the CPU.
 * MIOPEN_CY_DEVICE=cpu|gpu|gpu:N overrides.
 * @param handle     A pointer to a MIOpen handle type (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreate(miopenHandle_t* handle);

/*! @brief Create a MIOpen handle with an accelerator stream.
 * @param handle     A pointer to a MIOpen handle type (output)
 * @param stream     An accelerator queue type (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle,
                                                    miopenAcceleratorQueue_t stream);

/*! @brief Destroys the MIOpen handle.
 * @param handle     MIOpen handle (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroy(miopenHandle_t handle);

/*! @brief Set accelerator command queue previously created
 * @param handle     MIOpen handle (input)
 * @param streamID   An accelerator queue type (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t streamID);

/*! @brief Get the previously created accelerator command queue
 * @param handle     MIOpen handle (input)
 * @param streamID   Pointer to a accelerator queue type (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t* streamID);

/*! @brief Set allocator for previously created miopenHandle
 *
 * Passing 0 restores the default allocator and deallocator.
 * @param handle            MIOpen handle (input)
 * @param allocator         Allocation callback (input)
 * @param deallocator       Deallocation callback (input)
 * @param allocatorContext  Pointer passed to both callbacks (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetAllocator(miopenHandle_t handle,
                                                miopenAllocatorFunction allocator,
                                                miopenDeallocatorFunction deallocator,
                                                void* allocatorContext);

/*! @brief Get time for last kernel launched
 *
 * Only meaningful when profiling has been enabled with miopenEnableProfiling.
 * @param handle     MIOpen handle (input)
 * @param time       Pointer to a float type to contain kernel time in milliseconds (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time);

/*! @brief Enable profiling to retrieve kernel time
 * @param handle     MIOpen handle (input)
 * @param enable     Boolean to toggle profiling (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable);

/*! @ingroup tensor @brief Creates the miopenTensorDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenTensorDescriptor);
/*! @ingroup convolutions @brief Creates the miopenConvolutionDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenConvolutionDescriptor);
/*! @ingroup pooling @brief Creates the miopenPoolingDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenPoolingDescriptor);
/*! @ingroup LRN @brief Creates the miopenLRNDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenLRNDescriptor);
/*! @ingroup TensorReduce @brief Creates the miopenReduceTensorDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenReduceTensorDescriptor);
/*! @ingroup activation @brief Creates the miopenActivationDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenActivationDescriptor);
/*! @brief An operator of a fusion plan (owned by its plan, destroyed with it). */
MIOPEN_DECLARE_OBJECT(miopenFusionOpDescriptor);

/*! @enum miopenDataType_t
 * Data types. miopen_cy's CPU backend implements miopenFloat; the others are accepted by the
 * descriptor calls and rejected with miopenStatusNotImplemented by the compute calls.
 */
typedef enum
{
    miopenHalf     = 0, /*!< 16-bit floating point */
    miopenFloat    = 1, /*!< 32-bit floating point */
    miopenInt32    = 2, /*!< 32-bit integer */
    miopenInt8     = 3, /*!< 8-bit integer */
    /* miopenInt8x4 = 4: support discontinued in MIOpen */
    miopenBFloat16 = 5, /*!< 16-bit binary floating point (8-bit exponent, 7-bit fraction) */
    miopenDouble   = 6, /*!< 64-bit floating point */
} miopenDataType_t;

/*! @enum miopenTensorLayout_t
 * Tensor layouts.
 */
typedef enum
{
    miopenTensorNCHW   = 0, /*!< NCHW memory layout */
    miopenTensorNHWC   = 1, /*!< NHWC memory layout */
    miopenTensorCHWN   = 2, /*!< CHWN memory layout */
    miopenTensorNCHWc4 = 3, /*!< NCHWc4 memory layout (not supported by miopen_cy) */
    miopenTensorNCHWc8 = 4, /*!< NCHWc8 memory layout (not supported by miopen_cy) */
    miopenTensorCHWNc4 = 5, /*!< CHWNc4 memory layout (not supported by miopen_cy) */
    miopenTensorCHWNc8 = 6, /*!< CHWNc8 memory layout (not supported by miopen_cy) */
    miopenTensorNCDHW  = 7, /*!< NCDHW memory layout */
    miopenTensorNDHWC  = 8, /*!< NDHWC memory layout */
} miopenTensorLayout_t;

/*! @enum miopenIndexType_t
 * Index data types (pooling workspace).
 */
typedef enum
{
    miopenIndexUint8  = 0, /*!<  8-bit unsigned */
    miopenIndexUint16 = 1, /*!< 16-bit unsigned */
    miopenIndexUint32 = 2, /*!< 32-bit unsigned */
    miopenIndexUint64 = 3, /*!< 64-bit unsigned */
} miopenIndexType_t;

/*! @enum miopenTensorOp_t
 * Element-wise tensor operation modes
 */
typedef enum
{
    miopenTensorOpAdd = 0, /*!< Add tensors element-wise */
    miopenTensorOpMul = 1, /*!< Multiply two tensors element-wise */
    miopenTensorOpMin = 2, /*!< Minimum of tensor element pairs */
    miopenTensorOpMax = 3, /*!< Maximum of tensor element pairs */
} miopenTensorOp_t;

/*! @enum miopenConvolutionMode_t
 * Convolution mode selection.
 */
typedef enum
{
    miopenConvolution = 0, /*!< Cross-Correlation convolution */
    miopenTranspose   = 1, /*!< Transpose convolutions -- deconvolution */
    miopenGroupConv   = 2, /*!< Deprecated Group convolution legacy */
    miopenDepthwise   = 3, /*!< Deprecated Depthwise convolution legacy */
} miopenConvolutionMode_t;

/*! @enum miopenPaddingMode_t
 * Padding mode selection for convolution/Pooling layer preference
 */
typedef enum
{
    miopenPaddingDefault = 0, /*!< MIOPEN Default Padding */
    miopenPaddingSame    = 1, /*!< Tensorflow SAME Padding */
    miopenPaddingValid   = 2, /*!< Tensorflow VALID Padding */
} miopenPaddingMode_t;

/*! @enum miopenPoolingMode_t
 * Pooling layer mode
 */
typedef enum
{
    miopenPoolingMax              = 0, /*!< Maximum pooling */
    miopenPoolingAverage          = 1, /*!< Average pooling, padding excluded from the divisor */
    miopenPoolingAverageInclusive = 2, /*!< Inclusive Average pooling: divisor = window size */
} miopenPoolingMode_t;

/*! @enum miopenPoolingWorkspaceIndexMode_t
 * Pooling workspace index mode: Mask records the max's position inside the window, Image its
 * position in the input image (flattened spatial index).
 */
typedef enum
{
    miopenPoolingWorkspaceIndexMask  = 0, /*!< Use mask indices (2-d and 3-d in miopen_cy) */
    miopenPoolingWorkspaceIndexImage = 1, /*!< Use image indices */
} miopenPoolingWorkspaceIndexMode_t;

/*! @enum miopenLRNMode_t
 * Local Response Normalization layer mode
 */
typedef enum
{
    miopenLRNWithinChannel = 0, /*!< Channel independent */
    miopenLRNCrossChannel  = 1, /*!< Cross Channel */
} miopenLRNMode_t;

/*! @enum miopenBatchNormMode_t
 * Batch Normalization layer mode
 */
typedef enum
{
    miopenBNPerActivation = 0, /*!< Element-wise normalization for fully connected layer */
    miopenBNSpatial       = 1, /*!< Mini-batch spatial normalization for convolutional layers */
} miopenBatchNormMode_t;

/*! @enum miopenActivationMode_t
 * Activation layer modes
 */
typedef enum
{
    miopenActivationPASTHRU     = 0, /*!< No activation, pass through the data */
    miopenActivationLOGISTIC    = 1, /*!< Sigmoid function: 1 / (1 + e^{-x}) */
    miopenActivationTANH        = 2, /*!< beta * tanh(alpha * x) */
    miopenActivationRELU        = 3, /*!< max(0, x) */
    miopenActivationSOFTRELU    = 4, /*!< log(1 + e^x) */
    miopenActivationABS         = 5, /*!< abs(x) */
    miopenActivationPOWER       = 6, /*!< (alpha + beta * x)^gamma; 0 where alpha + beta * x == 0 */
    miopenActivationCLIPPEDRELU = 7, /*!< min(alpha, max(0, x)) */
    miopenActivationLEAKYRELU   = 8, /*!< alpha * x for x <= 0; x for x > 0 */
    miopenActivationELU         = 9, /*!< alpha * (e^x - 1) for x <= 0; x for x > 0 */
} miopenActivationMode_t;

/*! @enum miopenSoftmaxAlgorithm_t
 * Softmax implementation algorithms
 */
typedef enum
{
    MIOPEN_SOFTMAX_FAST     = 0, /*!< straightforward softmax */
    MIOPEN_SOFTMAX_ACCURATE = 1, /*!< scaled softmax by maximum value in input domain */
    MIOPEN_SOFTMAX_LOG      = 2, /*!< log softmax */
} miopenSoftmaxAlgorithm_t;

/*! @enum miopenSoftmaxMode_t
 * Softmax modes
 */
typedef enum
{
    MIOPEN_SOFTMAX_MODE_INSTANCE = 0, /*!< compute per image (N) across C, H, W */
    MIOPEN_SOFTMAX_MODE_CHANNEL  = 1, /*!< compute per spatial location (H, W) per image (N) across C */
} miopenSoftmaxMode_t;

/*! @brief Version of the TensorReduce API (1: AMAX, AVG, NORM1 and NORM2 added), as MIOpen's. */
#define MIOPEN_API_VERSION_REDUCE_TENSOR 1

/*! @enum miopenReduceTensorOp_t
 * Tensor reduction operations (values as MIOpen's).
 */
typedef enum
{
    MIOPEN_REDUCE_TENSOR_ADD   = 0, /*!< sum of the reduced elements */
    MIOPEN_REDUCE_TENSOR_MUL   = 1, /*!< product of the reduced elements */
    MIOPEN_REDUCE_TENSOR_MIN   = 2, /*!< minimum of the reduced elements */
    MIOPEN_REDUCE_TENSOR_MAX   = 3, /*!< maximum of the reduced elements */
    MIOPEN_REDUCE_TENSOR_AMAX  = 4, /*!< maximum of the absolute values */
    MIOPEN_REDUCE_TENSOR_AVG   = 5, /*!< mean of the reduced elements */
    MIOPEN_REDUCE_TENSOR_NORM1 = 6, /*!< sum of the absolute values */
    MIOPEN_REDUCE_TENSOR_NORM2 = 7, /*!< square root of the sum of squares */
} miopenReduceTensorOp_t;

/*! @enum miopenNanPropagation_t
 * NaN propagation modes of the reductions.
 */
typedef enum
{
    MIOPEN_NOT_PROPAGATE_NAN = 0, /*!< MIN, MAX and AMAX skip NaNs */
    MIOPEN_PROPAGATE_NAN     = 1, /*!< a NaN among the reduced elements gives NaN */
} miopenNanPropagation_t;

/*! @enum miopenReduceTensorIndices_t
 * Whether MIN, MAX and AMAX also return the index of the element they chose.
 */
typedef enum
{
    MIOPEN_REDUCE_TENSOR_NO_INDICES        = 0, /*!< no indices */
    MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES = 1, /*!< the row-major index within the reduced dims */
} miopenReduceTensorIndices_t;

/*! @enum miopenIndicesType_t
 * Index types of the reductions (MIOpen computes 32-bit indices only).
 */
typedef enum
{
    MIOPEN_32BIT_INDICES = 0, /*!< 32-bit unsigned integer indices */
    MIOPEN_64BIT_INDICES = 1, /*!< 64-bit unsigned integer indices */
    MIOPEN_16BIT_INDICES = 2, /*!< 16-bit unsigned integer indices */
    MIOPEN_8BIT_INDICES  = 3, /*!< 8-bit unsigned integer indices */
} miopenIndicesType_t;


/*! @enum miopenConvolutionAttrib_t
 * Attribute for convolution descriptor, used for alternating the convolution behavior
 */
typedef enum
{
    MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL = 0, /*!< Use alternative fp16 implementation (no effect here) */
    MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1, /*!< Restrict to numerically deterministic solvers: 0 - off (default), 1 - on */
} miopenConvolutionAttrib_t;

/*! @enum miopenConvFwdAlgorithm_t
 * Convolutional algorithm mode for forward propagation.
 */
typedef enum
{
    miopenConvolutionFwdAlgoGEMM         = 0, /*!< GEMM variant */
    miopenConvolutionFwdAlgoDirect       = 1, /*!< Direct convolutions */
    miopenConvolutionFwdAlgoFFT          = 2, /*!< Fast Fourier Transform indirect convolutions */
    miopenConvolutionFwdAlgoWinograd     = 3, /*!< Winograd indirect convolutions */
    miopenConvolutionFwdAlgoImplicitGEMM = 5, /*!< Implicit GEMM convolutions */
} miopenConvFwdAlgorithm_t;

/*! @enum miopenConvBwdWeightsAlgorithm_t
 * Convolutional algorithm mode for back propagation on weights.
 */
typedef enum
{
    miopenConvolutionBwdWeightsAlgoGEMM         = 0, /*!< GEMM variant */
    miopenConvolutionBwdWeightsAlgoDirect       = 1, /*!< Direct convolution algorithm */
    miopenConvolutionBwdWeightsAlgoWinograd     = 3, /*!< Winograd convolutions */
    miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5, /*!< Implicit GEMM convolutions */
} miopenConvBwdWeightsAlgorithm_t;

/*! @enum miopenConvBwdDataAlgorithm_t
 * Convolutional algorithm mode for back propagation on data.
 */
typedef enum
{
    miopenConvolutionBwdDataAlgoGEMM         = 0, /*!< GEMM variant */
    miopenConvolutionBwdDataAlgoDirect       = 1, /*!< Direct convolutions */
    miopenConvolutionBwdDataAlgoFFT          = 2, /*!< Fast Fourier Transform indirect convolutions */
    miopenConvolutionBwdDataAlgoWinograd     = 3, /*!< Winograd indirect convolutions */
    miopenTransposeBwdDataAlgoGEMM           = 4, /*!< Deprecated Transpose GEMM variant legacy */
    miopenConvolutionBwdDataAlgoImplicitGEMM = 5, /*!< Implicit GEMM convolutions */
} miopenConvBwdDataAlgorithm_t;

/*! @enum miopenConvAlgorithm_t
 * Top-level convolutional algorithm mode
 */
typedef enum
{
    miopenConvolutionAlgoGEMM         = 0, /*!< GEMM variant */
    miopenConvolutionAlgoDirect       = 1, /*!< Direct convolutions */
    miopenConvolutionAlgoFFT          = 2, /*!< Fast Fourier Transform indirect convolutions */
    miopenConvolutionAlgoWinograd     = 3, /*!< Winograd indirect convolutions */
    miopenConvolutionAlgoImplicitGEMM = 5, /*!< Implicit GEMM convolutions */
} miopenConvAlgorithm_t;

/*! @struct miopenConvAlgoPerf_t
 * Perf struct for forward, backward filter, or backward data algorithms: the algorithm, its
 * measured time in ms and the workspace it needs in bytes.
 */
typedef struct
{
    union
    {
        miopenConvFwdAlgorithm_t fwd_algo;               /*!< Forward convolution algorithm enum selection */
        miopenConvBwdWeightsAlgorithm_t bwd_weights_algo; /*!< Back propagation on weights convolution algorithm enum selection */
        miopenConvBwdDataAlgorithm_t bwd_data_algo;       /*!< Back propagation on data convolution algorithm enum selection */
    };
    float time;    /*!< Time to execute the selected algorithm represented in the union */
    size_t memory; /*!< Workspace required to run the selected algorithm represented in the union */
} miopenConvAlgoPerf_t;

/*! @struct miopenConvSolution_t
 * Performance struct for forward, backward filter, or backward data algorithms in immediate mode.
 */
typedef struct
{
    float time; /*!< Represents the approximate time required to execute this solution on the GPU, in milliseconds. */
    size_t workspace_size;           /*!< Workspace required to run the selected algorithm represented in the union */
    uint64_t solution_id;            /*!< Identifier for the returned solution */
    miopenConvAlgorithm_t algorithm; /*!< The algorithm used by the solution. */
} miopenConvSolution_t;

/* ------------------------------------------------------------------------------------------ */
/* Tensor                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Create a Tensor Descriptor
 * @param tensorDesc Pointer to a tensor descriptor type (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc);

/*! @brief Set shape of a packed 4D NCHW tensor
 * @param tensorDesc Tensor descriptor (input/output)
 * @param dataType   MIOpen datatype (input)
 * @param n          Mini-batch size (input)
 * @param c          Number of channels (input)
 * @param h          Data height dimension size (input)
 * @param w          Data width dimension size (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptor(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w);

/*! @brief Set shape of ND tensor with specific layout
 *
 * lens are given in the layout's logical order N, C, (D,) H, W whatever the memory layout;
 * the strides follow from the layout.
 * @param tensorDesc   Tensor descriptor (input/output)
 * @param dataType     MIOpen datatype (input)
 * @param tensorLayout Tensor layout (input)
 * @param lens         Tensor dimensions (input)
 * @param num_lens     Tensor dimension size (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                      miopenDataType_t dataType,
                                      miopenTensorLayout_t tensorLayout,
                                      const int* lens,
                                      int num_lens);

/*! @brief Set shape and stride of 4D tensor
 * @param tensorDesc Tensor descriptor (input/output)
 * @param dataType   MIOpen datatype (input)
 * @param n,c,h,w    Dimension sizes (input)
 * @param nStride,cStride,hStride,wStride  Dimension strides in elements (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                           miopenDataType_t dataType,
                                                           int n,
                                                           int c,
                                                           int h,
                                                           int w,
                                                           int nStride,
                                                           int cStride,
                                                           int hStride,
                                                           int wStride);

/*! @brief Get the details of a 4-D tensor descriptor
 * @param tensorDesc Tensor descriptor (input)
 * @param dataType   MIOpen datatype (output)
 * @param n,c,h,w    Dimension sizes (output)
 * @param nStride,cStride,hStride,wStride  Dimension strides (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t* dataType,
                                                         int* n,
                                                         int* c,
                                                         int* h,
                                                         int* w,
                                                         int* nStride,
                                                         int* cStride,
                                                         int* hStride,
                                                         int* wStride);

/*! @brief Set shape of N-dimensional tensor
 *
 * stridesA may be NULL for a packed tensor.
 * @param tensorDesc   Tensor descriptor (input/output)
 * @param dataType     MIOpen datatype (input)
 * @param nbDims       Number of dimensions in the dimsA array (input)
 * @param dimsA        Array containing the size of dimensions (input)
 * @param stridesA     Array containing the size of stride (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t dataType,
                                                       int nbDims,
                                                       const int* dimsA,
                                                       const int* stridesA);

/*! @brief Get the number of dimensions of a tensor descriptor
 * @param tensorDesc   Tensor descriptor (input)
 * @param size         number of dimensions (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                           int* size);

/*! @brief Get the details of the N-dimensional tensor descriptor.
 * @param tensorDesc Tensor descriptor (input)
 * @param dataType   MIOpen datatype (output)
 * @param dimsA      Array containing the size of dimensions (output)
 * @param stridesA   Array containing the size of stride (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t* dataType,
                                                       int* dimsA,
                                                       int* stridesA);

/*! @brief Destroys the tensor descriptor
 * @param tensorDesc Tensor descriptor (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc);

/*! @brief Execute element-wise tensor operations: C = op(alpha1 * A, alpha2 * B) + beta * C
 *
 * A and C have the same lengths; each dimension of B is 1 or equal to C's.
 * @param handle     MIOpen handle (input)
 * @param tensorOp   Operation from miopenTensorOp_t (input)
 * @param alpha1     Tensor A's scaling factor, allocated on the host (input)
 * @param aDesc      Tensor descriptor for tensor A (input)
 * @param A          Tensor A (input)
 * @param alpha2     Tensor B's scaling factor, allocated on the host (input)
 * @param bDesc      Tensor descriptor for tensor B (input)
 * @param B          Tensor B (input)
 * @param beta       Tensor C's scaling factor, allocated on the host (input)
 * @param cDesc      Tensor descriptor for tensor C (input)
 * @param C          Tensor C (input and output)
 */
MIOPEN_EXPORT miopenStatus_t miopenOpTensor(miopenHandle_t handle,
                                            miopenTensorOp_t tensorOp,
                                            const void* alpha1,
                                            const miopenTensorDescriptor_t aDesc,
                                            const void* A,
                                            const void* alpha2,
                                            const miopenTensorDescriptor_t bDesc,
                                            const void* B,
                                            const void* beta,
                                            const miopenTensorDescriptor_t cDesc,
                                            void* C);

/*! @brief Fills a tensor with a single value.
 *
 * Supported datatypes are fp32, fp16, bfp16, int8 and int32.
 *
 * @param handle     MIOpen handle (input)
 * @param yDesc      Tensor descriptor for tensor y (input)
 * @param y          Tensor y (output)
 * @param alpha      Pointer to the fill value on the host, of y's data type (a float for fp32, a
 *                   half for fp16, ...), as MIOpen and cuDNN read it (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetTensor(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t yDesc,
                                             void* y,
                                             const void* alpha);

/*! @brief Scales all elements in a tensor by a single value.
 * @param handle     MIOpen handle (input)
 * @param yDesc      Tensor descriptor for tensor y (input)
 * @param y          Tensor y (input and output)
 * @param alpha      Floating point scaling factor, allocated on the host (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenScaleTensor(miopenHandle_t handle,
                                               const miopenTensorDescriptor_t yDesc,
                                               void* y,
                                               const void* alpha);

/*! @brief Returns number of bytes associated with tensor descriptor
 *
 * The bytes spanned by the descriptor: (largest element offset + 1) * element size.
 * @param tensorDesc Tensor descriptor (input)
 * @param numBytes   Number of bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                     size_t* numBytes);

/*! @brief Copies one tensor to another with a different layout/scale: Y = alpha * X + beta * Y
 * @param handle     MIOpen handle (input)
 * @param alpha      Floating point scaling factor, allocated on the host (input)
 * @param xDesc      Source Tensor descriptor for tensor x (input)
 * @param x          Source Tensor x (input)
 * @param beta       Floating point scaling factor, allocated on the host (input)
 * @param yDesc      Destination Tensor descriptor for tensor y (input)
 * @param y          Destination Tensor y (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenTransformTensor(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   void* y);

/* ------------------------------------------------------------------------------------------ */
/* Convolution                                                                                */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Creates a convolution layer descriptor
 * @param convDesc   Convolution layer descriptor (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc);

/*! @brief Creates a 2-D convolution layer descriptor
 * @param convDesc   Convolution layer descriptor (output)
 * @param c_mode     Convolutional mode (input)
 * @param pad_h      Height input data padding (input)
 * @param pad_w      Width input data padding (input)
 * @param stride_h   Stride for the height of input data (input)
 * @param stride_w   Stride for the width of input data (input)
 * @param dilation_h Dilation height (input)
 * @param dilation_w Dilation width (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                             miopenConvolutionMode_t c_mode,
                                                             int pad_h,
                                                             int pad_w,
                                                             int stride_h,
                                                             int stride_w,
                                                             int dilation_h,
                                                             int dilation_w);

/*! @brief Creates a N-dimensional convolution layer descriptor
 * @param convDesc      Convolution layer descriptor (output)
 * @param spatialDim    Convolutional spatial dimension, 1 to 3 (input)
 * @param padA          Array of input data padding (input)
 * @param strideA       Array of convolution stride (input)
 * @param dilationA     Array of convolution dilation (input)
 * @param c_mode        Convolutional mode (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                  int spatialDim,
                                  const int* padA,
                                  const int* strideA,
                                  const int* dilationA,
                                  miopenConvolutionMode_t c_mode);

/*! @brief Retrieves the spatial dimension of a convolution layer descriptor
 * @param convDesc              Convolution layer descriptor (input)
 * @param spatialDim            Spatial dimension of convolution descriptor (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                            int* spatialDim);

/*! @brief Retrieves a 2-D convolution layer descriptor's details
 * @param convDesc   Convolution layer descriptor (input)
 * @param c_mode     Convolutional mode (output)
 * @param pad_h      Height input data padding (output)
 * @param pad_w      Width input data padding (output)
 * @param stride_h   Stride for the height of input data (output)
 * @param stride_w   Stride for the width of input data (output)
 * @param dilation_h Dilation height (output)
 * @param dilation_w Dilation width (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            miopenConvolutionMode_t* c_mode,
                                                            int* pad_h,
                                                            int* pad_w,
                                                            int* stride_h,
                                                            int* stride_w,
                                                            int* dilation_h,
                                                            int* dilation_w);

/*! @brief Retrieves a N-dimensional convolution layer descriptor's details
 * @param convDesc               Convolution layer descriptor (input)
 * @param requestedSpatialDim    Expected convolution spatial dimension (input)
 * @param spatialDim             Convolutional spatial dimension (output)
 * @param padA                   Array of input data padding (output)
 * @param strideA                Array of convolution stride (output)
 * @param dilationA              Array of convolution dilation (output)
 * @param c_mode                 Convolutional mode (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                 int requestedSpatialDim,
                                 int* spatialDim,
                                 int* padA,
                                 int* strideA,
                                 int* dilationA,
                                 miopenConvolutionMode_t* c_mode);

/*! @brief Get the number of groups to be used in Group/Depthwise convolution
 * @param convDesc   Convolution layer descriptor (input)
 * @param groupCount Pointer to number of groups in group/depthwise convolution (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int* groupCount);

/*! @brief Set the number of groups to be used in Group/Depthwise convolution
 * @param convDesc   Convolution layer descriptor (output)
 * @param groupCount number of groups, >= 1 (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int groupCount);

/*! @brief Set the output padding to be used in 2-D Transpose convolution
 * @param convDesc   Convolution layer descriptor (output)
 * @param adj_h      output padding for the height of output data (input)
 * @param adj_w      output padding for the width of output data (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetTransposeConvOutputPadding(miopenConvolutionDescriptor_t convDesc, int adj_h, int adj_w);

/*! @brief Set the output padding to be used in N-dimensional Transpose convolution
 * @param convDesc      Convolution layer descriptor (output)
 * @param spatialDim    Convolutional spatial dimension (input)
 * @param adjA          array of output padding for output data (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetTransposeConvNdOutputPadding(
    miopenConvolutionDescriptor_t convDesc, int spatialDim, const int* adjA);

/*! @brief Get the shape of a resulting 4-D tensor from a 2-D convolution
 * @param convDesc          Convolution layer descriptor (input)
 * @param inputTensorDesc   Input data tensor descriptor (input)
 * @param filterDesc        Weight descriptor (input)
 * @param n,c,h,w           Output dimensions (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                     const miopenTensorDescriptor_t inputTensorDesc,
                                     const miopenTensorDescriptor_t filterDesc,
                                     int* n,
                                     int* c,
                                     int* h,
                                     int* w);

/*! @brief Get the shape of a resulting N-dimensional tensor from a (N-2)-dimensional convolution
 * @param convDesc          Convolution layer descriptor (input)
 * @param inputTensorDesc   Input data tensor descriptor (input)
 * @param filterDesc        Weight descriptor (input)
 * @param nDim              Pointer to Output data tensor dimension (output)
 * @param outputTensorDimA  Array of Output data tensor length (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionNdForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t inputTensorDesc,
                                       const miopenTensorDescriptor_t filterDesc,
                                       int* nDim,
                                       int* outputTensorDimA);

/*! @brief Destroys the convolution descriptor object
 * @param convDesc Convolution descriptor (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc);

/*! @brief Set the attribute of the convolution descriptor
 * @param convDesc          Convolution layer descriptor (input)
 * @param attr              Attribute of this convolution to set (input)
 * @param value             Value of this attribute (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int value);

/*! @brief Get the attribute of the convolution descriptor
 * @param convDesc          Convolution layer descriptor (input)
 * @param attr              Attribute of this convolution to get (input)
 * @param value             Value of this attribute (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int* value);

/*! @brief Query the workspace size required for a forward convolution layer: the largest
 * workspace of the applicable, enabled solvers.
 * @param handle         MIOpen handle (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param xDesc          Tensor descriptor for input data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param workSpaceSize  Pointer to memory to return size in bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* workSpaceSize);

/*! @brief Search and run the forward convolutional algorithms and return a list of kernel times.
 *
 * Runs every applicable, enabled solver that fits in workSpaceSize on the given buffers, and
 * returns the best solver of each algorithm sorted by time (at most requestAlgoCount entries).
 * Results are recorded in the find-db. y is overwritten.
 * @param handle             MIOpen handle (input)
 * @param xDesc              Tensor descriptor for data input tensor x (input)
 * @param x                  Data tensor x (input)
 * @param wDesc              Tensor descriptor for weight tensor w (input)
 * @param w                  Weights tensor w (input)
 * @param convDesc           Convolution layer descriptor (input)
 * @param yDesc              Tensor descriptor for output data tensor y (input)
 * @param y                  Data tensor y (output)
 * @param requestAlgoCount   Number of algorithms to return kernel times (input)
 * @param returnedAlgoCount  Pointer to number of algorithms returned (output)
 * @param perfResults        Pointer to union of best algorithm for forward and backwards (output)
 * @param workSpace          Pointer to workspace buffer (input)
 * @param workSpaceSize      Size in bytes of the workspace buffer (input)
 * @param exhaustiveSearch   A boolean to toggle a full search of all algorithms and configurations (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionForwardAlgorithm(miopenHandle_t handle,
                                      const miopenTensorDescriptor_t xDesc,
                                      const void* x,
                                      const miopenTensorDescriptor_t wDesc,
                                      const void* w,
                                      const miopenConvolutionDescriptor_t convDesc,
                                      const miopenTensorDescriptor_t yDesc,
                                      void* y,
                                      const int requestAlgoCount,
                                      int* returnedAlgoCount,
                                      miopenConvAlgoPerf_t* perfResults,
                                      void* workSpace,
                                      size_t workSpaceSize,
                                      bool exhaustiveSearch);

/*! @brief Execute a forward convolution layer: y = alpha * conv(x, w) + beta * y
 *
 * Runs the best known solver of `algo` (from the find-db, else the heuristic choice).
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param w              Weights tensor w (inputs)
 * @param convDesc       Convolution layer descriptor (inputs)
 * @param algo           Algorithm selected (inputs)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 * @param workSpace      Pointer to workspace required (input)
 * @param workSpaceSize  Size in bytes of the memory determined by the find step (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForward(miopenHandle_t handle,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t xDesc,
                                                      const void* x,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const void* w,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      miopenConvFwdAlgorithm_t algo,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      void* y,
                                                      void* workSpace,
                                                      size_t workSpaceSize);

/*! @brief Get the workspace required for the backward data convolution: the largest workspace
 * of the applicable, enabled solvers.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param workSpaceSize  Size in bytes of the memory required (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetWorkSpaceSize(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* workSpaceSize);

/*! @brief Search and run the backwards data convolution algorithms and return a list of kernel
 * times (see miopenFindConvolutionForwardAlgorithm). dx is overwritten.
 * @param handle             MIOpen handle (input)
 * @param dyDesc             Tensor descriptor for data input tensor dy (input)
 * @param dy                 Data delta tensor dy (input)
 * @param wDesc              Tensor descriptor for weight tensor w (input)
 * @param w                  Weights tensor w (input)
 * @param convDesc           Convolution layer descriptor (input)
 * @param dxDesc             Tensor descriptor for output data tensor dx (input)
 * @param dx                 Data delta tensor dx (output)
 * @param requestAlgoCount   Number of algorithms to return kernel times (input)
 * @param returnedAlgoCount  Pointer to number of algorithms returned (output)
 * @param perfResults        Pointer to union of best algorithm for forward and backwards (output)
 * @param workSpace          Pointer to workspace buffer (input)
 * @param workSpaceSize      Size in bytes of the workspace buffer (input)
 * @param exhaustiveSearch   A boolean to toggle a full search of all algorithms and configurations (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionBackwardDataAlgorithm(miopenHandle_t handle,
                                           const miopenTensorDescriptor_t dyDesc,
                                           const void* dy,
                                           const miopenTensorDescriptor_t wDesc,
                                           const void* w,
                                           const miopenConvolutionDescriptor_t convDesc,
                                           const miopenTensorDescriptor_t dxDesc,
                                           void* dx,
                                           const int requestAlgoCount,
                                           int* returnedAlgoCount,
                                           miopenConvAlgoPerf_t* perfResults,
                                           void* workSpace,
                                           size_t workSpaceSize,
                                           bool exhaustiveSearch);

/*! @brief Execute a backward data convolution layer: dx = alpha * conv_bwd_data(dy, w) + beta * dx
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param w              Weights tensor w (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param algo           Algorithm selected (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param dx             Data delta tensor dx (output)
 * @param workSpace      Pointer to workspace required for the search (input)
 * @param workSpaceSize  Size in bytes of the memory needed for find (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardData(miopenHandle_t handle,
                              const void* alpha,
                              const miopenTensorDescriptor_t dyDesc,
                              const void* dy,
                              const miopenTensorDescriptor_t wDesc,
                              const void* w,
                              const miopenConvolutionDescriptor_t convDesc,
                              miopenConvBwdDataAlgorithm_t algo,
                              const void* beta,
                              const miopenTensorDescriptor_t dxDesc,
                              void* dx,
                              void* workSpace,
                              size_t workSpaceSize);

/*! @brief Get the workspace required for the backward weights convolution: the largest
 * workspace of the applicable, enabled solvers.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param xDesc          Tensor descriptor for data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dwDesc         Tensor descriptor for output weights tensor dw (input)
 * @param workSpaceSize  Size in bytes of the memory required (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetWorkSpaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* workSpaceSize);

/*! @brief Search and run the backwards weights convolutional algorithms and return a list of
 * kernel times (see miopenFindConvolutionForwardAlgorithm). dw is overwritten.
 * @param handle             MIOpen handle (input)
 * @param dyDesc             Tensor descriptor for data input tensor dy (input)
 * @param dy                 Data delta tensor dy (input)
 * @param xDesc              Tensor descriptor for output data tensor x (input)
 * @param x                  Data delta tensor dx (input)
 * @param convDesc           Convolution layer descriptor (input)
 * @param dwDesc             Tensor descriptor for weight tensor dw (input)
 * @param dw                 Weights delta tensor dw (output)
 * @param requestAlgoCount   Number of algorithms to return kernel times (input)
 * @param returnedAlgoCount  Pointer to number of algorithms returned (output)
 * @param perfResults        Pointer to union of best algorithm for forward and backwards (output)
 * @param workSpace          Pointer to workspace buffer (input)
 * @param workSpaceSize      Size in bytes of the workspace buffer (input)
 * @param exhaustiveSearch   A boolean to toggle a full search of all algorithms and configurations (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionBackwardWeightsAlgorithm(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const void* dy,
                                              const miopenTensorDescriptor_t xDesc,
                                              const void* x,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dwDesc,
                                              void* dw,
                                              const int requestAlgoCount,
                                              int* returnedAlgoCount,
                                              miopenConvAlgoPerf_t* perfResults,
                                              void* workSpace,
                                              size_t workSpaceSize,
                                              bool exhaustiveSearch);

/*! @brief Execute a backward weights convolution layer: dw = alpha * conv_bwd_weights(dy, x) + beta * dw
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param dyDesc         Tensor descriptor for data tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param xDesc          Tensor descriptor for data tensor x (input)
 * @param x              Data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param algo           Algorithm selected (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dwDesc         Tensor descriptor for weight tensor dw (input)
 * @param dw             Weights delta tensor dw (output)
 * @param workSpace      Pointer to workspace required for the search (input)
 * @param workSpaceSize  Size in bytes of the memory needed for find (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeights(miopenHandle_t handle,
                                 const void* alpha,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenConvolutionDescriptor_t convDesc,
                                 miopenConvBwdWeightsAlgorithm_t algo,
                                 const void* beta,
                                 const miopenTensorDescriptor_t dwDesc,
                                 void* dw,
                                 void* workSpace,
                                 size_t workSpaceSize);

/* ------------------------------------------------------------------------------------------ */
/* Convolution immediate mode                                                                 */
/* ------------------------------------------------------------------------------------------ */
/* The solutions of a problem are the enabled solvers that can run it. miopenConvolution*GetSolution
 * orders them by the find-db time when a record for the problem exists (those first), else by
 * each solver's heuristic estimate (miopen_cy: a roofline-style model of the solver's
 * multiply-adds and memory traffic); `time` holds that figure. An id that is no solver, or whose
 * solver does not apply to the problem, is miopenStatusBadParm naming the solver and the reason. */

/*! @brief Query the maximum number of solutions applicable for the given input/output and
 * weights tensor descriptor for Convolution in the Forward direction.
 * @param handle         MIOpen handle (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param xDesc          Tensor descriptor for input data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param solutionCount  Pointer to memory to return number of applicable solutions (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolutionCount(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* solutionCount);

/*! @brief Query the applicable solutions for a forward convolution, best first.
 * @param handle            MIOpen handle (input)
 * @param wDesc             Tensor descriptor for weight tensor w (input)
 * @param xDesc             Tensor descriptor for input data tensor x (input)
 * @param convDesc          Convolution layer descriptor (input)
 * @param yDesc             Tensor descriptor for output data tensor y (input)
 * @param maxSolutionCount  The size of the solutions array passed in below (input)
 * @param solutionCount     The size of the solutions array returned (output)
 * @param solutions         A pointer to an array of miopenConvSolution_t (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolution(miopenHandle_t handle,
                                    const miopenTensorDescriptor_t wDesc,
                                    const miopenTensorDescriptor_t xDesc,
                                    const miopenConvolutionDescriptor_t convDesc,
                                    const miopenTensorDescriptor_t yDesc,
                                    const size_t maxSolutionCount,
                                    size_t* solutionCount,
                                    miopenConvSolution_t* solutions);

/*! @brief Returns the workspace size required for a particular solution id.
 * @param handle         MIOpen handle (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param xDesc          Tensor descriptor for input data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param solution_id    ID of the solution for which workspace size is required (input)
 * @param workSpaceSize  The size of the workspace (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t wDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t yDesc,
                                                 const uint64_t solution_id,
                                                 size_t* workSpaceSize);

/*! @brief Compiles the solution provided by the user (on the CPU: checks it and prepares it).
 * @param handle         MIOpen handle (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param xDesc          Tensor descriptor for input data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param solution_id    ID of the solution to be compiled (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardCompileSolution(miopenHandle_t handle,
                                        const miopenTensorDescriptor_t wDesc,
                                        const miopenTensorDescriptor_t xDesc,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        const miopenTensorDescriptor_t yDesc,
                                        const uint64_t solution_id);

/*! @brief Executes the forward convolution operation based on the provided solution ID.
 * @param handle         MIOpen handle (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param w              Weights tensor w (input)
 * @param xDesc          Tensor descriptor for input data tensor x (input)
 * @param x              Data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 * @param workSpace      Workspace tensor (input)
 * @param workSpaceSize  Size of the memory in bytes pointed to by workSpace above (input)
 * @param solution_id    ID of the solver to be used for computing the convolution (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardImmediate(miopenHandle_t handle,
                                  const miopenTensorDescriptor_t wDesc,
                                  const void* w,
                                  const miopenTensorDescriptor_t xDesc,
                                  const void* x,
                                  const miopenConvolutionDescriptor_t convDesc,
                                  const miopenTensorDescriptor_t yDesc,
                                  void* y,
                                  void* workSpace,
                                  size_t workSpaceSize,
                                  const uint64_t solution_id);

/*! @brief Query the maximum number of solutions applicable for a backward data convolution.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param solutionCount  Pointer to memory to return number of applicable solutions (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolutionCount(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* solutionCount);

/*! @brief Query the applicable solutions for a backward data convolution, best first.
 * @param handle            MIOpen handle (input)
 * @param dyDesc            Tensor descriptor for data input tensor dy (input)
 * @param wDesc             Tensor descriptor for weight tensor w (input)
 * @param convDesc          Convolution layer descriptor (input)
 * @param dxDesc            Tensor descriptor for output data tensor dx (input)
 * @param maxSolutionCount  The size of the solutions array passed in below (input)
 * @param solutionCount     The size of the solutions array returned (output)
 * @param solutions         A pointer to an array of miopenConvSolution_t (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolution(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t dyDesc,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t dxDesc,
                                         const size_t maxSolutionCount,
                                         size_t* solutionCount,
                                         miopenConvSolution_t* solutions);

/*! @brief Returns the workspace size required for a particular backward data solution id.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param solution_id    ID of the solution for which workspace size is required (input)
 * @param workSpaceSize  The size of the workspace (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      const uint64_t solution_id,
                                                      size_t* workSpaceSize);

/*! @brief Compiles the backward data solution provided by the user.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param solution_id    ID of the solution to be compiled (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataCompileSolution(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t dyDesc,
                                             const miopenTensorDescriptor_t wDesc,
                                             const miopenConvolutionDescriptor_t convDesc,
                                             const miopenTensorDescriptor_t dxDesc,
                                             const uint64_t solution_id);

/*! @brief Executes the backward data convolution based on the provided solution ID.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param wDesc          Tensor descriptor for weight tensor w (input)
 * @param w              Weights tensor w (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param dx             Data delta tensor dx (output)
 * @param workSpace      Workspace tensor (input)
 * @param workSpaceSize  Size in bytes of the workspace memory (input)
 * @param solution_id    ID of the solver to be used (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataImmediate(miopenHandle_t handle,
                                       const miopenTensorDescriptor_t dyDesc,
                                       const void* dy,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t dxDesc,
                                       void* dx,
                                       void* workSpace,
                                       size_t workSpaceSize,
                                       const uint64_t solution_id);

/*! @brief Query the maximum number of solutions applicable for a backward weights convolution.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param xDesc          Tensor descriptor for data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dwDesc         Tensor descriptor for weight tensor dw (input)
 * @param solutionCount  Pointer to memory to return number of applicable solutions (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolutionCount(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* solutionCount);

/*! @brief Query the applicable solutions for a backward weights convolution, best first.
 * @param handle            MIOpen handle (input)
 * @param dyDesc            Tensor descriptor for data input tensor dy (input)
 * @param xDesc             Tensor descriptor for data tensor x (input)
 * @param convDesc          Convolution layer descriptor (input)
 * @param dwDesc            Tensor descriptor for weight tensor dw (input)
 * @param maxSolutionCount  The size of the solutions array passed in below (input)
 * @param solutionCount     The size of the solutions array returned (output)
 * @param solutions         A pointer to an array of miopenConvSolution_t (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolution(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t dyDesc,
                                            const miopenTensorDescriptor_t xDesc,
                                            const miopenConvolutionDescriptor_t convDesc,
                                            const miopenTensorDescriptor_t dwDesc,
                                            const size_t maxSolutionCount,
                                            size_t* solutionCount,
                                            miopenConvSolution_t* solutions);

/*! @brief Returns the workspace size required for a particular backward weights solution id.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param xDesc          Tensor descriptor for data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dwDesc         Tensor descriptor for weight tensor dw (input)
 * @param solution_id    ID of the solution for which workspace size is required (input)
 * @param workSpaceSize  The size of the workspace (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                         const miopenTensorDescriptor_t dyDesc,
                                                         const miopenTensorDescriptor_t xDesc,
                                                         const miopenConvolutionDescriptor_t convDesc,
                                                         const miopenTensorDescriptor_t dwDesc,
                                                         const uint64_t solution_id,
                                                         size_t* workSpaceSize);

/*! @brief Compiles the backward weights solution provided by the user.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param xDesc          Tensor descriptor for data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dwDesc         Tensor descriptor for weight tensor dw (input)
 * @param solution_id    ID of the solution to be compiled (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsCompileSolution(miopenHandle_t handle,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const miopenTensorDescriptor_t xDesc,
                                                const miopenConvolutionDescriptor_t convDesc,
                                                const miopenTensorDescriptor_t dwDesc,
                                                const uint64_t solution_id);

/*! @brief Executes the backward weights convolution based on the provided solution ID.
 * @param handle         MIOpen handle (input)
 * @param dyDesc         Tensor descriptor for data tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param xDesc          Tensor descriptor for data tensor x (input)
 * @param x              Data tensor x (input)
 * @param convDesc       Convolution layer descriptor (input)
 * @param dwDesc         Tensor descriptor for weight tensor dw (input)
 * @param dw             Weights delta tensor dw (output)
 * @param workSpace      Workspace tensor (input)
 * @param workSpaceSize  Size in bytes of the workspace memory (input)
 * @param solution_id    ID of the solver to be used (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsImmediate(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t dyDesc,
                                          const void* dy,
                                          const miopenTensorDescriptor_t xDesc,
                                          const void* x,
                                          const miopenConvolutionDescriptor_t convDesc,
                                          const miopenTensorDescriptor_t dwDesc,
                                          void* dw,
                                          void* workSpace,
                                          size_t workSpaceSize,
                                          const uint64_t solution_id);

/* ------------------------------------------------------------------------------------------ */
/* Find 2.0                                                                                   */
/* ------------------------------------------------------------------------------------------ */

MIOPEN_DECLARE_OBJECT(miopenProblem);
MIOPEN_DECLARE_OBJECT(miopenFindOptions);
MIOPEN_DECLARE_OBJECT(miopenSolution);

/*! @enum miopenProblemDirection_t
 * The direction of a convolution problem.
 */
typedef enum
{
    miopenProblemDirectionForward         = 0,
    miopenProblemDirectionBackward        = 1,
    miopenProblemDirectionBackwardWeights = 2,
} miopenProblemDirection_t;

/*! @enum miopenTensorArgumentId_t
 * The role of a tensor in a problem (a convolution: x, w, y whatever the direction; in the
 * backward directions x is dx and y is dy, w is dw in backward weights).
 */
typedef enum
{
    miopenTensorArgumentIdInvalid = 0,
    miopenTensorConvolutionX      = 1,
    miopenTensorConvolutionW      = 2,
    miopenTensorConvolutionY      = 3,
} miopenTensorArgumentId_t;

/*! @enum miopenFindResultsOrder_t
 * The order of the solutions miopenFindSolutions returns.
 */
typedef enum
{
    miopenFindResultsOrderByTime          = 0,
    miopenFindResultsOrderByWorkspaceSize = 1,
} miopenFindResultsOrder_t;

/*! @struct miopenTensorArgument_t
 * One tensor of a miopenRunSolution call: its role, an optional descriptor (NULL: the problem's)
 * and its buffer.
 */
typedef struct
{
    miopenTensorArgumentId_t id;          /*!< The role of the tensor */
    miopenTensorDescriptor_t* descriptor; /*!< Its descriptor, or NULL for the problem's */
    void* buffer;                         /*!< Its data */
} miopenTensorArgument_t;

/*! @brief Initializes a problem object describing a convolution operation.
 * @param problem      Pointer to the problem to initialize (output)
 * @param operatorDesc Descriptor of the operator to be used (input)
 * @param direction    Direction of the operation (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateConvProblem(miopenProblem_t* problem,
                                                     miopenConvolutionDescriptor_t operatorDesc,
                                                     miopenProblemDirection_t direction);

/*! @brief Destroys a problem object.
 * @param problem Problem to destroy (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyProblem(miopenProblem_t problem);

/*! @brief Sets a tensor descriptor for the specified argument of a problem (copied).
 * @param problem    Problem to update (input)
 * @param id         Id of the tensor to set (input)
 * @param descriptor Tensor descriptor to set (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetProblemTensorDescriptor(miopenProblem_t problem,
                                                              miopenTensorArgumentId_t id,
                                                              const miopenTensorDescriptor_t descriptor);

/*! @brief Initializes a find options object (defaults: no tuning, by time, no workspace limit).
 * @param options Pointer to options object to initialize (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t* options);

/*! @brief Destroys a find options object.
 * @param options Options object to destroy (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options);

/*! @brief Sets the tuning find option (0: off, nonzero: exhaustive search). Default is off.
 * @param options Options object to update (input)
 * @param value   Value of the tuning option (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value);

/*! @brief Sets the results order find option. Default is by time.
 * @param options Options object to update (input)
 * @param value   Value of the results order option (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options,
                                                             miopenFindResultsOrder_t value);

/*! @brief Sets the workspace limit find option: solutions needing more are not returned.
 * Default is no limit.
 * @param options Options object to update (input)
 * @param value   Value of the workspace limit option in bytes (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options,
                                                               size_t value);

/*! @brief Gives miopenFindSolutions a workspace to benchmark with, instead of allocating one.
 * Solutions needing more than `size` bytes are not returned.
 * @param options Options object to update (input)
 * @param buffer  The workspace buffer (input)
 * @param size    Its size in bytes (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options,
                                                                      void* buffer,
                                                                      size_t size);

/*! @brief Gives miopenFindSolutions a buffer for one tensor to benchmark with, instead of
 * allocating one. The buffer may be overwritten.
 * @param options Options object to update (input)
 * @param id      Id of the tensor (input)
 * @param buffer  The buffer (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options,
                                                                   miopenTensorArgumentId_t id,
                                                                   void* buffer);

/*! @brief Finds solutions to a problem by running different applicable solutions. Memory is
 * allocated for the tensors and the workspace unless preallocated in the options.
 * @param handle       Handle to execute the kernels (input)
 * @param problem      Problem to solve (input)
 * @param options      Find options, or NULL for the defaults (input)
 * @param solutions    Pointer to the first result; must not be null (output)
 * @param numSolutions Pointer to the amount of results; ignored if null (output)
 * @param maxSolutions Limit for the amount of results (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenFindSolutions(miopenHandle_t handle,
                                                 miopenProblem_t problem,
                                                 miopenFindOptions_t options,
                                                 miopenSolution_t* solutions,
                                                 size_t* numSolutions,
                                                 size_t maxSolutions);

/*! @brief Runs the solution using the passed in buffers.
 * @param handle        Handle to execute the kernels (input)
 * @param solution      Solution to execute (input)
 * @param nInputs       Amount of inputs for the solution (input)
 * @param tensors       Tensor arguments described by miopenTensorArgument_t (input)
 * @param workspace     Pointer to device buffer used as workspace; may be null if the solution
 *                      needs none (input)
 * @param workspaceSize Size of the workspace buffer in bytes (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenRunSolution(miopenHandle_t handle,
                                               miopenSolution_t solution,
                                               size_t nInputs,
                                               const miopenTensorArgument_t* tensors,
                                               void* workspace,
                                               size_t workspaceSize);

/*! @brief Destroys a solution object.
 * @param solution Solution to destroy (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroySolution(miopenSolution_t solution);

/*! @brief Loads a solution from binary data written by miopenSaveSolution (versioned and
 * checksummed: a damaged blob is miopenStatusBadParm).
 * @param solution Pointer to the solution to load (output)
 * @param data     Data to load the solution from (input)
 * @param size     Size of the data (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenLoadSolution(miopenSolution_t* solution,
                                                const char* data,
                                                size_t size);

/*! @brief Saves a solution object as binary data.
 * @param solution Solution to save (input)
 * @param data     Pointer to a buffer of miopenGetSolutionSize bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char* data);

/*! @brief Reads the expected size of a solution.
 * @param solution Solution to get size of (input)
 * @param size     Size in bytes to save the solution (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t* size);

/*! @brief Reads the amount of time the solution took to run (or its estimate), in ms.
 * @param solution Solution to read the time of (input)
 * @param time     The time in ms (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float* time);

/*! @brief Reads the amount of workspace required to run the solution.
 * @param solution      Solution to read the workspace size of (input)
 * @param workspaceSize Workspace size in bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution,
                                                            size_t* workspaceSize);

/*! @brief Reads the id of the solver referred by the solution.
 * @param solution Solution to get the solver id of (input)
 * @param solverId The solver id (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution, uint64_t* solverId);

/*! @brief Gets the convolution algorithm implemented by a solver.
 * @param solverId Solver id to get the algorithm of (input)
 * @param result   The algorithm (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId,
                                                            miopenConvAlgorithm_t* result);

/*! @brief miopen_cy extension: the data type and byte size (largest offset + 1) of one tensor of a
 * solution's problem, so bindings can check a buffer's size before miopenRunSolution.
 * @param solution  Solution (input)
 * @param id        Tensor role (input)
 * @param dataType  Its data type (output)
 * @param numBytes  Bytes its buffer must hold (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetSolutionTensor(miopenSolution_t solution,
                                                       miopenTensorArgumentId_t id,
                                                       miopenDataType_t* dataType,
                                                       size_t* numBytes);

/*! @brief miopen_cy extension: sets `tensorDesc` to one tensor of a solution's problem (data type,
 * lengths and strides), so bindings can check a strided (channels-last) buffer against it before
 * miopenRunSolution.
 * @param solution    Solution (input)
 * @param id          Tensor role (input)
 * @param tensorDesc  A created tensor descriptor, set to the tensor's (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetSolutionTensorDescriptor(miopenSolution_t solution,
                                                                 miopenTensorArgumentId_t id,
                                                                 miopenTensorDescriptor_t tensorDesc);

/* ------------------------------------------------------------------------------------------ */
/* Bias (convolution group)                                                                   */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Adds a per-channel bias in place: y = alpha * y + alpha * b + beta * y, b of shape
 * 1xCx1x1 (1xCx1x1x1 for 5-d y).
 *
 * This is MIOpen's definition (miopenOpTensor Add with y as both A and C), so y is always read;
 * with alpha = 1, beta = 0 it is y = y + b.
 * @param handle     MIOpen handle (input)
 * @param alpha      Floating point scaling factor, allocated on the host (input)
 * @param bDesc      Tensor descriptor for bias tensor b (input)
 * @param b          Bias tensor b (input)
 * @param beta       Floating point scaling factor, allocated on the host (input)
 * @param yDesc      Tensor descriptor for output data tensor y (input)
 * @param y          Output data tensor y (input and output)
 */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle,
                                                          const void* alpha,
                                                          const miopenTensorDescriptor_t bDesc,
                                                          const void* b,
                                                          const void* beta,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          void* y);

/*! @brief Calculates the gradient with respect to the bias:
 * db = alpha * sum_{n,[d,]h,w} dy + beta * db (MIOpen accepts only alpha = 1, beta = 0; this
 * library blends for any values, never reading db when beta = 0).
 * @param handle     MIOpen handle (input)
 * @param alpha      Floating point scaling factor, allocated on the host (input)
 * @param dyDesc     Tensor descriptor for the input gradient dy (input)
 * @param dy         Input gradient tensor dy (input)
 * @param beta       Floating point scaling factor, allocated on the host (input)
 * @param dbDesc     Tensor descriptor for the bias gradient db, 1xCx1x1 or 1xCx1x1x1 (input)
 * @param db         Bias gradient (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle,
                                                           const void* alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const void* beta,
                                                           const miopenTensorDescriptor_t dbDesc,
                                                           void* db);

/* ------------------------------------------------------------------------------------------ */
/* Pooling                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Creates a pooling layer descriptor
 * @param poolDesc   Pointer to a pooling layer descriptor (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t* poolDesc);

/*! @brief Set index data type for pooling layer. The default is miopenIndexUint8.
 *
 * As in MIOpen, miopenSet2dPoolingDescriptor and miopenSetNdPoolingDescriptor reset it to
 * miopenIndexUint8: call this after them. The largest value of the type is reserved, so it must
 * exceed the number of positions the indices count (window positions in mask mode, input image
 * positions in image mode); max pooling forward with do_backward checks this (BadParm).
 * @param poolDesc     Pointer to a pooling layer descriptor (input/output)
 * @param index_type   Index type (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                       miopenIndexType_t index_type);

/*! @brief Get the index data type for pooling layer.
 * @param poolDesc     Pointer to a pooling layer descriptor (input)
 * @param index_type   Index type (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                       miopenIndexType_t* index_type);

/*! @brief Set workspace index mode for pooling layer. The default is
 * miopenPoolingWorkspaceIndexMask; as in MIOpen, miopenSet2dPoolingDescriptor resets it to Mask
 * and miopenSetNdPoolingDescriptor to Mask (2 dims) or Image (3 dims): call this after them.
 * Mask records the max's position inside its window, ((kd * windowH + kh) * windowW + kw)
 * counted from the unclipped window start; Image its position in the input image,
 * (d * H + h) * W + w (PyTorch's return_indices).
 * @param poolDesc         Pointer to a pooling layer descriptor (input/output)
 * @param workspace_index  Workspace index mode (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t workspace_index);

/*! @brief Get workspace index mode for pooling layer.
 * @param poolDesc         Pointer to a pooling layer descriptor (input)
 * @param workspace_index  Workspace index mode (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t* workspace_index);

/*! @brief Sets a 2-D pooling layer descriptor details.
 *
 * Windows and strides must be >= 1, pads >= 0 and smaller than the window (every window then
 * holds an input element); otherwise BadParm and the descriptor is unchanged.
 * @param poolDesc       Pointer to a pooling layer descriptor (output)
 * @param mode           Pooling mode enum (input)
 * @param windowHeight   Input window height dimension (input)
 * @param windowWidth    Input window width dimension (input)
 * @param pad_h          Number of elements to pad height (input)
 * @param pad_w          Number of elements to pad width (input)
 * @param stride_h       Vertical stride (input)
 * @param stride_w       Horizontal stride (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                          miopenPoolingMode_t mode,
                                                          int windowHeight,
                                                          int windowWidth,
                                                          int pad_h,
                                                          int pad_w,
                                                          int stride_h,
                                                          int stride_w);

/*! @brief Gets a 2-D pooling layer descriptor details
 * @param poolDesc       Pooling layer descriptor (input)
 * @param mode           Pooling mode enum (output)
 * @param windowHeight   Input window height dimension (output)
 * @param windowWidth    Input window width dimension (output)
 * @param pad_h          Number of elements to pad height (output)
 * @param pad_w          Number of elements to pad width (output)
 * @param stride_h       Vertical stride (output)
 * @param stride_w       Horizontal stride (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                          miopenPoolingMode_t* mode,
                                                          int* windowHeight,
                                                          int* windowWidth,
                                                          int* pad_h,
                                                          int* pad_w,
                                                          int* stride_h,
                                                          int* stride_w);

/*! @brief Gets the shape of the output tensor for 2-D pooling:
 * floor((H + 2 * pad_h - windowHeight) / stride_h) + 1, likewise for W.
 * @param poolDesc   Pooling layer descriptor (input)
 * @param tensorDesc Input tensor descriptor (input)
 * @param n,c,h,w    Output dimensions (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                 const miopenTensorDescriptor_t tensorDesc,
                                 int* n,
                                 int* c,
                                 int* h,
                                 int* w);

/*! @brief Set details of an N-D pooling layer descriptor (nbDims spatial dimensions: 2 or 3)
 *
 * Same rules as miopenSet2dPoolingDescriptor; arrays in (D,) H, W order.
 * @param poolDesc     Pooling layer descriptor (input/output)
 * @param mode         Pooling mode enum (input)
 * @param nbDims       Number of spatial dimensions (input)
 * @param windowDimA   Array of window sizes (input)
 * @param padA         Array of paddings (input)
 * @param stridesA     Array of strides (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                          const miopenPoolingMode_t mode,
                                                          int nbDims,
                                                          const int* windowDimA,
                                                          const int* padA,
                                                          const int* stridesA);

/*! @brief Get details of an N-D pooling layer descriptor
 *
 * The arrays receive min(nbDimsRequested, nbDims) entries; any output may be null (skipped).
 * @param poolDesc         Pooling layer descriptor (input)
 * @param nbDimsRequested  Size of the output arrays (input)
 * @param mode             Pooling mode enum (output)
 * @param nbDims           Number of spatial dimensions (output)
 * @param windowDimA       Array of window sizes (output)
 * @param padA             Array of paddings (output)
 * @param stridesA         Array of strides (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetNdPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                          int nbDimsRequested,
                                                          miopenPoolingMode_t* mode,
                                                          int* nbDims,
                                                          int* windowDimA,
                                                          int* padA,
                                                          int* stridesA);

/*! @brief Gets the shape of the output tensor for N-D pooling
 * @param poolDesc      Pooling layer descriptor (input)
 * @param tensorDesc    Input tensor descriptor (input)
 * @param dims          Dimension of the pooling output tensor: spatial dims + 2 (input)
 * @param tensorDimArr  Array of output lengths (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                   const miopenTensorDescriptor_t tensorDesc,
                                   int dims,
                                   int* tensorDimArr);

/*! @brief Workspace size for max pooling with backward: numel(y) * sizeof(uint8 index)
 * @param yDesc          Output tensor descriptor (input)
 * @param workSpaceSize  Size in bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                           size_t* workSpaceSize);

/*! @brief Workspace size for max pooling with backward: numel(y) * sizeof(index type) in max
 * mode, 0 in the average modes. The indices are packed in y's logical (N, C, [D,] H, W) order,
 * whatever y's strides.
 * @param poolDesc       Pooling layer descriptor (input)
 * @param yDesc          Output tensor descriptor (input)
 * @param workSpaceSize  Size in bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                const miopenTensorDescriptor_t yDesc,
                                size_t* workSpaceSize);

/*! @brief Execute a forward pooling layer: y = alpha * pool(x) + beta * y
 *
 * With do_backward and max mode the indices of the maxima are written to workSpace (at least
 * miopenPoolingGetWorkSpaceSizeV2 bytes). The max takes the first largest value in window scan
 * order (d, h, w) and propagates NaN, like PyTorch (whose index for a window holding several
 * NaNs is the last NaN; ours is the first). Average divides by the in-bounds count,
 * AverageInclusive by the window size.
 * @param handle         MIOpen handle (input)
 * @param poolDesc       Pooling layer descriptor (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 * @param do_backward    Whether to save the max indices for backward (input)
 * @param workSpace      Index workspace (output)
 * @param workSpaceSize  Size in bytes of the workspace (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenPoolingForward(miopenHandle_t handle,
                                                  const miopenPoolingDescriptor_t poolDesc,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y,
                                                  bool do_backward,
                                                  void* workSpace,
                                                  size_t workSpaceSize);

/*! @brief Execute a backward pooling layer: dx = alpha * pool'(dy) + beta * dx
 *
 * Max mode sends each dy to the maximum recorded in workSpace by miopenPoolingForward with
 * do_backward; with workSpace null (a miopen_cy extension) it finds the maxima again from x.
 * As in MIOpen, y is not read; x is read only in that recomputing case. Either may be null
 * otherwise.
 * @param handle         MIOpen handle (input)
 * @param poolDesc       Pooling layer descriptor (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param xDesc          Tensor descriptor for output data tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dxDesc         Tensor descriptor for tensor dx (input)
 * @param dx             Weights delta tensor dx (output)
 * @param workSpace      Index workspace written by the forward (input; max mode only)
 */
MIOPEN_EXPORT miopenStatus_t miopenPoolingBackward(miopenHandle_t handle,
                                                   const miopenPoolingDescriptor_t poolDesc,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx,
                                                   void* workSpace);

/*! @brief Destroys the pooling descriptor object
 * @param poolDesc Pooling tensor descriptor type (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc);

/* ------------------------------------------------------------------------------------------ */
/* LRN                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Creates a local response normalization (LRN) layer descriptor
 * @param lrnDesc    Pointer to a local response normalization layer descriptor type (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateLRNDescriptor(miopenLRNDescriptor_t* lrnDesc);

/*! @brief Sets a LRN layer descriptor details
 * @param lrnDesc      Pointer to a LRN layer descriptor (output)
 * @param mode         LRN mode enum (input)
 * @param lrnN         Number of normalization window elements, >= 1 (input)
 * @param lrnAlpha     Scaling factor (input)
 * @param lrnBeta      Shift factor (input)
 * @param lrnK         K factor (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                    miopenLRNMode_t mode,
                                                    unsigned int lrnN,
                                                    double lrnAlpha,
                                                    double lrnBeta,
                                                    double lrnK);

/*! @brief Gets a LRN layer descriptor details
 * @param lrnDesc      LRN layer descriptor (input)
 * @param mode         LRN mode enum (output)
 * @param lrnN         Number of normalization window elements (output)
 * @param lrnAlpha     Scaling factor (output)
 * @param lrnBeta      Shift factor (output)
 * @param lrnK         K factor (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                    miopenLRNMode_t* mode,
                                                    unsigned int* lrnN,
                                                    double* lrnAlpha,
                                                    double* lrnBeta,
                                                    double* lrnK);

/*! @brief Determine the workspace requirements: numel(y) * element size (the saved scale)
 * @param yDesc           Descriptor for output data tensor y (input)
 * @param workSpaceSize   Output variable for workspace size (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenLRNGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                       size_t* workSpaceSize);

/*! @brief Execute a LRN forward layer: y = alpha * lrn(x) + beta * y
 *
 * Cross-channel: y = x * (K + lrnAlpha/N * sum x^2)^-lrnBeta over channels
 * [c - (N-1)/2, c + N-1-(N-1)/2] clipped to [0, C); within-channel: the same over an N x N
 * spatial window centred the same way, zero padded, with lrnAlpha/(N*N). 4-d tensors; K must be
 * non-zero (as in MIOpen). The saved scale is packed in N, C, H, W order whatever y's strides.
 * @param handle         MIOpen handle (input)
 * @param lrnDesc        LRN layer descriptor (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 * @param do_backward    Whether to save the scale in the workspace for backward (input)
 * @param workSpace      Workspace, miopenLRNGetWorkSpaceSize bytes (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenLRNForward(miopenHandle_t handle,
                                              const miopenLRNDescriptor_t lrnDesc,
                                              const void* alpha,
                                              const miopenTensorDescriptor_t xDesc,
                                              const void* x,
                                              const void* beta,
                                              const miopenTensorDescriptor_t yDesc,
                                              void* y,
                                              bool do_backward,
                                              void* workSpace);

/*! @brief Execute a LRN backward layer: dx = alpha * lrn'(dy) + beta * dx
 * @param handle         MIOpen handle (input)
 * @param lrnDesc        LRN layer descriptor (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for data input tensor y (input)
 * @param y              Data tensor y (input)
 * @param dyDesc         Tensor descriptor for data input tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param xDesc          Tensor descriptor for input data tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dxDesc         Tensor descriptor for output data tensor dx (input)
 * @param dx             Output delta tensor dx (output)
 * @param workSpace      Workspace written by the forward with do_backward, or NULL to recompute
 *                       the scale from x (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenLRNBackward(miopenHandle_t handle,
                                               const miopenLRNDescriptor_t lrnDesc,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t yDesc,
                                               const void* y,
                                               const miopenTensorDescriptor_t dyDesc,
                                               const void* dy,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t dxDesc,
                                               void* dx,
                                               const void* workSpace);

/*! @brief Destroys the LRN descriptor object
 * @param lrnDesc   LRN tensor descriptor type (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyLRNDescriptor(miopenLRNDescriptor_t lrnDesc);

/* ------------------------------------------------------------------------------------------ */
/* Tensor reduction                                                                           */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Creates an unset reduction descriptor.
 * @param reduceTensorDesc  The new descriptor (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateReduceTensorDescriptor(miopenReduceTensorDescriptor_t* reduceTensorDesc);

/*! @brief Destroys a reduction descriptor.
 * @param reduceTensorDesc  The descriptor (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc);

/*! @brief Sets a reduction descriptor. FLATTENED_INDICES takes MIOPEN_32BIT_INDICES only (as
 * MIOpen). reduceTensorCompType is the accumulation type: miopen_cy accumulates in fp64 when it
 * is miopenDouble or the data are fp64, int8 or int32, and in fp32 otherwise (fp16 and bf16
 * included: always at least fp32).
 * @param reduceTensorDesc         The descriptor (input)
 * @param reduceTensorOp           The operation (input)
 * @param reduceTensorCompType     The accumulation type (input)
 * @param reduceTensorNanOpt       NaN propagation (input)
 * @param reduceTensorIndices      Whether MIN / MAX / AMAX return indices (input)
 * @param reduceTensorIndicesType  The index type (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc,
                                miopenReduceTensorOp_t reduceTensorOp,
                                miopenDataType_t reduceTensorCompType,
                                miopenNanPropagation_t reduceTensorNanOpt,
                                miopenReduceTensorIndices_t reduceTensorIndices,
                                miopenIndicesType_t reduceTensorIndicesType);

/*! @brief The settings of a set reduction descriptor (each output pointer may be null). */
MIOPEN_EXPORT miopenStatus_t
miopenGetReduceTensorDescriptor(const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                miopenReduceTensorOp_t* reduceTensorOp,
                                miopenDataType_t* reduceTensorCompType,
                                miopenNanPropagation_t* reduceTensorNanOpt,
                                miopenReduceTensorIndices_t* reduceTensorIndices,
                                miopenIndicesType_t* reduceTensorIndicesType);

/*! @brief Bytes of indices miopenReduceTensor writes: numel(C) * 4 for MIN / MAX / AMAX with
 * FLATTENED_INDICES, else 0.
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetReductionIndicesSize(miopenHandle_t handle,
                              const miopenReduceTensorDescriptor_t reduceTensorDesc,
                              const miopenTensorDescriptor_t aDesc,
                              const miopenTensorDescriptor_t cDesc,
                              size_t* sizeInBytes);

/*! @brief Bytes of workspace miopenReduceTensor needs (the partial results of a reduction split
 * over several blocks; 0 when it is not split). Depends on the shapes and types only.
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetReductionWorkspaceSize(miopenHandle_t handle,
                                const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                const miopenTensorDescriptor_t aDesc,
                                const miopenTensorDescriptor_t cDesc,
                                size_t* sizeInBytes);

/*! @brief C = alpha * reduceOp(A) + beta * C. Each length of C is 1 (that dimension of A is
 * reduced) or A's; at least one is 1; at most 6 dimensions; A and C of one type (fp32, fp16, bf16,
 * fp64, int8, int32; any strides). alpha and beta are doubles for fp64 data, floats otherwise.
 * Indices (MIN / MAX / AMAX with FLATTENED_INDICES): int32, packed in C's row-major order, the
 * row-major index within the reduced dimensions of the first element chosen (the last NaN under
 * MIOPEN_PROPAGATE_NAN, as MIOpen's reference).
 */
MIOPEN_EXPORT miopenStatus_t
miopenReduceTensor(miopenHandle_t handle,
                   const miopenReduceTensorDescriptor_t reduceTensorDesc,
                   void* indices,
                   size_t indicesSizeInBytes,
                   void* workspace,
                   size_t workspaceSizeInBytes,
                   const void* alpha,
                   const miopenTensorDescriptor_t aDesc,
                   const void* A,
                   const void* beta,
                   const miopenTensorDescriptor_t cDesc,
                   void* C);

/* ------------------------------------------------------------------------------------------ */
/* Batch normalization                                                                        */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Derive tensor for gamma and beta from input tensor descriptor
 *
 * Spatial: 1xCx1x1 (1xCx1x1x1 for 5-d); per-activation: 1xCxHxW (1xCxDxHxW). The derived
 * descriptor is packed miopenFloat whatever x's type, as in MIOpen.
 * @param derivedBnDesc   A created descriptor, set to the derived shape (input/output)
 * @param xDesc           Input tensor descriptor (input)
 * @param bn_mode         Batch Normalization mode (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            miopenBatchNormMode_t bn_mode);

/*! @brief Execute forward training layer for batch normalization
 *
 * y = alpha * (scale * (x - mean) / sqrt(var + epsilon) + bias) + beta * y with the batch mean
 * and biased variance. When both running pointers are non-null:
 * running = (1 - expAvgFactor) * running + expAvgFactor * batch statistic, the variance unbiased
 * (times M / (M - 1), M elements per statistic; left biased when M = 1, as MIOpen does). When
 * both saved pointers are non-null they receive the mean and 1 / sqrt(var + epsilon). A
 * half-given pair is ignored. expAvgFactor must be in [0, 1], epsilon finite and >= 0.
 * x and y are miopenFloat, miopenHalf or miopenBFloat16; the parameter descriptor is miopenFloat
 * (MIOpen's mixed mode for 16-bit x) or x's type. Statistics are computed in fp32 or wider.
 * @param handle                    MIOpen handle (input)
 * @param bn_mode                   Batch normalization mode (input)
 * @param alpha                     Floating point scaling factor, allocated on the host (input)
 * @param beta                      Floating point shift factor, allocated on the host (input)
 * @param xDesc                     Tensor descriptor for data input tensor x (input)
 * @param x                         Data tensor x (input)
 * @param yDesc                     Tensor descriptor for output data tensor y (input)
 * @param y                         Data tensor y (output)
 * @param bnScaleBiasMeanVarDesc    Tensor descriptor for BN scaling, shifting, saved variables and
 *                                  mean (input)
 * @param bnScale                   Batch norm scaling, gamma, tensor (input)
 * @param bnBias                    Batch norm bias, beta, tensor (input)
 * @param expAvgFactor              Exponential averaging factor (input)
 * @param resultRunningMean         Running average saved for inference (input/output)
 * @param resultRunningVariance     Running variance saved for inference (input/output)
 * @param epsilon                   Value to stabilize inverse variance calculation (input)
 * @param resultSaveMean            Saved mini-batch mean for backwards pass (output)
 * @param resultSaveInvVariance     Saved mini-batch inverse variance for backwards pass (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardTraining(miopenHandle_t handle,
                                        miopenBatchNormMode_t bn_mode,
                                        void* alpha,
                                        void* beta,
                                        const miopenTensorDescriptor_t xDesc,
                                        const void* x,
                                        const miopenTensorDescriptor_t yDesc,
                                        void* y,
                                        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                        void* bnScale,
                                        void* bnBias,
                                        double expAvgFactor,
                                        void* resultRunningMean,
                                        void* resultRunningVariance,
                                        double epsilon,
                                        void* resultSaveMean,
                                        void* resultSaveInvVariance);

/*! @brief Execute forward training layer for batch normalization, with a descriptor per
 * parameter tensor
 *
 * As miopenBatchNormalizationForwardTraining; scaleDesc describes bnScale, biasVarDesc bnBias,
 * savedMeanDesc the running and saved means, savedVarDesc the running variance and the saved
 * inverse variance. Each is miopenFloat (MIOpen's mixed mode for miopenHalf / miopenBFloat16 x)
 * or x's type; the two statistics descriptors share a type. Any strides.
 * @param handle                    MIOpen handle (input)
 * @param bn_mode                   Batch normalization mode (input)
 * @param alpha                     Floating point scaling factor, allocated on the host (input)
 * @param beta                      Floating point shift factor, allocated on the host (input)
 * @param xDesc                     Tensor descriptor for data input tensor x (input)
 * @param x                         Data tensor x (input)
 * @param yDesc                     Tensor descriptor for output data tensor y (input)
 * @param y                         Data tensor y (output)
 * @param scaleDesc                 Tensor descriptor for BN scaling (input)
 * @param biasVarDesc               Tensor descriptor for BN bias (input)
 * @param savedMeanDesc             Tensor descriptor for BN saved Mean (input)
 * @param savedVarDesc              Tensor descriptor for BN saved Variance (input)
 * @param bnScale                   Batch norm scaling, gamma, tensor (input)
 * @param bnBias                    Batch norm bias, beta, tensor (input)
 * @param expAvgFactor              Exponential averaging factor (input)
 * @param resultRunningMean         Running average saved for inference (input/output)
 * @param resultRunningVariance     Running variance saved for inference (input/output)
 * @param epsilon                   Value to stabilize inverse variance calculation (input)
 * @param resultSaveMean            Saved mini-batch mean for backwards pass (output)
 * @param resultSaveInvVariance     Saved mini-batch inverse variance for backwards pass (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardTraining_V2(miopenHandle_t handle,
                                           miopenBatchNormMode_t bn_mode,
                                           void* alpha,
                                           void* beta,
                                           const miopenTensorDescriptor_t xDesc,
                                           const void* x,
                                           const miopenTensorDescriptor_t yDesc,
                                           void* y,
                                           const miopenTensorDescriptor_t scaleDesc,
                                           const miopenTensorDescriptor_t biasVarDesc,
                                           const miopenTensorDescriptor_t savedMeanDesc,
                                           const miopenTensorDescriptor_t savedVarDesc,
                                           void* bnScale,
                                           void* bnBias,
                                           double expAvgFactor,
                                           void* resultRunningMean,
                                           void* resultRunningVariance,
                                           double epsilon,
                                           void* resultSaveMean,
                                           void* resultSaveInvVariance);

/*! @brief Execute forward inference layer for batch normalization
 *
 * y = alpha * (scale * (x - estimatedMean) / sqrt(estimatedVariance + epsilon) + bias) + beta * y.
 * When estimatedMean or estimatedVariance is null the batch statistics of x are used instead
 * (MIOpen then runs its training kernel, updating and saving nothing).
 * @param handle                    MIOpen handle (input)
 * @param bn_mode                   Batch normalization mode (input)
 * @param alpha                     Floating point scaling factor, allocated on the host (input)
 * @param beta                      Floating point shift factor, allocated on the host (input)
 * @param xDesc                     Tensor descriptor for data input tensor x (input)
 * @param x                         Data tensor x (input)
 * @param yDesc                     Tensor descriptor for output data tensor y (input)
 * @param y                         Data tensor y (output)
 * @param bnScaleBiasMeanVarDesc    Tensor descriptor for BN scaling, shifting, mean, variance (input)
 * @param bnScale                   Batch norm scaling, gamma, tensor (input)
 * @param bnBias                    Batch norm bias, beta, tensor (input)
 * @param estimatedMean             Running average saved during forward training (input)
 * @param estimatedVariance         Running variance saved during forward training (input)
 * @param epsilon                   Value to stabilize inverse variance calculation (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardInference(miopenHandle_t handle,
                                         miopenBatchNormMode_t bn_mode,
                                         void* alpha,
                                         void* beta,
                                         const miopenTensorDescriptor_t xDesc,
                                         const void* x,
                                         const miopenTensorDescriptor_t yDesc,
                                         void* y,
                                         const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                         void* bnScale,
                                         void* bnBias,
                                         void* estimatedMean,
                                         void* estimatedVariance,
                                         double epsilon);

/*! @brief Execute forward inference layer for batch normalization, with a descriptor per
 * parameter tensor
 *
 * As miopenBatchNormalizationForwardInference; each parameter descriptor is miopenFloat or x's
 * type (the mean and variance descriptors share a type), any strides.
 * @param handle                    MIOpen handle (input)
 * @param bn_mode                   Batch normalization mode (input)
 * @param alpha                     Floating point scaling factor, allocated on the host (input)
 * @param beta                      Floating point shift factor, allocated on the host (input)
 * @param xDesc                     Tensor descriptor for data input tensor x (input)
 * @param x                         Data tensor x (input)
 * @param yDesc                     Tensor descriptor for output data tensor y (input)
 * @param y                         Data tensor y (output)
 * @param scaleDesc                 Tensor descriptor for BN scaling (input)
 * @param biasDesc                  Tensor descriptor for BN bias (input)
 * @param estMeanDesc               Tensor descriptor for BN estimated Mean (input)
 * @param estVarianceDesc           Tensor descriptor for BN estimated Variance (input)
 * @param bnScale                   Batch norm scaling, gamma, tensor (input)
 * @param bnBias                    Batch norm bias, beta, tensor (input)
 * @param estimatedMean             Running average saved during forward training (input)
 * @param estimatedVariance         Running variance saved during forward training (input)
 * @param epsilon                   Value to stabilize inverse variance calculation (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardInference_V2(miopenHandle_t handle,
                                            miopenBatchNormMode_t bn_mode,
                                            void* alpha,
                                            void* beta,
                                            const miopenTensorDescriptor_t xDesc,
                                            const void* x,
                                            const miopenTensorDescriptor_t yDesc,
                                            void* y,
                                            const miopenTensorDescriptor_t scaleDesc,
                                            const miopenTensorDescriptor_t biasDesc,
                                            const miopenTensorDescriptor_t estMeanDesc,
                                            const miopenTensorDescriptor_t estVarianceDesc,
                                            void* bnScale,
                                            void* bnBias,
                                            void* estimatedMean,
                                            void* estimatedVariance,
                                            double epsilon);

/*! @brief Execute backwards propagation layer for batch normalization
 *
 * dx = alphaDataDiff * dL/dx + betaDataDiff * dx; dscale and dbias likewise with the ParamDiff
 * factors (MIOpen accepts only 1 and 0). Uses savedMean and savedInvVariance (1 / sqrt(var +
 * epsilon)) when both are non-null, else recomputes them from x with epsilon.
 * @param handle                    MIOpen handle (input)
 * @param bn_mode                   Batch normalization mode (input)
 * @param alphaDataDiff             Floating point scaling factor, allocated on the host (input)
 * @param betaDataDiff              Floating point shift factor, allocated on the host (input)
 * @param alphaParamDiff            Floating point scaling factor, allocated on the host (input)
 * @param betaParamDiff             Floating point shift factor, allocated on the host (input)
 * @param xDesc                     Tensor descriptor for data input tensor x (input)
 * @param x                         Data tensor x (input)
 * @param dyDesc                    Tensor descriptor for output data tensor dy (input)
 * @param dy                        Data delta tensor dy (input)
 * @param dxDesc                    Tensor descriptor for output data tensor dx (input)
 * @param dx                        Data delta tensor dx (output)
 * @param bnScaleBiasDiffDesc       Tensor descriptor for BN scaling, shifting, saved variables and
 *                                  mean (input)
 * @param bnScale                   Batch norm scaling, gamma, tensor (input)
 * @param resultBnScaleDiff         Tensor for dscale (output)
 * @param resultBnBiasDiff          Tensor for dbias (output)
 * @param epsilon                   Value to stabilize inverse variance calculation (input)
 * @param savedMean                 Saved mini-batch mean for backwards pass (input)
 * @param savedInvVariance          Saved mini-batch inverse variance for backwards pass (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationBackward(miopenHandle_t handle,
                                 miopenBatchNormMode_t bn_mode,
                                 const void* alphaDataDiff,
                                 const void* betaDataDiff,
                                 const void* alphaParamDiff,
                                 const void* betaParamDiff,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t dxDesc,
                                 void* dx,
                                 const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
                                 const void* bnScale,
                                 void* resultBnScaleDiff,
                                 void* resultBnBiasDiff,
                                 double epsilon,
                                 const void* savedMean,
                                 const void* savedInvVariance);

/*! @brief Execute backwards propagation layer for batch normalization, with a descriptor per
 * parameter tensor
 *
 * As miopenBatchNormalizationBackward; scaleDesc describes bnScale and resultBnScaleDiff,
 * biasDesc resultBnBiasDiff, savedMeanDesc and savedVarDesc the saved statistics. Each is
 * miopenFloat or x's type (the two statistics descriptors share a type), any strides.
 * @param handle                    MIOpen handle (input)
 * @param bn_mode                   Batch normalization mode (input)
 * @param alphaDataDiff             Floating point scaling factor, allocated on the host (input)
 * @param betaDataDiff              Floating point shift factor, allocated on the host (input)
 * @param alphaParamDiff            Floating point scaling factor, allocated on the host (input)
 * @param betaParamDiff             Floating point shift factor, allocated on the host (input)
 * @param xDesc                     Tensor descriptor for data input tensor x (input)
 * @param x                         Data tensor x (input)
 * @param dyDesc                    Tensor descriptor for output data tensor dy (input)
 * @param dy                        Data delta tensor dy (input)
 * @param dxDesc                    Tensor descriptor for output data tensor dx (input)
 * @param dx                        Data delta tensor dx (output)
 * @param scaleDesc                 Tensor descriptor for scaling descriptor (input)
 * @param biasDesc                  Tensor descriptor for bias/shift descriptor (input)
 * @param savedMeanDesc             Tensor descriptor for saved Mean descriptor (input)
 * @param savedVarDesc              Tensor descriptor for saved Variance descriptor (input)
 * @param bnScale                   Batch norm scaling, gamma, tensor (input)
 * @param resultBnScaleDiff         Tensor for dscale (output)
 * @param resultBnBiasDiff          Tensor for dbias (output)
 * @param epsilon                   Value to stabilize inverse variance calculation (input)
 * @param savedMean                 Saved mini-batch mean for backwards pass (input)
 * @param savedInvVariance          Saved mini-batch inverse variance for backwards pass (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationBackward_V2(miopenHandle_t handle,
                                    miopenBatchNormMode_t bn_mode,
                                    const void* alphaDataDiff,
                                    const void* betaDataDiff,
                                    const void* alphaParamDiff,
                                    const void* betaParamDiff,
                                    const miopenTensorDescriptor_t xDesc,
                                    const void* x,
                                    const miopenTensorDescriptor_t dyDesc,
                                    const void* dy,
                                    const miopenTensorDescriptor_t dxDesc,
                                    void* dx,
                                    const miopenTensorDescriptor_t scaleDesc,
                                    const miopenTensorDescriptor_t biasDesc,
                                    const miopenTensorDescriptor_t savedMeanDesc,
                                    const miopenTensorDescriptor_t savedVarDesc,
                                    const void* bnScale,
                                    void* resultBnScaleDiff,
                                    void* resultBnBiasDiff,
                                    double epsilon,
                                    const void* savedMean,
                                    const void* savedInvVariance);

/* ------------------------------------------------------------------------------------------ */
/* Activation                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Creates the Activation descriptor object
 * @param activDesc Pointer to an activation tensor descriptor type (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc);

/*! @brief Sets the activation layer descriptor details
 *
 * TANH uses alpha and beta (beta * tanh(alpha * x)), POWER all three ((alpha + beta * x)^gamma),
 * CLIPPEDRELU, LEAKYRELU and ELU alpha; the other modes ignore them. miopen_cy checks what
 * MIOpen stores blindly: an invalid mode or a NaN/infinite parameter is miopenStatusBadParm and
 * leaves the descriptor unchanged.
 * @param activDesc   Pointer to an activation tensor descriptor type (output)
 * @param mode        Activation mode enum (input)
 * @param activAlpha  Alpha value for some activation modes (input)
 * @param activBeta   Beta value for some activation modes (input)
 * @param activGamma  Gamma value for some activation modes (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                              miopenActivationMode_t mode,
                              double activAlpha,
                              double activBeta,
                              double activGamma);

/*! @brief Gets the activation layer descriptor details (miopenStatusBadParm if never set)
 * @param activDesc   Activation descriptor (input)
 * @param mode        Activation mode enum (output)
 * @param activAlpha  Alpha value (output)
 * @param activBeta   Beta value (output)
 * @param activGamma  Gamma value (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                              miopenActivationMode_t* mode,
                              double* activAlpha,
                              double* activBeta,
                              double* activGamma);

/*! @brief Execute an activation forward layer: y = alpha * f(x) + beta * y
 *
 * x and y have the same lengths and data type, each with its own strides; y is not read when
 * beta == 0. In place (x == y) works when both descriptors have the same strides.
 * SOFTRELU is computed without overflow for large x and keeps its relative accuracy for very
 * negative x. POWER with a base alpha + beta * x of 0 gives 0 (as MIOpen's kernel); a negative
 * base gives pow(): signed for an integer gamma, NaN otherwise.
 * @param handle         MIOpen handle (input)
 * @param activDesc      Activation descriptor (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                     const miopenActivationDescriptor_t activDesc,
                                                     const void* alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void* x,
                                                     const void* beta,
                                                     const miopenTensorDescriptor_t yDesc,
                                                     void* y);

/*! @brief Execute an activation backwards layer: dx = alpha * f'(x) * dy + beta * dx
 *
 * f' is the true derivative of the forward function, computed from x, multiplied by dy for
 * every mode. MIOpen's own POWER backward forgets dy (it returns f'(x) alone); miopen_cy does
 * not copy that bug. y is validated (same lengths and type as the others) but not read, so a
 * y produced with alpha/beta blending does not skew the result. dx is not read when
 * beta == 0; dx may be the same buffer as dy or x when the descriptors have the same strides.
 * At the kinks miopen_cy follows MIOpen's kernels: RELU'(0) = 0, LEAKYRELU'(0) = alpha,
 * CLIPPEDRELU' = 1 only for 0 < x < alpha, ABS'(0) = 1, ELU'(0) = 1; POWER' at a zero base is
 * beta for gamma == 1 and 0 otherwise.
 * @param handle         MIOpen handle (input)
 * @param activDesc      Activation descriptor (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for input data tensor y (input)
 * @param y              Data tensor y (input)
 * @param dyDesc         Tensor descriptor for input data tensor dy (input)
 * @param dy             Input data delta tensor dy (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dxDesc         Tensor descriptor for data output tensor dx (input)
 * @param dx             Output data delta tensor dx (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                                      const miopenActivationDescriptor_t activDesc,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      const void* y,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const void* dy,
                                                      const miopenTensorDescriptor_t xDesc,
                                                      const void* x,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      void* dx);

/*! @brief Destroys the activation descriptor object
 * @param activDesc   Activation tensor descriptor type (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc);

/* ------------------------------------------------------------------------------------------ */
/* Softmax                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/*! @brief Execute a softmax forward layer (accurate algorithm, channel mode)
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y);

/*! @brief Execute a softmax backwards layer (accurate algorithm, channel mode)
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for input data tensor y (input)
 * @param y              Data tensor y (input)
 * @param dyDesc         Tensor descriptor for input data tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dxDesc         Tensor descriptor for data output tensor dx (input)
 * @param dx             Output data delta tensor dx (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx);

/*! @brief Execute a softmax forward layer with expanded modes and algorithms
 *
 * y = alpha * softmax(x) + beta * y (log-softmax for MIOPEN_SOFTMAX_LOG; FAST skips the max
 * subtraction), over C*H*W per n (INSTANCE) or over C per (n, h, w) (CHANNEL). 4-d N, C, H, W
 * tensors, as in MIOpen; x, y, dy and dx each have their own strides.
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param xDesc          Tensor descriptor for data input tensor x (input)
 * @param x              Data tensor x (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for output data tensor y (input)
 * @param y              Data tensor y (output)
 * @param algorithm      Softmax implementation algorithm (input)
 * @param mode           Softmax mode (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle,
                                                     const void* alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void* x,
                                                     const void* beta,
                                                     const miopenTensorDescriptor_t yDesc,
                                                     void* y,
                                                     miopenSoftmaxAlgorithm_t algorithm,
                                                     miopenSoftmaxMode_t mode);

/*! @brief Execute a softmax backwards layer with expanded modes and algorithms
 * @param handle         MIOpen handle (input)
 * @param alpha          Floating point scaling factor, allocated on the host (input)
 * @param yDesc          Tensor descriptor for input data tensor y (input)
 * @param y              Data tensor y (input)
 * @param dyDesc         Tensor descriptor for input data tensor dy (input)
 * @param dy             Data delta tensor dy (input)
 * @param beta           Floating point shift factor, allocated on the host (input)
 * @param dxDesc         Tensor descriptor for data output tensor dx (input)
 * @param dx             Output data delta tensor dx (output)
 * @param algorithm      Softmax implementation algorithm (input)
 * @param mode           Softmax mode (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      const void* y,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const void* dy,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      void* dx,
                                                      miopenSoftmaxAlgorithm_t algorithm,
                                                      miopenSoftmaxMode_t mode);

/* ------------------------------------------------------------------------------------------ */
/* Fusion                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/*! @brief A fusion plan: an ordered chain of operators over one input tensor. */
MIOPEN_DECLARE_OBJECT(miopenFusionPlanDescriptor);
/*! @brief Declared as in MIOpen; no call takes it. */
MIOPEN_DECLARE_OBJECT(miopenOperatorDescriptor);
/*! @brief The run-time arguments (scalars, pointers) of a plan's operators. */
MIOPEN_DECLARE_OBJECT(miopenOperatorArgs);

/*! @enum miopenFusionDirection_t
 * @brief Kernel fusion direction in the network
 */
typedef enum
{
    miopenVerticalFusion   = 0, /*!< fuses layers vertically, the only supported mode */
    miopenHorizontalFusion = 1, /*!< fuses layers horizontally: refused (miopenStatusNotImplemented) */
} miopenFusionDirection_t;

/*! @brief Creates a fusion plan over the input tensor inputDesc (the descriptor is copied)
 * @param fusePlanDesc  Pointer to a fusion plan (output)
 * @param fuseDirection Horizontal or Vertical fusion (input)
 * @param inputDesc     Descriptor of the plan's input tensor (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                    const miopenFusionDirection_t fuseDirection,
                                                    const miopenTensorDescriptor_t inputDesc);

/*! @brief Destroys a fusion plan and its operators
 * @param fusePlanDesc  A fusion plan descriptor (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc);

/*! @brief Compiles the fusion plan: validates the chain and picks its implementation, or fails
 * with miopenStatusUnsupportedOp and a message naming the operator and the reason
 * @param handle       MIOpen handle (input)
 * @param fusePlanDesc A fusion plan descriptor (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                     miopenFusionPlanDescriptor_t fusePlanDesc);

/*! @brief The operator op_idx of a plan (in the order of insertion); BadParm when out of bounds
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param op_idx       Index of the operator (input)
 * @param op           The operator (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   const int op_idx,
                                                   miopenFusionOpDescriptor_t* op);

/*! @brief The workspace the plan needs with its convolution run by algo
 * @param handle         MIOpen handle (input)
 * @param fusePlanDesc   A fusion plan descriptor (input)
 * @param workSpaceSize  Size in bytes (output)
 * @param algo           Algorithm selected (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                 miopenFusionPlanDescriptor_t fusePlanDesc,
                                 size_t* workSpaceSize,
                                 miopenConvFwdAlgorithm_t algo);

/*! @brief The algorithms the plan's convolution can use, in decreasing priority
 * @param fusePlanDesc      A fusion plan descriptor (input)
 * @param requestAlgoCount  Number of algorithms to return (input)
 * @param returnedAlgoCount Number returned, at most requestAlgoCount (output)
 * @param returnedAlgos     The algorithms (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                   const int requestAlgoCount,
                                   int* returnedAlgoCount,
                                   miopenConvFwdAlgorithm_t* returnedAlgos);

/*! @brief Asks the plan to run its convolution with algo
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param algo         Requested algorithm (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionSetAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenConvFwdAlgorithm_t algo);

/*! @brief Creates a forward convolution operator
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param convOp       The operator (output)
 * @param convDesc     Convolution layer descriptor (input; copied)
 * @param wDesc        Descriptor of the weights (input; copied)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t* convOp,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       const miopenTensorDescriptor_t wDesc);

/*! @brief Creates a forward activation operator
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param activFwdOp   The operator (output)
 * @param mode         Activation mode (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                miopenFusionOpDescriptor_t* activFwdOp,
                                miopenActivationMode_t mode);

/*! @brief Creates a backward activation operator
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param activBwdOp   The operator (output)
 * @param mode         Activation mode (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                 miopenFusionOpDescriptor_t* activBwdOp,
                                 miopenActivationMode_t mode);

/*! @brief Creates a forward bias operator
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param biasOp       The operator (output)
 * @param bDesc        Descriptor of the bias, 1xKx1x1 (input; copied)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t* biasOp,
                                                       const miopenTensorDescriptor_t bDesc);

/*! @brief Creates a forward inference batch normalization operator
 * @param fusePlanDesc           A fusion plan descriptor (input)
 * @param bnOp                   The operator (output)
 * @param bn_mode                Batch normalization mode (input)
 * @param bnScaleBiasMeanVarDesc Descriptor of scale, bias, mean and variance (input; copied)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                 miopenFusionOpDescriptor_t* bnOp,
                                 const miopenBatchNormMode_t bn_mode,
                                 const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc);

/*! @brief Creates a forward training batch normalization operator
 * @param fusePlanDesc        A fusion plan descriptor (input)
 * @param bnFwdOp             The operator (output)
 * @param bn_mode             Batch normalization mode (input)
 * @param runningMeanVariance Whether the running mean and variance are updated (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpBatchNormForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                               miopenFusionOpDescriptor_t* bnFwdOp,
                               const miopenBatchNormMode_t bn_mode,
                               bool runningMeanVariance);

/*! @brief Creates a back propagation batch normalization operator
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param bnBwdOp      The operator (output)
 * @param bn_mode      Batch normalization mode (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                miopenFusionOpDescriptor_t* bnBwdOp,
                                const miopenBatchNormMode_t bn_mode);

/*! @brief Creates an operator argument object
 * @param args The object (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args);

/*! @brief Destroys an operator argument object
 * @param args The object (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args);

/*! @brief Sets the arguments of a forward convolution operator
 * @param args   An arguments object (output)
 * @param convOp Forward convolution operator (input)
 * @param alpha  Scaling factor of the convolution, on the host (input)
 * @param beta   Shift factor, on the host; must be 0 (input)
 * @param w      The weights (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t convOp,
                                                        const void* alpha,
                                                        const void* beta,
                                                        const void* w);

/*! @brief Sets the arguments of a forward activation operator
 * @param args       An arguments object (output)
 * @param activFwdOp Forward activation operator (input)
 * @param alpha      Scaling factor, on the host (input)
 * @param beta       Shift factor, on the host; must be 0 (input)
 * @param activAlpha Activation parameter (input)
 * @param activBeta  Activation parameter (input)
 * @param activGamma Activation parameter (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                            const miopenFusionOpDescriptor_t activFwdOp,
                            const void* alpha,
                            const void* beta,
                            double activAlpha,
                            double activBeta,
                            double activGamma);

/*! @brief Sets the arguments of a backward activation operator
 * @param args       An arguments object (output)
 * @param activBwdOp Backward activation operator (input)
 * @param alpha      Scaling factor, on the host (input)
 * @param beta       Shift factor, on the host; must be 0 (input)
 * @param y          Output of the forward activation (input; the derivative is taken at the
 *                   batch norm's output, recomputed, so y may be null)
 * @param reserved   Must be null (input)
 * @param activAlpha Activation parameter (input)
 * @param activBeta  Activation parameter (input)
 * @param activGamma Activation parameter (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                             const miopenFusionOpDescriptor_t activBwdOp,
                             const void* alpha,
                             const void* beta,
                             const void* y,
                             const void* reserved,
                             double activAlpha,
                             double activBeta,
                             double activGamma);

/*! @brief Sets the arguments of an inference batch normalization operator
 * @param args              An arguments object (output)
 * @param bnOp              Batch normalization inference operator (input)
 * @param alpha             Scaling factor, on the host (input)
 * @param beta              Shift factor, on the host; must be 0 (input)
 * @param bnScale           Scale (input)
 * @param bnBias            Bias (input)
 * @param estimatedMean     Population mean (input)
 * @param estimatedVariance Population variance (input)
 * @param epsilon           Added to the variance (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                  const miopenFusionOpDescriptor_t bnOp,
                                  const void* alpha,
                                  const void* beta,
                                  const void* bnScale,
                                  const void* bnBias,
                                  const void* estimatedMean,
                                  const void* estimatedVariance,
                                  double epsilon);

/*! @brief Sets the arguments of a forward training batch normalization operator
 * @param args             An arguments object (output)
 * @param bnOp             Batch normalization forward operator (input)
 * @param alpha            Scaling factor, on the host (input)
 * @param beta             Shift factor, on the host; must be 0 (input)
 * @param bnScale          Scale (input)
 * @param bnBias           Bias (input)
 * @param savedMean        Batch mean (output; may be null)
 * @param savedInvVariance Batch inverse standard deviation (output; may be null)
 * @param runningMean      Population mean (input/output)
 * @param runningVariance  Population variance (input/output)
 * @param expAvgFactor     Running average factor (input)
 * @param epsilon          Added to the variance (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormForward(miopenOperatorArgs_t args,
                                                             const miopenFusionOpDescriptor_t bnOp,
                                                             const void* alpha,
                                                             const void* beta,
                                                             const void* bnScale,
                                                             const void* bnBias,
                                                             void* savedMean,
                                                             void* savedInvVariance,
                                                             void* runningMean,
                                                             void* runningVariance,
                                                             double expAvgFactor,
                                                             double epsilon);

/*! @brief Sets the arguments of a backward batch normalization operator
 * @param args              An arguments object (output)
 * @param bnOp              Batch normalization backward operator (input)
 * @param alpha             Scaling factor, on the host (input)
 * @param beta              Shift factor, on the host; must be 0 (input)
 * @param x                 Input of the forward batch norm (input)
 * @param bnScale           Scale (input)
 * @param bnBias            Bias (input)
 * @param resultBnScaleDiff Gradient of the scale (output)
 * @param resultBnBiasDiff  Gradient of the bias (output)
 * @param savedMean         Batch mean saved by the forward pass (input)
 * @param savedInvVariance  Batch inverse standard deviation saved by the forward pass (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                              const miopenFusionOpDescriptor_t bnOp,
                                                              const void* alpha,
                                                              const void* beta,
                                                              const void* x,
                                                              const void* bnScale,
                                                              const void* bnBias,
                                                              void* resultBnScaleDiff,
                                                              void* resultBnBiasDiff,
                                                              const void* savedMean,
                                                              const void* savedInvVariance);

/*! @brief Sets the arguments of a forward bias operator
 * @param args   An arguments object (output)
 * @param biasOp Forward bias operator (input)
 * @param alpha  Scaling factor, on the host (input)
 * @param beta   Shift factor, on the host; must be 0 (input)
 * @param bias   The bias (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t biasOp,
                                                        const void* alpha,
                                                        const void* beta,
                                                        const void* bias);

/*! @brief Executes a compiled fusion plan (an uncompiled or failed plan is BadParm)
 * @param handle       MIOpen handle (input)
 * @param fusePlanDesc A fusion plan descriptor (input)
 * @param inputDesc    Descriptor of the input tensor: the plan's (input)
 * @param input        Input tensor (input)
 * @param outputDesc   Descriptor of the output tensor (input)
 * @param output       Output tensor (output)
 * @param args         The operators' arguments (input)
 */
MIOPEN_EXPORT miopenStatus_t
miopenExecuteFusionPlan(const miopenHandle_t handle,
                        const miopenFusionPlanDescriptor_t fusePlanDesc,
                        const miopenTensorDescriptor_t inputDesc,
                        const void* input,
                        const miopenTensorDescriptor_t outputDesc,
                        void* output,
                        miopenOperatorArgs_t args);

/*! @brief y = activation(alpha1 * conv(x, w) + alpha2 * z + bias)
 * @param handle               MIOpen handle (input)
 * @param alpha1               Scaling factor of the convolution, on the host (input)
 * @param xDesc                Descriptor of x (input)
 * @param x                    Data tensor x (input)
 * @param wDesc                Descriptor of w (input)
 * @param w                    Weights w (input)
 * @param convDesc             Convolution layer descriptor (input)
 * @param algo                 Algorithm of the convolution (input)
 * @param workspace            Workspace (input; may be null)
 * @param workspaceSizeInBytes Its size in bytes (input)
 * @param alpha2               Scaling factor of z, on the host (input)
 * @param zDesc                Descriptor of z, y's lengths (input; may be null with z null)
 * @param z                    Residual tensor z (input; null: no residual)
 * @param biasDesc             Descriptor of the bias, 1xKx1x1 (input)
 * @param bias                 Bias (input)
 * @param activationDesc       Activation descriptor (input)
 * @param yDesc                Descriptor of y (input)
 * @param y                    Output y (output)
 */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBiasActivationForward(miopenHandle_t handle,
                                       const void* alpha1,
                                       const miopenTensorDescriptor_t xDesc,
                                       const void* x,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       miopenConvFwdAlgorithm_t algo,
                                       void* workspace,
                                       size_t workspaceSizeInBytes,
                                       const void* alpha2,
                                       const miopenTensorDescriptor_t zDesc,
                                       const void* z,
                                       const miopenTensorDescriptor_t biasDesc,
                                       const void* bias,
                                       const miopenActivationDescriptor_t activationDesc,
                                       const miopenTensorDescriptor_t yDesc,
                                       void* y);

/* ------------------------------------------------------------------------------------------ */
/* Dropout                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/*! @ingroup dropout @brief Creates the miopenDropoutDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenDropoutDescriptor);

/*! @enum miopenRNGType_t
 * Random number generator type. MIOpen's one value; miopen_cy's generator behind it is
 * Philox-4x32-10 (counter-based, the same bits on the CPU and the GPU), not XORWOW: see README.
 */
typedef enum
{
    MIOPEN_RNG_PSEUDO_XORWOW = 0, /*!< XORWOW pseudorandom generator (Philox-4x32-10 here) */
} miopenRNGType_t;

/*! @brief Creates the dropout descriptor object
 * @param dropoutDesc Pointer to a dropout descriptor type (output)
 * @return            miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateDropoutDescriptor(miopenDropoutDescriptor_t* dropoutDesc);

/*! @brief Destroys the dropout descriptor object
 * @param dropoutDesc Dropout descriptor type (input)
 * @return            miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc);

/*! @brief Bytes of reserve space a dropout of x needs: the mask, one byte per element of x
 * (1 kept, 0 dropped), in x's logical (packed, lengths-order) element order.
 * @param xDesc                    Tensor descriptor for data tensor x (input)
 * @param reserveSpaceSizeInBytes  Number of bytes of reserve space (output)
 * @return                         miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenDropoutGetReserveSpaceSize(const miopenTensorDescriptor_t xDesc,
                                                              size_t* reserveSpaceSizeInBytes);

/*! @brief Bytes of random-generator state miopenSetDropoutDescriptor takes: MIOpen's size
 * (16384 XORWOW states of 24 bytes). miopen_cy keeps its counter-based generator's seed and
 * offset in the first 32 bytes.
 * @param handle            MIOpen handle (input)
 * @param stateSizeInBytes  Number of bytes required to store random generator states (output)
 * @return                  miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenDropoutGetStatesSize(miopenHandle_t handle,
                                                        size_t* stateSizeInBytes);

/*! @brief Get the details of the dropout descriptor
 * @param dropoutDesc  Dropout layer descriptor (input)
 * @param handle       MIOpen handle (input)
 * @param dropout      The probability by which the input is set to 0 (output)
 * @param states       The states pointer given to Set/Restore (output; MIOpen hands back the
 *                     address of its own field instead)
 * @param seed         Seed used to initialize random number generator states (output)
 * @param use_mask     Whether forward uses the mask already in reserveSpace (output)
 * @param state_evo    Whether each forward advances the generator's offset (output)
 * @param rng_mode     Random number generator (output)
 * @return             miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenGetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                        miopenHandle_t handle,
                                                        float* dropout,
                                                        void** states,
                                                        unsigned long long* seed,
                                                        bool* use_mask,
                                                        bool* state_evo,
                                                        miopenRNGType_t* rng_mode);

/*! @brief Restore the dropout descriptor to a saved state: as miopenSetDropoutDescriptor, but
 * the states buffer already holds a generator state (written by miopenSetDropoutDescriptor and
 * possibly advanced by forwards with state_evo) and is not re-initialised.
 * @param dropoutDesc       Dropout layer descriptor (input/output)
 * @param handle            MIOpen handle (input)
 * @param dropout           The probability by which the input is set to 0, in [0, 1] (input)
 * @param states            Memory that holds the generator state (input)
 * @param stateSizeInBytes  Number of bytes of states (input)
 * @param seed              Seed the states were initialised with (input)
 * @param use_mask          Whether forward uses the mask already in reserveSpace (input)
 * @param state_evo         Whether each forward advances the generator's offset (input)
 * @param rng_mode          Random number generator (input)
 * @return                  miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenRestoreDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                            miopenHandle_t handle,
                                                            float dropout,
                                                            void* states,
                                                            size_t stateSizeInBytes,
                                                            unsigned long long seed,
                                                            bool use_mask,
                                                            bool state_evo,
                                                            miopenRNGType_t rng_mode);

/*! @brief Initialize the dropout descriptor and its generator state (seed, offset 0) in states
 * @param dropoutDesc       Dropout layer descriptor (input/output)
 * @param handle            MIOpen handle (input)
 * @param dropout           The probability by which the input is set to 0, in [0, 1] (input)
 * @param states            Memory for the generator state, on the handle's device (input)
 * @param stateSizeInBytes  Number of bytes provided for random generator states (input)
 * @param seed              Seed of the generator (input)
 * @param use_mask          Whether forward uses the mask already in reserveSpace (input)
 * @param state_evo         Whether each forward advances the generator's offset, so successive
 *                          forwards draw different masks (input)
 * @param rng_mode          Random number generator (input)
 * @return                  miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenSetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                        miopenHandle_t handle,
                                                        float dropout,
                                                        void* states,
                                                        size_t stateSizeInBytes,
                                                        unsigned long long seed,
                                                        bool use_mask,
                                                        bool state_evo,
                                                        miopenRNGType_t rng_mode);

/*! @brief Execute forward dropout: y = mask ? x / (1 - dropout) : 0 (0 everywhere for
 * dropout = 1); the mask is drawn from the generator, or read from reserveSpace with use_mask,
 * and written to reserveSpace when that is given.
 * @param handle                   MIOpen handle (input)
 * @param dropoutDesc              Dropout layer descriptor (input)
 * @param noise_shape              Tensor descriptor for noise shape: x's element count and
 *                                 dimension count (input)
 * @param xDesc                    Tensor descriptor for data tensor x, 1 to 5 dims (input)
 * @param x                        Data tensor x (input)
 * @param yDesc                    Tensor descriptor for data tensor y (input)
 * @param y                        Data tensor y (output)
 * @param reserveSpace             The mask (output; input with use_mask); may be null
 *                                 without use_mask
 * @param reserveSpaceSizeInBytes  Bytes of reserveSpace (input)
 * @return                         miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenDropoutForward(miopenHandle_t handle,
                                                  const miopenDropoutDescriptor_t dropoutDesc,
                                                  const miopenTensorDescriptor_t noise_shape,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y,
                                                  void* reserveSpace,
                                                  size_t reserveSpaceSizeInBytes);

/*! @brief Execute backward dropout: dx = mask ? dy / (1 - dropout) : 0, with the mask of the
 * forward from reserveSpace, or (null reserveSpace) drawn again from the generator.
 * @param handle                   MIOpen handle (input)
 * @param dropoutDesc              Dropout layer descriptor (input)
 * @param noise_shape              Tensor descriptor for noise shape (input)
 * @param dyDesc                   Tensor descriptor for data delta tensor dy (input)
 * @param dy                       Data delta tensor dy (input)
 * @param dxDesc                   Tensor descriptor for data delta tensor dx (input)
 * @param dx                       Data delta tensor dx (output)
 * @param reserveSpace             The mask of the forward (input); may be null
 * @param reserveSpaceSizeInBytes  Bytes of reserveSpace (input)
 * @return                         miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenDropoutBackward(miopenHandle_t handle,
                                                   const miopenDropoutDescriptor_t dropoutDesc,
                                                   const miopenTensorDescriptor_t noise_shape,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx,
                                                   void* reserveSpace,
                                                   size_t reserveSpaceSizeInBytes);

/* ------------------------------------------------------------------------------------------ */
/* RNN (vanilla ReLU / tanh, LSTM, GRU) and sequence tensors                                   */
/* ------------------------------------------------------------------------------------------ */
/* MIOpen's names, enum values, parameter order and weight layout. The layout (per layer, per
 * direction: the input matrices of every gate, then the hidden matrices; all biases after all
 * weights; LSTM gates i, f, o, c~; GRU gates z, r, c~; no input matrices in skip-input mode),
 * the sizes and the conventions (hx / cx null: zero initial state; hy / cy null: not written;
 * batch sizes per step non-increasing in the packed API) are documented in README.md and
 * hip/src/rnn/rnn_layout.hpp. The workspace and reserve space hold miopen_cy's own contents:
 * use the sizes the size calls return. miopenRNNBackwardWeights reads the gate gradients that
 * miopenRNNBackwardData left in the workspace (as in MIOpen): call it after BackwardData with
 * the same workspace. */

/*! @ingroup RNN @brief Creates the miopenRNNDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenRNNDescriptor);
/*! @ingroup RNN @brief Creates the miopenSeqTensorDescriptor_t type (tensor with a sequence dim) */
MIOPEN_DECLARE_OBJECT(miopenSeqTensorDescriptor);

/*! @enum miopenRNNMode_t */
typedef enum
{
    miopenRNNRELU = 0,
    miopenRNNTANH = 1,
    miopenLSTM    = 2,
    miopenGRU     = 3,
} miopenRNNMode_t;

/*! @enum miopenRNNInputMode_t */
typedef enum
{
    miopenRNNlinear = 0,
    miopenRNNskip   = 1,
} miopenRNNInputMode_t;

/*! @enum miopenRNNAlgo_t */
typedef enum
{
    miopenRNNdefault = 0,
    miopenRNNfundamental = 1,
} miopenRNNAlgo_t;

/*! @enum miopenRNNDirectionMode_t */
typedef enum
{
    miopenRNNunidirection = 0,
    miopenRNNbidirection  = 1,
} miopenRNNDirectionMode_t;

/*! @enum miopenRNNBiasMode_t */
typedef enum
{
    miopenRNNNoBias   = 0,
    miopenRNNwithBias = 1,
} miopenRNNBiasMode_t;

/*! @enum miopenRNNGEMMalgoMode_t */
typedef enum
{
    miopenRNNAlgoGEMM = 0,
} miopenRNNGEMMalgoMode_t;

/*! @enum miopenRNNPaddingMode_t */
typedef enum
{
    miopenRNNIONotPadded   = 0,
    miopenRNNIOWithPadding = 1,
} miopenRNNPaddingMode_t;

/*! @enum miopenRNNFWDMode_t */
typedef enum
{
    miopenRNNTraining  = 0,
    miopenRNNInference = 1,
} miopenRNNFWDMode_t;

/*! @enum miopenRNNBaseLayout_t */
typedef enum
{
    miopenRNNDataUnknownLayout     = 0,
    miopenRNNDataSeqMajorNotPadded = 1,
    miopenRNNDataSeqMajorPadded    = 2,
    miopenRNNDataBatchMajorPadded  = 3,
} miopenRNNBaseLayout_t;

/*! @brief Create a sequence data tensor descriptor (uninitialized) */
MIOPEN_EXPORT miopenStatus_t
miopenCreateSeqTensorDescriptor(miopenSeqTensorDescriptor_t* tensorDesc);

/*! @brief Destroys the sequence data tensor descriptor */
MIOPEN_EXPORT miopenStatus_t
miopenDestroySeqTensorDescriptor(miopenSeqTensorDescriptor_t tensorDesc);

/*! @brief MIOpen's miopenCreateRNNDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenCreateRNNDescriptor(miopenRNNDescriptor_t* rnnDesc);

/*! @brief MIOpen's miopenGetRNNDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNDescriptor(miopenRNNDescriptor_t rnnDesc,
                                                    miopenRNNMode_t* rnnMode,
                                                    miopenRNNAlgo_t* algoMode,
                                                    miopenRNNInputMode_t* inputMode,
                                                    miopenRNNDirectionMode_t* dirMode,
                                                    miopenRNNBiasMode_t* biasMode,
                                                    int* hiddenSize,
                                                    int* layer);

/*! @brief MIOpen's miopenGetRNNDescriptor_V2 (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNDescriptor_V2(miopenRNNDescriptor_t rnnDesc,
                                                       int* hiddenSize,
                                                       int* layer,
                                                       miopenDropoutDescriptor_t* dropoutDesc,
                                                       miopenRNNInputMode_t* inputMode,
                                                       miopenRNNDirectionMode_t* dirMode,
                                                       miopenRNNMode_t* rnnMode,
                                                       miopenRNNBiasMode_t* biasMode,
                                                       miopenRNNAlgo_t* algoMode,
                                                       miopenDataType_t* dataType);

/*! @brief MIOpen's miopenDestroyRNNDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenDestroyRNNDescriptor(miopenRNNDescriptor_t rnnDesc);

/*! @brief MIOpen's miopenSetRNNDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenSetRNNDescriptor(miopenRNNDescriptor_t rnnDesc,
                                                    const int hsize,
                                                    const int nlayers,
                                                    miopenRNNInputMode_t inMode,
                                                    miopenRNNDirectionMode_t direction,
                                                    miopenRNNMode_t rnnMode,
                                                    miopenRNNBiasMode_t biasMode,
                                                    miopenRNNAlgo_t algo,
                                                    miopenDataType_t dataType);

/*! @brief MIOpen's miopenSetRNNDescriptor_V2 (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenSetRNNDescriptor_V2(miopenRNNDescriptor_t rnnDesc,
                                                       const int hsize,
                                                       const int nlayers,
                                                       miopenDropoutDescriptor_t dropoutDesc,
                                                       miopenRNNInputMode_t inMode,
                                                       miopenRNNDirectionMode_t direction,
                                                       miopenRNNMode_t rnnMode,
                                                       miopenRNNBiasMode_t biasMode,
                                                       miopenRNNAlgo_t algo,
                                                       miopenDataType_t dataType);

/*! @brief MIOpen's miopenSetRNNDataSeqTensorDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t
miopenSetRNNDataSeqTensorDescriptor(miopenSeqTensorDescriptor_t seqTensorDesc,
                                    miopenDataType_t dataType,
                                    miopenRNNBaseLayout_t layout,
                                    int maxSequenceLen,
                                    int batchSize,
                                    int vectorSize,
                                    const int* sequenceLenArray,
                                    void* paddingMarker);

/*! @brief MIOpen's miopenGetRNNDataSeqTensorDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t
miopenGetRNNDataSeqTensorDescriptor(miopenSeqTensorDescriptor_t seqTensorDesc,
                                    miopenDataType_t* dataType,
                                    miopenRNNBaseLayout_t* layout,
                                    int* maxSequenceLen,
                                    int* batchSize,
                                    int* vectorSize,
                                    int sequenceLenArrayLimit,
                                    int* sequenceLenArray,
                                    void* paddingMarker);

/*! @brief MIOpen's miopenGetRNNWorkspaceSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNWorkspaceSize(miopenHandle_t handle,
                                                       const miopenRNNDescriptor_t rnnDesc,
                                                       const int sequenceLen,
                                                       const miopenTensorDescriptor_t* xDesc,
                                                       size_t* numBytes);

/*! @brief MIOpen's miopenGetRNNTrainingReserveSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNTrainingReserveSize(miopenHandle_t handle,
                                                             miopenRNNDescriptor_t rnnDesc,
                                                             const int sequenceLen,
                                                             const miopenTensorDescriptor_t* xDesc,
                                                             size_t* numBytes);

/*! @brief MIOpen's miopenGetRNNTempSpaceSizes (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNTempSpaceSizes(miopenHandle_t handle,
                                                        miopenRNNDescriptor_t rnnDesc,
                                                        miopenSeqTensorDescriptor_t xDesc,
                                                        miopenRNNFWDMode_t fwdMode,
                                                        size_t* workSpaceSize,
                                                        size_t* reserveSpaceSize);

/*! @brief MIOpen's miopenGetRNNParamsSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNParamsSize(miopenHandle_t handle,
                                                    miopenRNNDescriptor_t rnnDesc,
                                                    miopenTensorDescriptor_t xDesc,
                                                    size_t* numBytes,
                                                    miopenDataType_t dtype);

/*! @brief MIOpen's miopenGetRNNParamsDescriptor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNParamsDescriptor(miopenHandle_t handle,
                                                          miopenRNNDescriptor_t rnnDesc,
                                                          miopenTensorDescriptor_t xDesc,
                                                          miopenTensorDescriptor_t wDesc,
                                                          miopenDataType_t dtype);

/*! @brief MIOpen's miopenGetRNNInputTensorSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNInputTensorSize(miopenHandle_t handle,
                                                         miopenRNNDescriptor_t rnnDesc,
                                                         const int seqLen,
                                                         miopenTensorDescriptor_t* xDesc,
                                                         size_t* numBytes);

/*! @brief MIOpen's miopenGetRNNHiddenTensorSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNHiddenTensorSize(miopenHandle_t handle,
                                                          miopenRNNDescriptor_t rnnDesc,
                                                          const int seqLen,
                                                          miopenTensorDescriptor_t* xDesc,
                                                          size_t* numBytes);

/*! @brief MIOpen's miopenGetRNNLayerParamSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerParamSize(miopenHandle_t handle,
                                                        miopenRNNDescriptor_t rnnDesc,
                                                        const int layer,
                                                        miopenTensorDescriptor_t xDesc,
                                                        const int paramID,
                                                        size_t* numBytes);

/*! @brief MIOpen's miopenGetRNNLayerBiasSize (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerBiasSize(miopenHandle_t handle,
                                                       miopenRNNDescriptor_t rnnDesc,
                                                       const int layer,
                                                       const int biasID,
                                                       size_t* numBytes);

/*! @brief MIOpen's miopenGetRNNLayerParam (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerParam(miopenHandle_t handle,
                                                    miopenRNNDescriptor_t rnnDesc,
                                                    const int layer,
                                                    miopenTensorDescriptor_t xDesc,
                                                    miopenTensorDescriptor_t wDesc,
                                                    const void* w,
                                                    const int paramID,
                                                    miopenTensorDescriptor_t paramDesc,
                                                    void* layerParam);

/*! @brief MIOpen's miopenGetRNNLayerBias (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerBias(miopenHandle_t handle,
                                                   miopenRNNDescriptor_t rnnDesc,
                                                   const int layer,
                                                   miopenTensorDescriptor_t xDesc,
                                                   miopenTensorDescriptor_t wDesc,
                                                   const void* w,
                                                   const int biasID,
                                                   miopenTensorDescriptor_t biasDesc,
                                                   void* layerBias);

/*! @brief MIOpen's miopenGetRNNLayerParamOffset (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerParamOffset(miopenRNNDescriptor_t rnnDesc,
                                                          const int layer,
                                                          miopenTensorDescriptor_t xDesc,
                                                          const int paramID,
                                                          miopenTensorDescriptor_t paramDesc,
                                                          size_t* layerParamOffset);

/*! @brief MIOpen's miopenGetRNNLayerBiasOffset (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerBiasOffset(miopenRNNDescriptor_t rnnDesc,
                                                         const int layer,
                                                         miopenTensorDescriptor_t xDesc,
                                                         const int biasID,
                                                         miopenTensorDescriptor_t biasDesc,
                                                         size_t* layerBiasOffset);

/*! @brief MIOpen's miopenSetRNNLayerParam (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenSetRNNLayerParam(miopenHandle_t handle,
                                                    miopenRNNDescriptor_t rnnDesc,
                                                    const int layer,
                                                    miopenTensorDescriptor_t xDesc,
                                                    miopenTensorDescriptor_t wDesc,
                                                    void* w,
                                                    const int paramID,
                                                    miopenTensorDescriptor_t paramDesc,
                                                    const void* layerParam);

/*! @brief MIOpen's miopenSetRNNLayerBias (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenSetRNNLayerBias(miopenHandle_t handle,
                                                   miopenRNNDescriptor_t rnnDesc,
                                                   const int layer,
                                                   miopenTensorDescriptor_t xDesc,
                                                   miopenTensorDescriptor_t wDesc,
                                                   void* w,
                                                   const int biasID,
                                                   miopenTensorDescriptor_t biasDesc,
                                                   const void* layerBias);

/*! @brief MIOpen's miopenSetRNNPaddingMode (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenSetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                                     miopenRNNPaddingMode_t paddingMode);

/*! @brief MIOpen's miopenGetRNNPaddingMode (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenGetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                                     miopenRNNPaddingMode_t* paddingMode);

/*! @brief MIOpen's miopenRNNForward (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenRNNForward(miopenHandle_t handle,
                                              const miopenRNNDescriptor_t rnnDesc,
                                              miopenRNNFWDMode_t fwdMode,
                                              const miopenSeqTensorDescriptor_t xDesc,
                                              const void* x,
                                              const miopenTensorDescriptor_t hDesc,
                                              const void* hx,
                                              void* hy,
                                              const miopenTensorDescriptor_t cDesc,
                                              const void* cx,
                                              void* cy,
                                              const miopenSeqTensorDescriptor_t yDesc,
                                              void* y,
                                              const void* w,
                                              size_t weightSpaceSize,
                                              void* workSpace,
                                              size_t workSpaceNumBytes,
                                              void* reserveSpace,
                                              size_t reserveSpaceNumBytes);

/*! @brief MIOpen's miopenRNNBackwardSeqData (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardSeqData(miopenHandle_t handle,
                                                      const miopenRNNDescriptor_t rnnDesc,
                                                      const miopenSeqTensorDescriptor_t yDesc,
                                                      const void* y,
                                                      const void* dy,
                                                      const miopenTensorDescriptor_t hDesc,
                                                      const void* hx,
                                                      const void* dhy,
                                                      void* dhx,
                                                      const miopenTensorDescriptor_t cDesc,
                                                      const void* cx,
                                                      const void* dcy,
                                                      void* dcx,
                                                      const miopenSeqTensorDescriptor_t xDesc,
                                                      void* dx,
                                                      const void* w,
                                                      size_t weightSpaceSize,
                                                      void* workSpace,
                                                      size_t workSpaceNumBytes,
                                                      void* reserveSpace,
                                                      size_t reserveSpaceNumBytes);

/*! @brief MIOpen's miopenRNNBackwardWeightsSeqTensor (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t
miopenRNNBackwardWeightsSeqTensor(miopenHandle_t handle,
                                  const miopenRNNDescriptor_t rnnDesc,
                                  const miopenSeqTensorDescriptor_t xDesc,
                                  const void* x,
                                  const miopenTensorDescriptor_t hDesc,
                                  const void* hx,
                                  const miopenSeqTensorDescriptor_t yDesc,
                                  const void* y,
                                  void* dw,
                                  size_t weightSpaceSize,
                                  void* workSpace,
                                  size_t workSpaceNumBytes,
                                  const void* reserveSpace,
                                  size_t reserveSpaceNumBytes);

/*! @brief MIOpen's miopenRNNForwardTraining (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenRNNForwardTraining(miopenHandle_t handle,
                                                      const miopenRNNDescriptor_t rnnDesc,
                                                      const int sequenceLen,
                                                      const miopenTensorDescriptor_t* xDesc,
                                                      const void* x,
                                                      const miopenTensorDescriptor_t hxDesc,
                                                      const void* hx,
                                                      const miopenTensorDescriptor_t cxDesc,
                                                      const void* cx,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const void* w,
                                                      const miopenTensorDescriptor_t* yDesc,
                                                      void* y,
                                                      const miopenTensorDescriptor_t hyDesc,
                                                      void* hy,
                                                      const miopenTensorDescriptor_t cyDesc,
                                                      void* cy,
                                                      void* workSpace,
                                                      size_t workSpaceNumBytes,
                                                      void* reserveSpace,
                                                      size_t reserveSpaceNumBytes);

/*! @brief MIOpen's miopenRNNBackwardData (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardData(miopenHandle_t handle,
                                                   const miopenRNNDescriptor_t rnnDesc,
                                                   const int sequenceLen,
                                                   const miopenTensorDescriptor_t* yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t* dyDesc,
                                                   const void* dy,
                                                   const miopenTensorDescriptor_t dhyDesc,
                                                   const void* dhy,
                                                   const miopenTensorDescriptor_t dcyDesc,
                                                   const void* dcy,
                                                   const miopenTensorDescriptor_t wDesc,
                                                   const void* w,
                                                   const miopenTensorDescriptor_t hxDesc,
                                                   const void* hx,
                                                   const miopenTensorDescriptor_t cxDesc,
                                                   const void* cx,
                                                   const miopenTensorDescriptor_t* dxDesc,
                                                   void* dx,
                                                   const miopenTensorDescriptor_t dhxDesc,
                                                   void* dhx,
                                                   const miopenTensorDescriptor_t dcxDesc,
                                                   void* dcx,
                                                   void* workSpace,
                                                   size_t workSpaceNumBytes,
                                                   void* reserveSpace,
                                                   size_t reserveSpaceNumBytes);

/*! @brief MIOpen's miopenRNNBackwardWeights (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardWeights(miopenHandle_t handle,
                                                      const miopenRNNDescriptor_t rnnDesc,
                                                      const int sequenceLen,
                                                      const miopenTensorDescriptor_t* xDesc,
                                                      const void* x,
                                                      const miopenTensorDescriptor_t hxDesc,
                                                      const void* hx,
                                                      const miopenTensorDescriptor_t* yDesc,
                                                      const void* y,
                                                      const miopenTensorDescriptor_t dwDesc,
                                                      void* dw,
                                                      void* workSpace,
                                                      size_t workSpaceNumBytes,
                                                      const void* reserveSpace,
                                                      size_t reserveSpaceNumBytes);

/*! @brief MIOpen's miopenRNNForwardInference (see MIOpen's documentation; README.md lists miopen_cy's rules) */
MIOPEN_EXPORT miopenStatus_t miopenRNNForwardInference(miopenHandle_t handle,
                                                       miopenRNNDescriptor_t rnnDesc,
                                                       const int sequenceLen,
                                                       const miopenTensorDescriptor_t* xDesc,
                                                       const void* x,
                                                       const miopenTensorDescriptor_t hxDesc,
                                                       const void* hx,
                                                       const miopenTensorDescriptor_t cxDesc,
                                                       const void* cx,
                                                       const miopenTensorDescriptor_t wDesc,
                                                       const void* w,
                                                       const miopenTensorDescriptor_t* yDesc,
                                                       void* y,
                                                       const miopenTensorDescriptor_t hyDesc,
                                                       void* hy,
                                                       const miopenTensorDescriptor_t cyDesc,
                                                       void* cy,
                                                       void* workSpace,
                                                       size_t workSpaceNumBytes);

/* CTC loss                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/*! @ingroup LossFunction @brief Creates the miopenCTCLossDescriptor_t type */
MIOPEN_DECLARE_OBJECT(miopenCTCLossDescriptor);

/*! @enum miopenCTCLossAlgo_t
 * Algorithms available to execute the CTC loss operation
 */
typedef enum
{
    MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC = 0, /*!< Results are guaranteed to be reproducible */
} miopenCTCLossAlgo_t;

/*! @brief Creates a CTC loss descriptor (miopenFloat, blank label 0, softmax applied: MIOpen's
 * defaults)
 * @param ctcLossDesc  Pointer to the CTC loss descriptor type (output)
 * @return             miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateCTCLossDescriptor(miopenCTCLossDescriptor_t* ctcLossDesc);

/*! @brief Retrieves a CTC loss descriptor's details
 * @param ctcLossDesc          CTC loss descriptor (input)
 * @param dataType             Data type of the CTC loss (output)
 * @param blank_label_id       Index of the blank label (output; may be null)
 * @param apply_softmax_layer  Whether probs are activations that a log-softmax turns into log
 *                             probabilities (output; may be null)
 * @return                     miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenGetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                                        miopenDataType_t* dataType,
                                                        int* blank_label_id,
                                                        bool* apply_softmax_layer);

/*! @brief Destroys a CTC loss descriptor
 * @param ctcLossDesc  CTC loss descriptor (input)
 * @return             miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenDestroyCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc);

/*! @brief Sets a CTC loss descriptor
 * @param ctcLossDesc          CTC loss descriptor (input)
 * @param dataType             Data type: miopenFloat (MIOpen's header: fp32 only) or miopenHalf
 *                             (input)
 * @param blank_label_id       Index of the blank label, 0 <= blank_label_id < classes (checked by
 *                             the calls that know the classes) (input)
 * @param apply_softmax_layer  true: probs are activations and a log-softmax over the classes is
 *                             applied inside (gradients with respect to the activations); false:
 *                             probs are log probabilities used as they are (gradients with
 *                             respect to the probabilities exp(probs)) (input)
 * @return                     miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenSetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                                        miopenDataType_t dataType,
                                                        const int blank_label_id,
                                                        bool apply_softmax_layer);

/*! @brief Bytes of workspace miopenCTCLoss needs for these labels and lengths (every check of
 * miopenCTCLoss on them is made here too)
 * @param handle         MIOpen handle (input)
 * @param probsDesc      Descriptor of probs: [max time steps, batch, classes] (input)
 * @param gradientsDesc  Descriptor of gradients: probs' lengths (input)
 * @param labels         Host array: the labels of every batch item, concatenated (input)
 * @param labelLengths   Host array: the label count of each batch item (input)
 * @param inputLengths   Host array: the time steps of each batch item (input)
 * @param algo           CTC loss algorithm (input)
 * @param ctcLossDesc    CTC loss descriptor (input)
 * @param workSpaceSize  Bytes of workspace (output)
 * @return               miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t
miopenGetCTCLossWorkspaceSize(miopenHandle_t handle,
                              const miopenTensorDescriptor_t probsDesc,
                              const miopenTensorDescriptor_t gradientsDesc,
                              const int* labels,
                              const int* labelLengths,
                              const int* inputLengths,
                              miopenCTCLossAlgo_t algo,
                              const miopenCTCLossDescriptor_t ctcLossDesc,
                              size_t* workSpaceSize);

/*! @brief CTC loss and its gradient: losses[b] = -log p(labels of b | probs of b over its
 * inputLengths[b] time steps), gradients = d losses[b] / d probs (zero past inputLengths[b])
 * @param handle         MIOpen handle (input)
 * @param probsDesc      Descriptor of probs: [max time steps, batch, classes] (input)
 * @param probs          Activations (apply_softmax_layer) or log probabilities (input)
 * @param labels         Host array: the labels of every batch item, concatenated (input)
 * @param labelLengths   Host array: the label count of each batch item (input)
 * @param inputLengths   Host array: the time steps of each batch item (input)
 * @param losses         The loss of each batch item, of probs' type (output)
 * @param gradientsDesc  Descriptor of gradients: probs' lengths and type (input)
 * @param gradients      The gradients (output)
 * @param algo           CTC loss algorithm (input)
 * @param ctcLossDesc    CTC loss descriptor (input)
 * @param workSpace      Workspace (input)
 * @param workSpaceSize  Bytes of workSpace, at least miopenGetCTCLossWorkspaceSize's (input)
 * @return               miopenStatus_t
 */
MIOPEN_EXPORT miopenStatus_t miopenCTCLoss(miopenHandle_t handle,
                                           const miopenTensorDescriptor_t probsDesc,
                                           const void* probs,
                                           const int* labels,
                                           const int* labelLengths,
                                           const int* inputLengths,
                                           void* losses,
                                           const miopenTensorDescriptor_t gradientsDesc,
                                           void* gradients,
                                           miopenCTCLossAlgo_t algo,
                                           const miopenCTCLossDescriptor_t ctcLossDesc,
                                           void* workSpace,
                                           size_t workSpaceSize);

/* ------------------------------------------------------------------------------------------ */
/* miopen_cy extensions (not in MIOpen)                                                       */
/* ------------------------------------------------------------------------------------------ */

/*! @brief The message of the last failed call on this thread ("" if none). MIOpen prints such
 * messages to stderr; miopen_cy also keeps them for the caller. The pointer stays valid until the
 * next API call on this thread.
 */
MIOPEN_EXPORT const char* miopenCyGetLastErrorMessage(void);

/*! @brief Create a handle on a named device: "cpu", "gpu" or "gpu:N" (NULL: the default).
 * @param handle     A pointer to a MIOpen handle type (output)
 * @param device     Device name (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyCreateOnDevice(miopenHandle_t* handle, const char* device);

/*! @brief The device a handle is bound to: 0 for the CPU, 1 for a GPU, with its ordinal.
 * @param handle     MIOpen handle (input)
 * @param kind       0 = CPU, 1 = GPU (output)
 * @param ordinal    GPU ordinal, 0 on the CPU (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetHandleDevice(miopenHandle_t handle, int* kind, int* ordinal);

/*! @brief Number of GPUs this library can use: 0 when it was built without a GPU backend, or
 * when no driver or GPU is present (never an error).
 * @param count      Number of GPUs (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetDeviceCount(int* count);

/*! @brief The handle's device in DLPack terms (miopen_cy extension, for DeviceBuffer.__dlpack__):
 * kDLCPU (1) and 0 on a CPU handle, kDLCUDA (2) or kDLROCM (10) and the GPU ordinal on a GPU.
 * @param handle     MIOpen handle (input)
 * @param deviceType DLPack DLDeviceType value (output)
 * @param deviceId   DLPack device id (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetDLPackDevice(miopenHandle_t handle, int* deviceType,
                                                     int* deviceId);

/*! @brief Allocates device memory on the handle's device (hipMalloc / cudaMalloc on a GPU
 * handle, 64-byte aligned host memory on a CPU handle). Zero bytes gives NULL.
 * @param handle     MIOpen handle (input)
 * @param ptr        The new allocation (output)
 * @param sizeBytes  Bytes to allocate (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyDeviceAlloc(miopenHandle_t handle, void** ptr, size_t sizeBytes);

/*! @brief Frees memory from miopenCyDeviceAlloc on the same handle's device (NULL is fine).
 * @param handle     MIOpen handle (input)
 * @param ptr        The allocation (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyDeviceFree(miopenHandle_t handle, void* ptr);

/*! @brief Copies sizeBytes from src to dst, each host or device memory (the direction is
 * inferred), on the handle's stream; returns when the copy is complete.
 * @param handle     MIOpen handle (input)
 * @param dst        Destination (input)
 * @param src        Source (input)
 * @param sizeBytes  Bytes to copy (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyMemcpy(miopenHandle_t handle, void* dst, const void* src,
                                            size_t sizeBytes);

/*! @brief Waits until all work queued on the handle's stream has completed (nothing on a CPU
 * handle, whose calls are synchronous).
 * @param handle     MIOpen handle (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyStreamSynchronize(miopenHandle_t handle);

/*! @brief Makes work queued on the handle's stream from now on wait for everything queued on
 * `stream` so far (an event recorded there); for data produced on another stream. Nothing on a
 * CPU handle.
 * @param handle     MIOpen handle (input)
 * @param stream     The producer's platform stream (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyStreamWait(miopenHandle_t handle, miopenAcceleratorQueue_t stream);

/*! @brief The GPU ordinal that a device pointer belongs to, or -1 for host memory (and for any
 * pointer when no GPU backend is built).
 * @param ptr        Any pointer (input)
 * @param ordinal    GPU ordinal or -1 (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetPointerDevice(const void* ptr, int* ordinal);

/*! @brief Number of convolution solvers this library has (miopen_cy extension; MIOpen keeps its
 * solver registry internal).
 * @param count      Number of solvers (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetSolverCount(size_t* count);

/*! @brief Solver `index` of the registry (priority order, 0 <= index < miopenCyGetSolverCount):
 * its id, name, algorithm and the environment variable that switches it off (=0). The strings
 * are static.
 * @param index      Position in the registry (input)
 * @param solverId   The solver's id, as in miopenConvSolution_t and the find-db (output)
 * @param name       The solver's name (output)
 * @param algorithm  Its algorithm (output)
 * @param switchName Its own switch, e.g. "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD" (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetSolverInfo(size_t index, uint64_t* solverId, const char** name,
                                                   miopenConvAlgorithm_t* algorithm,
                                                   const char** switchName);

/*! @brief The name of a solver by id (miopen_cy extension; MIOpen's drivers use its internal
 * solver::Id for this). BadParm for an id of no solver. The string is static.
 * @param solverId   Solver id (input)
 * @param name       The solver's name (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetSolverIdName(uint64_t solverId, const char** name);

/*! @brief One solver on a Find 2.0 problem (its direction and the descriptors set on it) on this
 * handle's device: whether its switches (algorithm, family, its own, MIOPEN_DEBUG_FIND_ONLY_SOLVER)
 * leave it on, whether it can run the problem (switches, applicability and the deterministic
 * attribute; no workspace limit) and, when not, why; its workspace where it applies (also when
 * switched off). `reason` stays valid until the next call of this function on this thread.
 * @param handle       MIOpen handle (input)
 * @param problem      A convolution problem (input)
 * @param solverId     Solver id (input)
 * @param switchedOn   Whether no switch turns it off (output)
 * @param applicable   Whether it can run the problem (output)
 * @param workspaceSize Bytes of workspace it needs (0 where it does not apply) (output)
 * @param reason       "" when applicable, else why not, e.g. "disabled by MIOPEN_DEBUG_CONV_GEMM=0"
 *                     (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetSolverApplicability(miopenHandle_t handle, miopenProblem_t problem,
                                                            uint64_t solverId, bool* switchedOn,
                                                            bool* applicable, size_t* workspaceSize,
                                                            const char** reason);

/*! @brief Row-major fp32 strided-batched GEMM on the handle's device (miopen_cy extension: the
 * GPU GEMM kernel behind the GEMM convolution solvers, exposed for tests and benchmarks):
 * C[b] = opA(A[b]) * opB(B[b]) for b < batch, opA(A)[i][l] = transA ? A[l * lda + i] : A[i * lda + l],
 * opB(B)[l][j] = transB ? B[j * ldb + l] : B[l * ldb + j], matrix b at offset b * stride. With
 * sumBatch, C (one matrix) = the sum over b of the products, in b order. C is overwritten.
 * @param handle     MIOpen handle (input)
 * @param transA     Whether A is stored transposed (input)
 * @param transB     Whether B is stored transposed (input)
 * @param sumBatch   Sum the batch into one C (input)
 * @param m          Rows of C (input)
 * @param n          Columns of C (input)
 * @param k          The summed dimension (input)
 * @param batch      Number of products (input)
 * @param A          A's data (input)
 * @param lda        A's leading dimension (input)
 * @param strideA    Elements between A[b] and A[b + 1] (input)
 * @param B          B's data (input)
 * @param ldb        B's leading dimension (input)
 * @param strideB    Elements between B[b] and B[b + 1] (input)
 * @param C          C's data (output)
 * @param ldc        C's leading dimension (input)
 * @param strideC    Elements between C[b] and C[b + 1] (input; unused with sumBatch)
 */
MIOPEN_EXPORT miopenStatus_t miopenCySgemm(miopenHandle_t handle, bool transA, bool transB,
                                           bool sumBatch, int m, int n, int k, int batch,
                                           const float* A, int64_t lda, int64_t strideA,
                                           const float* B, int64_t ldb, int64_t strideB, float* C,
                                           int64_t ldc, int64_t strideC);

/*! @brief How this library was built and what it finds on this machine (miopen_cy extension,
 * for miopen_cy.show_config() and `miopen-driver info`): text of "key=value" lines, one per item.
 * Build: version, api_version, system, compiler, build_type, native (-march=native on or off),
 * sanitize, gpu_backend (cuda, hip or off), gpu_archs (comma-separated sm_XX or gfxXXX),
 * gpu_toolkit. Run time: gpu_count, gpu_absent_reason (when 0), gpu_device_N_name / _arch /
 * _multiprocessors; cpu_isa_compiled (the sets the generic code was compiled for),
 * cpu_isa_kernels (the per-set kernels chosen at run time), cpu_isa_detected (this CPU's),
 * cpu_isa_used (the blocked direct convolution's choice, after MIOPEN_CY_DEBUG_CPU_ISA),
 * cpu_convert_fp16 / cpu_convert_bf16 (the fp16 / bf16 conversion paths chosen),
 * cpu_convert_in_registers (on: the element-wise ops convert 16-bit blocks inline, in vector
 * registers), cpu_threads; blas, blas_config and blas_corename (OpenBLAS's kernel set, which
 * OPENBLAS_CORETYPE overrides); user_db_dir, find_db_enabled, perf_db_enabled. Keys may be
 * added; values never span lines.
 * @param config     The text (output); valid until the next call of this function on this thread
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetConfig(const char** config);

/*! @brief The find-db and perf-db files a handle's convolutions read and write (miopen_cy
 * extension): the user-db directory, the device's architecture and the solver set's fingerprint.
 * "" when there is no user-db directory (no home directory). The files need not exist.
 * @param handle     MIOpen handle (input)
 * @param findDb     The find-db file (output); valid until the next call on this thread
 * @param perfDb     The perf-db file (output); valid until the next call on this thread
 */
MIOPEN_EXPORT miopenStatus_t miopenCyGetDbPaths(miopenHandle_t handle, const char** findDb,
                                                const char** perfDb);

#ifdef __cplusplus
}
#endif

#endif /* MIOPEN_GUARD_MIOPEN_H_ */
