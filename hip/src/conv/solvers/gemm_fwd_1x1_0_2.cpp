// GemmFwd1x1_0_2 (MIOpen id 90): forward 1x1 convolution with stride > 1 and no padding: the strided input is gathered into the workspace (Cg x Ho*Wo), then one GEMM per image and group. Packed NHWC too: the same product on the tensors as they lie (pixels x channels), one GEMM per group over the batch's pixels (per image through the workspace when strided).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/gemm_gather.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp), the workspace then holding the whole batch. Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmFwd1x1_0_2()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmFwd1x1_0_2", 90, ConvDirection::Forward, gemm::Kind::Strided1x1,
                                         cpu::ConvFwdGemm1x1Strided, cpu::ConvFwdGemm1x1StridedNhwc);
    return solver;
}

} // namespace miopen::solvers
