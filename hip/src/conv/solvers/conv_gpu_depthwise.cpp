// ConvGpuDepthwise{Fwd,Bwd,Wrw} (ids 2031-2033, miopen_cy's own): depthwise convolution on the GPU
// (groups == C == K, 2-d, packed NCHW, any filter, pads, strides, dilations; forward and backward
// data on packed NHWC too) by the memory-bound kernels of hip/kernels/conv/conv_depthwise.hip. Forward and backward data need no workspace;
// backward weights needs C x N x filter floats (per-image partial sums, added in a fixed order:
// deterministic) and at most 25 filter taps. A GPU solver: other domain on the CPU.
#include "conv/conv_gpu.hpp"
#include "conv/solver_support/gpu_family.hpp"
#include "conv/solvers.hpp"

#include <string>

namespace miopen::solvers {
namespace {

class ConvGpuDepthwise final : public GpuDirectionSolver
{
public:
    using GpuDirectionSolver::GpuDirectionSolver;
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        // Memory speed: x and y once each at about 1.5 TB/s, plus a few microseconds.
        const double bytes = 4.0 * (p.n * p.c * p.InSpatial() + p.n * p.k * p.OutSpatial());
        return bytes / 1.5e12 * 1e3 + 0.005;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability domain = GpuAndDirection(ctx, p);
        if(!domain.ok)
            return domain;
        if(p.dims != 2)
            return NotApplicable("2-d only");
        if(!(size_t(p.groups) == p.c && p.c == p.k))
            return NotApplicable("depthwise only (groups == C == K)");
        if(p.IsPackedNHWC() && dir_ == ConvDirection::BackwardWeights)
            return NotApplicable("packed NHWC: forward and backward data only");
        if(!p.IsPackedNCHW() && !p.IsPackedNHWC())
            return NotApplicable("packed NCHW tensors only (or packed NHWC forward and backward data)");
        if(!conv_gpu::Fits32(p))
            return NotApplicable("a tensor has 2^31 elements or more");
        if(dir_ == ConvDirection::BackwardWeights && p.FilterSpatial() > 25)
            return NotApplicable("at most 25 filter taps");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext&, const ConvProblem& p) const override
    {
        return dir_ == ConvDirection::BackwardWeights ? p.c * p.n * p.FilterSpatial() * sizeof(float) : 0;
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::DepthwiseInvoker(ctx.handle, p);
    }
};

} // namespace

const ConvSolver& ConvGpuDepthwiseFwd()
{
    static const ConvGpuDepthwise s(ConvDirection::Forward, 2031, "ConvGpuDepthwiseFwd");
    return s;
}
const ConvSolver& ConvGpuDepthwiseBwd()
{
    static const ConvGpuDepthwise s(ConvDirection::BackwardData, 2032, "ConvGpuDepthwiseBwd");
    return s;
}
const ConvSolver& ConvGpuDepthwiseWrw()
{
    static const ConvGpuDepthwise s(ConvDirection::BackwardWeights, 2033, "ConvGpuDepthwiseWrw");
    return s;
}

} // namespace miopen::solvers
