// ConvWinograd3x3MultipassWrW<WinoDataH-WinoFilterH>, MIOpen's multi-pass Winograd backward
// weights for 5x5 filters: <5-4> (MIOpen id 49) and <5-3> (id 48), the weights' 5x5 computed from
// dy in 4x4 and 3x3 tiles (alpha = 8 and 7 tile elements a side):
// dw = sum over tiles of G^T [(A dy A^T) . (B^T x B)] G, F(m x m, 5 x 5) with m the dy tile
// (the transposed form of MIOpen's F(5, m), same tiles and multiplication count; the transforms
// from tools/winograd_tiles.py, points 0, +-1, +-2, +-1/2). The GPU only (MIOpen's are GPU
// solvers; the CPU serves 5x5 backward weights with its direct and GEMM solvers). Switches:
// MIOpen's MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_F5X4 / _F5X3, workspace cap
// MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_WORKSPACE_MAX.
// Applies to 2-d 5x5 filters, stride 1, dilation 1, any pads, groups (not depthwise; MIOpen's: one
// group), packed NCHW or NHWC.
// Kernels: hip/kernels/conv/conv_winograd.hip around strided-batched SGEMMs over (tile element,
// part of the tiles), the parts added in order (solver_support/winograd_gpu.hpp,
// kernels/conv/conv_winograd_launch.cpp); workspace: the whole batch's transformed x, dy and the
// parts' products. Accuracy: relative L2 error <= 1e-4 against a float64 reference
// (tests/conv/solvers/test_winograd.py). Deterministic: yes (bit for bit run to run).
#include "conv/solver_support/winograd_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

template <int WinoDataH, int WinoFilterH>
struct ConvWinograd3x3MultipassWrWSolver final : winograd::WinogradSolver<true, WinoFilterH, WinoDataH>
{
    static_assert(WinoDataH == 5 && (WinoFilterH == 4 || WinoFilterH == 3), "<5-4> and <5-3> only");
    // names and ids are MIOpen's and find-db keys: never change
    ConvWinograd3x3MultipassWrWSolver()
        : winograd::WinogradSolver<true, WinoFilterH, WinoDataH>(
              WinoFilterH == 4 ? "ConvWinograd3x3MultipassWrW<5-4>" : "ConvWinograd3x3MultipassWrW<5-3>",
              WinoFilterH == 4 ? 49 : 48)
    {
    }
};

} // namespace

template <int WinoDataH, int WinoFilterH>
const ConvSolver& ConvWinograd3x3MultipassWrW()
{
    static const ConvWinograd3x3MultipassWrWSolver<WinoDataH, WinoFilterH> solver;
    return solver;
}

template const ConvSolver& ConvWinograd3x3MultipassWrW<5, 4>();
template const ConvSolver& ConvWinograd3x3MultipassWrW<5, 3>();

} // namespace miopen::solvers
