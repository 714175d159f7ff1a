// pool_fwd_2d: the forward of 2-d pooling (depth 1) on tensors whose rows are packed (W stride 1)
// and whose offsets fit in 32 bits: max (with or without the index workspace), average and
// average-inclusive, y = alpha * pool(x) + beta * y. Same results, bit for bit, as the generic
// pool_fwd of pooling.hip (same scan order, same first strict maximum with NaN largest, same sums
// and scales): only the work split differs.
// Block: a tile of kTileH x kTileW outputs of one (n, c) plane, a thread per output, adjacent
// threads on adjacent ow. The block finds its plane and tile once (the generic kernel divides 5
// times per output); 3x3 and 2x2 windows are unrolled with the clipping of the padded border
// done once per output. Variant "pair" (average 3x3 at stride 2 along w): a thread owns two
// neighbouring outputs and reads its 3 x 5 inputs with a float4 and a scalar a row. Measured on an
// H100, it took average pooling from 0.138 to 0.112 ms but max pooling from 0.150
// to 0.192 ms, so max pooling keeps one thread per output. Storage types: template T, loaded as
// fp32 (the pair's vector load: Load4), one rounding per output.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

struct Tile2d
{
    static constexpr int kTileW = 32;
    static constexpr int kTileH = 8;
    static constexpr int kThreads = kTileW * kTileH;
    static_assert(kThreads == 256, "the launcher and __launch_bounds__ assume 256 threads");
};

__device__ inline bool Greater2(float a, float b) { return a > b || (a != a && b == b); }

/// K > 0: a K x K window (unrolled); K == 0: any window.
template <int K, class T, class Idx, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(Tile2d::kThreads)
    PoolFwd2d(Pool2dArgs a, const T* __restrict__ x, T* __restrict__ y, Idx* index)
{
    const int tiles = a.tiles_w * a.tiles_h;
    const int plane = static_cast<int>(blockIdx.x) / tiles; // n * C + c
    const int t     = static_cast<int>(blockIdx.x) - plane * tiles;
    const int th    = t / a.tiles_w;
    const int oh    = th * Tile2d::kTileH + static_cast<int>(threadIdx.x) / Tile2d::kTileW;
    const int ow    = (t - th * a.tiles_w) * Tile2d::kTileW +
                   static_cast<int>(threadIdx.x) % Tile2d::kTileW;
    if(oh >= a.out_h || ow >= a.out_w)
        return;
    const int n = plane / a.c;
    const int c = plane - n * a.c;
    const T* xb     = x + n * a.xs_n + c * a.xs_c;
    const int wr    = K > 0 ? K : a.win_h;
    const int ws    = K > 0 ? K : a.win_w;
    const int h0    = oh * a.stride_h - a.pad_h;
    const int w0    = ow * a.stride_w - a.pad_w;
    const int kh0   = h0 < 0 ? -h0 : 0;
    const int kw0   = w0 < 0 ? -w0 : 0;
    const int kh1   = wr < a.in_h - h0 ? wr : a.in_h - h0;
    const int kw1   = ws < a.in_w - w0 ? ws : a.in_w - w0;
    // K > 0: fixed trip counts (unrolled at -O3), the clipped border skipped; K == 0: loops
    // over the in-bounds window.
    const int r_begin = K > 0 ? 0 : kh0;
    const int r_end   = K > 0 ? K : kh1;
    const int s_begin = K > 0 ? 0 : kw0;
    const int s_end   = K > 0 ? K : kw1;
    float v;
    if(Max)
    {
        int bh = kh0, bw = kw0;
        float m = LoadFloat(xb + ((h0 + kh0) * a.xs_h + w0 + kw0));
        for(int r = r_begin; r < r_end; ++r)
        {
            if(K > 0 && (r < kh0 || r >= kh1))
                continue;
            const T* row = xb + (h0 + r) * a.xs_h + w0;
            for(int s = s_begin; s < s_end; ++s)
            {
                if(K > 0 && (s < kw0 || s >= kw1))
                    continue;
                const float e = LoadFloat(row + s);
                if(Greater2(e, m))
                {
                    m  = e;
                    bh = r;
                    bw = s;
                }
            }
        }
        v = m;
        if(Index)
        {
            const int64_t code = a.image ? static_cast<int64_t>(h0 + bh) * a.in_w + (w0 + bw)
                                         : static_cast<int64_t>(bh) * ws + bw;
            index[(static_cast<int64_t>(plane) * a.out_h + oh) * a.out_w + ow] =
                static_cast<Idx>(code);
        }
    }
    else
    {
        float sum = 0.0f;
        for(int r = r_begin; r < r_end; ++r)
        {
            if(K > 0 && (r < kh0 || r >= kh1))
                continue;
            const T* row = xb + (h0 + r) * a.xs_h + w0;
            for(int s = s_begin; s < s_end; ++s)
            {
                if(K > 0 && (s < kw0 || s >= kw1))
                    continue;
                sum += LoadFloat(row + s);
            }
        }
        const float scale = a.inclusive ? 1.0f / static_cast<float>(wr * ws)
                                        : (1.0f / static_cast<float>(kh1 - kh0)) *
                                              (1.0f / static_cast<float>(kw1 - kw0));
        v = sum * scale;
    }
    T* out = y + n * a.ys_n + c * a.ys_c + oh * a.ys_h + ow;
    StoreFloat(out, ReadY ? PoolBlend(a.alpha, v, a.beta, LoadFloat(out)) : a.alpha * v);
}

// ---- pair: average over 3x3 windows at stride 2 along w, two neighbouring outputs a thread ---
// Outputs ow = 2j and 2j + 1 read input columns w0 .. w0 + 4 (w0 = 4j - pad_w): one scalar and,
// when the four columns from w0 + 1 are in bounds and 16-byte aligned, one float4 per row (a
// third of the loads of one thread per output). The sums and scales are those of PoolFwd2d: the
// same order over the same in-bounds window.

struct TilePair
{
    static constexpr int kThreadsW = 32;
    static constexpr int kTileW    = 2 * kThreadsW;
    static constexpr int kTileH    = 8;
    static_assert(kThreadsW * kTileH == Tile2d::kThreads, "256 threads");
};

template <bool ReadY, class T>
__device__ inline void Finish3x3(const Pool2dArgs& a, const float (&v)[3][5], int off, int n,
                                 int c, int oh, int ow, int w0, int kh0, int kh1, T* y)
{
    const int kw0 = w0 < 0 ? -w0 : 0;
    const int kw1 = 3 < a.in_w - w0 ? 3 : a.in_w - w0;
    float sum     = 0.0f;
    for(int i = 0; i < 3; ++i)
    {
        if(i < kh0 || i >= kh1)
            continue;
        for(int j = 0; j < 3; ++j)
        {
            if(j < kw0 || j >= kw1)
                continue;
            sum += v[i][j + off];
        }
    }
    const float scale = a.inclusive ? 1.0f / static_cast<float>(3 * 3)
                                    : (1.0f / static_cast<float>(kh1 - kh0)) *
                                          (1.0f / static_cast<float>(kw1 - kw0));
    const float r = sum * scale;
    T* out        = y + n * a.ys_n + c * a.ys_c + oh * a.ys_h + ow;
    StoreFloat(out, ReadY ? PoolBlend(a.alpha, r, a.beta, LoadFloat(out)) : a.alpha * r);
}

template <bool ReadY, class T>
__global__ void __launch_bounds__(Tile2d::kThreads)
    PoolFwd2dPair(Pool2dArgs a, const T* __restrict__ x, T* __restrict__ y)
{
    const int tiles = a.tiles_w * a.tiles_h;
    const int plane = static_cast<int>(blockIdx.x) / tiles;
    const int t     = static_cast<int>(blockIdx.x) - plane * tiles;
    const int th    = t / a.tiles_w;
    const int oh    = th * TilePair::kTileH + static_cast<int>(threadIdx.x) / TilePair::kThreadsW;
    const int ow    = (t - th * a.tiles_w) * TilePair::kTileW +
                   2 * (static_cast<int>(threadIdx.x) % TilePair::kThreadsW);
    if(oh >= a.out_h || ow >= a.out_w)
        return;
    const int n     = plane / a.c;
    const int c     = plane - n * a.c;
    const T* xb     = x + n * a.xs_n + c * a.xs_c;
    const int h0    = oh * a.stride_h - a.pad_h;
    const int w0    = ow * 2 - a.pad_w;
    const int kh0   = h0 < 0 ? -h0 : 0;
    const int kh1   = 3 < a.in_h - h0 ? 3 : a.in_h - h0;
    float v[3][5];
    for(int i = 0; i < 3; ++i)
    {
        for(int j = 0; j < 5; ++j)
            v[i][j] = 0.0f;
        if(i < kh0 || i >= kh1)
            continue;
        const T* row = xb + (h0 + i) * a.xs_h + w0;
        if(w0 >= 0 && w0 + 4 < a.in_w &&
           (reinterpret_cast<uintptr_t>(row + 1) & (4 * sizeof(T) - 1)) == 0)
        {
            const float4 q = Load4(row + 1);
            v[i][0]        = LoadFloat(row);
            v[i][1]        = q.x;
            v[i][2]        = q.y;
            v[i][3]        = q.z;
            v[i][4]        = q.w;
        }
        else
        {
            for(int j = 0; j < 5; ++j)
                if(w0 + j >= 0 && w0 + j < a.in_w)
                    v[i][j] = LoadFloat(row + j);
        }
    }
    Finish3x3<ReadY>(a, v, 0, n, c, oh, ow, w0, kh0, kh1, y);
    if(ow + 1 < a.out_w)
        Finish3x3<ReadY>(a, v, 2, n, c, oh, ow + 1, w0 + 2, kh0, kh1, y);
}

template <class T>
void FwdPair(const Pool2dArgs& a, const Launch& l, const T* x, T* y)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((PoolFwd2dPair<true, T>), l, 0, a, x, y);
    else
        MIOPEN_CY_LAUNCH((PoolFwd2dPair<false, T>), l, 0, a, x, y);
}

template <int K, class T>
void Fwd2dWindow(const Pool2dArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    const bool read = a.beta != 0.0f;
    if(!a.max)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2d<K, T, uint8_t, false, false, true>), l, 0, a, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2d<K, T, uint8_t, false, false, false>), l, 0, a, x, y,
                             nullptr);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2d<K, T, uint8_t, true, false, true>), l, 0, a, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2d<K, T, uint8_t, true, false, false>), l, 0, a, x, y,
                             nullptr);
        return;
    }
    auto with = [&](auto tag) {
        using Idx = decltype(tag);
        Idx* idx  = static_cast<Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd2d<K, T, Idx, true, true, true>), l, 0, a, x, y, idx);
        else
            MIOPEN_CY_LAUNCH((PoolFwd2d<K, T, Idx, true, true, false>), l, 0, a, x, y, idx);
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

bool Pool2dPairApplies(const Pool2dArgs& a)
{
    return !a.max && a.win_h == 3 && a.win_w == 3 && a.stride_w == 2;
}
int Pool2dTileW(const Pool2dArgs& a)
{
    return Pool2dPairApplies(a) ? TilePair::kTileW : Tile2d::kTileW;
}
int Pool2dTileH(const Pool2dArgs& a)
{
    return Pool2dPairApplies(a) ? TilePair::kTileH : Tile2d::kTileH;
}
int Pool2dThreads() { return Tile2d::kThreads; }

template <class T>
void LaunchPoolFwd2d(const Pool2dArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    if(Pool2dPairApplies(a))
        FwdPair(a, l, x, y);
    else if(a.win_h == 3 && a.win_w == 3)
        Fwd2dWindow<3>(a, l, x, y, index);
    else if(a.win_h == 2 && a.win_w == 2)
        Fwd2dWindow<2>(a, l, x, y, index);
    else
        Fwd2dWindow<0>(a, l, x, y, index);
}

template void LaunchPoolFwd2d<float>(const Pool2dArgs&, const Launch&, const float*, float*, void*);
template void LaunchPoolFwd2d<Half>(const Pool2dArgs&, const Launch&, const Half*, Half*, void*);
template void LaunchPoolFwd2d<BFloat16>(const Pool2dArgs&, const Launch&, const BFloat16*,
                                        BFloat16*, void*);

} // namespace miopen::gpu
