// Layout tests of the batch-norm launchers' fast paths. Plain C++.
#pragma once

#include "core/tensor.hpp"

#include <cstdint>

namespace miopen::gpu {

/// Whether t is packed channels-last: N[D]HWC in memory, C innermost, no gaps.
inline bool PackedChannelsLast(const TensorDescriptor& t)
{
    const int nd     = t.NumDims();
    const auto& lens = t.Lens();
    const auto& st   = t.Strides();
    if(nd < 3 || st[1] != 1)
        return false;
    size_t step = lens[1];
    for(int d = nd - 1; d >= 2; --d)
    {
        if(lens[d] != 1 && st[d] != step)
            return false;
        step *= lens[d];
    }
    return lens[0] == 1 || st[0] == step;
}

inline bool Aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

} // namespace miopen::gpu
