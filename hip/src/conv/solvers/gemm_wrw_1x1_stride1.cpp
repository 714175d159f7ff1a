// GemmWrw1x1_stride1 (MIOpen id 101): backward weights of a 1x1 convolution, stride 1, no padding: dW(Kg x Cg) = sum over images of dY(Kg x HW) * X^T(HW x Cg), accumulated by the GEMM in image order. Workspace: none on the CPU; on the GPU, optional partial sums of a split image sum (Gemm1x1WorkspaceSize). Packed NHWC too: the same product on the tensors as they lie (pixels x channels), one GEMM per group over the batch's pixels.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmWrw1x1_stride1()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmWrw1x1_stride1", 101, ConvDirection::BackwardWeights, gemm::Kind::Unit1x1,
                                         cpu::ConvBwdWeightsGemm1x1, cpu::ConvBwdWeightsGemm1x1Nhwc);
    return solver;
}

} // namespace miopen::solvers
