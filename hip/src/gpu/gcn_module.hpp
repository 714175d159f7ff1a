// GCN code objects (asm/*.s, assembled at build time and embedded as byte arrays) loaded with
// hipModuleLoadData and launched with hipModuleLaunchKernel. AMD (HIP) builds only: elsewhere
// HaveGcnCodeObjects() is false and the rest is not compiled.
#pragma once

#include <cstddef>
#include <string>

namespace miopen::gpu {

/// Whether this build embeds GCN code objects (an AMD build with the LLVM assembler).
bool HaveGcnCodeObjects();

/// The GCN architecture of GPU `ordinal` without target features ("gfx90a" for
/// "gfx90a:sramecc+:xnack-"); empty where it is not an AMD GPU.
std::string GcnArch(int ordinal);

/// Whether a code object of `kernel` is embedded for `arch`.
bool HasGcnKernel(const std::string& kernel, const std::string& arch);

/// Launches `kernel` of the embedded code object for the current device's architecture on
/// `stream`: grid in workgroups, `block` work-items (x only), the kernel arguments as bytes.
/// The module is loaded once per device and kept for the life of the process.
void LaunchGcnKernel(const std::string& kernel, int ordinal, const unsigned grid[3], unsigned block,
                     const void* kernargs, size_t kernarg_bytes, void* stream);

} // namespace miopen::gpu
