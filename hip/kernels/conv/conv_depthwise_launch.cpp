// The invokers of the depthwise kernels (conv_depthwise.hip): ConvGpuDepthwise{Fwd,Bwd,Wrw}.
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::conv_gpu {

ConvInvoker DepthwiseInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h = &handle;
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int sms = gpu::MultiprocessorCount(handle.Ordinal());
    switch(p.direction)
    {
    case ConvDirection::Forward:
        return [h, a, sms](const ConvArgs& r) {
            gpu::LaunchConvDepthwiseFwd(a, h->Stream(), sms, static_cast<const float*>(r.x),
                                        static_cast<const float*>(r.w), static_cast<float*>(r.y));
            gpu::CheckLaunch("ConvGpuDepthwiseFwd");
        };
    case ConvDirection::BackwardData:
        return [h, a, sms](const ConvArgs& r) {
            gpu::LaunchConvDepthwiseBwd(a, h->Stream(), sms, static_cast<float*>(r.x),
                                        static_cast<const float*>(r.w), static_cast<const float*>(r.y));
            gpu::CheckLaunch("ConvGpuDepthwiseBwd");
        };
    case ConvDirection::BackwardWeights:
        return [h, a](const ConvArgs& r) {
            gpu::LaunchConvDepthwiseWrw(a, h->Stream(), static_cast<const float*>(r.x), static_cast<float*>(r.w),
                                        static_cast<const float*>(r.y), static_cast<float*>(r.workspace));
            gpu::CheckLaunch("ConvGpuDepthwiseWrw");
        };
    }
    Throw(miopenStatusInternalError, "unknown convolution direction");
}

} // namespace miopen::conv_gpu
