// GemmFwdRest (MIOpen id 91): forward convolution of any geometry: im2col of one image and group into the workspace (Cg*R*S x Ho*Wo), then Y = W * col.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (conv/conv_gemm_gpu.cpp). Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmFwdRestSolver final : ConvSolver
{
    std::string_view Name() const override { return "GemmFwdRest"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 91; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmRestGpuEstimateMs(p);
        return gemm::EstimateMs(p, true);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::Forward, true);
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
            const float* w = static_cast<const float*>(a.w);
            float* y = static_cast<float*>(a.y);
            float* col = static_cast<float*>(a.workspace);
            const long rows = cpu::ColRows(g);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::Im2Col(g, x, n, grp, col);
                    cpu::SgemmParallel(false, false, g.kpg, v.os(), rows, 1.0f, v.W(w, grp), g.ws[0], col,
                               v.os(), 0.0f, v.Y(y, n, grp), g.ys[1]);
                }
        };
    }
};

} // namespace

const ConvSolver& GemmFwdRest()
{
    static const GemmFwdRestSolver solver;
    return solver;
}

} // namespace miopen::solvers
