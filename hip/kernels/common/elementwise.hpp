// The element-wise engine of every op that maps inputs to an output element by element (tensor
// ops, activation, bias forward, batch-norm apply): out = f(in...) + beta * out over one strided
// index space, any strides, stride 0 broadcasting.
//
// Two kernels. MapRows: a block owns `chunk` consecutive elements of one innermost row (the row's
// offsets are computed once per block); when every operand's innermost stride is 1 or 0 and the
// rows are 16-byte aligned it moves float4s, Unroll of them per thread in flight before the first
// store (the packed NCHW fast path, and per-channel broadcasts such as a bias or batch-norm
// coefficients). MapStrided: one element per thread, offsets from the full index, for short rows.
// The functor F gives the value from the inputs (alpha folded in): `float operator()(const float*
// v) const` with v[k] the value of input k.
#pragma once

#include "kernels/common/device.hpp"

namespace miopen::gpu {

static_assert(kMapChunk == int64_t{kMapThreads} * 4 * kMapUnroll, "a block's chunk is its float4s");

/// One float4 of a map: f applied lane by lane to the NIn operands' float4s v, plus beta * o when
/// ReadOut (the blend f(v) + beta * out). Shared by MapRows and MapPacked (packed_map.hpp), so
/// both round alike.
template <int NIn, bool ReadOut, class F>
__device__ inline float4 MapFloat4(const F& f, const float4* v, const float4& o, float beta)
{
    float x[4][NIn > 0 ? NIn : 1];
#pragma unroll
    for(int k = 0; k < NIn; ++k)
    {
        x[0][k] = v[k].x;
        x[1][k] = v[k].y;
        x[2][k] = v[k].z;
        x[3][k] = v[k].w;
    }
    float4 r;
    r.x = f(x[0]);
    r.y = f(x[1]);
    r.z = f(x[2]);
    r.w = f(x[3]);
    if(ReadOut)
    {
        r.x += beta * o.x;
        r.y += beta * o.y;
        r.z += beta * o.z;
        r.w += beta * o.w;
    }
    return r;
}

template <int NIn, bool ReadOut, class F>
__global__ void __launch_bounds__(kMapThreads) MapRows(MapArgs<NIn> a, F f)
{
    constexpr int N = NIn + 1;
    const int inner   = a.s.ndim - 1;
    const int64_t bid = blockIdx.x;
    const int64_t row = bid / a.chunks_per_row;
    const int64_t c0  = (bid - row * a.chunks_per_row) * a.chunk;
    const int64_t len = a.s.lens[inner];
    const int64_t n   = (c0 + a.chunk < len ? c0 + a.chunk : len) - c0;

    int64_t off[N];
    RowOffsets(a.s, row, off);
    const float* in[NIn > 0 ? NIn : 1];
    int64_t st[N];
    bool vec = true;
#pragma unroll
    for(int k = 0; k < N; ++k)
    {
        st[k] = a.s.strides[k][inner];
        const float* base = k < NIn ? a.in[k] : a.out;
        const float* p    = base + off[k] + c0 * st[k];
        if(k < NIn)
            in[k] = p;
        vec = vec && (st[k] == 0 || (st[k] == 1 && (reinterpret_cast<uintptr_t>(p) & 15) == 0));
    }
    float* out = a.out + off[NIn] + c0 * st[NIn];
    const int tid = threadIdx.x;
    const int nthreads = blockDim.x;

    if(vec)
    {
        const int64_t nq = n / 4;
        for(int64_t q0 = 0; q0 < nq; q0 += int64_t{nthreads} * kMapUnroll)
        {
            float4 v[kMapUnroll][NIn > 0 ? NIn : 1];
            float4 o[kMapUnroll];
#pragma unroll
            for(int u = 0; u < kMapUnroll; ++u)
            {
                const int64_t q = q0 + u * nthreads + tid;
                if(q >= nq)
                    continue;
#pragma unroll
                for(int k = 0; k < NIn; ++k)
                {
                    if(st[k] == 1)
                        v[u][k] = reinterpret_cast<const float4*>(in[k])[q];
                    else
                    {
                        const float b = in[k][0];
                        v[u][k]       = make_float4(b, b, b, b);
                    }
                }
                if(ReadOut)
                    o[u] = reinterpret_cast<const float4*>(out)[q];
            }
#pragma unroll
            for(int u = 0; u < kMapUnroll; ++u)
            {
                const int64_t q = q0 + u * nthreads + tid;
                if(q >= nq)
                    continue;
                reinterpret_cast<float4*>(out)[q] = MapFloat4<NIn, ReadOut>(f, v[u], o[u], a.beta);
            }
        }
        for(int64_t i = nq * 4 + tid; i < n; i += nthreads)
        {
            float x[NIn > 0 ? NIn : 1];
#pragma unroll
            for(int k = 0; k < NIn; ++k)
                x[k] = in[k][st[k] == 0 ? 0 : i];
            out[i] = Blend<ReadOut>(f(x), a.beta, out + i);
        }
        return;
    }
    for(int64_t i = tid; i < n; i += nthreads)
    {
        float x[NIn > 0 ? NIn : 1];
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            x[k] = in[k][i * st[k]];
        float* o = out + i * st[NIn];
        *o       = Blend<ReadOut>(f(x), a.beta, o);
    }
}

template <int NIn, bool ReadOut, class F>
__global__ void __launch_bounds__(kMapThreads) MapStrided(MapArgs<NIn> a, F f)
{
    constexpr int N = NIn + 1;
    const int64_t step = int64_t{gridDim.x} * blockDim.x;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.s.numel; i += step)
    {
        int64_t off[N];
        Offsets(a.s, i, off);
        float x[NIn > 0 ? NIn : 1];
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            x[k] = a.in[k][off[k]];
        float* o = a.out + off[NIn];
        *o       = Blend<ReadOut>(f(x), a.beta, o);
    }
}

/// Launches the right kernel for `a` (rows when the launcher set chunks_per_row) with functor f;
/// read_out: beta != 0.
template <int NIn, class F>
void LaunchMap(const MapArgs<NIn>& a, const Launch& l, bool read_out, F f)
{
    if(a.chunks_per_row > 0)
    {
        if(read_out)
            MIOPEN_CY_LAUNCH((MapRows<NIn, true, F>), l, 0, a, f);
        else
            MIOPEN_CY_LAUNCH((MapRows<NIn, false, F>), l, 0, a, f);
    }
    else
    {
        if(read_out)
            MIOPEN_CY_LAUNCH((MapStrided<NIn, true, F>), l, 0, a, f);
        else
            MIOPEN_CY_LAUNCH((MapStrided<NIn, false, F>), l, 0, a, f);
    }
}

} // namespace miopen::gpu
