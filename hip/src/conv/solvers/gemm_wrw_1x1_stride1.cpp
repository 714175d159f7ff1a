// GemmWrw1x1_stride1 (MIOpen id 101): backward weights of a 1x1 convolution, stride 1, no padding: dW(Kg x Cg) = sum over images of dY(Kg x HW) * X^T(HW x Cg), accumulated by the GEMM in image order. Workspace: none on the CPU; on the GPU, optional partial sums of a split image sum (Gemm1x1WorkspaceSize).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {

const ConvSolver& GemmWrw1x1_stride1()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver(
        "GemmWrw1x1_stride1", 101, ConvDirection::BackwardWeights, gemm::Kind::Unit1x1,
        [](const ConvGeometry& g, float* x, float* dw, float* dy, float*) {
            const gemm::Views v{g};
            for(long grp = 0; grp < g.g; ++grp)
                for(long n = 0; n < g.n; ++n)
                    cpu::SgemmParallel(false, true, g.kpg, g.cpg, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1],
                               v.X(x, n, grp), g.xs[1], n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
        });
    return solver;
}

} // namespace miopen::solvers
