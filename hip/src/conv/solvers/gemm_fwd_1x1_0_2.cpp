// GemmFwd1x1_0_2 (MIOpen id 90): forward 1x1 convolution with stride > 1 and no padding: the strided input is gathered into the workspace (Cg x Ho*Wo), then one GEMM per image and group.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/gemm_gather.hip and sgemm.hip (conv/conv_gemm_gpu.cpp), the workspace then holding the whole batch. Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmFwd1x1_0_2Solver final : ConvSolver
{
    std::string_view Name() const override { return "GemmFwd1x1_0_2"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 90; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmGpuEstimateMs(p) + 0.01;   // + the gather or scatter
        return gemm::EstimateMs(p, true);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::Forward, true);
        if(!common.ok)
            return common;
        const Applicability unpadded = gemm::Unpadded1x1(p);
        if(!unpadded.ok)
            return unpadded;
        if(p.IsUnitStrideNoPad())
            return NotApplicable("stride 1: GemmFwd1x1_0_1 / GemmBwd1x1_stride1 need no workspace");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::Gemm1x1StridedWorkspaceSize(p);   // the whole batch's subsampled tensor
        return gemm::ColBytes(p);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::Gemm1x1StridedInvoker(ctx.handle, p);
        return [g = ConvGeometry(p)](const ConvArgs& a) {
            const gemm::Views v{g};
            const float* x = static_cast<const float*>(a.x);
            const float* w = static_cast<const float*>(a.w);
            float* y = static_cast<float*>(a.y);
            float* col = static_cast<float*>(a.workspace);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::Im2Col(g, x, n, grp, col);
                    cpu::SgemmParallel(false, false, g.kpg, v.os(), g.cpg, 1.0f, v.W(w, grp), g.ws[0], col,
                               v.os(), 0.0f, v.Y(y, n, grp), g.ys[1]);
                }
        };
    }
};

} // namespace

const ConvSolver& GemmFwd1x1_0_2()
{
    static const GemmFwd1x1_0_2Solver solver;
    return solver;
}

} // namespace miopen::solvers
