// ConvDirectNaiveConvBwd (MIOpen id 86): direct backward data convolution on the CPU and on the GPU (hip/kernels/conv/conv_direct.hip) for any geometry (1-3 spatial
// dims, pads, strides, dilations, groups) and any tensor strides. Kernel: cpu/conv/direct.cpp.
// Workspace: none. Deterministic: yes. The universal fallback: applies to every valid problem.
#include "conv/conv_gpu.hpp"
#include "conv/conv_geometry.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/direct.hpp"

namespace miopen::solvers {
namespace {

struct ConvDirectNaiveBwdDataSolver final : ConvSolver
{
    std::string_view Name() const override { return "ConvDirectNaiveConvBwd"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 86; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            // About 0.2 TFLOP/s on a GPU: Find on the H200 spent ~180 ms on it for n32 c256 56x56
            // k512 1x1 s2 (4 runs, ~45 ms each); at the former 1.5 its estimate passed Find's
            // 8x-the-best cut there.
            return 2.0 * p.Macs() / 0.2e12 * 1e3;
        return 2.0 * p.Macs() / (2.0 * 1e9) * 1e3;   // about 2.0 GFLOP/s
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!(p.IsBackwardData()))
            return OtherDomain("backward data only");
        return Applicable();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_gpu::NaiveInvoker(ctx.handle, p);
        return [g = ConvGeometry(p)](const ConvArgs& a) { cpu::ConvBwdDataDirect(g, static_cast<float*>(a.x), static_cast<const float*>(a.w), static_cast<const float*>(a.y)); };
    }
};

} // namespace

const ConvSolver& ConvDirectNaiveBwdData()
{
    static const ConvDirectNaiveBwdDataSolver solver;
    return solver;
}

} // namespace miopen::solvers
