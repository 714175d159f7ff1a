// Launchers of the bias ops: forward is OpTensor Add with y as A and C (MIOpen's definition),
// backward the per-channel reduction of bias.hip with its partial sums in the handle's scratch.
#include "bias/bias.hpp"
#include "bias/bias_kernels.hpp"
#include "common/group_plan.hpp"
#include "tensor/tensor_ops.hpp"

namespace miopen::gpu {

void ConvolutionForwardBias(Handle& h, float alpha, const TensorDescriptor& bDesc, const float* b,
                            float beta, const TensorDescriptor& yDesc, float* y)
{
    std::vector<size_t> b_strides(yDesc.NumDims(), 0);
    b_strides[1] = bDesc.Strides()[1];
    OpTensor(h, miopenTensorOpAdd, alpha, yDesc, y, alpha, b_strides.data(), b, beta, yDesc, y);
}

void ConvolutionBackwardBias(Handle& h, float alpha, const TensorDescriptor& dyDesc,
                             const float* dy, float beta, const TensorDescriptor& dbDesc,
                             float* db)
{
    // The bias tensor's strides stand in for the parameter operand; only its C stride matters.
    auto plan = PlanGroups<1>(h, {&dyDesc, &dbDesc}, [](int d) { return d == 1; });
    ScratchLayout layout;
    const size_t at_partial = layout.Add<Partial2>(plan.args.groups * plan.args.chunks);
    void* scratch           = h.Scratch(layout.Bytes());
    auto* partial           = At<Partial2>(scratch, at_partial);
    LaunchBiasBwdPartial(plan.args, plan.launch, dy, partial);
    CheckLaunch("miopenConvolutionBackwardBias");
    LaunchBiasBwdFinish(plan.args, PerItem(h, plan.args.groups), partial, db, alpha, beta);
    CheckLaunch("miopenConvolutionBackwardBias");
}

} // namespace miopen::gpu
