// The GCN code objects embedded in the library: asm/<kernel>.s assembled for each GPU target by
// hip/cmake/embed_code_objects.cmake, which generates the definitions (AMD builds only).
#pragma once

#include <cstddef>

namespace miopen::gpu {

struct GcnCodeObject
{
    const char* kernel;          // symbol = file stem: "conv_fwd_3x3_gcn"
    const char* arch;            // "gfx906", "gfx908", "gfx90a"
    const unsigned char* data;   // the ELF code object (.hsaco)
    size_t size;
};

extern const GcnCodeObject kGcnCodeObjects[];
extern const size_t kGcnCodeObjectCount;

} // namespace miopen::gpu
