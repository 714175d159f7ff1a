// GemmWrwUniversal (MIOpen id 102): backward weights of any geometry: im2col of each image and group into the workspace, then dW(Kg x Cg*R*S) += dY * col^T, accumulated in image order. Packed NHWC: the strided 1x1 only (x subsampled into the workspace, then dW = dy^T * col over the pixels; on the GPU the whole batch at once, its sum split where the tiles are few).
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmWrwUniversal()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmWrwUniversal", 102, ConvDirection::BackwardWeights, gemm::Kind::Rest,
                                         cpu::ConvBwdWeightsGemm, cpu::ConvBwdWeightsGemm1x1StridedNhwc);
    return solver;
}

} // namespace miopen::solvers
