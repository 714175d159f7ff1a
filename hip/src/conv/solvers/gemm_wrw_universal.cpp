// GemmWrwUniversal (MIOpen id 102): backward weights of any geometry: im2col of each image and group into the workspace, then dW(Kg x Cg*R*S) += dY * col^T, accumulated in image order.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmWrwUniversalSolver final : gemm::GemmSolver
{
    GemmWrwUniversalSolver() : GemmSolver("GemmWrwUniversal", 102, ConvDirection::BackwardWeights, gemm::Kind::Rest) {}   // MIOpen's name and id: never change
    void RunCpu(const ConvGeometry& g, const ConvArgs& a) const override
    {
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
    }
};

} // namespace

const ConvSolver& GemmWrwUniversal()
{
    static const GemmWrwUniversalSolver solver;
    return solver;
}

} // namespace miopen::solvers
