// The packed element-wise kernel: every operand one contiguous run of `numel` floats (a strided
// space that Collapse merged to one dim of unit strides) starting 16-byte aligned. A thread moves
// U float4s per operand, all loads issued before the first use, one block 256 * U float4s;
// the numel % 4 tail goes to the last block. No row offsets, no broadcast or stride checks in
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

template <int NIn, int U, bool ReadOut, class F>
__global__ void __launch_bounds__(kPackedThreads) MapPacked(MapArgs<NIn> a, F f)
{
    constexpr int NI  = NIn > 0 ? NIn : 1;
    const int64_t nq  = a.s.numel / 4;
    const int64_t q0  = int64_t{blockIdx.x} * (kPackedThreads * U) + threadIdx.x;
    float4 v[U][NI];
    float4 o[U];
#pragma unroll
    for(int u = 0; u < U; ++u)
    {
        const int64_t q = q0 + u * kPackedThreads;
        if(q >= nq)
            continue;
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            v[u][k] = reinterpret_cast<const float4*>(a.in[k])[q];
        if(ReadOut)
            o[u] = reinterpret_cast<const float4*>(a.out)[q];
    }
#pragma unroll
    for(int u = 0; u < U; ++u)
    {
        const int64_t q = q0 + u * kPackedThreads;
        if(q >= nq)
            continue;
        reinterpret_cast<float4*>(a.out)[q] = MapFloat4<NIn, ReadOut>(f, v[u], o[u], a.beta);
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

template <int NIn, int U, class F>
void LaunchMapPackedU(const MapArgs<NIn>& a, void* stream, bool read_out, F f)
{
    const int64_t nq     = a.s.numel / 4;
    const int64_t per    = int64_t{kPackedThreads} * U;
    const int64_t blocks = nq > 0 ? (nq + per - 1) / per : 1;
    Launch l;
    l.grid.x  = static_cast<unsigned>(blocks);
    l.block.x = kPackedThreads;
    l.stream  = stream;
    if(read_out)
        MIOPEN_CY_LAUNCH((MapPacked<NIn, U, true, F>), l, 0, a, f);
    else
        MIOPEN_CY_LAUNCH((MapPacked<NIn, U, false, F>), l, 0, a, f);
}

/// MapPacked where it applies and `unroll` (the float4s a thread moves per operand: 1, 2 or 4;
/// 0 means MapRows / MapStrided) is not 0, else LaunchMap with the planned launch l.
template <int NIn, class F>
void LaunchMapPackedOr(const MapArgs<NIn>& a, const Launch& l, bool read_out, int unroll, F f)
{
    if(unroll > 0 && PackedMapApplies(a) && a.s.numel / 4 / kPackedThreads < (int64_t{1} << 30))
    {
        if(unroll == 1)
            LaunchMapPackedU<NIn, 1>(a, l.stream, read_out, f);
        else if(unroll == 2)
            LaunchMapPackedU<NIn, 2>(a, l.stream, read_out, f);
        else
            LaunchMapPackedU<NIn, 4>(a, l.stream, read_out, f);
        return;
    }
    LaunchMap(a, l, read_out, f);
}

} // namespace miopen::gpu
