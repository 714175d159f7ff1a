// GemmBwd1x1_stride1 (MIOpen id 96): backward data of a 1x1 convolution, stride 1, no padding: dX(Cg x HW) = W^T(Cg x Kg) * dY(Kg x HW) per image and group. Workspace: none.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {

const ConvSolver& GemmBwd1x1_stride1()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver(
        "GemmBwd1x1_stride1", 96, ConvDirection::BackwardData, gemm::Kind::Unit1x1,
        [](const ConvGeometry& g, float* dx, float* w, float* dy, float*) {
            const gemm::Views v{g};
            for(long n = 0; n < g.n; ++n)
                for(long grp = 0; grp < g.g; ++grp)
                    cpu::SgemmParallel(true, false, g.cpg, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                               v.Y(dy, n, grp), g.ys[1], 0.0f, v.X(dx, n, grp), g.xs[1]);
        });
    return solver;
}

} // namespace miopen::solvers
