// ConvDirectNaiveConvBwd (MIOpen id 86): direct backward data convolution on the CPU and on the GPU (hip/kernels/conv/conv_direct.hip) for any geometry (1-3 spatial
// dims, pads, strides, dilations, groups) and any tensor strides, in fp32, fp16 and bf16 (fp32
// accumulation, one rounding). Kernel: cpu/conv/direct.cpp.
// Workspace: none. Deterministic: yes. The universal fallback: applies to every valid problem.
#include "conv/solver_support/naive_common.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/direct.hpp"

namespace miopen::solvers {

const ConvSolver& ConvDirectNaiveBwdData()
{
    // MIOpen's name and id: never change. About 0.2 TFLOP/s on a GPU: Find on the H200 spent ~180
    // ms on it for n32 c256 56x56 k512 1x1 s2 (4 runs, ~45 ms each); at the former 1.5 its estimate
    // passed Find's 8x-the-best cut there. About 2.0 GFLOP/s on the CPU.
    static const naive::NaiveSolver solver(
        "ConvDirectNaiveConvBwd", 86, ConvDirection::BackwardData, 0.2e12, 2.0e9,
        [](const ConvGeometry& g, const ConvArgs& a, miopenDataType_t type) {
            DispatchFloating(type, "the problem", [&](auto tag) {
                using T = typename decltype(tag)::type;
                cpu::ConvBwdDataDirect<T>(g, static_cast<T*>(a.x), static_cast<const T*>(a.w), static_cast<const T*>(a.y));
            });
        });
    return solver;
}

} // namespace miopen::solvers
