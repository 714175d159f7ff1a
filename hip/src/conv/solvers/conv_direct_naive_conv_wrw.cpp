// ConvDirectNaiveConvWrw (MIOpen id 87): direct backward weights convolution on the CPU and on the GPU (hip/kernels/conv/conv_direct.hip) for any geometry (1-3 spatial
// dims, pads, strides, dilations, groups) and any tensor strides, in fp32, fp16 and bf16 (fp32
// accumulation, one rounding). Kernel: cpu/conv/direct.cpp.
// Workspace: none. Deterministic: yes. The universal fallback: applies to every valid problem.
#include "conv/solver_support/naive_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/direct.hpp"

namespace miopen::solvers {

const ConvSolver& ConvDirectNaiveBwdWeights()
{
    // MIOpen's name and id: never change. About 1.5 TFLOP/s on a GPU, 2.0 GFLOP/s on the CPU.
    static const naive::NaiveSolver solver(
        "ConvDirectNaiveConvWrw", 87, ConvDirection::BackwardWeights, 1.5e12, 2.0e9,
        [](const ConvGeometry& g, const ConvArgs& a, miopenDataType_t type) {
            DispatchFloating(type, "the problem", [&](auto tag) {
                using T = typename decltype(tag)::type;
                cpu::ConvBwdWeightsDirect<T>(g, static_cast<const T*>(a.x), static_cast<T*>(a.w), static_cast<const T*>(a.y));
            });
        });
    return solver;
}

} // namespace miopen::solvers
