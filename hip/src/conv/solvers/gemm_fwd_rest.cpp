// GemmFwdRest (MIOpen id 91): forward convolution of any geometry: im2col of one image and group into the workspace (Cg*R*S x Ho*Wo), then Y = W * col.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {

const ConvSolver& GemmFwdRest()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver(
        "GemmFwdRest", 91, ConvDirection::Forward, gemm::Kind::Rest,
        [](const ConvGeometry& g, float* x, float* w, float* y, float* col) {
            const gemm::Views v{g};
            const long rows = cpu::ColRows(g);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::Im2Col(g, x, n, grp, col);
                    cpu::SgemmParallel(false, false, g.kpg, v.os(), rows, 1.0f, v.W(w, grp), g.ws[0], col,
                               v.os(), 0.0f, v.Y(y, n, grp), g.ys[1]);
                }
        });
    return solver;
}

} // namespace miopen::solvers
