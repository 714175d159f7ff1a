// pool_fwd / pool_bwd: max, average (exclusive of padding) and average-inclusive pooling over 3
// spatial dims (2-d pooling has depth 1), NCDHW with any strides, MIOpen's index workspace.
// Semantics are the CPU kernels' (cpu/pooling_*.cpp):
//  - max scans the window in (d, h, w) order and keeps the first strict maximum, NaN counting as
//    larger than every number; indices are packed in y's logical order, mask mode storing
//    (kd * R + kh) * S + kw from the unclipped window start, image mode (d * H + h) * W + w;
//  - average divides by the in-bounds count (as 1/rows * 1/cols), inclusive by the window size;
//  - backward gathers: one thread per dx element sums, in output order, what the windows that
//    cover it send (max: only those whose recorded argmax is this element), then blends once.
//    Indices that name no position of the window never match: a garbage workspace gives wrong
//    gradients but never a write out of bounds. Without a workspace the argmax is found again
//    from x by the forward's scan.
// Forward: one thread per output element; adjacent threads take adjacent ow. Storage types:
// template T (float, Half, BFloat16), loaded as fp32, one rounding per output.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

/// NaN is larger than every number.
__device__ inline bool Greater(float a, float b) { return a > b || (a != a && b == b); }

/// The problem with its counts and strides in the index type I: int32_t when every count and
/// offset fits (32-bit division is several times cheaper than 64-bit), else int64_t.
template <class I>
struct Geo
{
    I n, c, in[3], out[3], window[3], pad[3], stride[3];
    I xs[5], ys[5], x2s[5];
    __device__ explicit Geo(const PoolArgs& a)
        : n(static_cast<I>(a.n)), c(static_cast<I>(a.c))
    {
#pragma unroll
        for(int j = 0; j < 3; ++j)
        {
            in[j]     = static_cast<I>(a.in[j]);
            out[j]    = static_cast<I>(a.out[j]);
            window[j] = static_cast<I>(a.window[j]);
            pad[j]    = static_cast<I>(a.pad[j]);
            stride[j] = static_cast<I>(a.stride[j]);
        }
#pragma unroll
        for(int j = 0; j < 5; ++j)
        {
            xs[j]  = static_cast<I>(a.xs[j]);
            ys[j]  = static_cast<I>(a.ys[j]);
            x2s[j] = static_cast<I>(a.x2s[j]);
        }
    }
};

template <class I>
struct Coord
{
    I n, c, o[3];
};

/// (n, c, d, h, w) of element i of an N x C x S0 x S1 x S2 tensor in logical order.
template <class I>
__device__ inline Coord<I> Decompose(I i, I c, const I (&s)[3])
{
    Coord<I> r;
    I q    = i / s[2];
    r.o[2] = i - q * s[2];
    i      = q;
    q      = i / s[1];
    r.o[1] = i - q * s[1];
    i      = q;
    q      = i / s[0];
    r.o[0] = i - q * s[0];
    i      = q;
    r.n    = i / c;
    r.c    = i - r.n * c;
    return r;
}

/// The in-bounds window [k0, k1) of output o along each dim and its unclipped start.
template <class I>
struct Window
{
    I start[3], k0[3], k1[3];
};

template <class I>
__device__ inline Window<I> WindowOf(const Geo<I>& a, const I (&o)[3])
{
    Window<I> w;
#pragma unroll
    for(int j = 0; j < 3; ++j)
    {
        w.start[j] = o[j] * a.stride[j] - a.pad[j];
        w.k0[j]    = w.start[j] < 0 ? -w.start[j] : 0;
        const I e  = a.in[j] - w.start[j];
        w.k1[j]    = a.window[j] < e ? a.window[j] : e;
    }
    return w;
}

/// The max of the window and its (kd, kh, kw), by the CPU's scan.
template <class I, class T>
__device__ inline float ArgMax(const T* xb, const I (&xs)[5], const Window<I>& w, I (&best)[3])
{
    best[0] = w.k0[0];
    best[1] = w.k0[1];
    best[2] = w.k0[2];
    float m = LoadFloat(xb + ((w.start[0] + w.k0[0]) * xs[2] + (w.start[1] + w.k0[1]) * xs[3] +
                              (w.start[2] + w.k0[2]) * xs[4]));
    for(I kd = w.k0[0]; kd < w.k1[0]; ++kd)
        for(I kh = w.k0[1]; kh < w.k1[1]; ++kh)
        {
            const T* row = xb + (w.start[0] + kd) * xs[2] + (w.start[1] + kh) * xs[3];
            for(I kw = w.k0[2]; kw < w.k1[2]; ++kw)
            {
                const float v = LoadFloat(row + (w.start[2] + kw) * xs[4]);
                if(Greater(v, m))
                {
                    m       = v;
                    best[0] = kd;
                    best[1] = kh;
                    best[2] = kw;
                }
            }
        }
    return m;
}

template <class I, class T, class Idx, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(256) PoolFwd(PoolArgs args, const T* x, T* y, Idx* index)
{
    const Geo<I> a(args);
    const I total = a.n * a.c * a.out[0] * a.out[1] * a.out[2];
    const bool inclusive = args.mode == miopenPoolingAverageInclusive;
    const float full = 1.0f / static_cast<float>(a.window[0] * a.window[1] * a.window[2]);
    for(I i = static_cast<I>(blockIdx.x * blockDim.x + threadIdx.x); i < total;
        i += static_cast<I>(gridDim.x * blockDim.x))
    {
        const Coord<I> o  = Decompose(i, a.c, a.out);
        const Window<I> w = WindowOf(a, o.o);
        const T* xb       = x + o.n * a.xs[0] + o.c * a.xs[1];
        float v;
        if(Max)
        {
            I k[3];
            v = ArgMax(xb, a.xs, w, k);
            if(Index)
            {
                int64_t code;
                if(args.image)
                    code = (static_cast<int64_t>(w.start[0] + k[0]) * a.in[1] + (w.start[1] + k[1])) *
                               a.in[2] +
                           (w.start[2] + k[2]);
                else
                    code = (static_cast<int64_t>(k[0]) * a.window[1] + k[1]) * a.window[2] + k[2];
                index[i] = static_cast<Idx>(code);
            }
        }
        else
        {
            float sum = 0.0f;
            for(I kd = w.k0[0]; kd < w.k1[0]; ++kd)
                for(I kh = w.k0[1]; kh < w.k1[1]; ++kh)
                {
                    const T* row = xb + (w.start[0] + kd) * a.xs[2] + (w.start[1] + kh) * a.xs[3];
                    for(I kw = w.k0[2]; kw < w.k1[2]; ++kw)
                        sum += LoadFloat(row + (w.start[2] + kw) * a.xs[4]);
                }
            const float scale =
                inclusive ? full
                          : (1.0f / static_cast<float>((w.k1[0] - w.k0[0]) * (w.k1[1] - w.k0[1]))) *
                                (1.0f / static_cast<float>(w.k1[2] - w.k0[2]));
            v = sum * scale;
        }
        T* out = y + o.n * a.ys[0] + o.c * a.ys[1] + o.o[0] * a.ys[2] + o.o[1] * a.ys[3] +
                 o.o[2] * a.ys[4];
        StoreFloat(out, ReadY ? PoolBlend(args.alpha, v, args.beta, LoadFloat(out)) : args.alpha * v);
    }
}

/// Output positions whose window covers input position i along dim j: [lo, hi).
template <class I>
__device__ inline void Covering(const Geo<I>& a, int j, I i, I& lo, I& hi)
{
    const I num = i + a.pad[j] - a.window[j] + 1;
    lo          = num <= 0 ? 0 : (num + a.stride[j] - 1) / a.stride[j];
    hi          = (i + a.pad[j]) / a.stride[j] + 1;
    if(hi > a.out[j])
        hi = a.out[j];
}

/// Kind: 0 average, 1 max from the index, 2 max found again from x.
template <class I, class T, class Idx, int Kind, bool ReadDx>
__global__ void __launch_bounds__(256) PoolBwd(PoolArgs args, const T* dy, const Idx* index,
                                               const T* x, T* dx)
{
    const Geo<I> a(args);
    const I total = a.n * a.c * a.in[0] * a.in[1] * a.in[2];
    const bool inclusive = args.mode == miopenPoolingAverageInclusive;
    const float full = 1.0f / static_cast<float>(a.window[0] * a.window[1] * a.window[2]);
    for(I i = static_cast<I>(blockIdx.x * blockDim.x + threadIdx.x); i < total;
        i += static_cast<I>(gridDim.x * blockDim.x))
    {
        const Coord<I> p = Decompose(i, a.c, a.in);
        I lo[3], hi[3];
#pragma unroll
        for(int j = 0; j < 3; ++j)
            Covering(a, j, p.o[j], lo[j], hi[j]);
        const T* dyb       = dy + p.n * a.ys[0] + p.c * a.ys[1];
        const I plane      = (p.n * a.c + p.c) * a.out[0];
        const int64_t image_code =
            (static_cast<int64_t>(p.o[0]) * a.in[1] + p.o[1]) * a.in[2] + p.o[2];
        float acc = 0.0f;
        for(I od = lo[0]; od < hi[0]; ++od)
            for(I oh = lo[1]; oh < hi[1]; ++oh)
                for(I ow = lo[2]; ow < hi[2]; ++ow)
                {
                    const I o[3]  = {od, oh, ow};
                    const float g = LoadFloat(dyb + (od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]));
                    if(Kind == 0)
                    {
                        const Window<I> w = WindowOf(a, o);
                        const float inv =
                            inclusive ? full
                                      : (1.0f / static_cast<float>((w.k1[0] - w.k0[0]) *
                                                                   (w.k1[1] - w.k0[1]))) *
                                            (1.0f / static_cast<float>(w.k1[2] - w.k0[2]));
                        acc = PoolAcc(acc, g, inv);
                    }
                    else if(Kind == 1)
                    {
                        const uint64_t v = index[((plane + od) * a.out[1] + oh) * a.out[2] + ow];
                        int64_t code     = image_code;
                        if(!args.image)
                        {
                            const I kd = p.o[0] - (od * a.stride[0] - a.pad[0]);
                            const I kh = p.o[1] - (oh * a.stride[1] - a.pad[1]);
                            const I kw = p.o[2] - (ow * a.stride[2] - a.pad[2]);
                            code = (static_cast<int64_t>(kd) * a.window[1] + kh) * a.window[2] + kw;
                        }
                        if(v == static_cast<uint64_t>(code))
                            acc += g;
                    }
                    else
                    {
                        const Window<I> w = WindowOf(a, o);
                        I k[3];
                        ArgMax(x + p.n * a.x2s[0] + p.c * a.x2s[1], a.x2s, w, k);
                        if(w.start[0] + k[0] == p.o[0] && w.start[1] + k[1] == p.o[1] &&
                           w.start[2] + k[2] == p.o[2])
                            acc += g;
                    }
                }
        T* out = dx + p.n * a.xs[0] + p.c * a.xs[1] + p.o[0] * a.xs[2] + p.o[1] * a.xs[3] +
                 p.o[2] * a.xs[4];
        StoreFloat(out,
                   ReadDx ? PoolBlend(args.alpha, acc, args.beta, LoadFloat(out)) : args.alpha * acc);
    }
}

template <class F>
void WithIndexType(int type, F&& f)
{
    switch(type)
    {
    case miopenIndexUint8: return f(uint8_t{});
    case miopenIndexUint16: return f(uint16_t{});
    case miopenIndexUint32: return f(uint32_t{});
    default: return f(uint64_t{});
    }
}

template <class I, class T>
void Fwd(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    const bool read = a.beta != 0.0f;
    if(a.mode != miopenPoolingMax)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd<I, T, uint8_t, false, false, true>), l, 0, a, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd<I, T, uint8_t, false, false, false>), l, 0, a, x, y, nullptr);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd<I, T, uint8_t, true, false, true>), l, 0, a, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd<I, T, uint8_t, true, false, false>), l, 0, a, x, y, nullptr);
        return;
    }
    WithIndexType(a.index_type, [&](auto tag) {
        using Idx = decltype(tag);
        Idx* idx  = static_cast<Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd<I, T, Idx, true, true, true>), l, 0, a, x, y, idx);
        else
            MIOPEN_CY_LAUNCH((PoolFwd<I, T, Idx, true, true, false>), l, 0, a, x, y, idx);
    });
}

template <class I, class T>
void Bwd(const PoolArgs& a, const Launch& l, const T* dy, const void* index, const T* x, T* dx)
{
    const bool read = a.beta != 0.0f;
    if(a.mode != miopenPoolingMax)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd<I, T, uint8_t, 0, true>), l, 0, a, dy, nullptr, x, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd<I, T, uint8_t, 0, false>), l, 0, a, dy, nullptr, x, dx);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd<I, T, uint8_t, 2, true>), l, 0, a, dy, nullptr, x, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd<I, T, uint8_t, 2, false>), l, 0, a, dy, nullptr, x, dx);
        return;
    }
    WithIndexType(a.index_type, [&](auto tag) {
        using Idx      = decltype(tag);
        const Idx* idx = static_cast<const Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd<I, T, Idx, 1, true>), l, 0, a, dy, idx, x, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd<I, T, Idx, 1, false>), l, 0, a, dy, idx, x, dx);
    });
}

} // namespace

template <class T>
void LaunchPoolFwd(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    if(a.small)
        Fwd<int32_t>(a, l, x, y, index);
    else
        Fwd<int64_t>(a, l, x, y, index);
}

template <class T>
void LaunchPoolBwd(const PoolArgs& a, const Launch& l, const T* dy, const void* index, const T* x,
                   T* dx)
{
    if(a.small)
        Bwd<int32_t>(a, l, dy, index, x, dx);
    else
        Bwd<int64_t>(a, l, dy, index, x, dx);
}

#define MIOPEN_POOL_GENERIC(T)                                                                  \
    template void LaunchPoolFwd<T>(const PoolArgs&, const Launch&, const T*, T*, void*);       \
    template void LaunchPoolBwd<T>(const PoolArgs&, const Launch&, const T*, const void*,      \
                                   const T*, T*);
MIOPEN_POOL_GENERIC(float)
MIOPEN_POOL_GENERIC(Half)
MIOPEN_POOL_GENERIC(BFloat16)
#undef MIOPEN_POOL_GENERIC

} // namespace miopen::gpu
