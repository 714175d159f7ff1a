// ConvDirectNaiveConvFwd (MIOpen id 85): direct forward convolution on the CPU and on the GPU (hip/kernels/conv/conv_direct.hip) for any geometry (1-3 spatial
// dims, pads, strides, dilations, groups) and any tensor strides. Kernel: cpu/conv/direct.cpp.
// Workspace: none. Deterministic: yes. The universal fallback: applies to every valid problem.
#include "conv/conv_gpu.hpp"
#include "conv/conv_geometry.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/direct.hpp"

namespace miopen::solvers {
namespace {

struct ConvDirectNaiveFwdSolver final : ConvSolver
{
    std::string_view Name() const override { return "ConvDirectNaiveConvFwd"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 85; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return 2.0 * p.Macs() / 1.5e12 * 1e3;   // about 1.5 TFLOP/s on a GPU
        return 2.0 * p.Macs() / (3.0 * 1e9) * 1e3;   // about 3.0 GFLOP/s
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!(p.IsForward()))
            return OtherDomain("forward only");
        return Applicable();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_gpu::NaiveInvoker(ctx.handle, p);
        return [g = ConvGeometry(p)](const ConvArgs& a) { cpu::ConvFwdDirect(g, static_cast<const float*>(a.x), static_cast<const float*>(a.w), static_cast<float*>(a.y)); };
    }
};

} // namespace

const ConvSolver& ConvDirectNaiveFwd()
{
    static const ConvDirectNaiveFwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
