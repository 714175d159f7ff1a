// ConvGpuGemmFwd1x1Split (id 2161, miopen_cy's own): forward 1x1 convolution without padding on
// the GPU as one GEMM whose columns are the whole batch's output positions (the SGEMM's folded
// batch, hip/kernels/gemm/sgemm.hip), its sum over C split into parts that run side by side and
// are added in part order (deterministic) -- for layers whose K x (N * output positions) output
// is too small to fill the GPU with tiles (e.g. C 2048, 7x7, K 512: 52 tiles of 128x128 on 132
// multiprocessors). Strided layers first gather the subsampled x (as GemmFwd1x1_0_2 does).
// Applicable only where the launcher's model picks a split (elsewhere GemmFwd1x1_0_1 and
// GemmFwd1x1_0_2 run the same GEMM unsplit). Workspace: the gathered x (strided) and the partial
// outputs. Deterministic: yes. A GPU solver: other domain on the CPU. The invoker and the plan:
// hip/kernels/gemm/conv_gemm_launch.cpp.
#include "conv/conv_gpu.hpp"
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

class ConvGpuGemmFwd1x1SplitSolver final : public ConvSolver
{
public:
    std::string_view Name() const override { return "ConvGpuGemmFwd1x1Split"; }   // stored in the find-db
    uint64_t Id() const override { return 2161; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        return gemm::GpuEstimateMs(p) + 0.005;   // + the reduction
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::Forward, true);
        if(!common.ok)
            return common;
        const Applicability unpadded = gemm::Unpadded1x1(p);
        if(!unpadded.ok)
            return unpadded;
        if(static_cast<double>(p.n) * p.OutSpatial() > 0x7fffffff ||
           static_cast<double>(p.n) * p.c * p.OutSpatial() > 0x7fffffff)
            return NotApplicable("the batch's output positions need 2^31 or more columns");
        if(p.n < 2)
            return NotApplicable("one image: nothing to fold");
        if(conv_gpu::Gemm1x1SplitParts(ctx.handle, p) <= 1)
            return NotApplicable("the unsplit GEMM fills the GPU (GemmFwd1x1_0_1 / GemmFwd1x1_0_2)");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::Gemm1x1SplitWorkspaceSize(ctx.handle, p);
    }
    /// NCHW, one group: a fusion plan's epilogue in the split's reduction (the SGEMM's).
    bool CarriesEpilogue(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return ctx.handle.IsGpu() && p.groups == 1 && !p.IsPackedNHWC() && p.type == miopenFloat;
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::Gemm1x1SplitInvoker(ctx.handle, p);
    }
};

} // namespace

const ConvSolver& ConvGpuGemmFwd1x1Split()
{
    static const ConvGpuGemmFwd1x1SplitSolver s;
    return s;
}

} // namespace miopen::solvers
