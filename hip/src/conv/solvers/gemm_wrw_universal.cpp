// GemmWrwUniversal (MIOpen id 102): backward weights of any geometry: im2col of each image and group into the workspace, then dW(Kg x Cg*R*S) += dY * col^T, accumulated in image order.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {

const ConvSolver& GemmWrwUniversal()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver(
        "GemmWrwUniversal", 102, ConvDirection::BackwardWeights, gemm::Kind::Rest,
        [](const ConvGeometry& g, float* x, float* dw, float* dy, float* col) {
            const gemm::Views v{g};
            const long rows = cpu::ColRows(g);
            for(long grp = 0; grp < g.g; ++grp)
                for(long n = 0; n < g.n; ++n)
                {
                    cpu::Im2Col(g, x, n, grp, col);
                    cpu::SgemmParallel(false, true, g.kpg, rows, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1], col,
                               v.os(), n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
                }
        });
    return solver;
}

} // namespace miopen::solvers
