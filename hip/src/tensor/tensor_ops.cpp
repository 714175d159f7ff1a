#include "tensor/tensor_ops.hpp"
#include "core/op_call.hpp"

#include <vector>

namespace miopen {

void OpTensor(Handle& handle, miopenTensorOp_t op, const void* alpha1,
              const TensorDescriptor& aDesc, const void* A, const void* alpha2,
              const TensorDescriptor& bDesc, const void* B, const void* beta,
              const TensorDescriptor& cDesc, void* C)
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
    CheckDataPointers(handle, {{A, "A"}, {B, "B"}, {C, "C"}});
    const float a1 = static_cast<float>(ReadScalar(alpha1, cDesc.Type(), "alpha1"));
    const float a2 = static_cast<float>(ReadScalar(alpha2, cDesc.Type(), "alpha2"));
    const float b  = static_cast<float>(ReadScalar(beta, cDesc.Type(), "beta"));
    const auto* ap = static_cast<const float*>(A);
    const auto* bp = static_cast<const float*>(B);
    auto* cp       = static_cast<float*>(C);
    RunOp(
        handle,
        [&] { cpu::OpTensor(op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp); },
        [&](auto& h) { gpu::OpTensor(h, op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp); });
}

void SetTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    CheckComputeType(yDesc, "yDesc");
    CheckDataPointers(handle, {{y, "y"}});
    const float value = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    auto* yp          = static_cast<float*>(y);
    RunOp(
        handle, [&] { cpu::Fill(yDesc, yp, value); },
        [&](auto& h) { gpu::Fill(h, yDesc, yp, value); });
}

void ScaleTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    CheckComputeType(yDesc, "yDesc");
    CheckDataPointers(handle, {{y, "y"}});
    const float a = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    auto* yp      = static_cast<float*>(y);
    RunOp(
        handle, [&] { cpu::Axpby(a, yDesc, yp, 0.0f, yDesc, yp); },
        [&](auto& h) { gpu::Axpby(h, a, yDesc, yp, 0.0f, yDesc, yp, "miopenScaleTensor"); });
}

void TransformTensor(Handle& handle, const void* alpha, const TensorDescriptor& xDesc,
                     const void* x, const void* beta, const TensorDescriptor& yDesc, void* y)
{
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    CheckComputeType(yDesc, "yDesc");
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    CheckDataPointers(handle, {{x, "x"}, {y, "y"}});
    const Blend s  = ReadBlend(alpha, beta, yDesc);
    const auto* xp = static_cast<const float*>(x);
    auto* yp       = static_cast<float*>(y);
    RunOp(
        handle, [&] { cpu::Axpby(s.alpha, xDesc, xp, s.beta, yDesc, yp); },
        [&](auto& h) {
            gpu::Axpby(h, s.alpha, xDesc, xp, s.beta, yDesc, yp, "miopenTransformTensor");
        });
}

} // namespace miopen
