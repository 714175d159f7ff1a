// pool_bwd_2d: the backward of 2-d pooling (depth 1) on tensors whose rows are packed (W stride 1
// in dx and dy) and whose offsets fit in 32 bits: average, average-inclusive, and max with the
// index workspace (max without a workspace stays on the generic kernel, which finds the argmax
// again from x). dx = alpha * pool'(dy) + beta * dx.
// A gather like the generic pool_bwd of pooling.hip, with the same results bit for bit: each dx
// element sums, in (oh, ow) order, what the output windows that cover it send (average: dy times
// the window's reciprocal count, computed the same way; max: dy where the stored index names
// this element, compared as the generic kernel compares it), then blends once. Deterministic,
// no atomics. Only the work split differs:
// Block: 256 threads over a tile of one (n, c) plane, lanes_w threads along w (8, 16 or 32, the
// narrowest that covers the row) each owning 4 consecutive dx elements of a row (a float4 store
// where aligned), 256 / lanes_w rows. The block finds its plane and tile once (the generic kernel
// divides 5 times per element in a grid-stride loop); a thread finds its covering rows once, and
// loads each covering output's dy (and index, and reciprocal count) once for its 4 elements,
// which add it, each in its own (oh, ow) order. For 2x2 and 3x3 windows at strides 1 and 2 the
// window and stride are compile-time constants: the covering range is found with shifts and the
// candidate loops are unrolled. Storage types: template T, dy loaded as fp32, one rounding per dx
// element (a Store4 where aligned to 4 elements).
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kThreadsBwd = 256;
constexpr int kPerThread  = 4; // dx elements a thread, consecutive along w

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
/// Max: Idx is the index type; average: Idx unused.
template <int K, int S, class T, class Idx, bool Max, bool ReadDx>
__global__ void __launch_bounds__(kThreadsBwd)
    PoolBwd2d(Pool2dArgs a, const T* __restrict__ dy, const Idx* __restrict__ index,
              T* __restrict__ dx)
{
    const int lanes = a.lanes_w; // threads along w; kThreadsBwd / lanes rows
    const int tiles = a.tiles_w * a.tiles_h;
    const int plane = static_cast<int>(blockIdx.x) / tiles; // n * C + c
    const int t     = static_cast<int>(blockIdx.x) - plane * tiles;
    const int th    = t / a.tiles_w;
    const int lane  = static_cast<int>(threadIdx.x) % lanes;
    const int h     = th * (kThreadsBwd / lanes) + static_cast<int>(threadIdx.x) / lanes;
    const int wb    = (t - th * a.tiles_w) * (kPerThread * lanes) + kPerThread * lane;
    if(h >= a.in_h || wb >= a.in_w)
        return;
    const int nq = a.in_w - wb < kPerThread ? a.in_w - wb : kPerThread;
    const int n  = plane / a.c;
    const int c  = plane - n * a.c;
    const int wr = K > 0 ? K : a.win_h;
    const int ws = K > 0 ? K : a.win_w;
    const int sh = S > 0 ? S : a.stride_h;
    const int sw = S > 0 ? S : a.stride_w;
    int lo_h, hi_h, lo_w, hi_w, unused;
    Cover<K, S>(h, a.pad_h, a.win_h, a.stride_h, a.out_h, lo_h, hi_h);
    Cover<K, S>(wb, a.pad_w, a.win_w, a.stride_w, a.out_w, lo_w, unused);
    Cover<K, S>(wb + nq - 1, a.pad_w, a.win_w, a.stride_w, a.out_w, unused, hi_w);
    const T* dyb     = dy + n * a.ys_n + c * a.ys_c;
    // Candidates: at most ceil(K / S) rows and ceil((K + kPerThread - 1) / S) columns with
    // constants (fixed trip counts, unrolled at -O3), else the runtime ranges.
    constexpr int kCandH = (K > 0 && S > 0) ? (K + S - 1) / S : 0;
    constexpr int kCandW = (K > 0 && S > 0) ? (K + kPerThread - 1 + S - 1) / S : 0;
    const float full = 1.0f / static_cast<float>(1 * wr * ws);
    float acc[kPerThread];
#pragma unroll
    for(int q = 0; q < kPerThread; ++q)
        acc[q] = 0.0f;
    for(int i = 0; i < (kCandH > 0 ? kCandH : hi_h - lo_h); ++i)
    {
        const int oh = lo_h + i;
        if(kCandH > 0 && oh >= hi_h)
            break;
        const T* dyr     = dyb + oh * a.ys_h;
        const Idx* idxr  = Max ? index + (plane * a.out_h + oh) * a.out_w : nullptr;
        const int h0     = oh * sh - a.pad_h;
        const int kh0    = h0 < 0 ? -h0 : 0;
        const int kh1    = wr < a.in_h - h0 ? wr : a.in_h - h0;
        const float row_inv = Max ? 0.0f : 1.0f / static_cast<float>(1 * (kh1 - kh0));
        for(int j = 0; j < (kCandW > 0 ? kCandW : hi_w - lo_w); ++j)
        {
            const int ow = lo_w + j;
            if(kCandW > 0 && ow >= hi_w)
                break;
            const float g = LoadFloat(dyr + ow);
            const int w0  = ow * sw - a.pad_w;
            if(Max)
            {
                const uint64_t v = idxr[ow];
#pragma unroll
                for(int q = 0; q < kPerThread; ++q)
                {
                    const int w = wb + q;
                    if(q >= nq || w < w0 || w >= w0 + ws)
                        continue;
                    const int code = a.image ? h * a.in_w + w : (h - h0) * ws + (w - w0);
                    if(v == static_cast<uint64_t>(code))
                        acc[q] += g;
                }
            }
            else
            {
                const int kw0 = w0 < 0 ? -w0 : 0;
                const int kw1 = ws < a.in_w - w0 ? ws : a.in_w - w0;
                const float inv =
                    a.inclusive ? full : row_inv * (1.0f / static_cast<float>(kw1 - kw0));
#pragma unroll
                for(int q = 0; q < kPerThread; ++q)
                {
                    const int w = wb + q;
                    if(q >= nq || w < w0 || w >= w0 + ws)
                        continue;
                    acc[q] = PoolAcc(acc[q], g, inv);
                }
            }
        }
    }
    T* out = dx + n * a.xs_n + c * a.xs_c + h * a.xs_h + wb;
    if(nq == kPerThread && (reinterpret_cast<uintptr_t>(out) & (4 * sizeof(T) - 1)) == 0)
    {
        float4 r;
        if(ReadDx)
        {
            const float4 o = Load4(out);
            r.x = PoolBlend(a.alpha, acc[0], a.beta, o.x);
            r.y = PoolBlend(a.alpha, acc[1], a.beta, o.y);
            r.z = PoolBlend(a.alpha, acc[2], a.beta, o.z);
            r.w = PoolBlend(a.alpha, acc[3], a.beta, o.w);
        }
        else
        {
            r.x = a.alpha * acc[0];
            r.y = a.alpha * acc[1];
            r.z = a.alpha * acc[2];
            r.w = a.alpha * acc[3];
        }
        Store4(out, r);
        return;
    }
#pragma unroll
    for(int q = 0; q < kPerThread; ++q)
        if(q < nq)
            StoreFloat(out + q, ReadDx ? PoolBlend(a.alpha, acc[q], a.beta, LoadFloat(out + q))
                                       : a.alpha * acc[q]);
}

template <int K, int S, class T>
void Bwd2dWindow(const Pool2dArgs& a, const Launch& l, const T* dy, const void* index, T* dx)
{
    const bool read = a.beta != 0.0f;
    if(!a.max)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, T, uint8_t, false, true>), l, 0, a, dy, nullptr, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, T, uint8_t, false, false>), l, 0, a, dy, nullptr,
                             dx);
        return;
    }
    auto with = [&](auto tag) {
        using Idx      = decltype(tag);
        const Idx* idx = static_cast<const Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, T, Idx, true, true>), l, 0, a, dy, idx, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd2d<K, S, T, Idx, true, false>), l, 0, a, dy, idx, dx);
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

int PoolBwd2dLanesW(int in_w)
{
    // the narrowest of 8, 16, 32 threads along w whose kPerThread elements each cover the row
    int lanes = 8;
    while(lanes < 32 && lanes * kPerThread < in_w)
        lanes *= 2;
    return lanes;
}
int PoolBwd2dTileW(int lanes) { return kPerThread * lanes; }
int PoolBwd2dTileH(int lanes) { return kThreadsBwd / lanes; }

template <class T>
void LaunchPoolBwd2d(const Pool2dArgs& a, const Launch& l, const T* dy, const void* index, T* dx)
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

template void LaunchPoolBwd2d<float>(const Pool2dArgs&, const Launch&, const float*, const void*,
                                     float*);
template void LaunchPoolBwd2d<Half>(const Pool2dArgs&, const Launch&, const Half*, const void*,
                                    Half*);
template void LaunchPoolBwd2d<BFloat16>(const Pool2dArgs&, const Launch&, const BFloat16*,
                                        const void*, BFloat16*);

} // namespace miopen::gpu
