// ConvCpuWinogradWrw<WinoDataH-WinoFilterH>: <4-3> (miopen_cy id 1010) and <2-3> (id 1011),
// Winograd F(4x4,3x3) and F(2x2,3x3) for backward weights:
// dw = sum over tiles of G^T [(A dy A^T) . (B^T x B)] G, with the transforms of x and dy as in the
// forward solver and one GEMM per tile element (K/g x C/g, summed over the tiles) on OpenBLAS.
// Ours, not MIOpen's: MIOpen's ConvWinograd3x3MultipassWrW tiles differently (dy as the filter).
// Applies to 2-d 3x3 filters, stride 1, dilation 1, any pads, groups (not depthwise), packed NCHW.
// On a GPU handle too (the name stays: a find-db key): transforms in hip/kernels/conv/
// conv_winograd.hip around strided-batched SGEMMs over (tile element, part of the tiles), the
// parts added in order (solver_support/winograd_gpu.hpp, kernels/conv/conv_winograd_launch.cpp; workspace: the whole batch's transformed x, dy and
// the parts' products).
// Kernel: cpu/conv/winograd.cpp. Workspace: one chunk of transformed x and dy (about 8 MiB) plus
// the summed products ((m+2)^2 x K x C/g). Accuracy: relative L2 error <= 1e-4 against a
// float64 reference (tests/conv/solvers/test_winograd.py). Deterministic: yes (bit for bit run to run,
// same thread count: chunks are summed in order).
#include "conv/solver_support/winograd_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

template <int WinoDataH, int WinoFilterH>
struct ConvCpuWinogradWrwSolver final : winograd::WinogradSolver<true, WinoDataH, WinoFilterH>
{
    static_assert(WinoFilterH == 3 && (WinoDataH == 2 || WinoDataH == 4), "F(2x2,3x3) and F(4x4,3x3) only");
    ConvCpuWinogradWrwSolver()   // names and ids are find-db keys: never change
        : winograd::WinogradSolver<true, WinoDataH, WinoFilterH>(WinoDataH == 4 ? "ConvCpuWinogradWrw<4-3>" : "ConvCpuWinogradWrw<2-3>",
                                                   WinoDataH == 4 ? 1010 : 1011)
    {
    }
};

} // namespace

template <int WinoDataH, int WinoFilterH>
const ConvSolver& ConvCpuWinogradWrw()
{
    static const ConvCpuWinogradWrwSolver<WinoDataH, WinoFilterH> solver;
    return solver;
}

template const ConvSolver& ConvCpuWinogradWrw<4, 3>();
template const ConvSolver& ConvCpuWinogradWrw<2, 3>();

} // namespace miopen::solvers
