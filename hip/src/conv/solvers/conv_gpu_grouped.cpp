// ConvGpuGrouped{Fwd,Bwd,Wrw} (ids 2034-2036, miopen_cy's own): grouped and depthwise convolution
// on the GPU for few channels per group (C/G and K/G <= 32, groups > 1), 2-d, packed NCHW, by the
// direct kernels of hip/kernels/conv/conv_grouped.hip. Forward and backward data: any filter,
// pads, strides, dilations; no workspace. Backward weights: square 1x1, 3x3, 5x5, 7x7 filters,
// any pads, strides, dilations; the reduction over images and output positions is split so the
// machine fills, each split's partial sums go to the workspace and a second kernel adds them in
// split order (deterministic, no atomics). A GPU solver: other domain on the CPU.
#include "conv/conv_gpu.hpp"
#include "conv/solver_support/gpu_family.hpp"
#include "conv/solvers.hpp"

#include <algorithm>
#include <string>

namespace miopen::solvers {
namespace {

class ConvGpuGrouped final : public GpuDirectionSolver
{
public:
    using GpuDirectionSolver::GpuDirectionSolver;
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        // Memory speed: x and y once each at about 2 TB/s, or 8 TFLOP/s, plus a few microseconds.
        const double bytes = 4.0 * (p.n * p.c * p.InSpatial() + p.n * p.k * p.OutSpatial());
        const double ms    = std::max(bytes / 2e12, 2.0 * p.Macs() / 8e12) * 1e3;
        return ms + 0.005;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability domain = GpuAndDirection(ctx, p);
        if(!domain.ok)
            return domain;
        if(p.dims != 2)
            return NotApplicable("2-d only");
        if(p.groups < 2)
            return NotApplicable("grouped or depthwise only (groups > 1)");
        if(p.c / p.groups > 32 || p.k / p.groups > 32)
            return NotApplicable("more than 32 channels per group (the implicit GEMM fills its tiles there)");
        if(!p.IsPackedNCHW())
            return NotApplicable("packed NCHW tensors only");
        if(!conv_gpu::Fits32(p))
            return NotApplicable("a tensor has 2^31 elements or more");
        if(!conv_gpu::GroupedApplies(p))
            return NotApplicable(dir_ == ConvDirection::BackwardWeights
                                     ? "backward weights needs a square 1x1, 3x3, 5x5 or 7x7 filter"
                                     : "more than 65535 blocks of positions per plane");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(dir_ != ConvDirection::BackwardWeights)
            return 0;
        const int splits = conv_gpu::GroupedWrwSplits(ctx.handle, p);
        return splits > 1 ? size_t(splits) * p.k * (p.c / p.groups) * p.FilterSpatial() * sizeof(float) : 0;
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::GroupedInvoker(ctx.handle, p);
    }
};

} // namespace

const ConvSolver& ConvGpuGroupedFwd()
{
    static const ConvGpuGrouped s(ConvDirection::Forward, 2034, "ConvGpuGroupedFwd");
    return s;
}
const ConvSolver& ConvGpuGroupedBwd()
{
    static const ConvGpuGrouped s(ConvDirection::BackwardData, 2035, "ConvGpuGroupedBwd");
    return s;
}
const ConvSolver& ConvGpuGroupedWrw()
{
    static const ConvGpuGrouped s(ConvDirection::BackwardWeights, 2036, "ConvGpuGroupedWrw");
    return s;
}

} // namespace miopen::solvers
