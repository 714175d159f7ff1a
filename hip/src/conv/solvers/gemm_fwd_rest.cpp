// GemmFwdRest (MIOpen id 91): forward convolution of any geometry: im2col of one image and group into the workspace (Cg*R*S x Ho*Wo), then Y = W * col.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmFwdRest()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmFwdRest", 91, ConvDirection::Forward, gemm::Kind::Rest,
                                         cpu::ConvFwdGemm);
    return solver;
}

} // namespace miopen::solvers
