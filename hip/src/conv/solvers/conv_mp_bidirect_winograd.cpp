// ConvMPBidirectWinograd<WinoDataH-WinoFilterH>, as MIOpen's class template: <4-3> (MIOpen id 69)
// and <2-3> (id 67), Winograd F(4x4,3x3) and F(2x2,3x3) for forward and backward data (MIOpen's
// multi-pass bidirectional Winograd: input transform, one GEMM per tile element, output transform,
// with workspace). <4-3> is the main Winograd solver: 4x fewer multiplications than direct (36 per
// 4x4 output tile instead of 144); <2-3> the more accurate one: 2.25x fewer (16 per 2x2 output
// tile instead of 36), smaller transform coefficients.
// <4-5> (ours, miopen_cy id 2041; MIOpen's class template has 3x3 filters only): F(4x4,5x5) on the
// GPU, 6.25x fewer multiplications than direct (64 per 4x4 output tile instead of 400), with the
// points of F(6x6,3x3) (0, +-1, +-2, +-1/2; tools/winograd_tiles.py derives the transforms). The
// CPU serves 5x5 filters with the fft solver.
// Applies to 2-d r x r filters, stride 1, dilation 1, any pads, groups (not depthwise), packed NCHW
// (packed NHWC on the GPU).
// On a GPU handle: transforms in hip/kernels/conv/conv_winograd.hip around strided-batched SGEMMs
// (solver_support/winograd_gpu.hpp, kernels/conv/conv_winograd_launch.cpp; workspace: the whole batch's transformed inputs, filters and products).
// Kernel: cpu/conv/winograd.cpp (GEMMs on OpenBLAS). Workspace: one chunk of transformed inputs
// and products (about 8 MiB; the transformed filters are made per block of output channels next
// to their GEMMs, in per-thread buffers), or, for few channels and large images, the transformed
// filters and one ~L2-sized chunk per thread; plus the filters transposed for backward data.
// Accuracy: relative L2 error <= 1e-4 against a float64 reference (DESIGN.md's Winograd bound;
// tests/conv/solvers/test_winograd.py). Deterministic: yes (bit for bit run to run, same thread count).
#include "conv/solver_support/winograd_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

template <int WinoDataH, int WinoFilterH>
struct ConvMPBidirectWinogradSolver final : winograd::WinogradSolver<false, WinoDataH, WinoFilterH>
{
    static_assert((WinoFilterH == 3 && (WinoDataH == 2 || WinoDataH == 4)) || (WinoFilterH == 5 && WinoDataH == 4),
                  "F(2x2,3x3), F(4x4,3x3) and F(4x4,5x5) only");
    static constexpr std::string_view kName = WinoFilterH == 5 ? "ConvMPBidirectWinograd<4-5>"
                                              : WinoDataH == 4 ? "ConvMPBidirectWinograd<4-3>"
                                                               : "ConvMPBidirectWinograd<2-3>";
    static constexpr uint64_t kId = WinoFilterH == 5 ? 2041 : WinoDataH == 4 ? 69 : 67;
    // names and ids are find-db keys: never change
    ConvMPBidirectWinogradSolver() : winograd::WinogradSolver<false, WinoDataH, WinoFilterH>(kName, kId) {}
};

} // namespace

template <int WinoDataH, int WinoFilterH>
const ConvSolver& ConvMPBidirectWinograd()
{
    static const ConvMPBidirectWinogradSolver<WinoDataH, WinoFilterH> solver;
    return solver;
}

template const ConvSolver& ConvMPBidirectWinograd<4, 3>();
template const ConvSolver& ConvMPBidirectWinograd<2, 3>();
template const ConvSolver& ConvMPBidirectWinograd<4, 5>();

} // namespace miopen::solvers
