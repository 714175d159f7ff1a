// GemmBwd1x1_stride1 (MIOpen id 96): backward data of a 1x1 convolution, stride 1, no padding: dX(Cg x HW) = W^T(Cg x Kg) * dY(Kg x HW) per image and group. Workspace: none.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (conv/conv_gemm_gpu.cpp). Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmBwd1x1_stride1Solver final : ConvSolver
{
    std::string_view Name() const override { return "GemmBwd1x1_stride1"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 96; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmGpuEstimateMs(p);
        return gemm::EstimateMs(p, false);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::BackwardData, true);
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
            float* dx = static_cast<float*>(a.x);
            const float* w = static_cast<const float*>(a.w);
            const float* dy = static_cast<const float*>(a.y);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                    cpu::SgemmParallel(true, false, g.cpg, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.Y(dy, n, grp), g.ys[1], 0.0f, v.X(dx, n, grp), g.xs[1]);
        };
    }
};

} // namespace

const ConvSolver& GemmBwd1x1_stride1()
{
    static const GemmBwd1x1_stride1Solver solver;
    return solver;
}

} // namespace miopen::solvers
