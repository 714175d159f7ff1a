// ConvCpuDirectBlockedBwd (miopen_cy id 1021): backward data (1 or 2 spatial dims, any pads,
// groups and tensor strides; strides > 1 with dilation 1) as the blocked direct forward of dy with
// the flipped filter, C and K swapped, one stride phase of dx at a time (cpu::dblk::RunBackwardData).
// Variants: the register tile (direct_blocked_common.hpp). Workspace: none. Deterministic: yes.
#include "conv/solver_support/direct_blocked_common.hpp"
#include "conv/solvers.hpp"

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
        bool strided = false, dilated = false;
        for(int i = 0; i < p.dims; ++i)
        {
            strided = strided || p.strides[i] != 1;
            dilated = dilated || p.dilations[i] != 1;
        }
        if(strided && dilated)
            return NotApplicable("strides > 1 need dilation 1");
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
        return [g = ConvGeometry(p), v](const ConvArgs& a) {
            cpu::dblk::RunBackwardData(g, v.isa, v.tile, static_cast<const float*>(a.y),
                                       static_cast<const float*>(a.w), static_cast<float*>(a.x));
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
