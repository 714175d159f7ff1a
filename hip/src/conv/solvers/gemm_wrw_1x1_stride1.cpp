// GemmWrw1x1_stride1 (MIOpen id 101): backward weights of a 1x1 convolution, stride 1, no padding: dW(Kg x Cg) = sum over images of dY(Kg x HW) * X^T(HW x Cg), accumulated by the GEMM in image order. Workspace: none on the CPU; on the GPU, optional partial sums of a split image sum (Gemm1x1WorkspaceSize).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct GemmWrw1x1_stride1Solver final : gemm::GemmSolver
{
    GemmWrw1x1_stride1Solver() : GemmSolver("GemmWrw1x1_stride1", 101, ConvDirection::BackwardWeights, gemm::Kind::Unit1x1) {}   // MIOpen's name and id: never change
    void RunCpu(const ConvGeometry& g, const ConvArgs& a) const override
    {
        const gemm::Views v{g};
        const float* x = static_cast<const float*>(a.x);
        float* dw = static_cast<float*>(a.w);
        const float* dy = static_cast<const float*>(a.y);
        for(long grp = 0; grp < g.g; ++grp)
            for(long n = 0; n < g.n; ++n)
                cpu::SgemmParallel(false, true, g.kpg, g.cpg, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1],
                           v.X(x, n, grp), g.xs[1], n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
    }
};

} // namespace

const ConvSolver& GemmWrw1x1_stride1()
{
    static const GemmWrw1x1_stride1Solver solver;
    return solver;
}

} // namespace miopen::solvers
