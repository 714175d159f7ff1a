// What the GCN assembly solvers (ConvAsm3x3U, ConvAsm1x1U) share: the toggles, the device check
// and the launch of an embedded code object (gpu/gcn_module.hpp).
#pragma once

#include "conv/solver.hpp"

#include <cstddef>
#include <string_view>

namespace miopen::solvers {

/// Applicability of an assembly solver, in MIOpen's order: its toggles first
/// (MIOPEN_DEBUG_GCN_ASM_KERNELS, then the solver's own `solver_toggle`), then the direction
/// (forward only), then `fits` (the problem rules of the kernel), then the device: an AMD GPU
/// of an architecture whose code object of `kernel` is embedded. On the CPU and on NVIDIA GPUs
/// the answer is "not applicable" with that reason.
Applicability AsmApplicability(const ConvContext& ctx, const ConvProblem& p, const char* solver_toggle,
                               const char* kernel, const Applicability& fits);

/// The rules both kernels share: fp32, 2-D, groups 1, packed NCHW, and byte offsets that fit the
/// kernels' 32-bit arithmetic.
Applicability AsmCommonRules(const ConvProblem& p);

/// An invoker that launches `kernel` on the handle's device and stream with the given grid (in
/// workgroups) and kernel arguments; `make_args(x, w, y)` fills the argument struct.
template <class Args, class MakeArgs>
ConvInvoker MakeAsmInvoker(const ConvContext& ctx, const char* kernel, const unsigned (&grid)[3],
                           MakeArgs make_args);

/// The assembly solvers' skeleton: a solver states its name, id, toggle, kernel, the kernel's
/// problem rules (Fits) and its invoker; about 5 TFLOP/s on an MI100-class GPU.
class AsmSolver : public ConvSolver
{
public:
    AsmSolver(std::string_view name, uint64_t id, const char* toggle, const char* kernel)
        : name_(name), id_(id), toggle_(toggle), kernel_(kernel)
    {
    }
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    const char* FamilySwitch() const override { return "MIOPEN_DEBUG_GCN_ASM_KERNELS"; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        return 2.0 * p.Macs() / (5.0 * 1e12) * 1e3;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return AsmApplicability(ctx, p, toggle_, kernel_, Fits(p));
    }

protected:
    /// The kernel's problem rules (after AsmCommonRules).
    virtual Applicability Fits(const ConvProblem& p) const = 0;
    const char* Kernel() const { return kernel_; }

private:
    std::string_view name_;
    uint64_t id_;
    const char* toggle_;
    const char* kernel_;
};

void LaunchAsmKernel(const Handle& handle, const char* kernel, const unsigned grid[3], const void* args,
                     size_t bytes);

template <class Args, class MakeArgs>
ConvInvoker MakeAsmInvoker(const ConvContext& ctx, const char* kernel, const unsigned (&grid)[3],
                           MakeArgs make_args)
{
    const Handle* handle = &ctx.handle;
    const unsigned g[3]  = {grid[0], grid[1], grid[2]};
    return [=](const ConvArgs& a) {
        const Args args = make_args(a.x, a.w, a.y);
        const unsigned gg[3] = {g[0], g[1], g[2]};
        LaunchAsmKernel(*handle, kernel, gg, &args, sizeof(Args));
    };
}

} // namespace miopen::solvers
