// ConvCpuDirectBlockedWrw (miopen_cy id 1022): backward weights, 1 or 2 spatial dims, any pads,
// strides, dilations, groups and tensor strides: x packed channel-blocked with its padding, dy
// packed in tiles of output channels, and per filter tap a register tile of UC input channels x
// NKV vectors of output channels summed over images and positions (cpu/conv/direct_blocked.hpp).
// Two more kernels run GEMMs over output positions: the 1x1 kernel (1x1 unpadded filters; x and dy
// read in NCHW, no transposes) and the row kernel (any filter; x copied by stride phase).
// Variants: the tile (ISA,UC,NKV; "ISA-1x1,KR,CR" and "ISA-row,KR,CR" for those kernels;
// direct_blocked_common.hpp). Workspace: none. Deterministic:
// yes (each dw element is one thread's fixed-order sum).
#include "conv/solver_support/direct_blocked_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuDirectBlockedWrwSolver final : dblk::Solver
{
    ConvCpuDirectBlockedWrwSolver() : Solver("ConvCpuDirectBlockedWrw", 1022, ConvDirection::BackwardWeights) {}

protected:
    ConvInvoker Invoker(const ConvProblem& p, const dblk::Variant& v) const override
    {
        return [plan = dblk::PlanOf(p), v](const ConvArgs& a) {
            cpu::dblk::RunWrw(plan, v.isa, {v.tile.ur_w, v.tile.nkv, v.pos}, static_cast<const float*>(a.x),
                              static_cast<const float*>(a.y), static_cast<float*>(a.w));
        };
    }
};

} // namespace

const ConvSolver& ConvCpuDirectBlockedWrw()
{
    static const ConvCpuDirectBlockedWrwSolver solver;
    return solver;
}

} // namespace miopen::solvers
