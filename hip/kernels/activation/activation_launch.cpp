// Launchers of activation forward and backward: the operands' strided space, the element-wise
// plan, the launch on the handle's stream and its check.
#include "activation/activation_args.hpp"
#include "kernels/activation/activation_kernels.hpp"
#include "kernels/common/launch_common.hpp"

namespace miopen::gpu {
namespace {

ActivationMode ModeOf(const ActivationParams& p)
{
    return {static_cast<int>(p.mode), p.alpha, p.beta, p.gamma};
}

} // namespace

template <class T>
void ActivationForward(const Handle& h, const ActivationParams& p, float alpha,
                       const TensorDescriptor& xDesc, const T* x, float beta,
                       const TensorDescriptor& yDesc, T* y)
{
    const auto s = CollapseMap<2>(yDesc.NumDims(), yDesc.Lens().data(),
                               {StridesOf(xDesc), StridesOf(yDesc)});
    Launch l;
    auto a  = PlanMap<1, T>(h, s, beta, l);
    a.in[0] = x;
    a.out   = y;
    // one float4 a thread: on the H200, 0.90-0.95 of copy for tanh / logistic / elu (CHANGELOG.md, opsa)
    LaunchActivationFwd(a, l, ModeOf(p), alpha, beta != 0.0f);
    CheckLaunch("miopenActivationForward");
}

template <class T>
void ActivationBackward(const Handle& h, const ActivationParams& p, float alpha,
                        const TensorDescriptor& dyDesc, const T* dy,
                        const TensorDescriptor& xDesc, const T* x, float beta,
                        const TensorDescriptor& dxDesc, T* dx)
{
    const auto s = CollapseMap<3>(dxDesc.NumDims(), dxDesc.Lens().data(),
                               {StridesOf(dyDesc), StridesOf(xDesc), StridesOf(dxDesc)});
    Launch l;
    auto a  = PlanMap<2, T>(h, s, beta, l);
    a.in[0] = dy;
    a.in[1] = x;
    a.out   = dx;
    // one float4 of dy and of x a thread: 0.99-1.00 of copy on the H200 (CHANGELOG.md, opsa)
    LaunchActivationBwd(a, l, ModeOf(p), alpha, beta != 0.0f);
    CheckLaunch("miopenActivationBackward");
}

#define MIOPEN_CY_ACTIVATION_LAUNCH(T)                                                            \
    template void ActivationForward<T>(const Handle&, const ActivationParams&, float,             \
                                       const TensorDescriptor&, const T*, float,                  \
                                       const TensorDescriptor&, T*);                              \
    template void ActivationBackward<T>(const Handle&, const ActivationParams&, float,            \
                                        const TensorDescriptor&, const T*,                        \
                                        const TensorDescriptor&, const T*, float,                 \
                                        const TensorDescriptor&, T*);
MIOPEN_CY_ACTIVATION_LAUNCH(float)
MIOPEN_CY_ACTIVATION_LAUNCH(Half)
MIOPEN_CY_ACTIVATION_LAUNCH(BFloat16)
#undef MIOPEN_CY_ACTIVATION_LAUNCH

} // namespace miopen::gpu
