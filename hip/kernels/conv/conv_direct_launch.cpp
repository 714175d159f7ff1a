// The invokers of the naive direct kernels (conv_direct.hip): ConvDirectNaiveConv{Fwd,Bwd,Wrw} on
// GPU handles.
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_launch.hpp"

namespace miopen::conv_gpu {

ConvInvoker NaiveInvoker(const Handle& handle, const ConvProblem& p)
{
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int sms = gpu::MultiprocessorCount(handle.Ordinal());
    return ByDirection(
        handle, p.direction, {"ConvDirectNaiveConvFwd", "ConvDirectNaiveConvBwd", "ConvDirectNaiveConvWrw"},
        [a, sms](void* s, float* x, float* w, float* y, float*) { gpu::LaunchConvNaiveFwd(a, s, sms, x, w, y); },
        [a, sms](void* s, float* dx, float* w, float* dy, float*) { gpu::LaunchConvNaiveBwd(a, s, sms, dx, w, dy); },
        [a, sms](void* s, float* x, float* dw, float* dy, float*) { gpu::LaunchConvNaiveWrw(a, s, sms, x, dw, dy); });
}

} // namespace miopen::conv_gpu
