// pool_fwd_2d_quad: the 2-d pooling forward for K x K windows (K = 2, 3) at stride 2 along w with
// w padding P (0 or 1), max (with or without the index workspace), average and average-inclusive,
// on tensors whose x rows start 16-byte aligned. Same results, bit for bit, as the generic
// pool_fwd of pooling.hip and pool_fwd_2d: the same scan order (first strict maximum, NaN
// largest, the scan starting at the first in-bounds element), the same sums in (kh, kw) order,
// the same scales, the blend of pool_math.hpp. Only the work split differs.
//
// A thread owns 4 consecutive OUTPUTS of one output row: their windows need input columns
// 8q - P .. 8q + 6 - P + K - 1 of K rows each, i.e. two float4s (columns 8q .. 8q + 7, 16-byte
// aligned since the row is) and at most one scalar (column 8q - 1 for P = 1, 8q + 8 for K = 3
// and P = 0). Every load of every row is issued before the first use (no shuffle, no wait in
// between), so a thread keeps 2 * K float4s in flight, and the 4 outputs leave as one float4
// store where y's row allows it. Threads are numbered flat over (plane, row, quad): no lane
// is idle at the end of a row (out_w = 56: 14 quads a row), and no warp-size assumption.
// The forward wherever it applies (pooling_launch.cpp). H200, x (64, 64, 112, 112), 3x3 s2 p1:
// max 0.086 ms, average 0.068 ms (a shuffle kernel with 2 outputs a thread: 0.132 / 0.119 ms;
// 2 output rows a thread: 0.087 / 0.089 ms; both removed, git history keeps them).
// Storage types: template T; the two vector loads of a row are Load4s (two float4s for fp32, two
// 8-byte loads for fp16/bf16, the row aligned to 4 elements), the store a Store4.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kThreadsQuad = 256;

__device__ inline bool GreaterQuad(float a, float b) { return a > b || (a != a && b == b); }

/// Loads columns 8q - 1 .. 8q + 8 of one x row into v[0..9] (v[j]: column 8q - 1 + j); columns
/// outside 0 .. in_w - 1, and the edge columns this window shape never reads, are left 0.
template <int K, int P, class T>
__device__ __forceinline__ void LoadQuadRow(const T* row, int c8, int in_w, float (&v)[10])
{
#pragma unroll
    for(int j = 0; j < 10; ++j)
        v[j] = 0.0f;
    if(c8 + 7 < in_w)
    {
        const float4 a = Load4(row + c8);
        const float4 b = Load4(row + c8 + 4);
        v[1] = a.x, v[2] = a.y, v[3] = a.z, v[4] = a.w;
        v[5] = b.x, v[6] = b.y, v[7] = b.z, v[8] = b.w;
    }
    else
    {
        if(c8 + 3 < in_w)
        {
            const float4 a = Load4(row + c8);
            v[1] = a.x, v[2] = a.y, v[3] = a.z, v[4] = a.w;
        }
        else
        {
#pragma unroll
            for(int j = 0; j < 3; ++j)
                if(c8 + j < in_w)
                    v[1 + j] = LoadFloat(row + c8 + j);
        }
#pragma unroll
        for(int j = 4; j < 7; ++j)
            if(c8 + j < in_w)
                v[1 + j] = LoadFloat(row + c8 + j);
    }
    if(P == 1 && c8 >= 1)
        v[0] = LoadFloat(row + c8 - 1);
    if(K == 3 && P == 0 && c8 + 8 < in_w)
        v[9] = LoadFloat(row + c8 + 8);
}

/// The window rows of output row oh (all K rows loaded before any is used; rows outside the
/// image, and every row of an output row past out_h, left 0).
template <int K, int P, class T>
__device__ __forceinline__ void LoadQuadRows(const Pool2dArgs& a, const T* xb, int c8, int oh,
                                             float (&v)[K][10], int& h0, int& kh0, int& kh1)
{
    h0            = oh * a.stride_h - a.pad_h;
    kh0           = h0 < 0 ? -h0 : 0;
    kh1           = K < a.in_h - h0 ? K : a.in_h - h0;
    const bool ok = oh < a.out_h;
#pragma unroll
    for(int i = 0; i < K; ++i)
    {
        if(ok && i >= kh0 && i < kh1)
            LoadQuadRow<K, P>(xb + (h0 + i) * a.xs_h, c8, a.in_w, v[i]);
        else
        {
#pragma unroll
            for(int j = 0; j < 10; ++j)
                v[i][j] = 0.0f;
        }
    }
}

/// The 4 outputs of output row oh (nothing where oh >= out_h) from its loaded window rows.
template <int K, int P, class T, class Idx, bool Max, bool Index, bool ReadY>
__device__ __forceinline__ void QuadRowOut(const Pool2dArgs& a, int plane, int n, int c, int qi,
                                           int oh, const float (&v)[K][10], int h0, int kh0,
                                           int kh1, T* __restrict__ y, Idx* index)
{
    const bool row_ok = oh < a.out_h;
    float res[4];
    bool valid[4];
#pragma unroll
    for(int e = 0; e < 4; ++e)
    {
        const int ow  = qi * 4 + e;
        valid[e]      = row_ok && ow < a.out_w;
        const int w0  = ow * 2 - P;
        const int kw0 = w0 < 0 ? -w0 : 0;
        const int kw1 = K < a.in_w - w0 ? K : a.in_w - w0;
        const int j0  = 2 * e + 1 - P; // v column of window column 0
        if(Max)
        {
            // the scan of PoolFwd2d: start at the first in-bounds element, first strict max
            int bh = kh0, bw = kw0;
            float m = 0.0f;
#pragma unroll
            for(int i = 0; i < K; ++i)
#pragma unroll
                for(int s = 0; s < K; ++s)
                    if(i == kh0 && s == kw0)
                        m = v[i][j0 + s];
#pragma unroll
            for(int i = 0; i < K; ++i)
            {
                if(i < kh0 || i >= kh1)
                    continue;
#pragma unroll
                for(int s = 0; s < K; ++s)
                {
                    if(s < kw0 || s >= kw1)
                        continue;
                    const float u = v[i][j0 + s];
                    if(GreaterQuad(u, m))
                    {
                        m  = u;
                        bh = i;
                        bw = s;
                    }
                }
            }
            res[e] = m;
            if(Index && valid[e])
            {
                const int64_t code = a.image ? static_cast<int64_t>(h0 + bh) * a.in_w + (w0 + bw)
                                             : static_cast<int64_t>(bh) * K + bw;
                index[(static_cast<int64_t>(plane) * a.out_h + oh) * a.out_w + ow] =
                    static_cast<Idx>(code);
            }
        }
        else
        {
            float sum = 0.0f;
#pragma unroll
            for(int i = 0; i < K; ++i)
            {
                if(i < kh0 || i >= kh1)
                    continue;
#pragma unroll
                for(int s = 0; s < K; ++s)
                {
                    if(s < kw0 || s >= kw1)
                        continue;
                    sum += v[i][j0 + s];
                }
            }
            const float scale = a.inclusive ? 1.0f / static_cast<float>(K * K)
                                            : (1.0f / static_cast<float>(kh1 - kh0)) *
                                                  (1.0f / static_cast<float>(kw1 - kw0));
            res[e] = sum * scale;
        }
    }
    T* out = y + n * a.ys_n + c * a.ys_c + oh * a.ys_h + qi * 4;
    if(valid[0] && valid[3] && (reinterpret_cast<uintptr_t>(out) & (4 * sizeof(T) - 1)) == 0)
    {
        float4 o;
        if(ReadY)
        {
            const float4 old = Load4(out);
            o.x = PoolBlend(a.alpha, res[0], a.beta, old.x);
            o.y = PoolBlend(a.alpha, res[1], a.beta, old.y);
            o.z = PoolBlend(a.alpha, res[2], a.beta, old.z);
            o.w = PoolBlend(a.alpha, res[3], a.beta, old.w);
        }
        else
        {
            o.x = a.alpha * res[0];
            o.y = a.alpha * res[1];
            o.z = a.alpha * res[2];
            o.w = a.alpha * res[3];
        }
        Store4(out, o);
    }
    else
    {
#pragma unroll
        for(int e = 0; e < 4; ++e)
            if(valid[e])
                StoreFloat(out + e, ReadY ? PoolBlend(a.alpha, res[e], a.beta, LoadFloat(out + e))
                                          : a.alpha * res[e]);
    }
}

template <int K, int P, class T, class Idx, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(kThreadsQuad)
    PoolFwd2dQuad(Pool2dArgs a, int quads, int total, const T* __restrict__ x,
                  T* __restrict__ y, Idx* index)
{
    const int gid = static_cast<int>(blockIdx.x) * kThreadsQuad + static_cast<int>(threadIdx.x);
    if(gid >= total)
        return;
    const int qi    = gid % quads;
    const int t     = gid / quads;
    const int plane = t / a.out_h; // n * C + c
    const int oh    = t - plane * a.out_h;
    const int n     = plane / a.c;
    const int c     = plane - n * a.c;
    const T* xb     = x + n * a.xs_n + c * a.xs_c;
    const int c8    = qi * 8;
    float v[K][10];
    int h0, kh0, kh1;
    LoadQuadRows<K, P>(a, xb, c8, oh, v, h0, kh0, kh1);
    QuadRowOut<K, P, T, Idx, Max, Index, ReadY>(a, plane, n, c, qi, oh, v, h0, kh0, kh1, y, index);
}

template <int K, int P, class T>
void FwdQuad(const Pool2dArgs& a, const Launch& l, int quads, int total, const T* x, T* y,
             void* index)
{
    const bool read = a.beta != 0.0f;
    if(!a.max)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2dQuad<K, P, T, uint8_t, false, false, true>), l, 0, a, quads,
                             total, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2dQuad<K, P, T, uint8_t, false, false, false>), l, 0, a, quads,
                             total, x, y, nullptr);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2dQuad<K, P, T, uint8_t, true, false, true>), l, 0, a, quads,
                             total, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2dQuad<K, P, T, uint8_t, true, false, false>), l, 0, a, quads,
                             total, x, y, nullptr);
        return;
    }
    auto with = [&](auto tag) {
        using Idx = decltype(tag);
        Idx* idx  = static_cast<Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2dQuad<K, P, T, Idx, true, true, true>), l, 0, a, quads, total,
                             x, y, idx);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2dQuad<K, P, T, Idx, true, true, false>), l, 0, a, quads,
                             total, x, y, idx);
    };
    switch(a.index_type)
    {
    case miopenIndexUint8: return with(uint8_t{});
    case miopenIndexUint16: return with(uint16_t{});
    case miopenIndexUint32: return with(uint32_t{});
    default: return with(uint64_t{});
    }
}

} // namespace

int Pool2dQuadThreads() { return kThreadsQuad; }

bool Pool2dQuadApplies(const Pool2dArgs& a)
{
    return a.x_vec && a.win_h == a.win_w && (a.win_w == 2 || a.win_w == 3) && a.stride_w == 2 &&
           (a.pad_w == 0 || a.pad_w == 1);
}

int64_t Pool2dQuadTotal(const Pool2dArgs& a)
{
    const int64_t quads = (int64_t{a.out_w} + 3) / 4;
    return quads * a.out_h * a.n * a.c;
}

template <class T>
void LaunchPoolFwd2dQuad(const Pool2dArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    const int quads = (a.out_w + 3) / 4;
    const int total = static_cast<int>(Pool2dQuadTotal(a));
    if(a.win_w == 3)
    {
        if(a.pad_w == 1)
            FwdQuad<3, 1>(a, l, quads, total, x, y, index);
        else
            FwdQuad<3, 0>(a, l, quads, total, x, y, index);
    }
    else
    {
        if(a.pad_w == 1)
            FwdQuad<2, 1>(a, l, quads, total, x, y, index);
        else
            FwdQuad<2, 0>(a, l, quads, total, x, y, index);
    }
}

template void LaunchPoolFwd2dQuad<float>(const Pool2dArgs&, const Launch&, const float*, float*,
                                         void*);
template void LaunchPoolFwd2dQuad<Half>(const Pool2dArgs&, const Launch&, const Half*, Half*,
                                        void*);
template void LaunchPoolFwd2dQuad<BFloat16>(const Pool2dArgs&, const Launch&, const BFloat16*,
                                            BFloat16*, void*);

} // namespace miopen::gpu
