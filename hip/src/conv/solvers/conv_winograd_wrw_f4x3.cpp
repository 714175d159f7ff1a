// ConvCpuWinogradWrw<4-3> (miopen_cy id 1010): Winograd F(4x4,3x3) for backward weights:
// dw = sum over tiles of G^T [(A dy A^T) . (B^T x B)] G, with the transforms of x and dy as in the
// forward solver and one GEMM per tile element (K/g x C/g, summed over the tiles) on OpenBLAS.
// Ours, not MIOpen's: MIOpen's ConvWinograd3x3MultipassWrW tiles differently (dy as the filter).
// Applies to 2-d 3x3 filters, stride 1, dilation 1, any pads, groups (not depthwise), packed NCHW.
// On a GPU handle too (the name stays: a find-db key): transforms in hip/kernels/conv/
// conv_winograd.hip around strided-batched SGEMMs over (tile element, part of the tiles), the
// parts added in order (conv_winograd_gpu.hpp; workspace: the whole batch's transformed x, dy and
// the parts' products).
// Kernel: cpu/conv_winograd.cpp. Workspace: one chunk of transformed x and dy (about 8 MiB) plus
// the summed products (6x6 x K x C/g). Accuracy: relative L2 error <= 1e-4 against a
// float64 reference (tests/test_conv_winograd.py). Deterministic: yes (bit for bit run to run,
// same thread count: chunks are summed in order).
#include "conv/solvers/conv_winograd_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

constexpr int kTile = 4;

struct ConvCpuWinogradWrw4x3Solver final : ConvSolver
{
    std::string_view Name() const override { return "ConvCpuWinogradWrw<4-3>"; }   // find-db key: never rename
    uint64_t Id() const override { return 1010; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Winograd; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::EstimateMs(ctx.handle, p, kTile);
        return winograd::EstimateMs(p, kTile);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return winograd::IsApplicable(ctx, p, true, kTile);
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::WorkspaceSize(ctx.handle, p, kTile);
        return winograd::WorkspaceSize(p, kTile);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::MakeInvoker(ctx.handle, p, kTile);
        return winograd::MakeInvoker(p, kTile);
    }
};

} // namespace

const ConvSolver& ConvCpuWinogradWrw4x3()
{
    static const ConvCpuWinogradWrw4x3Solver solver;
    return solver;
}

} // namespace miopen::solvers
