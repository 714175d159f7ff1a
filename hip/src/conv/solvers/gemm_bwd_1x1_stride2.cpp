// GemmBwd1x1_stride2 (MIOpen id 95): backward data of a 1x1 convolution with stride > 1, no padding: dcol = W^T * dY into the workspace, then scattered into dX (col2im, which zeroes the skipped positions). Packed NHWC too: the same product on the tensors as they lie (pixels x channels), one GEMM per group over the batch's pixels (per image through the workspace when strided).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/gemm_gather.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp), the workspace then holding the whole batch. Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmBwd1x1_stride2()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmBwd1x1_stride2", 95, ConvDirection::BackwardData, gemm::Kind::Strided1x1,
                                         cpu::ConvBwdDataGemm1x1Strided, cpu::ConvBwdDataGemm1x1StridedNhwc);
    return solver;
}

} // namespace miopen::solvers
