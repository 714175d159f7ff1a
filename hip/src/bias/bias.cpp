// Bias front doors. Forward is MIOpen's own definition, OpTensor Add with y as A and C:
// y = alpha * y + alpha * b + beta * y, so y is always read (it is an input as well as the output).
// MIOpen accepts only alpha = 1, beta = 0 for the backward pass; we blend for any values.
// Types: fp32, fp16, bf16 (y and b of one type).
#include "bias/bias.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"
#include "tensor/tensor_args.hpp"

#include <sstream>
#include <vector>

namespace miopen {
namespace {

/// The bias tensor of y: 1xCx1x1 (1xCx1x1x1), same type as y.
void CheckBiasDesc(const TensorDescriptor& bDesc, const char* b_name,
                   const TensorDescriptor& yDesc, const char* y_name)
{
    CheckNumDims(yDesc, y_name, 4, 5);
    std::vector<size_t> expect(yDesc.NumDims(), 1);
    expect[1] = yDesc.Lens()[1];
    if(bDesc.Lens() != expect)
    {
        std::ostringstream want;
        for(size_t i = 0; i < expect.size(); ++i)
            want << (i ? ", " : "(") << expect[i];
        want << ")";
        ThrowBadParm(b_name, " is ", bDesc.ToString(), "; expected lengths ", want.str(),
                     " for ", y_name, " ", yDesc.ToString());
    }
    CheckSameType(bDesc, b_name, yDesc, y_name);
    // MIOpen's bias is OpTensor (forward) or a kernel per type (backward), so it takes double and
    // the integer types too: those are NotImplemented here; fp16/bf16 run (MIOpen's forward
    // refuses bf16).
    const auto t = yDesc.Type();
    if(t == miopenDouble || t == miopenInt8 || t == miopenInt32)
        ThrowNotImplemented(y_name, " has data type ", DataTypeName(t),
                            "; the bias calls run miopenFloat, miopenHalf and miopenBFloat16 here");
}

} // namespace

void ConvolutionForwardBias(Handle& handle, const void* alpha, const TensorDescriptor& bDesc,
                            const void* b, const void* beta, const TensorDescriptor& yDesc, void* y)
{
    CheckBiasDesc(bDesc, "bDesc", yDesc, "yDesc");
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{b, "b"}, {y, "y"}});
        const Blend s = ReadBlend(alpha, beta, yDesc);
        const auto* bp = static_cast<const T*>(b);
        auto* yp       = static_cast<T*>(y);
        RunOp(
            handle,
            [&] {
                std::vector<size_t> b_strides(yDesc.NumDims(), 0);
                b_strides[1] = bDesc.Strides()[1];
                cpu::OpTensor(miopenTensorOpAdd, s.alpha, yDesc, static_cast<const T*>(yp),
                              s.alpha, b_strides.data(), bp, s.beta, yDesc, yp);
            },
            [&](auto& h) {
                gpu::ConvolutionForwardBias(h, s.alpha, bDesc, bp, s.beta, yDesc, yp);
            });
    });
}

void ConvolutionBackwardBias(Handle& handle, const void* alpha, const TensorDescriptor& dyDesc,
                             const void* dy, const void* beta, const TensorDescriptor& dbDesc,
                             void* db)
{
    CheckBiasDesc(dbDesc, "dbDesc", dyDesc, "dyDesc");
    DispatchFloating(dyDesc.Type(), "dyDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{dy, "dy"}, {db, "db"}});
        const Blend s   = ReadBlend(alpha, beta, dyDesc);
        const auto* dyp = static_cast<const T*>(dy);
        auto* dbp       = static_cast<T*>(db);
        RunOp(
            handle,
            [&] { cpu::ConvolutionBackwardBias(s.alpha, dyDesc, dyp, s.beta, dbDesc, dbp); },
            [&](auto& h) {
                gpu::ConvolutionBackwardBias(h, s.alpha, dyDesc, dyp, s.beta, dbDesc, dbp);
            });
    });
}

} // namespace miopen
