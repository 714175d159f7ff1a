// GemmWrw1x1_stride1 (MIOpen id 101): backward weights of a 1x1 convolution, stride 1, no padding: dW(Kg x Cg) = sum over images of dY(Kg x HW) * X^T(HW x Cg), accumulated by the GEMM in image order. Workspace: none on the CPU; on the GPU, optional partial sums of a split image sum (Gemm1x1WorkspaceSize).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (conv/conv_gemm_gpu.cpp). Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmWrw1x1_stride1Solver final : ConvSolver
{
    std::string_view Name() const override { return "GemmWrw1x1_stride1"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 101; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmGpuEstimateMs(p);
        return gemm::EstimateMs(p, false);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::BackwardWeights, true);
        if(!common.ok)
            return common;
        if(!p.Is1x1() || !p.IsUnitStrideNoPad())
            return NotApplicable("needs a 1x1 filter with stride 1 and no padding");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_device::Gemm1x1WorkspaceSize(ctx.handle, p);   // a split image sum on the GPU
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::Gemm1x1Invoker(ctx.handle, p);
        return [g = ConvGeometry(p)](const ConvArgs& a) {
            const gemm::Views v{g};
            const float* x = static_cast<const float*>(a.x);
            float* dw = static_cast<float*>(a.w);
            const float* dy = static_cast<const float*>(a.y);
            for(long grp = 0; grp < g.g; ++grp)
                for(long n = 0; n < g.n; ++n)
                    cpu::SgemmParallel(false, true, g.kpg, g.cpg, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1],
                               v.X(x, n, grp), g.xs[1], n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
        };
    }
};

} // namespace

const ConvSolver& GemmWrw1x1_stride1()
{
    static const GemmWrw1x1_stride1Solver solver;
    return solver;
}

} // namespace miopen::solvers
