// pool_fwd / pool_bwd: max, average (exclusive of padding) and average-inclusive pooling over 3
// spatial dims (2-d pooling has depth 1), NCDHW with any strides, MIOpen's index workspace.
// Semantics are the CPU kernels' (cpu/pooling.cpp):
//  - max scans the window in (d, h, w) order and keeps the first strict maximum, NaN counting as
//    larger than every number; indices are packed in y's logical order, mask mode storing
//    (kd * R + kh) * S + kw from the unclipped window start, image mode (d * H + h) * W + w;
//  - average divides by the in-bounds count (as 1/rows * 1/cols), inclusive by the window size;
//  - backward gathers: one thread per dx element sums, in output order, what the windows that
//    cover it send (max: only those whose recorded argmax is this element), then blends once.
//    Indices that name no position of the window never match: a garbage workspace gives wrong
//    gradients but never a write out of bounds. Without a workspace the argmax is found again
//    from x by the forward's scan.
// Forward: one thread per output element; adjacent threads take adjacent ow.
#include "common/device.hpp"
#include "pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

/// NaN is larger than every number.
__device__ inline bool Greater(float a, float b) { return a > b || (a != a && b == b); }

struct Coord
{
    int64_t n, c, o[3];
};

/// (n, c, d, h, w) of element i of an N x C x S0 x S1 x S2 tensor in logical order.
__device__ inline Coord Decompose(int64_t i, int64_t c, const int64_t (&s)[3])
{
    Coord r;
    r.o[2] = i % s[2];
    i /= s[2];
    r.o[1] = i % s[1];
    i /= s[1];
    r.o[0] = i % s[0];
    i /= s[0];
    r.c = i % c;
    r.n = i / c;
    return r;
}

/// The in-bounds window [k0, k1) of output o along dim j and its unclipped start.
struct Window
{
    int64_t start[3], k0[3], k1[3];
};

__device__ inline Window WindowOf(const PoolArgs& a, const int64_t (&o)[3])
{
    Window w;
#pragma unroll
    for(int j = 0; j < 3; ++j)
    {
        w.start[j]     = o[j] * a.stride[j] - a.pad[j];
        w.k0[j]        = w.start[j] < 0 ? -w.start[j] : 0;
        const int64_t e = a.in[j] - w.start[j];
        w.k1[j]        = a.window[j] < e ? a.window[j] : e;
    }
    return w;
}

/// The max of the window and its (kd, kh, kw), by the CPU's scan.
__device__ inline float ArgMax(const float* xb, const int64_t (&xs)[5], const Window& w,
                               int64_t (&best)[3])
{
    best[0]   = w.k0[0];
    best[1]   = w.k0[1];
    best[2]   = w.k0[2];
    float m   = xb[(w.start[0] + w.k0[0]) * xs[2] + (w.start[1] + w.k0[1]) * xs[3] +
                 (w.start[2] + w.k0[2]) * xs[4]];
    for(int64_t kd = w.k0[0]; kd < w.k1[0]; ++kd)
        for(int64_t kh = w.k0[1]; kh < w.k1[1]; ++kh)
        {
            const float* row = xb + (w.start[0] + kd) * xs[2] + (w.start[1] + kh) * xs[3];
            for(int64_t kw = w.k0[2]; kw < w.k1[2]; ++kw)
            {
                const float v = row[(w.start[2] + kw) * xs[4]];
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

template <class T, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(256) PoolFwd(PoolArgs a, const float* x, float* y, T* index)
{
    const int64_t total = a.n * a.c * a.out[0] * a.out[1] * a.out[2];
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        const Coord o     = Decompose(i, a.c, a.out);
        const Window w    = WindowOf(a, o.o);
        const float* xb   = x + o.n * a.xs[0] + o.c * a.xs[1];
        float v;
        if(Max)
        {
            int64_t k[3];
            v = ArgMax(xb, a.xs, w, k);
            if(Index)
            {
                int64_t code;
                if(a.image)
                    code = ((w.start[0] + k[0]) * a.in[1] + (w.start[1] + k[1])) * a.in[2] +
                           (w.start[2] + k[2]);
                else
                    code = (k[0] * a.window[1] + k[1]) * a.window[2] + k[2];
                index[i] = static_cast<T>(code);
            }
        }
        else
        {
            float sum = 0.0f;
            for(int64_t kd = w.k0[0]; kd < w.k1[0]; ++kd)
                for(int64_t kh = w.k0[1]; kh < w.k1[1]; ++kh)
                {
                    const float* row = xb + (w.start[0] + kd) * a.xs[2] + (w.start[1] + kh) * a.xs[3];
                    for(int64_t kw = w.k0[2]; kw < w.k1[2]; ++kw)
                        sum += row[(w.start[2] + kw) * a.xs[4]];
                }
            float scale;
            if(a.mode == miopenPoolingAverageInclusive)
                scale = 1.0f / static_cast<float>(a.window[0] * a.window[1] * a.window[2]);
            else
                scale = (1.0f / static_cast<float>((w.k1[0] - w.k0[0]) * (w.k1[1] - w.k0[1]))) *
                        (1.0f / static_cast<float>(w.k1[2] - w.k0[2]));
            v = sum * scale;
        }
        float* out = y + o.n * a.ys[0] + o.c * a.ys[1] + o.o[0] * a.ys[2] + o.o[1] * a.ys[3] +
                     o.o[2] * a.ys[4];
        *out = ReadY ? a.alpha * v + a.beta * *out : a.alpha * v;
    }
}

/// Output positions whose window covers input position i along dim j: [lo, hi).
__device__ inline void Covering(const PoolArgs& a, int j, int64_t i, int64_t& lo, int64_t& hi)
{
    const int64_t num = i + a.pad[j] - a.window[j] + 1;
    lo                = num <= 0 ? 0 : (num + a.stride[j] - 1) / a.stride[j];
    hi                = (i + a.pad[j]) / a.stride[j] + 1;
    if(hi > a.out[j])
        hi = a.out[j];
}

/// Kind: 0 average, 1 max from the index, 2 max found again from x.
template <class T, int Kind, bool ReadDx>
__global__ void __launch_bounds__(256) PoolBwd(PoolArgs a, const float* dy, const T* index, const float* x, float* dx)
{
    const int64_t total = a.n * a.c * a.in[0] * a.in[1] * a.in[2];
    const bool inclusive = a.mode == miopenPoolingAverageInclusive;
    const float full = 1.0f / static_cast<float>(a.window[0] * a.window[1] * a.window[2]);
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        const Coord p = Decompose(i, a.c, a.in);
        int64_t lo[3], hi[3];
#pragma unroll
        for(int j = 0; j < 3; ++j)
            Covering(a, j, p.o[j], lo[j], hi[j]);
        const float* dyb = dy + p.n * a.ys[0] + p.c * a.ys[1];
        const int64_t plane = ((p.n * a.c + p.c) * a.out[0]);
        const int64_t image_code = (p.o[0] * a.in[1] + p.o[1]) * a.in[2] + p.o[2];
        float acc = 0.0f;
        for(int64_t od = lo[0]; od < hi[0]; ++od)
            for(int64_t oh = lo[1]; oh < hi[1]; ++oh)
                for(int64_t ow = lo[2]; ow < hi[2]; ++ow)
                {
                    const int64_t o[3] = {od, oh, ow};
                    const float g = dyb[od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]];
                    const Window w = WindowOf(a, o);
                    if(Kind == 0)
                    {
                        const float inv = inclusive
                                              ? full
                                              : (1.0f / static_cast<float>((w.k1[0] - w.k0[0]) *
                                                                           (w.k1[1] - w.k0[1]))) *
                                                    (1.0f / static_cast<float>(w.k1[2] - w.k0[2]));
                        acc += g * inv;
                    }
                    else if(Kind == 1)
                    {
                        const uint64_t v = index[((plane + od) * a.out[1] + oh) * a.out[2] + ow];
                        const int64_t code =
                            a.image ? image_code
                                    : ((p.o[0] - w.start[0]) * a.window[1] + (p.o[1] - w.start[1])) *
                                              a.window[2] +
                                          (p.o[2] - w.start[2]);
                        if(v == static_cast<uint64_t>(code))
                            acc += g;
                    }
                    else
                    {
                        int64_t k[3];
                        ArgMax(x + p.n * a.x2s[0] + p.c * a.x2s[1], a.x2s, w, k);
                        if(w.start[0] + k[0] == p.o[0] && w.start[1] + k[1] == p.o[1] &&
                           w.start[2] + k[2] == p.o[2])
                            acc += g;
                    }
                }
        float* out = dx + p.n * a.xs[0] + p.c * a.xs[1] + p.o[0] * a.xs[2] + p.o[1] * a.xs[3] +
                     p.o[2] * a.xs[4];
        *out = ReadDx ? a.alpha * acc + a.beta * *out : a.alpha * acc;
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

} // namespace

void LaunchPoolFwd(const PoolArgs& a, const Launch& l, const float* x, float* y, void* index)
{
    const bool read = a.beta != 0.0f;
    if(a.mode != miopenPoolingMax)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd<uint8_t, false, false, true>), l, 0, a, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd<uint8_t, false, false, false>), l, 0, a, x, y, nullptr);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd<uint8_t, true, false, true>), l, 0, a, x, y, nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwd<uint8_t, true, false, false>), l, 0, a, x, y, nullptr);
        return;
    }
    WithIndexType(a.index_type, [&](auto tag) {
        using T = decltype(tag);
        T* idx  = static_cast<T*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwd<T, true, true, true>), l, 0, a, x, y, idx);
        else
            MIOPEN_CY_LAUNCH((PoolFwd<T, true, true, false>), l, 0, a, x, y, idx);
    });
}

void LaunchPoolBwd(const PoolArgs& a, const Launch& l, const float* dy, const void* index,
                   const float* x, float* dx)
{
    const bool read = a.beta != 0.0f;
    if(a.mode != miopenPoolingMax)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd<uint8_t, 0, true>), l, 0, a, dy, nullptr, x, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd<uint8_t, 0, false>), l, 0, a, dy, nullptr, x, dx);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd<uint8_t, 2, true>), l, 0, a, dy, nullptr, x, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd<uint8_t, 2, false>), l, 0, a, dy, nullptr, x, dx);
        return;
    }
    WithIndexType(a.index_type, [&](auto tag) {
        using T      = decltype(tag);
        const T* idx = static_cast<const T*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwd<T, 1, true>), l, 0, a, dy, idx, x, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwd<T, 1, false>), l, 0, a, dy, idx, x, dx);
    });
}

} // namespace miopen::gpu
