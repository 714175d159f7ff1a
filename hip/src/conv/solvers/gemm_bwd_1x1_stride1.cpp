// GemmBwd1x1_stride1 (MIOpen id 96): backward data of a 1x1 convolution, stride 1, no padding: dX(Cg x HW) = W^T(Cg x Kg) * dY(Kg x HW) per image and group. Workspace: none. Packed NHWC too: the same product on the tensors as they lie (pixels x channels), one GEMM per group over the batch's pixels.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmBwd1x1_stride1()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmBwd1x1_stride1", 96, ConvDirection::BackwardData, gemm::Kind::Unit1x1,
                                         cpu::ConvBwdDataGemm1x1, cpu::ConvBwdDataGemm1x1Nhwc);
    return solver;
}

} // namespace miopen::solvers
