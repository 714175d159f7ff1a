#include "conv/solver_support/conv_asm_common.hpp"

#include "conv/solver_support/conv_asm_args.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "gpu/gcn_module.hpp"
#include "gpu/runtime.hpp"

#include <cstdint>
#include <limits>

namespace miopen::solvers {

namespace {

std::string DisabledReason(const char* toggle)
{
    return Concat("disabled by ", toggle, "=", env::Value(toggle).value_or(""));
}

} // namespace

Applicability AsmApplicability(const ConvContext& ctx, const ConvProblem& p, const char* solver_toggle,
                               const char* kernel, const Applicability& fits)
{
    if(!env::IsEnabled("MIOPEN_DEBUG_GCN_ASM_KERNELS"))
        return NotApplicable(DisabledReason("MIOPEN_DEBUG_GCN_ASM_KERNELS"));
    if(!env::IsEnabled(solver_toggle))
        return NotApplicable(DisabledReason(solver_toggle));
    if(!p.IsForward())
        return OtherDomain("forward only");
    if(!fits.ok)
        return fits;
    const std::string need = Concat("the GCN assembly kernel ", kernel,
                                    " runs only on AMD GPUs (gfx906, gfx908, gfx90a)");
    if(ctx.handle.IsCpu())
        return NotApplicable(need + "; this handle is the CPU");
    if(std::string(gpu::BackendName()) != "HIP")
        return NotApplicable(Concat(need, "; this GPU runs the ", gpu::BackendName(), " backend (NVIDIA)"));
    const std::string arch = gpu::GcnArch(ctx.handle.Ordinal());
    if(!gpu::HasGcnKernel(kernel, arch))
        return NotApplicable(Concat(need, "; this GPU is ", arch.empty() ? "unknown" : arch,
                                    gpu::HaveGcnCodeObjects() ? "" : " and this build embeds no code objects"));
    return Applicable();
}

Applicability AsmCommonRules(const ConvProblem& p)
{
    if(p.w.Type() != miopenFloat)
        return NotApplicable("fp32 only");
    if(p.dims != 2)
        return NotApplicable("2-D convolutions only");
    if(p.groups != 1)
        return NotApplicable("groups = 1 only");
    if(!p.IsPackedNCHW())
        return NotApplicable("packed NCHW tensors only");
    constexpr double kMaxBytes = static_cast<double>(std::numeric_limits<int32_t>::max());
    const double x_bytes = 4.0 * p.n * p.c * p.InSpatial();
    const double y_bytes = 4.0 * p.n * p.k * p.OutSpatial();
    const double w_bytes = 4.0 * p.k * p.c * p.FilterSpatial();
    if(x_bytes > kMaxBytes || y_bytes > kMaxBytes || w_bytes > kMaxBytes)
        return NotApplicable("x, w and y must each be under 2 GiB (32-bit offsets in the kernel)");
    return Applicable();
}

void LaunchAsmKernel(const Handle& handle, const char* kernel, const unsigned grid[3], const void* args,
                     size_t bytes)
{
    gpu::LaunchGcnKernel(kernel, handle.Ordinal(), grid, kGcnGroupSize, args, bytes, handle.Stream());
}

} // namespace miopen::solvers
