// What the GCN assembly solvers (ConvAsm3x3U, ConvAsm1x1U) share: the toggles, the device check
// and the launch of an embedded code object (gpu/gcn_module.hpp).
#pragma once

#include "conv/solver.hpp"

#include <cstddef>

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
