// The packed element-wise kernel: every operand one contiguous run of `numel` floats (a strided
// space that Collapse merged to one dim of unit strides) starting 16-byte aligned. A thread moves
// one float4 per operand (measured fastest: 0.90-1.00 of copy on the H200, CHANGELOG.md, opsa; 2 and
// 4 a thread were slower and are gone), one block 256 float4s; the numel % 4 tail goes to the
// last block. No row offsets, no broadcast or stride checks in
// the loop: fewer registers than MapRows (elementwise.hpp), so more warps and bytes in flight.
// The functor is MapRows': `float operator()(const float* v) const`, alpha folded in; the blend
// is the same expression as MapRows' (f(v) + beta * out).
#pragma once

#include "kernels/common/device.hpp"
#include "kernels/common/elementwise.hpp"

namespace miopen::gpu {

constexpr int kPackedThreads = 256;

/// Whether a map over `a` with these operands can take MapPacked.
template <int NIn>
inline bool PackedMapApplies(const MapArgs<NIn>& a)
{
    if(a.s.ndim != 1 || a.s.numel <= 0)
        return false;
    for(int k = 0; k <= NIn; ++k)
        if(a.s.strides[k][0] != 1)
            return false;
    for(int k = 0; k < NIn; ++k)
        if((reinterpret_cast<uintptr_t>(a.in[k]) & 15) != 0)
            return false;
    return (reinterpret_cast<uintptr_t>(a.out) & 15) == 0;
}

template <int NIn, bool ReadOut, class F>
__global__ void __launch_bounds__(kPackedThreads) MapPacked(MapArgs<NIn> a, F f)
{
    constexpr int NI = NIn > 0 ? NIn : 1;
    const int64_t nq = a.s.numel / 4;
    const int64_t q  = int64_t{blockIdx.x} * kPackedThreads + threadIdx.x;
    if(q < nq)
    {
        float4 v[NI];
        float4 o;
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            v[k] = reinterpret_cast<const float4*>(a.in[k])[q];
        if(ReadOut)
            o = reinterpret_cast<const float4*>(a.out)[q];
        reinterpret_cast<float4*>(a.out)[q] = MapFloat4<NIn, ReadOut>(f, v, o, a.beta);
    }
    if(blockIdx.x == gridDim.x - 1)
    {
        const int64_t i = nq * 4 + threadIdx.x;
        if(i < a.s.numel)
        {
            float x[NI];
#pragma unroll
            for(int k = 0; k < NIn; ++k)
                x[k] = a.in[k][i];
            a.out[i] = Blend<ReadOut>(f(x), a.beta, a.out + i);
        }
    }
}

/// MapPacked where it applies, else LaunchMap with the planned launch l.
template <int NIn, class F>
void LaunchMapPackedOr(const MapArgs<NIn>& a, const Launch& l, bool read_out, F f)
{
    if(PackedMapApplies(a) && a.s.numel / 4 / kPackedThreads < (int64_t{1} << 30))
    {
        const int64_t nq = a.s.numel / 4;
        Launch p;
        p.grid.x  = static_cast<unsigned>(nq > 0 ? (nq + kPackedThreads - 1) / kPackedThreads : 1);
        p.block.x = kPackedThreads;
        p.stream  = l.stream;
        if(read_out)
            MIOPEN_CY_LAUNCH((MapPacked<NIn, true, F>), p, 0, a, f);
        else
            MIOPEN_CY_LAUNCH((MapPacked<NIn, false, F>), p, 0, a, f);
        return;
    }
    LaunchMap(a, l, read_out, f);
}

} // namespace miopen::gpu
