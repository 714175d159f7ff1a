// pool_fwd_2d_shfl: the 2-d pooling forward for K x K windows (K = 2, 3) at stride 2 along w with
// w padding P (0 or 1), max (with or without the index workspace), average and average-inclusive,
// on tensors whose x rows start 16-byte aligned. Same results, bit for bit, as the generic
// pool_fwd of pooling.hip and pool_fwd_2d (same scan order, same first strict maximum with NaN
// largest, same sums in (kh, kw) order, same scales, the blend of pool_math.hpp).
//
// Why: the one-thread-per-output kernel reads each input up to 3 times through L1 with stride-2
// warp accesses (9 loads of 2 cache lines each per 32 outputs), so L1 traffic, not DRAM, bounds
// it. Here a thread owns 4 consecutive input columns of a row (one 16-byte load; a warp reads
// whole cache lines) and the 2 outputs whose windows start in them; the one column a window
// needs beyond them (left for P = 1, right for K = 3 and P = 0) comes from the neighbouring lane
// by a shuffle (the first / last lane of a row chunk loads it itself).
// Block: 256 threads, lanes_w threads along w (8, 16 or 32: the narrowest whose 2 * lanes_w
// outputs cover the row) times 256 / lanes_w output rows of one (n, c) plane. Every thread of a
// block reaches the shuffles (no early return); only the writes are guarded.
// Variant Prefetch (MIOPEN_CY_POOL_KERNEL=prefetch, an experiment not yet timed): the default
// issues each row's load and then its shuffle, so a thread waits for one row at a time (seen in
// the PTX: load, shfl, edge load, next row); Prefetch issues all K rows' loads (and the edge
// lanes' extra loads) first and shuffles after, and takes the average's 1 / count from
// constants (1, 1/2, 1/3: the values the division gives). Same bits either way.
#include "kernels/common/device.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kThreadsShfl = 256;

__device__ inline bool GreaterShfl(float a, float b) { return a > b || (a != a && b == b); }

/// v of the lane `delta` below / above this one within groups of `width` lanes (a power of two
/// up to 32, dividing the warp); lanes whose source lies outside their group get their own v.
__device__ inline float ShflUp(float v, int delta, int width)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    return __shfl_up_sync(0xffffffffu, v, delta, width);
#else
    return __shfl_up(v, delta, width);
#endif
}
__device__ inline float ShflDown(float v, int delta, int width)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    return __shfl_down_sync(0xffffffffu, v, delta, width);
#else
    return __shfl_down(v, delta, width);
#endif
}

/// 1 / k for the in-bounds count k of a window row or column, 1 <= k <= K <= 3, without a
/// division: the constants are the correctly rounded quotients, as the division computes them.
__device__ inline float InvCount(int k) { return k == 3 ? 1.0f / 3.0f : k == 2 ? 0.5f : 1.0f; }

/// K x K windows, stride 2 and padding P along w; stride and padding along h any.
template <int K, int P, bool Prefetch, class T, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(kThreadsShfl)
    PoolFwd2dShfl(Pool2dArgs a, const float* __restrict__ x, float* __restrict__ y, T* index)
{
    const int lanes = a.lanes_w;
    const int tiles = a.tiles_w * a.tiles_h;
    const int plane = static_cast<int>(blockIdx.x) / tiles; // n * C + c
    const int t     = static_cast<int>(blockIdx.x) - plane * tiles;
    const int th    = t / a.tiles_w;
    const int lane  = static_cast<int>(threadIdx.x) % lanes;
    const int oh    = th * (kThreadsShfl / lanes) + static_cast<int>(threadIdx.x) / lanes;
    const int cb    = ((t - th * a.tiles_w) * lanes + lane) * 4; // first owned input column
    const int n     = plane / a.c;
    const int c     = plane - n * a.c;
    const float* xb = x + n * a.xs_n + c * a.xs_c;
    const int h0    = oh * a.stride_h - a.pad_h;
    const int kh0   = h0 < 0 ? -h0 : 0;
    const int kh1   = K < a.in_h - h0 ? K : a.in_h - h0;
    const bool row_ok = oh < a.out_h;
    // r[i][j]: input column cb - 1 + j of window row i (0 where not loaded: never used).
    float r[K][6];
    if(Prefetch)
    {
        float4 q[K];
        float edge[K];
#pragma unroll
        for(int i = 0; i < K; ++i)
        {
            q[i]             = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            edge[i]          = 0.0f;
            const bool load  = row_ok && i >= kh0 && i < kh1;
            const float* row = xb + (h0 + i) * a.xs_h;
            if(load && cb + 3 < a.in_w)
                q[i] = *reinterpret_cast<const float4*>(row + cb);
            else if(load && cb < a.in_w)
            {
                q[i].x = row[cb];
                q[i].y = cb + 1 < a.in_w ? row[cb + 1] : 0.0f;
                q[i].z = cb + 2 < a.in_w ? row[cb + 2] : 0.0f;
            }
            if(P == 1 && lane == 0 && load && cb >= 1 && cb - 1 < a.in_w)
                edge[i] = row[cb - 1];
            if(K == 3 && P == 0 && lane == lanes - 1 && load && cb + 4 < a.in_w)
                edge[i] = row[cb + 4];
        }
#pragma unroll
        for(int i = 0; i < K; ++i)
        {
            float left = 0.0f, right = 0.0f;
            if(P == 1)
            {
                left = ShflUp(q[i].w, 1, lanes);
                if(lane == 0)
                    left = edge[i];
            }
            if(K == 3 && P == 0)
            {
                right = ShflDown(q[i].x, 1, lanes);
                if(lane == lanes - 1)
                    right = edge[i];
            }
            r[i][0] = left;
            r[i][1] = q[i].x;
            r[i][2] = q[i].y;
            r[i][3] = q[i].z;
            r[i][4] = q[i].w;
            r[i][5] = right;
        }
    }
    else
    {
#pragma unroll
        for(int i = 0; i < K; ++i)
        {
            float4 q = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            float left = 0.0f, right = 0.0f;
            const bool load = row_ok && i >= kh0 && i < kh1;
            const float* row = xb + (h0 + i) * a.xs_h;
            if(load)
            {
                if(cb + 3 < a.in_w)
                    q = *reinterpret_cast<const float4*>(row + cb);
                else if(cb < a.in_w)
                {
                    q.x = row[cb];
                    q.y = cb + 1 < a.in_w ? row[cb + 1] : 0.0f;
                    q.z = cb + 2 < a.in_w ? row[cb + 2] : 0.0f;
                }
            }
            if(P == 1)
            {
                left = ShflUp(q.w, 1, lanes);
                if(lane == 0)
                    left = load && cb >= 1 && cb - 1 < a.in_w ? row[cb - 1] : 0.0f;
            }
            if(K == 3 && P == 0)
            {
                right = ShflDown(q.x, 1, lanes);
                if(lane == lanes - 1)
                    right = load && cb + 4 < a.in_w ? row[cb + 4] : 0.0f;
            }
            r[i][0] = left;
            r[i][1] = q.x;
            r[i][2] = q.y;
            r[i][3] = q.z;
            r[i][4] = q.w;
            r[i][5] = right;
        }
    }
    if(!row_ok)
        return;
    float res[2];
    bool valid[2];
#pragma unroll
    for(int e = 0; e < 2; ++e)
    {
        const int ow  = cb / 2 + e;
        valid[e]      = ow < a.out_w;
        const int w0  = ow * 2 - P;
        const int kw0 = w0 < 0 ? -w0 : 0;
        const int kw1 = K < a.in_w - w0 ? K : a.in_w - w0;
        constexpr int j0 = 1 - P; // r column of window column 0 for e == 0
        if(Max)
        {
            // the scan of PoolFwd2d: start at the first in-bounds element, first strict max
            int bh = kh0, bw = kw0;
            float m = r[0][j0 + 2 * e];
#pragma unroll
            for(int i = 0; i < K; ++i)
#pragma unroll
                for(int s = 0; s < K; ++s)
                    if(i == kh0 && s == kw0)
                        m = r[i][j0 + 2 * e + s];
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
                    const float v = r[i][j0 + 2 * e + s];
                    if(GreaterShfl(v, m))
                    {
                        m  = v;
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
                    static_cast<T>(code);
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
                    sum += r[i][j0 + 2 * e + s];
                }
            }
            const float scale =
                a.inclusive ? 1.0f / static_cast<float>(K * K)
                : Prefetch  ? InvCount(kh1 - kh0) * InvCount(kw1 - kw0)
                            : (1.0f / static_cast<float>(kh1 - kh0)) *
                                 (1.0f / static_cast<float>(kw1 - kw0));
            res[e] = sum * scale;
        }
    }
    float* out = y + n * a.ys_n + c * a.ys_c + oh * a.ys_h + cb / 2;
    if(valid[1] && (reinterpret_cast<uintptr_t>(out) & 7) == 0)
    {
        float2 o;
        if(ReadY)
        {
            const float2 old = *reinterpret_cast<const float2*>(out);
            o.x = PoolBlend(a.alpha, res[0], a.beta, old.x);
            o.y = PoolBlend(a.alpha, res[1], a.beta, old.y);
        }
        else
        {
            o.x = a.alpha * res[0];
            o.y = a.alpha * res[1];
        }
        *reinterpret_cast<float2*>(out) = o;
        return;
    }
#pragma unroll
    for(int e = 0; e < 2; ++e)
        if(valid[e])
            out[e] = ReadY ? PoolBlend(a.alpha, res[e], a.beta, out[e]) : a.alpha * res[e];
}

template <int K, int P, bool Prefetch>
void FwdShflVariant(const Pool2dArgs& a, const Launch& l, const float* x, float* y, void* index)
{
    const bool read = a.beta != 0.0f;
    if(!a.max)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2dShfl<K, P, Prefetch, uint8_t, false, false, true>), l, 0, a, x, y,
                             nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2dShfl<K, P, Prefetch, uint8_t, false, false, false>), l, 0, a, x, y,
                             nullptr);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2dShfl<K, P, Prefetch, uint8_t, true, false, true>), l, 0, a, x, y,
                             nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2dShfl<K, P, Prefetch, uint8_t, true, false, false>), l, 0, a, x, y,
                             nullptr);
        return;
    }
    auto with = [&](auto tag) {
        using T = decltype(tag);
        T* idx  = static_cast<T*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2dShfl<K, P, Prefetch, T, true, true, true>), l, 0, a, x, y, idx);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2dShfl<K, P, Prefetch, T, true, true, false>), l, 0, a, x, y, idx);
    };
    switch(a.index_type)
    {
    case miopenIndexUint8: return with(uint8_t{});
    case miopenIndexUint16: return with(uint16_t{});
    case miopenIndexUint32: return with(uint32_t{});
    default: return with(uint64_t{});
    }
}

template <int K, int P>
void FwdShfl(const Pool2dArgs& a, const Launch& l, const float* x, float* y, void* index)
{
    if(a.prefetch)
        FwdShflVariant<K, P, true>(a, l, x, y, index);
    else
        FwdShflVariant<K, P, false>(a, l, x, y, index);
}

} // namespace

bool Pool2dShflApplies(const Pool2dArgs& a)
{
    return a.x_vec && a.win_h == a.win_w && (a.win_w == 2 || a.win_w == 3) && a.stride_w == 2 &&
           (a.pad_w == 0 || a.pad_w == 1);
}

int Pool2dShflLanesW(int out_w)
{
    // the narrowest of 8, 16, 32 threads along w whose 2 outputs each cover the row
    int lanes = 8;
    while(lanes < 32 && 2 * lanes < out_w)
        lanes *= 2;
    return lanes;
}

int Pool2dShflTileW(int lanes) { return 2 * lanes; }
int Pool2dShflTileH(int lanes) { return kThreadsShfl / lanes; }

void LaunchPoolFwd2dShfl(const Pool2dArgs& a, const Launch& l, const float* x, float* y,
                         void* index)
{
    if(a.win_w == 3)
    {
        if(a.pad_w == 1)
            FwdShfl<3, 1>(a, l, x, y, index);
        else
            FwdShfl<3, 0>(a, l, x, y, index);
    }
    else
    {
        if(a.pad_w == 1)
            FwdShfl<2, 1>(a, l, x, y, index);
        else
            FwdShfl<2, 0>(a, l, x, y, index);
    }
}

} // namespace miopen::gpu
