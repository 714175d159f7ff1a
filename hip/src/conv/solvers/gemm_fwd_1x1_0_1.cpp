// GemmFwd1x1_0_1 (MIOpen id 88): forward 1x1 convolution, stride 1, no padding, as one GEMM per image and group: Y(Kg x HW) = W(Kg x Cg) * X(Cg x HW). Workspace: none.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (conv/conv_gemm_gpu.cpp). Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmFwd1x1_0_1Solver final : ConvSolver
{
    std::string_view Name() const override { return "GemmFwd1x1_0_1"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 88; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmGpuEstimateMs(p);
        return gemm::EstimateMs(p, false);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::Forward, true);
        if(!common.ok)
            return common;
        if(!p.Is1x1() || !p.IsUnitStrideNoPad())
            return NotApplicable("needs a 1x1 filter with stride 1 and no padding");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext&, const ConvProblem& p) const override { return 0; }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::Gemm1x1Invoker(ctx.handle, p);
        return [g = ConvGeometry(p)](const ConvArgs& a) {
            const gemm::Views v{g};
            const float* x = static_cast<const float*>(a.x);
            const float* w = static_cast<const float*>(a.w);
            float* y = static_cast<float*>(a.y);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                    cpu::SgemmParallel(false, false, g.kpg, v.os(), g.cpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.X(x, n, grp), g.xs[1], 0.0f, v.Y(y, n, grp), g.ys[1]);
        };
    }
};

} // namespace

const ConvSolver& GemmFwd1x1_0_1()
{
    static const GemmFwd1x1_0_1Solver solver;
    return solver;
}

} // namespace miopen::solvers
