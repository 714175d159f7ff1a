// The invokers of the naive direct kernels (conv_direct.hip): ConvDirectNaiveConv{Fwd,Bwd,Wrw} on
// GPU handles.
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::conv_gpu {

ConvInvoker NaiveInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h = &handle;
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int sms = gpu::MultiprocessorCount(handle.Ordinal());
    switch(p.direction)
    {
    case ConvDirection::Forward:
        return [h, a, sms](const ConvArgs& r) {
            gpu::LaunchConvNaiveFwd(a, h->Stream(), sms, static_cast<const float*>(r.x),
                                    static_cast<const float*>(r.w), static_cast<float*>(r.y));
            gpu::CheckLaunch("ConvDirectNaiveConvFwd");
        };
    case ConvDirection::BackwardData:
        return [h, a, sms](const ConvArgs& r) {
            gpu::LaunchConvNaiveBwd(a, h->Stream(), sms, static_cast<float*>(r.x),
                                    static_cast<const float*>(r.w), static_cast<const float*>(r.y));
            gpu::CheckLaunch("ConvDirectNaiveConvBwd");
        };
    case ConvDirection::BackwardWeights:
        return [h, a, sms](const ConvArgs& r) {
            gpu::LaunchConvNaiveWrw(a, h->Stream(), sms, static_cast<const float*>(r.x),
                                    static_cast<float*>(r.w), static_cast<const float*>(r.y));
            gpu::CheckLaunch("ConvDirectNaiveConvWrw");
        };
    }
    Throw(miopenStatusInternalError, "unknown convolution direction");
}

} // namespace miopen::conv_gpu
