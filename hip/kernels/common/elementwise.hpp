// The element-wise engine of every op that maps inputs to an output element by element (tensor
// ops, activation, bias forward, batch-norm apply): out = f(in...) + beta * out over one strided
// index space, any strides, stride 0 broadcasting, for every storage type (MapArgs<NIn, T, NData>:
// the data operands of type T, any further inputs fp32; arithmetic in fp32, one rounding on store).
//
// Two kernels. MapRows: a block owns `chunk` consecutive elements of one innermost row (the row's
// offsets are computed once per block); when every operand's innermost stride is 1 or 0 and the
// rows are 16-byte aligned it moves 16 bytes of T a thread per access (W = kVecOf<T>: 4 fp32 or
// 8 fp16/bf16), kMapUnroll * 4 / W of them in flight before the first store (the packed NCHW fast
// path, and per-channel broadcasts such as a bias or batch-norm coefficients). MapStrided: one
// element per thread, offsets from the full index, for short rows.
// The functor F gives the value from the inputs (alpha folded in): `float operator()(const float*
// v) const` with v[k] the value of input k.
#pragma once

#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {

static_assert(kMapChunk == int64_t{kMapThreads} * 4 * kMapUnroll, "a block's chunk is its float4s");

/// Vector groups of W elements a thread keeps in flight in MapRows: the same 16 elements a thread
/// whatever the type (4 float4s, or 2 groups of 8 halves), so a block's chunk is kMapChunk.
template <int W>
constexpr int kMapUnrollOf = kMapUnroll * 4 / W;

/// Operand k's element i as fp32: of type T for k < NData, fp32 beyond.
template <class T, int NData>
__device__ inline float LoadIn(int k, const void* p, int64_t i)
{
    if(k < NData)
        return LoadFloat(static_cast<const T*>(p) + i);
    return static_cast<const float*>(p)[i];
}

/// Operand k's W elements starting at element i (16-byte aligned) as fp32.
template <class T, int NData, int W>
__device__ inline void LoadInVec(int k, const void* p, int64_t i, float (&v)[W])
{
    if(k < NData)
        LoadVec<T, W>(static_cast<const T*>(p) + i, v);
    else
        LoadVec<float, W>(static_cast<const float*>(p) + i, v);
}

/// out = v + beta * out in fp32, rounded once into T; out is not read when ReadOut is false
/// (beta == 0: NaNs in an uninitialised output must not leak).
template <bool ReadOut, class T>
__device__ inline void BlendStore(T* out, float v, float beta)
{
    StoreFloat(out, ReadOut ? v + beta * LoadFloat(out) : v);
}

/// One vector group of a map: f applied lane by lane to the NIn operands' W values v, plus
/// beta * o when ReadOut (the blend f(v) + beta * out). Shared by MapRows and MapPacked
/// (packed_map.hpp), so both round alike.
template <int NIn, bool ReadOut, int W, class F>
__device__ inline void MapVec(const F& f, const float (*v)[W], const float (&o)[W], float beta,
                              float (&r)[W])
{
#pragma unroll
    for(int j = 0; j < W; ++j)
    {
        float x[NIn > 0 ? NIn : 1];
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            x[k] = v[k][j];
        r[j] = f(x);
        if(ReadOut)
            r[j] += beta * o[j];
    }
}

template <int NIn, class T, int NData, bool ReadOut, class F>
__global__ void __launch_bounds__(kMapThreads) MapRows(MapArgs<NIn, T, NData> a, F f)
{
    constexpr int N  = NIn + 1;
    constexpr int NI = NIn > 0 ? NIn : 1;
    constexpr int W  = kVecOf<T>;
    constexpr int U  = kMapUnrollOf<W>;
    const int inner   = a.s.ndim - 1;
    const int64_t bid = blockIdx.x;
    const int64_t row = bid / a.chunks_per_row;
    const int64_t c0  = (bid - row * a.chunks_per_row) * a.chunk;
    const int64_t len = a.s.lens[inner];
    const int64_t n   = (c0 + a.chunk < len ? c0 + a.chunk : len) - c0;

    int64_t off[N];
    RowOffsets(a.s, row, off);
    const void* in[NI];
    int64_t st[N];
    bool vec = true;
#pragma unroll
    for(int k = 0; k < N; ++k)
    {
        st[k]            = a.s.strides[k][inner];
        const int64_t at = off[k] + c0 * st[k];
        const char* p    = k < NIn ? static_cast<const char*>(a.in[k]) +
                                      at * (k < NData ? int64_t{sizeof(T)} : int64_t{4})
                                   : reinterpret_cast<const char*>(a.out + at);
        if(k < NIn)
            in[k] = p;
        vec = vec && (st[k] == 0 || (st[k] == 1 && (reinterpret_cast<uintptr_t>(p) & 15) == 0));
    }
    T* out = a.out + off[NIn] + c0 * st[NIn];
    const int tid      = threadIdx.x;
    const int nthreads = blockDim.x;

    if(vec)
    {
        const int64_t nq = n / W;
        for(int64_t q0 = 0; q0 < nq; q0 += int64_t{nthreads} * U)
        {
            float v[U][NI][W];
            float o[U][W];
#pragma unroll
            for(int u = 0; u < U; ++u)
            {
                const int64_t q = q0 + u * nthreads + tid;
                if(q >= nq)
                    continue;
#pragma unroll
                for(int k = 0; k < NIn; ++k)
                {
                    if(st[k] == 1)
                        LoadInVec<T, NData>(k, in[k], q * W, v[u][k]);
                    else
                    {
                        const float b = LoadIn<T, NData>(k, in[k], 0);
#pragma unroll
                        for(int j = 0; j < W; ++j)
                            v[u][k][j] = b;
                    }
                }
                if(ReadOut)
                    LoadVec<T, W>(out + q * W, o[u]);
            }
#pragma unroll
            for(int u = 0; u < U; ++u)
            {
                const int64_t q = q0 + u * nthreads + tid;
                if(q >= nq)
                    continue;
                float r[W];
                MapVec<NIn, ReadOut, W>(f, v[u], o[u], a.beta, r);
                StoreVec<T, W>(out + q * W, r);
            }
        }
        for(int64_t i = nq * W + tid; i < n; i += nthreads)
        {
            float x[NI];
#pragma unroll
            for(int k = 0; k < NIn; ++k)
                x[k] = LoadIn<T, NData>(k, in[k], st[k] == 0 ? 0 : i);
            BlendStore<ReadOut>(out + i, f(x), a.beta);
        }
        return;
    }
    for(int64_t i = tid; i < n; i += nthreads)
    {
        float x[NI];
#pragma unroll
        for(int k = 0; k < NIn; ++k)
            x[k] = LoadIn<T, NData>(k, in[k], i * st[k]);
        BlendStore<ReadOut>(out + i * st[NIn], f(x), a.beta);
    }
}

template <int NIn, class T, int NData, bool ReadOut, class F>
__global__ void __launch_bounds__(kMapThreads) MapStrided(MapArgs<NIn, T, NData> a, F f)
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
            x[k] = LoadIn<T, NData>(k, a.in[k], off[k]);
        BlendStore<ReadOut>(a.out + off[NIn], f(x), a.beta);
    }
}

/// Launches the right kernel for `a` (rows when the launcher set chunks_per_row) with functor f;
/// read_out: beta != 0.
template <int NIn, class T, int NData, class F>
void LaunchMap(const MapArgs<NIn, T, NData>& a, const Launch& l, bool read_out, F f)
{
    if(a.chunks_per_row > 0)
    {
        if(read_out)
            MIOPEN_CY_LAUNCH((MapRows<NIn, T, NData, true, F>), l, 0, a, f);
        else
            MIOPEN_CY_LAUNCH((MapRows<NIn, T, NData, false, F>), l, 0, a, f);
    }
    else
    {
        if(read_out)
            MIOPEN_CY_LAUNCH((MapStrided<NIn, T, NData, true, F>), l, 0, a, f);
        else
            MIOPEN_CY_LAUNCH((MapStrided<NIn, T, NData, false, F>), l, 0, a, f);
    }
}

} // namespace miopen::gpu
