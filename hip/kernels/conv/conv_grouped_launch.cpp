// The invokers of the grouped direct kernels (conv_grouped.hip): ConvGpuGrouped{Fwd,Bwd,Wrw}.
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_launch.hpp"

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
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int splits = p.direction == ConvDirection::BackwardWeights ? GroupedWrwSplits(handle, p) : 1;
    return ByDirection(
        handle, p.direction, {"ConvGpuGroupedFwd", "ConvGpuGroupedBwd", "ConvGpuGroupedWrw"},
        [a](void* s, float* x, float* w, float* y, float*) { gpu::LaunchConvGroupedFwd(a, s, x, w, y); },
        [a](void* s, float* dx, float* w, float* dy, float*) { gpu::LaunchConvGroupedBwd(a, s, dx, w, dy); },
        [a, splits](void* s, float* x, float* dw, float* dy, float* ws) {
            gpu::LaunchConvGroupedWrw(a, s, splits, x, dw, dy, ws);
        });
}

} // namespace miopen::conv_gpu
