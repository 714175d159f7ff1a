// ConvCpuDirectBlockedFwd (miopen_cy id 1020): forward convolution, 1 or 2 spatial dims, any pads,
// strides, dilations, groups and tensor strides, as a direct convolution over channel-blocked
// layouts with register-tiled AVX-512 / AVX2 micro-kernels (cpu/conv/direct_blocked.hpp).
// Variants: the register tile (direct_blocked_common.hpp). Workspace: none (packed copies in
// per-thread scratch). Deterministic: yes (each output is one thread's fixed-order sum).
#include "conv/solver_support/direct_blocked_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuDirectBlockedFwdSolver final : ConvTunableSolver
{
    std::string_view Name() const override { return "ConvCpuDirectBlockedFwd"; }   // find-db key: never rename
    uint64_t Id() const override { return 1020; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override { return dblk::EstimateMs(p); }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return dblk::CommonApplicability(ctx, p, ConvDirection::Forward);
    }
    std::string_view VariantHeader() const override { return dblk::kHeader; }
    std::vector<std::string> Variants(const ConvContext&, const ConvProblem& p) const override
    {
        return dblk::Variants(p);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p, const std::string& variant) const override
    {
        const dblk::Variant v = dblk::Parse(Name(), variant, Variants(ctx, p));
        return [plan = dblk::PlanOf(p), v](const ConvArgs& a) {
            cpu::dblk::Run(plan, v.isa, v.tile, static_cast<const float*>(a.x), static_cast<const float*>(a.w),
                           static_cast<float*>(a.y));
        };
    }
};

} // namespace

const ConvSolver& ConvCpuDirectBlockedFwd()
{
    static const ConvCpuDirectBlockedFwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
