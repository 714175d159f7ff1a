// pool_bwd_2d: the backward of 2-d pooling (depth 1) on tensors whose rows are packed (W stride 1
// in dx and dy) and whose offsets fit in 32 bits: average, average-inclusive, and max with the
// index workspace (max without a workspace stays on the generic kernel, which finds the argmax
// again from x). dx = alpha * pool'(dy) + beta * dx.
// A gather like the generic pool_bwd of pooling.hip, with the same results bit for bit: each dx
// element sums, in (oh, ow) order, what the output windows that cover it send (average: dy times
// the window's reciprocal count, computed the same way; max: dy where the stored index names
// this element, compared as the generic kernel compares it), then blends once. Deterministic,
// no atomics. Only the work split differs:
// Block: a tile of kTileH x kTileW dx elements of one (n, c) plane, a thread per element,
// adjacent threads on adjacent w. The block finds its plane and tile once (the generic kernel
// divides 5 times per element in a grid-stride loop); for 2x2 and 3x3 windows at strides 1 and 2
// the window and stride are compile-time constants, so the covering range is found with shifts
// and the candidate loop (at most ceil(K / S) outputs a dim) is unrolled.
#include "common/device.hpp"
#include "pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

struct TileBwd
{
    static constexpr int kTileW   = 32;
    static constexpr int kTileH   = 8;
    static constexpr int kThreads = kTileW * kTileH;
    static_assert(kThreads == 256, "the launcher and __launch_bounds__ assume 256 threads");
};

/// Output positions whose window covers input position i: [lo, hi) (as the generic Covering).
template <int K, int S>
__device__ inline void Cover(int i, int pad, int win, int stride, int out, int& lo, int& hi)
{
    const int k   = K > 0 ? K : win;
    const int s   = S > 0 ? S : stride;
    const int num = i + pad - k + 1;
    lo            = num <= 0 ? 0 : (num + s - 1) / s;
    hi            = (i + pad) / s + 1;
    if(hi > out)
        hi = out;
}

/// K, S > 0: K x K windows at stride S in both dims; 0: any window and stride.
/// Max: T is the index type; average: T unused.
template <int K, int S, class T, bool Max, bool ReadDx>
__global__ void __launch_bounds__(TileBwd::kThreads)
    PoolBwd2d(Pool2dArgs a, const float* __restrict__ dy, const T* __restrict__ index,
              float* __restrict__ dx)
{
    const int tiles = a.tiles_w * a.tiles_h;
    const int plane = static_cast<int>(blockIdx.x) / tiles; // n * C + c
    const int t     = static_cast<int>(blockIdx.x) - plane * tiles;
    const int th    = t / a.tiles_w;
    const int h     = th * TileBwd::kTileH + static_cast<int>(threadIdx.x) / TileBwd::kTileW;
    const int w     = (t - th * a.tiles_w) * TileBwd::kTileW +
                  static_cast<int>(threadIdx.x) % TileBwd::kTileW;
    if(h >= a.in_h || w >= a.in_w)
        return;
    const int n  = plane / a.c;
    const int c  = plane - n * a.c;
    const int wr = K > 0 ? K : a.win_h;
    const int ws = K > 0 ? K : a.win_w;
    const int sh = S > 0 ? S : a.stride_h;
    const int sw = S > 0 ? S : a.stride_w;
    int lo_h, hi_h, lo_w, hi_w;
    Cover<K, S>(h, a.pad_h, a.win_h, a.stride_h, a.out_h, lo_h, hi_h);
    Cover<K, S>(w, a.pad_w, a.win_w, a.stride_w, a.out_w, lo_w, hi_w);
    const float* dyb = dy + n * a.ys_n + c * a.ys_c;
    // Candidates a dim: at most ceil(K / S) with constants (unrolled), else hi - lo.
    constexpr int kCand = (K > 0 && S > 0) ? (K + S - 1) / S : 0;
    const int nh        = kCand > 0 ? kCand : hi_h - lo_h;
    const int nw        = kCand > 0 ? kCand : hi_w - lo_w;
    const float full    = 1.0f / static_cast<float>(1 * wr * ws);
    const int64_t image_code = static_cast<int64_t>(h) * a.in_w + w;
    float acc = 0.0f;
#pragma unroll
    for(int i = 0; i < (kCand > 0 ? kCand : nh); ++i)
    {
        const int oh = lo_h + i;
        if(kCand > 0 && oh >= hi_h)
            break;
        const float* dyr = dyb + oh * a.ys_h;
        const int h0     = oh * sh - a.pad_h;
        // the window's in-bounds rows (average), its row offset in the window (max)
        const int kh0 = h0 < 0 ? -h0 : 0;
        const int kh1 = wr < a.in_h - h0 ? wr : a.in_h - h0;
#pragma unroll
        for(int j = 0; j < (kCand > 0 ? kCand : nw); ++j)
        {
            const int ow = lo_w + j;
            if(kCand > 0 && ow >= hi_w)
                break;
            const float g = dyr[ow];
            const int w0  = ow * sw - a.pad_w;
            if(Max)
            {
                const uint64_t v =
                    index[(static_cast<int64_t>(plane) * a.out_h + oh) * a.out_w + ow];
                int64_t code = image_code;
                if(!a.image)
                    code = (static_cast<int64_t>(0) * wr + (h - h0)) * ws + (w - w0);
                if(v == static_cast<uint64_t>(code))
                    acc += g;
            }
            else
            {
                const int kw0 = w0 < 0 ? -w0 : 0;
                const int kw1 = ws < a.in_w - w0 ? ws : a.in_w - w0;
                const float inv =
                    a.inclusive ? full
                                : (1.0f / static_cast<float>(1 * (kh1 - kh0))) *
                                      (1.0f / static_cast<float>(kw1 - kw0));
                acc += g * inv;
            }
        }
    }
    float* out = dx + n * a.xs_n + c * a.xs_c + h * a.xs_h + w;
    *out       = ReadDx ? a.alpha * acc + a.beta * *out : a.alpha * acc;
}

template <int K, int S>
void Bwd2dWindow(const Pool2dArgs& a, const Launch& l, const float* dy, const void* index,
                 float* dx)
{
    const bool read = a.beta != 0.0f;
    if(!a.max)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, uint8_t, false, true>), l, 0, a, dy, nullptr, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, uint8_t, false, false>), l, 0, a, dy, nullptr, dx);
        return;
    }
    auto with = [&](auto tag) {
        using T      = decltype(tag);
        const T* idx = static_cast<const T*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, T, true, true>), l, 0, a, dy, idx, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, T, true, false>), l, 0, a, dy, idx, dx);
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

int PoolBwd2dTileW() { return TileBwd::kTileW; }
int PoolBwd2dTileH() { return TileBwd::kTileH; }

void LaunchPoolBwd2d(const Pool2dArgs& a, const Launch& l, const float* dy, const void* index,
                     float* dx)
{
    const bool square = a.win_h == a.win_w && a.stride_h == a.stride_w;
    if(square && a.win_h == 3 && a.stride_h == 2)
        Bwd2dWindow<3, 2>(a, l, dy, index, dx);
    else if(square && a.win_h == 2 && a.stride_h == 2)
        Bwd2dWindow<2, 2>(a, l, dy, index, dx);
    else if(square && a.win_h == 3 && a.stride_h == 1)
        Bwd2dWindow<3, 1>(a, l, dy, index, dx);
    else
        Bwd2dWindow<0, 0>(a, l, dy, index, dx);
}

} // namespace miopen::gpu
