// GemmBwdRest (MIOpen id 97): backward data of any geometry: dcol(Cg*R*S x Ho*Wo) = W^T * dY into the workspace, then col2im into dX.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv_gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (conv/conv_gemm_gpu.cpp). Deterministic: yes.
#include "conv/conv_gemm_gpu.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmBwdRestSolver final : ConvSolver
{
    std::string_view Name() const override { return "GemmBwdRest"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 97; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_device::GemmRestGpuEstimateMs(p);
        return gemm::EstimateMs(p, true);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::BackwardData, true);
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
            float* dx = static_cast<float*>(a.x);
            const float* w = static_cast<const float*>(a.w);
            const float* dy = static_cast<const float*>(a.y);
            float* col = static_cast<float*>(a.workspace);
            const long rows = cpu::ColRows(g);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::SgemmParallel(true, false, rows, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.Y(dy, n, grp), g.ys[1], 0.0f, col, v.os());
                    cpu::Col2Im(g, col, n, grp, dx);
                }
        };
    }
};

} // namespace

const ConvSolver& GemmBwdRest()
{
    static const GemmBwdRestSolver solver;
    return solver;
}

} // namespace miopen::solvers
