// GemmBwd1x1_stride2 (MIOpen id 95): backward data of a 1x1 convolution with stride > 1, no padding: dcol = W^T * dY into the workspace, then scattered into dX (col2im, which zeroes the skipped positions).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/gemm_gather.hip and sgemm.hip (conv/conv_gemm_gpu.cpp), the workspace then holding the whole batch. Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmBwd1x1_stride2Solver final : ConvSolver
{
    std::string_view Name() const override { return "GemmBwd1x1_stride2"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 95; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmGpuEstimateMs(p) + 0.01;   // + the gather or scatter
        return gemm::EstimateMs(p, true);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::BackwardData, true);
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
            float* dx = static_cast<float*>(a.x);
            const float* w = static_cast<const float*>(a.w);
            const float* dy = static_cast<const float*>(a.y);
            float* col = static_cast<float*>(a.workspace);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::SgemmParallel(true, false, g.cpg, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.Y(dy, n, grp), g.ys[1], 0.0f, col, v.os());
                    cpu::Col2Im(g, col, n, grp, dx);
                }
        };
    }
};

} // namespace

const ConvSolver& GemmBwd1x1_stride2()
{
    static const GemmBwd1x1_stride2Solver solver;
    return solver;
}

} // namespace miopen::solvers
