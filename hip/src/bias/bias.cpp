// Bias front doors. Forward is MIOpen's own definition, OpTensor Add with y as A and C:
// y = alpha * y + alpha * b + beta * y, so y is always read (it is an input as well as the output).
// MIOpen accepts only alpha = 1, beta = 0 for the backward pass; we blend for any values.
#include "bias/bias.hpp"
#include "core/op_call.hpp"
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
    CheckComputeType(yDesc, y_name);
}

} // namespace

void ConvolutionForwardBias(Handle& handle, const void* alpha, const TensorDescriptor& bDesc,
                            const void* b, const void* beta, const TensorDescriptor& yDesc, void* y)
{
    CheckBiasDesc(bDesc, "bDesc", yDesc, "yDesc");
    CheckDataPointers(handle, {{b, "b"}, {y, "y"}});
    const Blend s = ReadBlend(alpha, beta, yDesc);
    const auto* bp = static_cast<const float*>(b);
    auto* yp       = static_cast<float*>(y);
    RunOp(
        handle,
        [&] {
            std::vector<size_t> b_strides(yDesc.NumDims(), 0);
            b_strides[1] = bDesc.Strides()[1];
            cpu::OpTensor(miopenTensorOpAdd, s.alpha, yDesc, yp, s.alpha, b_strides.data(), bp,
                          s.beta, yDesc, yp);
        },
        [&](auto& h) { gpu::ConvolutionForwardBias(h, s.alpha, bDesc, bp, s.beta, yDesc, yp); });
}

void ConvolutionBackwardBias(Handle& handle, const void* alpha, const TensorDescriptor& dyDesc,
                             const void* dy, const void* beta, const TensorDescriptor& dbDesc,
                             void* db)
{
    CheckBiasDesc(dbDesc, "dbDesc", dyDesc, "dyDesc");
    CheckDataPointers(handle, {{dy, "dy"}, {db, "db"}});
    const Blend s   = ReadBlend(alpha, beta, dyDesc);
    const auto* dyp = static_cast<const float*>(dy);
    auto* dbp       = static_cast<float*>(db);
    RunOp(
        handle, [&] { cpu::ConvolutionBackwardBias(s.alpha, dyDesc, dyp, s.beta, dbDesc, dbp); },
        [&](auto& h) {
            gpu::ConvolutionBackwardBias(h, s.alpha, dyDesc, dyp, s.beta, dbDesc, dbp);
        });
}

} // namespace miopen
