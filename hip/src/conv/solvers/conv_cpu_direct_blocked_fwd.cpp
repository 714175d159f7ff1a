// ConvCpuDirectBlockedFwd (miopen_cy id 1020): forward convolution, 1 or 2 spatial dims, any pads,
// strides, dilations, groups and tensor strides, as a direct convolution over channel-blocked
// layouts with register-tiled AVX-512 / AVX2 micro-kernels (cpu/conv/direct_blocked.hpp).
// Variants: the register tile (direct_blocked_common.hpp). Workspace: none (packed copies in
// per-thread scratch). Deterministic: yes (each output is one thread's fixed-order sum). Carries a
// fusion plan's epilogue (ConvArgs::cpu_epilogue): applied to each register tile's fp32 results
// before they are stored (cpu::EpilogueTile), so y is written once.
#include "conv/solver_support/direct_blocked_common.hpp"
#include "conv/solvers.hpp"
#include "fusion/fusion_args.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuDirectBlockedFwdSolver final : dblk::Solver
{
    ConvCpuDirectBlockedFwdSolver() : Solver("ConvCpuDirectBlockedFwd", 1020, ConvDirection::Forward) {}
    bool CarriesCpuEpilogue() const override { return true; }

protected:
    ConvInvoker Invoker(const ConvProblem& p, const dblk::Variant& v) const override
    {
        return [plan = dblk::PlanOf(p), v](const ConvArgs& a) {
            const auto* x = static_cast<const float*>(a.x);
            const auto* w = static_cast<const float*>(a.w);
            auto* y       = static_cast<float*>(a.y);
            const cpu::ConvBlockEpilogue* ep = a.cpu_epilogue;
            if(ep == nullptr || ep->e == nullptr)
            {
                cpu::dblk::Run(plan, v.isa, v.tile, x, w, y);
                return;
            }
            // The kernels (compiled per ISA, plain arguments only) call back into the epilogue.
            struct Ctx
            {
                const ConvEpilogueArgs* e;
                long ks, us;   // y's channel and column strides
            };
            const Ctx ctx{ep->e, plan.ys[1], plan.ys[3]};
            const cpu::dblk::EpilogueFn fn = [](const void* c, float* tile, long ld, long nw, long nk, long k0,
                                                long off) {
                const Ctx& t = *static_cast<const Ctx*>(c);
                cpu::EpilogueTile(*t.e, tile, static_cast<size_t>(ld), static_cast<size_t>(nw),
                                  static_cast<size_t>(nk), static_cast<size_t>(k0), static_cast<size_t>(off),
                                  static_cast<size_t>(t.ks), static_cast<size_t>(t.us));
            };
            cpu::dblk::Run(plan, v.isa, v.tile, x, w, y, fn, &ctx);
            ep->applied = true;
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
