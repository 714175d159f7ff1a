// The packed element-wise kernel: every operand one contiguous run of `numel` elements (a strided
// space that Collapse merged to one dim of unit strides) starting 16-byte aligned. A thread moves
// 16 bytes of the data type per operand (one float4 of fp32, measured fastest: 0.90-1.00 of copy
// on the H200, CHANGELOG.md, opsa; 2 and 4 a thread were slower and are gone; 8 halves of
// fp16/bf16), one block 256 such groups; the numel % W tail goes to the last block. No row
// offsets, no broadcast or stride checks in the loop: fewer registers than MapRows
// (elementwise.hpp), so more warps and bytes in flight. The functor is MapRows': `float
// operator()(const float* v) const`, alpha folded in; the blend is the same expression as
// MapRows' (f(v) + beta * out), rounded once into T.
#pragma once

#include "kernels/common/device.hpp"
#include "kernels/common/elementwise.hpp"

namespace miopen::gpu {

constexpr int kPackedThreads = 256;

/// Whether a map over `a` with these operands can take MapPacked.
template <int NIn, class T, int NData>
inline bool PackedMapApplies(const MapArgs<NIn, T, NData>& a)
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

template <int NIn, class T, int NData, bool ReadOut, class F>
__global__ void __launch_bounds__(kPackedThreads) MapPacked(MapArgs<NIn, T, NData> a, F f)
{
    constexpr int NI = NIn > 0 ? NIn : 1;
    constexpr int W  = kVecOf<T>;
    const int64_t nq = a.s.numel / W;
    const int64_t q  = int64_t{blockIdx.x} * kPackedThreads + threadIdx.x;
    if(q < nq)
    {
        float v[NI][W];
        float o[W];
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            LoadInVec<T, NData>(k, a.in[k], q * W, v[k]);
        if(ReadOut)
            LoadVec<T, W>(a.out + q * W, o);
        float r[W];
        MapVec<NIn, ReadOut, W>(f, v, o, a.beta, r);
        StoreVec<T, W>(a.out + q * W, r);
    }
    if(blockIdx.x == gridDim.x - 1)
    {
        const int64_t i = nq * W + threadIdx.x;
        if(i < a.s.numel)
        {
            float x[NI];
#pragma unroll
            for(int k = 0; k < NIn; ++k)
                x[k] = LoadIn<T, NData>(k, a.in[k], i);
            BlendStore<ReadOut>(a.out + i, f(x), a.beta);
        }
    }
}

/// MapPacked where it applies, else LaunchMap with the planned launch l.
template <int NIn, class T, int NData, class F>
void LaunchMapPackedOr(const MapArgs<NIn, T, NData>& a, const Launch& l, bool read_out, F f)
{
    constexpr int W = kVecOf<T>;
    if(PackedMapApplies(a) && a.s.numel / W / kPackedThreads < (int64_t{1} << 30))
    {
        const int64_t nq = a.s.numel / W;
        Launch p;
        p.grid.x  = static_cast<unsigned>(nq > 0 ? (nq + kPackedThreads - 1) / kPackedThreads : 1);
        p.block.x = kPackedThreads;
        p.stream  = l.stream;
        if(read_out)
            MIOPEN_CY_LAUNCH((MapPacked<NIn, T, NData, true, F>), p, 0, a, f);
        else
            MIOPEN_CY_LAUNCH((MapPacked<NIn, T, NData, false, F>), p, 0, a, f);
        return;
    }
    LaunchMap(a, l, read_out, f);
}

} // namespace miopen::gpu
