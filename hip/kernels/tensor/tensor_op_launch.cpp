// Launchers of the whole-tensor ops: strided spaces from the descriptors (B's broadcast dims
// have stride 0), the element-wise plan, the launch on the handle's stream, the launch check.
#include "kernels/common/launch_common.hpp"
#include "kernels/tensor/tensor_op_kernels.hpp"
#include "tensor/tensor_args.hpp"

namespace miopen::gpu {

void OpTensor(const Handle& h, miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc,
              const float* A, float alpha2, const size_t* bStrides, const float* B, float beta,
              const TensorDescriptor& cDesc, float* C)
{
    const auto s = Collapse<3>(cDesc.NumDims(), cDesc.Lens().data(),
                               {StridesOf(aDesc), bStrides, StridesOf(cDesc)});
    Launch l;
    auto a  = PlanMap<2>(h, s, beta, l);
    a.in[0] = A;
    a.in[1] = B;
    a.out   = C;
    LaunchOpTensor(a, l, op, alpha1, alpha2, beta != 0.0f);
    CheckLaunch("miopenOpTensor");
}

void Axpby(const Handle& h, float alpha, const TensorDescriptor& xDesc, const float* x, float beta,
           const TensorDescriptor& yDesc, float* y, const char* api)
{
    const auto s = Collapse<2>(yDesc.NumDims(), yDesc.Lens().data(),
                               {StridesOf(xDesc), StridesOf(yDesc)});
    Launch l;
    auto a  = PlanMap<1>(h, s, beta, l);
    a.in[0] = x;
    a.out   = y;
    LaunchAxpby(a, l, alpha, beta != 0.0f);
    CheckLaunch(api);
}

void Fill(const Handle& h, const TensorDescriptor& yDesc, float* y, float value)
{
    const auto s = Collapse<1>(yDesc.NumDims(), yDesc.Lens().data(), {StridesOf(yDesc)});
    Launch l;
    auto a = PlanMap<0>(h, s, 0.0f, l);
    a.out  = y;
    LaunchFill(a, l, value);
    CheckLaunch("miopenSetTensor");
}

} // namespace miopen::gpu
