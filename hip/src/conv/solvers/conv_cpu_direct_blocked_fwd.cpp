// ConvCpuDirectBlockedFwd (miopen_cy id 1020): forward convolution, 1 or 2 spatial dims, any pads,
// strides, dilations, groups and tensor strides, as a direct convolution over channel-blocked
// layouts with register-tiled AVX-512 / AVX2 micro-kernels (cpu/conv/direct_blocked.hpp).
// Variants: the register tile (direct_blocked_common.hpp). Workspace: none (packed copies in
// per-thread scratch). Deterministic: yes (each output is one thread's fixed-order sum).
#include "conv/solver_support/direct_blocked_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuDirectBlockedFwdSolver final : dblk::Solver
{
    ConvCpuDirectBlockedFwdSolver() : Solver("ConvCpuDirectBlockedFwd", 1020, ConvDirection::Forward) {}

protected:
    ConvInvoker Invoker(const ConvProblem& p, const dblk::Variant& v) const override
    {
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
