// lrn_fwd / lrn_bwd: local response normalization, cross-channel and within-channel, 4-d N, C, H,
// W with any strides; one thread per element (adjacent threads take adjacent w, so a warp reads
// neighbouring positions of each channel it sums). Formulas, window bounds and the order of every
// sum are the CPU kernels' (cpu/lrn.cpp):
//   s = K + alpha/area * sum of x^2 over the window [c - lo, c + hi] (within: the N x N window,
//       rows of horizontal sums), y = x * s^-beta;
//   dx = dy * s^-beta - (2 alpha beta / area) * x * sum over [c - hi, c + lo] of dy * y / s,
// with s^-beta by two square roots for beta = 0.75 (AlexNet), one for 0.5, a division for 1.
// The forward saves s, packed in N, C, H, W order; the backward reads it or recomputes it.
// Storage types: template T for every operand (the saved scale too, rounded to T as MIOpen's
// workspace holds it), loaded as fp32, one rounding per output.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/lrn/lrn_kernels.hpp"

namespace miopen::gpu {
namespace {

__device__ inline float PowNeg(float s, int kind, float beta)
{
    switch(kind)
    {
    case 0:
    {
        const float r = 1.0f / sqrtf(s);
        return r * sqrtf(r);
    }
    case 1: return 1.0f / sqrtf(s);
    case 2: return 1.0f / s;
    default: return expf(-beta * logf(s));
    }
}

struct Pos
{
    int64_t n, c, h, w;
};

__device__ inline Pos PosOf(const LrnArgs& a, int64_t i)
{
    Pos p;
    p.w = i % a.w;
    i /= a.w;
    p.h = i % a.h;
    i /= a.h;
    p.c = i % a.c;
    p.n = i / a.c;
    return p;
}

__device__ inline int64_t At(const int64_t (&s)[4], int64_t n, int64_t c, int64_t h, int64_t w)
{
    return n * s[0] + c * s[1] + h * s[2] + w * s[3];
}

/// The window sum over [i - before, i + after] ∩ [0, len) of f(j), in increasing j.
template <class F>
__device__ inline float WindowSum(int64_t i, int64_t before, int64_t after, int64_t len, F&& f)
{
    const int64_t j0 = i - before < 0 ? 0 : i - before;
    const int64_t j1 = i + after > len - 1 ? len - 1 : i + after;
    float s          = 0.0f;
    for(int64_t j = j0; j <= j1; ++j)
        s = j == j0 ? f(j) : s + f(j);
    return s;
}

/// s at position (n, c, h, w), from x.
template <class T>
__device__ inline float ScaleAt(const LrnArgs& a, const T* x, int64_t n, int64_t c, int64_t h,
                                int64_t w)
{
    float sum;
    if(a.within)
        sum = WindowSum(h, a.lo, a.hi, a.h, [&](int64_t hh) {
            return WindowSum(w, a.lo, a.hi, a.w, [&](int64_t ww) {
                const float v = LoadFloat(x + At(a.xs, n, c, hh, ww));
                return v * v;
            });
        });
    else
        sum = WindowSum(c, a.lo, a.hi, a.c, [&](int64_t cc) {
            const float v = LoadFloat(x + At(a.xs, n, cc, h, w));
            return v * v;
        });
    return a.k + a.ratio * sum;
}

template <class T, bool ReadY>
__global__ void __launch_bounds__(256) LrnFwd(LrnArgs a, const T* x, T* y, T* scale)
{
    const int64_t total = a.n * a.c * a.h * a.w;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        const Pos p   = PosOf(a, i);
        const float s = ScaleAt(a, x, p.n, p.c, p.h, p.w);
        const float v =
            LoadFloat(x + At(a.xs, p.n, p.c, p.h, p.w)) * PowNeg(s, a.pow_kind, a.lrn_beta);
        T* o = y + At(a.ys, p.n, p.c, p.h, p.w);
        StoreFloat(o, ReadY ? a.alpha * v + a.beta * LoadFloat(o) : a.alpha * v);
        if(scale != nullptr)
            StoreFloat(scale + i, s);
    }
}

template <class T, bool ReadDx, bool Saved>
__global__ void __launch_bounds__(256)
    LrnBwd(LrnArgs a, const T* x, const T* y, const T* dy, const T* scale, T* dx)
{
    const int64_t total = a.n * a.c * a.h * a.w;
    // s at a position, from the packed workspace or recomputed.
    auto s_at = [&](int64_t n, int64_t c, int64_t h, int64_t w) {
        return Saved ? LoadFloat(scale + (((n * a.c + c) * a.h + h) * a.w + w))
                     : ScaleAt(a, x, n, c, h, w);
    };
    auto ratio = [&](int64_t n, int64_t c, int64_t h, int64_t w) {
        return LoadFloat(dy + At(a.dys, n, c, h, w)) * LoadFloat(y + At(a.ys, n, c, h, w)) /
               s_at(n, c, h, w);
    };
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        const Pos p = PosOf(a, i);
        float sum;
        if(a.within)
            sum = WindowSum(p.h, a.hi, a.lo, a.h, [&](int64_t hh) {
                return WindowSum(p.w, a.hi, a.lo, a.w,
                                 [&](int64_t ww) { return ratio(p.n, p.c, hh, ww); });
            });
        else
            sum = WindowSum(p.c, a.hi, a.lo, a.c,
                            [&](int64_t cc) { return ratio(p.n, cc, p.h, p.w); });
        const float s = s_at(p.n, p.c, p.h, p.w);
        const float v =
            LoadFloat(dy + At(a.dys, p.n, p.c, p.h, p.w)) * PowNeg(s, a.pow_kind, a.lrn_beta) -
            a.grad_coef * LoadFloat(x + At(a.xs, p.n, p.c, p.h, p.w)) * sum;
        T* o = dx + At(a.dxs, p.n, p.c, p.h, p.w);
        StoreFloat(o, ReadDx ? a.alpha * v + a.beta * LoadFloat(o) : a.alpha * v);
    }
}

} // namespace

template <class T>
void LaunchLrnFwd(const LrnArgs& a, const Launch& l, const T* x, T* y, T* scale)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((LrnFwd<T, true>), l, 0, a, x, y, scale);
    else
        MIOPEN_CY_LAUNCH((LrnFwd<T, false>), l, 0, a, x, y, scale);
}

template <class T>
void LaunchLrnBwd(const LrnArgs& a, const Launch& l, const T* x, const T* y, const T* dy,
                  const T* scale, T* dx)
{
    const bool read = a.beta != 0.0f;
    if(scale != nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((LrnBwd<T, true, true>), l, 0, a, x, y, dy, scale, dx);
        else
            MIOPEN_CY_LAUNCH((LrnBwd<T, false, true>), l, 0, a, x, y, dy, scale, dx);
    }
    else
    {
        if(read)
            MIOPEN_CY_LAUNCH((LrnBwd<T, true, false>), l, 0, a, x, y, dy, scale, dx);
        else
            MIOPEN_CY_LAUNCH((LrnBwd<T, false, false>), l, 0, a, x, y, dy, scale, dx);
    }
}


#define MIOPEN_LRN_GENERIC(T)                                                                   \
    template void LaunchLrnFwd<T>(const LrnArgs&, const Launch&, const T*, T*, T*);             \
    template void LaunchLrnBwd<T>(const LrnArgs&, const Launch&, const T*, const T*, const T*, \
                                  const T*, T*);
MIOPEN_LRN_GENERIC(float)
MIOPEN_LRN_GENERIC(Half)
MIOPEN_LRN_GENERIC(BFloat16)
#undef MIOPEN_LRN_GENERIC

} // namespace miopen::gpu
