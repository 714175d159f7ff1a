// Launchers of the whole-tensor ops: strided spaces from the descriptors (B's broadcast dims
// have stride 0), the element-wise plan, the launch on the handle's stream, the launch check.
#include "kernels/common/launch_common.hpp"
#include "kernels/tensor/tensor_op_kernels.hpp"
#include "tensor/tensor_args.hpp"

namespace miopen::gpu {

template <class T>
void OpTensor(const Handle& h, miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc,
              const T* A, float alpha2, const size_t* bStrides, const T* B, float beta,
              const TensorDescriptor& cDesc, T* C)
{
    const auto s = Collapse<3>(cDesc.NumDims(), cDesc.Lens().data(),
                               {StridesOf(aDesc), bStrides, StridesOf(cDesc)});
    Launch l;
    auto a  = PlanMap<2, T>(h, s, beta, l);
    a.in[0] = A;
    a.in[1] = B;
    a.out   = C;
    LaunchOpTensor(a, l, op, alpha1, alpha2, beta != 0.0f);
    CheckLaunch("miopenOpTensor");
}

template <class T>
void Axpby(const Handle& h, float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
           const TensorDescriptor& yDesc, T* y, const char* api)
{
    const auto s = Collapse<2>(yDesc.NumDims(), yDesc.Lens().data(),
                               {StridesOf(xDesc), StridesOf(yDesc)});
    Launch l;
    auto a  = PlanMap<1, T>(h, s, beta, l);
    a.in[0] = x;
    a.out   = y;
    LaunchAxpby(a, l, alpha, beta != 0.0f);
    CheckLaunch(api);
}

template <class T>
void Fill(const Handle& h, const TensorDescriptor& yDesc, T* y, T value)
{
    const auto s = Collapse<1>(yDesc.NumDims(), yDesc.Lens().data(), {StridesOf(yDesc)});
    const int64_t work = s.ndim == 1 && s.strides[0][0] == 1 ? (s.numel + 15) / 16 : s.numel;
    LaunchFill(s, On(h, D1(GridStrideBlocks(h, work, kMapThreads)), D1(kMapThreads)), y, value);
    CheckLaunch("miopenSetTensor");
}

#define MIOPEN_CY_TENSOR_LAUNCH(T)                                                                 \
    template void OpTensor<T>(const Handle&, miopenTensorOp_t, float, const TensorDescriptor&,    \
                              const T*, float, const size_t*, const T*, float,                    \
                              const TensorDescriptor&, T*);                                       \
    template void Axpby<T>(const Handle&, float, const TensorDescriptor&, const T*, float,        \
                           const TensorDescriptor&, T*, const char*);
MIOPEN_CY_TENSOR_LAUNCH(float)
MIOPEN_CY_TENSOR_LAUNCH(Half)
MIOPEN_CY_TENSOR_LAUNCH(BFloat16)
#undef MIOPEN_CY_TENSOR_LAUNCH
template void Fill<float>(const Handle&, const TensorDescriptor&, float*, float);
template void Fill<Half>(const Handle&, const TensorDescriptor&, Half*, Half);
template void Fill<BFloat16>(const Handle&, const TensorDescriptor&, BFloat16*, BFloat16);
template void Fill<int8_t>(const Handle&, const TensorDescriptor&, int8_t*, int8_t);
template void Fill<int32_t>(const Handle&, const TensorDescriptor&, int32_t*, int32_t);

} // namespace miopen::gpu
