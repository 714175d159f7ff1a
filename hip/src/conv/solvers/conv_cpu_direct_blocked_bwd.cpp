// ConvCpuDirectBlockedBwd (miopen_cy id 1021): backward data of stride-1 convolutions (1 or 2
// spatial dims, pad <= dilation * (filter - 1), any groups and tensor strides) as the blocked
// direct forward of dy with the flipped filter, C and K swapped (cpu::dblk::BackwardDataPlan).
// Variants: the register tile (direct_blocked_common.hpp). Workspace: none. Deterministic: yes.
#include "conv/solvers/direct_blocked_common.hpp"
#include "conv/solvers/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuDirectBlockedBwdSolver final : ConvTunableSolver
{
    std::string_view Name() const override { return "ConvCpuDirectBlockedBwd"; }   // find-db key: never rename
    uint64_t Id() const override { return 1021; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override { return dblk::EstimateMs(p); }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = dblk::CommonApplicability(ctx, p, ConvDirection::BackwardData);
        if(!common.ok)
            return common;
        for(int i = 0; i < p.dims; ++i)
        {
            if(p.strides[i] != 1)
                return NotApplicable("needs stride 1");
            if(p.pads[i] > p.dilations[i] * (static_cast<int>(p.filter[i]) - 1))
                return NotApplicable("needs pad <= dilation * (filter - 1)");
        }
        return Applicable();
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
            cpu::dblk::Run(plan, v.isa, v.tile, static_cast<const float*>(a.y), static_cast<const float*>(a.w),
                           static_cast<float*>(a.x));
        };
    }
};

} // namespace

const ConvSolver& ConvCpuDirectBlockedBwd()
{
    static const ConvCpuDirectBlockedBwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
