#include "tensor/tensor_ops.hpp"
#include "core/api.hpp"
#include "gpu/runtime.hpp"

#include <vector>

namespace miopen {

void OpTensor(Handle& handle,
              miopenTensorOp_t op,
              const void* alpha1,
              const TensorDescriptor& aDesc,
              const void* A,
              const void* alpha2,
              const TensorDescriptor& bDesc,
              const void* B,
              const void* beta,
              const TensorDescriptor& cDesc,
              void* C)
{
    if(op < miopenTensorOpAdd || op > miopenTensorOpMax)
        ThrowBadParm("tensorOp = ", static_cast<int>(op), " is not a miopenTensorOp_t value");
    CheckSameType(aDesc, "aDesc", cDesc, "cDesc");
    CheckSameType(bDesc, "bDesc", cDesc, "cDesc");
    CheckComputeType(cDesc, "cDesc");
    CheckSameLens(aDesc, "aDesc", cDesc, "cDesc");
    if(bDesc.NumDims() != cDesc.NumDims())
        ThrowBadParm("bDesc has ", bDesc.NumDims(), " dims but cDesc has ", cDesc.NumDims());
    std::vector<size_t> b_strides(bDesc.NumDims());
    for(int d = 0; d < bDesc.NumDims(); ++d)
    {
        const size_t bl = bDesc.Lens()[d];
        if(bl != 1 && bl != cDesc.Lens()[d])
            ThrowBadParm("bDesc length ", bl, " of dim ", d, " must be 1 or cDesc's ",
                         cDesc.Lens()[d]);
        b_strides[d] = bl == 1 ? 0 : bDesc.Strides()[d];
    }
    CheckData(A, "A");
    CheckData(B, "B");
    CheckData(C, "C");
    const float a1 = static_cast<float>(ReadScalar(alpha1, cDesc.Type(), "alpha1"));
    const float a2 = static_cast<float>(ReadScalar(alpha2, cDesc.Type(), "alpha2"));
    const float b  = static_cast<float>(ReadScalar(beta, cDesc.Type(), "beta"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::OpTensor(handle, op, a1, aDesc, static_cast<const float*>(A), a2,
                             b_strides.data(), static_cast<const float*>(B), b, cDesc,
                             static_cast<float*>(C));
#endif
    cpu::OpTensor(op, a1, aDesc, static_cast<const float*>(A), a2, b_strides.data(),
                  static_cast<const float*>(B), b, cDesc, static_cast<float*>(C));
}

void SetTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    CheckComputeType(yDesc, "yDesc");
    CheckData(y, "y");
    const float value = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::Fill(handle, yDesc, static_cast<float*>(y), value);
#endif
    cpu::Fill(yDesc, static_cast<float*>(y), value);
}

void ScaleTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    CheckComputeType(yDesc, "yDesc");
    CheckData(y, "y");
    const float a = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::Axpby(handle, a, yDesc, static_cast<const float*>(y), 0.0f, yDesc,
                          static_cast<float*>(y), "miopenScaleTensor");
#endif
    cpu::Axpby(a, yDesc, static_cast<const float*>(y), 0.0f, yDesc, static_cast<float*>(y));
}

void TransformTensor(Handle& handle,
                     const void* alpha,
                     const TensorDescriptor& xDesc,
                     const void* x,
                     const void* beta,
                     const TensorDescriptor& yDesc,
                     void* y)
{
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    CheckComputeType(yDesc, "yDesc");
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    CheckData(x, "x");
    CheckData(y, "y");
    const float a = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    const float b = static_cast<float>(ReadScalar(beta, yDesc.Type(), "beta"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::Axpby(handle, a, xDesc, static_cast<const float*>(x), b, yDesc,
                          static_cast<float*>(y), "miopenTransformTensor");
#endif
    cpu::Axpby(a, xDesc, static_cast<const float*>(x), b, yDesc, static_cast<float*>(y));
}

} // namespace miopen
