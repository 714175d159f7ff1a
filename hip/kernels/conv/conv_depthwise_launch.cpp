// The invokers of the depthwise kernels (conv_depthwise.hip): ConvGpuDepthwise{Fwd,Bwd,Wrw}
// (forward and backward data on packed NHWC too).
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_launch.hpp"

namespace miopen::conv_gpu {

ConvInvoker DepthwiseInvoker(const Handle& handle, const ConvProblem& p)
{
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int sms = gpu::MultiprocessorCount(handle.Ordinal());
    if(p.IsPackedNHWC())
    {
        if(p.direction == ConvDirection::BackwardWeights)
            ThrowNotImplemented("ConvGpuDepthwiseWrw on packed NHWC");
        return ByDirection(
            handle, p.direction, {"ConvGpuDepthwiseFwd", "ConvGpuDepthwiseBwd", "ConvGpuDepthwiseWrw"},
            [a, sms](void* s, float* x, float* w, float* y, float*) {
                gpu::LaunchConvDepthwiseFwdNhwc(a, s, sms, x, w, y);
            },
            [a, sms](void* s, float* dx, float* w, float* dy, float*) {
                gpu::LaunchConvDepthwiseBwdNhwc(a, s, sms, dx, w, dy);
            },
            [](void*, float*, float*, float*, float*) {});
    }
    return ByDirection(
        handle, p.direction, {"ConvGpuDepthwiseFwd", "ConvGpuDepthwiseBwd", "ConvGpuDepthwiseWrw"},
        [a, sms](void* s, float* x, float* w, float* y, float*) { gpu::LaunchConvDepthwiseFwd(a, s, sms, x, w, y); },
        [a, sms](void* s, float* dx, float* w, float* dy, float*) {
            gpu::LaunchConvDepthwiseBwd(a, s, sms, dx, w, dy);
        },
        [a](void* s, float* x, float* dw, float* dy, float* ws) {
            gpu::LaunchConvDepthwiseWrw(a, s, x, dw, dy, ws);
        });
}

} // namespace miopen::conv_gpu
