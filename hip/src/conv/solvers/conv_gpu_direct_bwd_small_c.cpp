// ConvGpuDirectBwdSmallC (id 2101, miopen_cy's own): backward data for few input channels per
// group (C/G <= 4, e.g. the C = 3 stem layer), 2-d, any pads, strides, dilations, groups and
// tensor strides, by the direct gather of hip/kernels/conv/conv_bwd_smallc.hip (stride phases,
// all C/G channels per thread). The implicit GEMM puts C in its M dimension, where C = 3 leaves
// most of a tile idle. Workspace: none. Deterministic: yes. A GPU solver: other domain on the CPU.
#include "conv/conv_gpu.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

class ConvGpuDirectBwdSmallCSolver final : public ConvSolver
{
public:
    std::string_view Name() const override { return "ConvGpuDirectBwdSmallC"; }   // stored in the find-db
    uint64_t Id() const override { return 2101; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        // About 8 TFLOP/s (measured 6-7 on the stem layer of an H200), plus a few microseconds.
        return 2.0 * p.Macs() / 8e12 * 1e3 + 0.005;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        if(p.direction != ConvDirection::BackwardData)
            return OtherDomain("backward data only");
        if(p.dims != 2)
            return NotApplicable("2-d only");
        if(p.c / p.groups > 4)
            return NotApplicable("C per group > 4 (the implicit GEMM fills its tiles there)");
        if(!conv_gpu::Fits32(p))
            return NotApplicable("a tensor has 2^31 elements or more");
        if(!conv_gpu::SmallCBwdApplies(p))
            return NotApplicable("more than 65535 groups or stride phases");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext&, const ConvProblem&) const override { return 0; }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::SmallCBwdInvoker(ctx.handle, p);
    }
};

} // namespace

const ConvSolver& ConvGpuDirectBwdSmallC()
{
    static const ConvGpuDirectBwdSmallCSolver s;
    return s;
}

} // namespace miopen::solvers
