// GemmBwdRest (MIOpen id 97): backward data of any geometry: dcol(Cg*R*S x Ho*Wo) = W^T * dY into the workspace, then col2im into dX.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {

const ConvSolver& GemmBwdRest()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver(
        "GemmBwdRest", 97, ConvDirection::BackwardData, gemm::Kind::Rest,
        [](const ConvGeometry& g, float* dx, float* w, float* dy, float* col) {
            const gemm::Views v{g};
            const long rows = cpu::ColRows(g);
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::SgemmParallel(true, false, rows, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.Y(dy, n, grp), g.ys[1], 0.0f, col, v.os());
                    cpu::Col2Im(g, col, n, grp, dx);
                }
        });
    return solver;
}

} // namespace miopen::solvers
