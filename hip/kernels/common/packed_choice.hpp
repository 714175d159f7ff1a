// MIOPEN_CY_MAP_KERNEL: which kernel the packed element-wise ops (activation forward and
// backward, batch-norm inference) take on packed, 16-byte aligned tensors. Host only.
//   unset or "packed": MapPacked with the op's default unroll (the caller's `fallback`: the
//                      variant measured fastest for the op, perf/RESULTS.md "GPU ops, opsa");
//   "packed1", "packed2", "packed4": MapPacked moving 1, 2 or 4 float4s a thread per operand;
//   "rows": the general engine (MapRows / MapStrided), as before MapPacked existed.
#pragma once

#include "core/env.hpp"
#include "core/errors.hpp"

namespace miopen::gpu {

/// The float4s a thread moves per operand (0: the general engine); `fallback` when unset.
inline int PackedUnroll(int fallback)
{
    const auto v = env::Value("MIOPEN_CY_MAP_KERNEL");
    if(!v || *v == "packed")
        return fallback;
    if(*v == "packed1")
        return 1;
    if(*v == "packed2")
        return 2;
    if(*v == "packed4")
        return 4;
    if(*v == "rows")
        return 0;
    ThrowBadParm("MIOPEN_CY_MAP_KERNEL = '", *v, "'; expected packed, packed1, packed2, packed4 or rows");
}

} // namespace miopen::gpu
