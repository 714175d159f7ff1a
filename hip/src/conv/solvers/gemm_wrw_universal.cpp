// GemmWrwUniversal (MIOpen id 102): backward weights of any geometry: im2col of each image and group into the workspace, then dW(Kg x Cg*R*S) += dY * col^T, accumulated in image order.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (conv/conv_gemm_gpu.cpp). Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmWrwUniversalSolver final : ConvSolver
{
    std::string_view Name() const override { return "GemmWrwUniversal"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 102; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmRestGpuEstimateMs(p);
        return gemm::EstimateMs(p, true);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::BackwardWeights, true);
        if(!common.ok)
            return common;

        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_device::GemmRestWorkspaceSize(ctx.handle, p);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmRestInvoker(ctx.handle, p);
        return [g = ConvGeometry(p)](const ConvArgs& a) {
            const gemm::Views v{g};
            const float* x = static_cast<const float*>(a.x);
            float* dw = static_cast<float*>(a.w);
            const float* dy = static_cast<const float*>(a.y);
            float* col = static_cast<float*>(a.workspace);
            const long rows = cpu::ColRows(g);
            for(long grp = 0; grp < g.g; ++grp)
                for(long n = 0; n < g.n; ++n)
                {
                    cpu::Im2Col(g, x, n, grp, col);
                    cpu::SgemmParallel(false, true, g.kpg, rows, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1], col,
                               v.os(), n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
                }
        };
    }
};

} // namespace

const ConvSolver& GemmWrwUniversal()
{
    static const GemmWrwUniversalSolver solver;
    return solver;
}

} // namespace miopen::solvers
