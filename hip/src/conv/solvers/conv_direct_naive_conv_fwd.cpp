// ConvDirectNaiveConvFwd (MIOpen id 85): direct forward convolution on the CPU and on the GPU (hip/kernels/conv/conv_direct.hip) for any geometry (1-3 spatial
// dims, pads, strides, dilations, groups) and any tensor strides, in fp32, fp16 and bf16 (fp32
// accumulation, one rounding). Kernel: cpu/conv/direct.cpp.
// Workspace: none. Deterministic: yes. The universal fallback: applies to every valid problem.
#include "conv/solver_support/naive_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/direct.hpp"

namespace miopen::solvers {

const ConvSolver& ConvDirectNaiveFwd()
{
    // MIOpen's name and id: never change. About 1.5 TFLOP/s on a GPU, 3.0 GFLOP/s on the CPU.
    static const naive::NaiveSolver solver(
        "ConvDirectNaiveConvFwd", 85, ConvDirection::Forward, 1.5e12, 3.0e9,
        [](const ConvGeometry& g, const ConvArgs& a, miopenDataType_t type) {
            DispatchFloating(type, "the problem", [&](auto tag) {
                using T = typename decltype(tag)::type;
                cpu::ConvFwdDirect<T>(g, static_cast<const T*>(a.x), static_cast<const T*>(a.w), static_cast<T*>(a.y));
            });
        });
    return solver;
}

} // namespace miopen::solvers
