// The invokers of the grouped direct kernels (conv_grouped.hip): ConvGpuGrouped{Fwd,Bwd,Wrw}.
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::conv_gpu {

bool GroupedApplies(const ConvProblem& p)
{
    const int dir = p.direction == ConvDirection::Forward ? 0 : p.direction == ConvDirection::BackwardData ? 1 : 2;
    return Fits32(p) && gpu::ConvGroupedApplies(KernelArgs(ConvGeometry(p)), dir);
}

int GroupedWrwSplits(const Handle& handle, const ConvProblem& p)
{
    if(handle.IsGpu())
        return gpu::ConvGroupedWrwSplits(KernelArgs(ConvGeometry(p)), gpu::MultiprocessorCount(handle.Ordinal()));
    return 1;
}

ConvInvoker GroupedInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h = &handle;
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    switch(p.direction)
    {
    case ConvDirection::Forward:
        return [h, a](const ConvArgs& r) {
            gpu::LaunchConvGroupedFwd(a, h->Stream(), static_cast<const float*>(r.x),
                                      static_cast<const float*>(r.w), static_cast<float*>(r.y));
            gpu::CheckLaunch("ConvGpuGroupedFwd");
        };
    case ConvDirection::BackwardData:
        return [h, a](const ConvArgs& r) {
            gpu::LaunchConvGroupedBwd(a, h->Stream(), static_cast<float*>(r.x), static_cast<const float*>(r.w),
                                      static_cast<const float*>(r.y));
            gpu::CheckLaunch("ConvGpuGroupedBwd");
        };
    case ConvDirection::BackwardWeights:
    {
        const int splits = GroupedWrwSplits(handle, p);
        return [h, a, splits](const ConvArgs& r) {
            gpu::LaunchConvGroupedWrw(a, h->Stream(), splits, static_cast<const float*>(r.x),
                                      static_cast<float*>(r.w), static_cast<const float*>(r.y),
                                      static_cast<float*>(r.workspace));
            gpu::CheckLaunch("ConvGpuGroupedWrw");
        };
    }
    }
    Throw(miopenStatusInternalError, "unknown convolution direction");
}

} // namespace miopen::conv_gpu
