// ConvCpuDirectBlockedBwd (miopen_cy id 1021): backward data (1 or 2 spatial dims, any pads,
// groups and tensor strides; strides > 1 with dilation 1) as the blocked direct forward of dy with
// the flipped filter, C and K swapped, one stride phase of dx at a time (cpu::dblk::RunBackwardData).
// Variants: the register tile (direct_blocked_common.hpp). Workspace: none. Deterministic: yes.
#include "conv/solver_support/direct_blocked_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuDirectBlockedBwdSolver final : dblk::Solver
{
    ConvCpuDirectBlockedBwdSolver() : Solver("ConvCpuDirectBlockedBwd", 1021, ConvDirection::BackwardData) {}

protected:
    Applicability IsApplicableToo(const ConvProblem& p) const override
    {
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
    ConvInvoker Invoker(const ConvProblem& p, const dblk::Variant& v) const override
    {
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
