// ConvMPBidirectWinograd<2-3> (MIOpen id 67): Winograd F(2x2,3x3) for forward and backward data
// (MIOpen's multi-pass bidirectional Winograd: input transform, one GEMM per tile element,
// output transform, with workspace); the more accurate one: 2.25x fewer multiplications
// than direct (16 per 2x2 output tile instead of 36), smaller transform coefficients.
// Applies to 2-d 3x3 filters, stride 1, dilation 1, any pads, groups (not depthwise), packed NCHW.
// On a GPU handle: transforms in hip/kernels/conv/conv_winograd.hip around strided-batched SGEMMs
// (conv_winograd_gpu.hpp; workspace: the whole batch's transformed inputs, filters and products).
// Kernel: cpu/conv_winograd.cpp (GEMMs on OpenBLAS). Workspace: one chunk of transformed inputs
// and products (about 8 MiB; the transformed filters are made per block of output channels next
// to their GEMMs, in per-thread buffers), or, for few channels and large images, the transformed
// filters and one ~L2-sized chunk per thread; plus the filters transposed for backward data.
// Accuracy: relative L2 error <= 1e-4 against a float64 reference (DESIGN.md's Winograd bound;
// tests/test_conv_winograd.py). Deterministic: yes (bit for bit run to run, same thread count).
#include "conv/solvers/conv_winograd_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

constexpr int kTile = 2;

struct ConvMPBidirectWinograd2x3Solver final : ConvSolver
{
    std::string_view Name() const override { return "ConvMPBidirectWinograd<2-3>"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 67; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Winograd; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::EstimateMs(ctx.handle, p, kTile);
        return winograd::EstimateMs(p, kTile);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return winograd::IsApplicable(ctx, p, false, kTile);
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

const ConvSolver& ConvMPBidirectWinograd2x3()
{
    static const ConvMPBidirectWinograd2x3Solver solver;
    return solver;
}

} // namespace miopen::solvers
