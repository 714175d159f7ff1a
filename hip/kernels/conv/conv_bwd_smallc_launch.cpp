// The invoker of the small-C backward-data kernels (conv_bwd_smallc.hip): ConvGpuDirectBwdSmallC.
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::conv_gpu {

bool SmallCBwdApplies(const ConvProblem& p)
{
    return p.direction == ConvDirection::BackwardData && Fits32(p) &&
           gpu::ConvBwdSmallCApplies(KernelArgs(ConvGeometry(p)));
}

ConvInvoker SmallCBwdInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h = &handle;
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    return [h, a](const ConvArgs& r) {
        gpu::LaunchConvBwdSmallC(a, h->Stream(), static_cast<float*>(r.x), static_cast<const float*>(r.w),
                                 static_cast<const float*>(r.y));
        gpu::CheckLaunch("ConvGpuDirectBwdSmallC");
    };
}

} // namespace miopen::conv_gpu
