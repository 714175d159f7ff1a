// GemmBwd1x1_stride2 (MIOpen id 95): backward data of a 1x1 convolution with stride > 1, no padding: dcol = W^T * dY into the workspace, then scattered into dX (col2im, which zeroes the skipped positions).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/gemm_gather.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp), the workspace then holding the whole batch. Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {

const ConvSolver& GemmBwd1x1_stride2()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver(
        "GemmBwd1x1_stride2", 95, ConvDirection::BackwardData, gemm::Kind::Strided1x1,
        [](const ConvGeometry& g, float* dx, float* w, float* dy, float* col) {
            const gemm::Views v{g};
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                {
                    cpu::SgemmParallel(true, false, g.cpg, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.Y(dy, n, grp), g.ys[1], 0.0f, col, v.os());
                    cpu::Col2Im(g, col, n, grp, dx);
                }
        });
    return solver;
}

} // namespace miopen::solvers
