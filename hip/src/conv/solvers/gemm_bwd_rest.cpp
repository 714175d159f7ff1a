// GemmBwdRest (MIOpen id 97): backward data of any geometry: dcol(Cg*R*S x Ho*Wo) = W^T * dY into the workspace, then col2im into dX.
// Kernels: cpu/blas.cpp (OpenBLAS sgemm), cpu/conv/gemm.cpp; on GPU handles hip/kernels/gemm/im2col.hip and sgemm.hip (kernels/gemm/conv_gemm_launch.cpp). Deterministic: yes.
#include "conv/solver_support/gemm_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/gemm.hpp"

namespace miopen::solvers {

const ConvSolver& GemmBwdRest()
{
    // MIOpen's name and id: never change.
    static const gemm::GemmSolver solver("GemmBwdRest", 97, ConvDirection::BackwardData, gemm::Kind::Rest,
                                         cpu::ConvBwdDataGemm);
    return solver;
}

} // namespace miopen::solvers
