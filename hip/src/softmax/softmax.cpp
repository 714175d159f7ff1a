#include "softmax/softmax.hpp"
#include "core/api.hpp"
#include "gpu/runtime.hpp"

namespace miopen {
namespace {

void CheckAlgorithmAndMode(miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)
{
    if(algorithm != MIOPEN_SOFTMAX_FAST && algorithm != MIOPEN_SOFTMAX_ACCURATE &&
       algorithm != MIOPEN_SOFTMAX_LOG)
        ThrowBadParm("algorithm = ", static_cast<int>(algorithm),
                     " is not a miopenSoftmaxAlgorithm_t value");
    if(mode != MIOPEN_SOFTMAX_MODE_INSTANCE && mode != MIOPEN_SOFTMAX_MODE_CHANNEL)
        ThrowBadParm("mode = ", static_cast<int>(mode), " is not a miopenSoftmaxMode_t value");
}

} // namespace

void SoftmaxForward(Handle& handle,
                    const void* alpha,
                    const TensorDescriptor& xDesc,
                    const void* x,
                    const void* beta,
                    const TensorDescriptor& yDesc,
                    void* y,
                    miopenSoftmaxAlgorithm_t algorithm,
                    miopenSoftmaxMode_t mode)
{
    CheckAlgorithmAndMode(algorithm, mode);
    CheckNumDims(xDesc, "xDesc", 4, 4);
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    CheckComputeType(yDesc, "yDesc");
    CheckData(x, "x");
    CheckData(y, "y");
    const float a = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    const float b = static_cast<float>(ReadScalar(beta, yDesc.Type(), "beta"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::SoftmaxForward(handle, algorithm, mode, a, xDesc, static_cast<const float*>(x),
                                   b, yDesc, static_cast<float*>(y));
#endif
    cpu::SoftmaxForward(algorithm, mode, a, xDesc, static_cast<const float*>(x), b, yDesc,
                        static_cast<float*>(y));
}

void SoftmaxBackward(Handle& handle,
                     const void* alpha,
                     const TensorDescriptor& yDesc,
                     const void* y,
                     const TensorDescriptor& dyDesc,
                     const void* dy,
                     const void* beta,
                     const TensorDescriptor& dxDesc,
                     void* dx,
                     miopenSoftmaxAlgorithm_t algorithm,
                     miopenSoftmaxMode_t mode)
{
    CheckAlgorithmAndMode(algorithm, mode);
    CheckNumDims(yDesc, "yDesc", 4, 4);
    CheckSameLens(yDesc, "yDesc", dyDesc, "dyDesc");
    CheckSameLens(dyDesc, "dyDesc", dxDesc, "dxDesc");
    CheckSameType(yDesc, "yDesc", dyDesc, "dyDesc");
    CheckSameType(dyDesc, "dyDesc", dxDesc, "dxDesc");
    CheckComputeType(dxDesc, "dxDesc");
    CheckData(y, "y");
    CheckData(dy, "dy");
    CheckData(dx, "dx");
    const float a = static_cast<float>(ReadScalar(alpha, dxDesc.Type(), "alpha"));
    const float b = static_cast<float>(ReadScalar(beta, dxDesc.Type(), "beta"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::SoftmaxBackward(handle, algorithm, mode, a, yDesc, static_cast<const float*>(y),
                                    dyDesc, static_cast<const float*>(dy), b, dxDesc,
                                    static_cast<float*>(dx));
#endif
    cpu::SoftmaxBackward(algorithm, mode, a, yDesc, static_cast<const float*>(y), dyDesc,
                         static_cast<const float*>(dy), b, dxDesc, static_cast<float*>(dx));
}

} // namespace miopen
