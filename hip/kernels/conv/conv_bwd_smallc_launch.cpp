// The invoker of the small-C backward-data kernels (conv_bwd_smallc.hip): ConvGpuDirectBwdSmallC.
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_launch.hpp"

namespace miopen::conv_gpu {

bool SmallCBwdApplies(const ConvProblem& p)
{
    return p.direction == ConvDirection::BackwardData && Fits32(p) &&
           gpu::ConvBwdSmallCApplies(KernelArgs(ConvGeometry(p)));
}

ConvInvoker SmallCBwdInvoker(const Handle& handle, const ConvProblem& p)
{
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    return LaunchInvoker(handle, "ConvGpuDirectBwdSmallC", [a](void* s, float* dx, float* w, float* dy, float*) {
        gpu::LaunchConvBwdSmallC(a, s, dx, w, dy);
    });
}

} // namespace miopen::conv_gpu
