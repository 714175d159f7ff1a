// Front doors of the whole-tensor ops. Types: fp32, fp16 and bf16 for every call (MIOpen's
// miopenScaleTensor refuses bf16 and its OpTensor/TransformTensor kernels take it: we run all
// three everywhere); miopenSetTensor also int8 and int32 (it copies the value's bits). The other
// types MIOpen's tensor calls define (double; int8/int32 arithmetic) are NotImplemented here, any
// other type a BadParm. Scaling factors (alpha, beta) are host floats; miopenSetTensor's fill
// value is of y's type, as MIOpen and cuDNN read it.
#include "tensor/tensor_ops.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <cstring>
#include <vector>

namespace miopen {
namespace {

/// The types MIOpen defines for the call that we do not run (double; int32, and int8 where MIOpen
/// takes it): NotImplemented, naming the parameter. `ints`: MIOpen's call takes int8/int32.
void RefuseUnimplemented(const TensorDescriptor& d, const char* name, const char* api, bool int8,
                         bool int32)
{
    const auto t = d.Type();
    if(t == miopenDouble || (int8 && t == miopenInt8) || (int32 && t == miopenInt32))
        ThrowNotImplemented(name, " has data type ", DataTypeName(t), "; ", api,
                            " runs miopenFloat, miopenHalf and miopenBFloat16 here");
}

} // namespace

void OpTensor(Handle& handle, miopenTensorOp_t op, const void* alpha1,
              const TensorDescriptor& aDesc, const void* A, const void* alpha2,
              const TensorDescriptor& bDesc, const void* B, const void* beta,
              const TensorDescriptor& cDesc, void* C)
{
    if(op < miopenTensorOpAdd || op > miopenTensorOpMax)
        ThrowBadParm("tensorOp = ", static_cast<int>(op), " is not a miopenTensorOp_t value");
    CheckSameType(aDesc, "aDesc", cDesc, "cDesc");
    CheckSameType(bDesc, "bDesc", cDesc, "cDesc");
    RefuseUnimplemented(cDesc, "cDesc", "miopenOpTensor", true, true);
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
    DispatchFloating(cDesc.Type(), "cDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{A, "A"}, {B, "B"}, {C, "C"}});
        const float a1 = static_cast<float>(ReadScalar(alpha1, cDesc.Type(), "alpha1"));
        const float a2 = static_cast<float>(ReadScalar(alpha2, cDesc.Type(), "alpha2"));
        const float b  = static_cast<float>(ReadScalar(beta, cDesc.Type(), "beta"));
        const auto* ap = static_cast<const T*>(A);
        const auto* bp = static_cast<const T*>(B);
        auto* cp       = static_cast<T*>(C);
        RunOp(
            handle,
            [&] { cpu::OpTensor(op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp); },
            [&](auto& h) {
                gpu::OpTensor(h, op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp);
            });
    });
}

void SetTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    RefuseUnimplemented(yDesc, "yDesc", "miopenSetTensor", false, false);
    DispatchStorage(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{y, "y"}});
        if(alpha == nullptr)
            ThrowBadParm("alpha is a null pointer");
        T value; // the fill value is of y's type (MIOpen, cuDNN)
        std::memcpy(&value, alpha, sizeof(T));
        auto* yp = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::Fill(yDesc, yp, value); },
            [&](auto& h) { gpu::Fill(h, yDesc, yp, value); });
    });
}

void ScaleTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    RefuseUnimplemented(yDesc, "yDesc", "miopenScaleTensor", false, true);
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{y, "y"}});
        const float a = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
        auto* yp      = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::Axpby(a, yDesc, static_cast<const T*>(yp), 0.0f, yDesc, yp); },
            [&](auto& h) {
                gpu::Axpby(h, a, yDesc, static_cast<const T*>(yp), 0.0f, yDesc, yp,
                           "miopenScaleTensor");
            });
    });
}

void TransformTensor(Handle& handle, const void* alpha, const TensorDescriptor& xDesc,
                     const void* x, const void* beta, const TensorDescriptor& yDesc, void* y)
{
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    RefuseUnimplemented(yDesc, "yDesc", "miopenTransformTensor", true, true);
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{x, "x"}, {y, "y"}});
        const Blend s  = ReadBlend(alpha, beta, yDesc);
        const auto* xp = static_cast<const T*>(x);
        auto* yp       = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::Axpby(s.alpha, xDesc, xp, s.beta, yDesc, yp); },
            [&](auto& h) {
                gpu::Axpby(h, s.alpha, xDesc, xp, s.beta, yDesc, yp, "miopenTransformTensor");
            });
    });
}

} // namespace miopen
