// GemmFwd1x1_0_1 (MIOpen id 88): forward 1x1 convolution, stride 1, no padding, as one GEMM per image and group: Y(Kg x HW) = W(Kg x Cg) * X(Cg x HW). Workspace: none. Packed NHWC too: the same product on the tensors as they lie (pixels x channels), one GEMM per group over the batch's pixels.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmFwd1x1_0_1()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmFwd1x1_0_1", 88, ConvDirection::Forward, gemm::Kind::Unit1x1,
                                         cpu::ConvFwdGemm1x1, cpu::ConvFwdGemm1x1Nhwc);
    return solver;
}

} // namespace miopen::solvers
