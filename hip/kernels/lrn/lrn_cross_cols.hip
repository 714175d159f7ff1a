// lrn_fwd_cross_cols / lrn_bwd_cross_cols: cross-channel LRN with a window of kLrnColsWindows
// channels, one thread per (n, h, w) column walking the channels (adjacent threads take adjacent
// w, so each load of a warp is coalesced where w is unit-stride). The generic kernels of lrn.hip
// give each element its own thread, which re-reads the window's inputs from cache (the backward
// three operands per window channel and a division each) and splits its index with 64-bit
// divisions. Here a thread loads a chunk of kChunk channels plus the window's halo at once (all
// loads in flight together, channels outside [0, C) clamped and never summed), then works out
// the chunk's outputs from registers. Formulas, window bounds and the order of every sum are
// lrn.hip's (and the CPU kernels'):
//   s = K + alpha/N * sum over [c - lo, c + hi] of x^2,  y = x * s^-beta
//   dx = dy * s^-beta - coef * x * sum over [c - hi, c + lo] of dy * y / s
// Any strides; s saved to / read from the packed N, C, H, W workspace, or recomputed from x.
// Storage types: template T for every operand (the saved scale too), fp32 in registers, one
// rounding per output.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/lrn/lrn_cross_cols_kernels.hpp"

namespace miopen::gpu {
namespace {

constexpr int kChunk = 8; // output channels a thread finishes per pass

__device__ inline float PowNegCols(float s, int kind, float beta)
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

/// Column t's (n, h, w) and its offsets in each operand (channel 0).
struct Column
{
    int64_t n, h, w;
};

__device__ inline Column ColumnOf(const LrnArgs& a, int64_t t)
{
    Column col;
    if(a.n * a.h * a.w <= INT32_MAX)
    {
        const uint32_t u  = static_cast<uint32_t>(t);
        const uint32_t w  = static_cast<uint32_t>(a.w);
        const uint32_t h  = static_cast<uint32_t>(a.h);
        const uint32_t q  = u / w;
        col.w             = u - q * w;
        const uint32_t nn = q / h;
        col.h             = q - nn * h;
        col.n             = nn;
        return col;
    }
    col.w = t % a.w;
    t /= a.w;
    col.h = t % a.h;
    col.n = t / a.h;
    return col;
}

__device__ inline int64_t Base(const int64_t (&s)[4], const Column& col)
{
    return col.n * s[0] + col.h * s[2] + col.w * s[3];
}

__device__ inline int64_t ClampC(int64_t c, int64_t C) { return c < 0 ? 0 : c >= C ? C - 1 : c; }

/// The window sum over the `Win` values v[k0 .. k0 + Win) of channels ch0 + k0 + j, skipping
/// channels outside [0, C), first term assigned (as lrn.hip's WindowSum).
template <int Win, int Len>
__device__ inline float SumValid(const float (&v)[Len], int k0, int64_t ch0, int64_t C)
{
    float s    = 0.0f;
    bool first = true;
#pragma unroll
    for(int j = 0; j < Win; ++j)
    {
        const int64_t ch = ch0 + k0 + j;
        if(ch >= 0 && ch < C)
        {
            s     = first ? v[k0 + j] : s + v[k0 + j];
            first = false;
        }
    }
    return s;
}

template <int Win, class T, bool ReadY>
__global__ void __launch_bounds__(256) LrnFwdCrossCols(LrnArgs a, const T* x, T* y, T* scale)
{
    constexpr int lo = (Win - 1) / 2;
    constexpr int kX = kChunk + Win - 1; // x of channels c0 - lo .. c0 + kChunk - 1 + hi
    const int64_t columns = a.n * a.h * a.w;
    const int64_t C       = a.c;
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < columns;
        t += int64_t{gridDim.x} * blockDim.x)
    {
        const Column col = ColumnOf(a, t);
        const T* xt      = x + Base(a.xs, col);
        T* yt            = y + Base(a.ys, col);
        // s at channel c: st[c * plane] (packed N, C, H, W).
        T* st = scale != nullptr ? scale + (col.n * C * a.h + col.h) * a.w + col.w : nullptr;
        const int64_t plane = a.h * a.w;
        for(int64_t c0 = 0; c0 < C; c0 += kChunk)
        {
            float xv[kX];
#pragma unroll
            for(int j = 0; j < kX; ++j)
                xv[j] = LoadFloat(xt + ClampC(c0 - lo + j, C) * a.xs[1]);
            float sq[kX];
#pragma unroll
            for(int j = 0; j < kX; ++j)
                sq[j] = xv[j] * xv[j];
#pragma unroll
            for(int k = 0; k < kChunk; ++k)
            {
                const int64_t c = c0 + k;
                if(c >= C)
                    break;
                const float s = a.k + a.ratio * SumValid<Win>(sq, k, c0 - lo, C);
                const float v = xv[k + lo] * PowNegCols(s, a.pow_kind, a.lrn_beta);
                T* o          = yt + c * a.ys[1];
                StoreFloat(o, ReadY ? a.alpha * v + a.beta * LoadFloat(o) : a.alpha * v);
                if(scale != nullptr)
                    StoreFloat(st + c * plane, s);
            }
        }
    }
}

template <int Win, class T, bool ReadDx, bool Saved>
__global__ void __launch_bounds__(256)
    LrnBwdCrossCols(LrnArgs a, const T* x, const T* y, const T* dy, const T* scale, T* dx)
{
    constexpr int lo = (Win - 1) / 2, hi = Win - 1 - lo;
    // Ratios dy * y / s of channels c0 - hi .. c0 + kChunk - 1 + lo (the mirrored window).
    constexpr int kR = kChunk + Win - 1;
    // Recomputing s for those needs x of channels c0 - hi - lo .. c0 + kChunk - 1 + lo + hi.
    constexpr int kX = Saved ? 1 : kR + Win - 1;
    const int64_t columns = a.n * a.h * a.w;
    const int64_t C       = a.c;
    const int64_t plane   = a.h * a.w;
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < columns;
        t += int64_t{gridDim.x} * blockDim.x)
    {
        const Column col  = ColumnOf(a, t);
        const T* xt       = x + Base(a.xs, col);
        const T* yt       = y + Base(a.ys, col);
        const T* dyt      = dy + Base(a.dys, col);
        T* dxt            = dx + Base(a.dxs, col);
        const T* st       = Saved ? scale + (col.n * C * a.h + col.h) * a.w + col.w : nullptr;
        for(int64_t c0 = 0; c0 < C; c0 += kChunk)
        {
            float dv[kR], yv[kR], sv[kR], xc[kChunk];
            float xw[kX];
#pragma unroll
            for(int j = 0; j < kR; ++j)
            {
                const int64_t ch = ClampC(c0 - hi + j, C);
                dv[j]            = LoadFloat(dyt + ch * a.dys[1]);
                yv[j]            = LoadFloat(yt + ch * a.ys[1]);
                if(Saved)
                    sv[j] = LoadFloat(st + ch * plane);
            }
            if(!Saved)
            {
#pragma unroll
                for(int j = 0; j < kX; ++j)
                    xw[j] = LoadFloat(xt + ClampC(c0 - hi - lo + j, C) * a.xs[1]);
            }
#pragma unroll
            for(int k = 0; k < kChunk; ++k)
                xc[k] = LoadFloat(xt + ClampC(c0 + k, C) * a.xs[1]);
            if(!Saved)
            {
                float sq[kX];
#pragma unroll
                for(int j = 0; j < kX; ++j)
                    sq[j] = xw[j] * xw[j];
#pragma unroll
                for(int j = 0; j < kR; ++j)
                    sv[j] = a.k + a.ratio * SumValid<Win>(sq, j, c0 - hi - lo, C);
            }
            float r[kR];
#pragma unroll
            for(int j = 0; j < kR; ++j)
                r[j] = dv[j] * yv[j] / sv[j];
#pragma unroll
            for(int k = 0; k < kChunk; ++k)
            {
                const int64_t c = c0 + k;
                if(c >= C)
                    break;
                const float sum = SumValid<Win>(r, k, c0 - hi, C);
                const float s   = sv[k + hi];
                const float v   = dv[k + hi] * PowNegCols(s, a.pow_kind, a.lrn_beta) -
                                a.grad_coef * xc[k] * sum;
                T* o = dxt + c * a.dxs[1];
                StoreFloat(o, ReadDx ? a.alpha * v + a.beta * LoadFloat(o) : a.alpha * v);
            }
        }
    }
}

template <int Win, class T>
void Fwd(const LrnArgs& a, const Launch& l, const T* x, T* y, T* scale)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((LrnFwdCrossCols<Win, T, true>), l, 0, a, x, y, scale);
    else
        MIOPEN_CY_LAUNCH((LrnFwdCrossCols<Win, T, false>), l, 0, a, x, y, scale);
}

template <int Win, class T>
void Bwd(const LrnArgs& a, const Launch& l, const T* x, const T* y, const T* dy, const T* scale,
         T* dx)
{
    const bool read = a.beta != 0.0f;
    if(scale != nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((LrnBwdCrossCols<Win, T, true, true>), l, 0, a, x, y, dy, scale, dx);
        else
            MIOPEN_CY_LAUNCH((LrnBwdCrossCols<Win, T, false, true>), l, 0, a, x, y, dy, scale, dx);
    }
    else
    {
        if(read)
            MIOPEN_CY_LAUNCH((LrnBwdCrossCols<Win, T, true, false>), l, 0, a, x, y, dy, scale, dx);
        else
            MIOPEN_CY_LAUNCH((LrnBwdCrossCols<Win, T, false, false>), l, 0, a, x, y, dy, scale,
                             dx);
    }
}

} // namespace

bool LrnCrossColsWindow(int64_t n) { return n == 3 || n == 5 || n == 7 || n == 9 || n == 11; }

template <class T>
void LaunchLrnFwdCrossCols(const LrnArgs& a, const Launch& l, const T* x, T* y, T* scale)
{
    switch(a.lo + a.hi + 1)
    {
    case 3: return Fwd<3>(a, l, x, y, scale);
    case 5: return Fwd<5>(a, l, x, y, scale);
    case 7: return Fwd<7>(a, l, x, y, scale);
    case 9: return Fwd<9>(a, l, x, y, scale);
    default: return Fwd<11>(a, l, x, y, scale);
    }
}

template <class T>
void LaunchLrnBwdCrossCols(const LrnArgs& a, const Launch& l, const T* x, const T* y, const T* dy,
                           const T* scale, T* dx)
{
    switch(a.lo + a.hi + 1)
    {
    case 3: return Bwd<3>(a, l, x, y, dy, scale, dx);
    case 5: return Bwd<5>(a, l, x, y, dy, scale, dx);
    case 7: return Bwd<7>(a, l, x, y, dy, scale, dx);
    case 9: return Bwd<9>(a, l, x, y, dy, scale, dx);
    default: return Bwd<11>(a, l, x, y, dy, scale, dx);
    }
}


#define MIOPEN_LRN_COLS(T)                                                                     \
    template void LaunchLrnFwdCrossCols<T>(const LrnArgs&, const Launch&, const T*, T*, T*);   \
    template void LaunchLrnBwdCrossCols<T>(const LrnArgs&, const Launch&, const T*, const T*,  \
                                           const T*, const T*, T*);
MIOPEN_LRN_COLS(float)
MIOPEN_LRN_COLS(Half)
MIOPEN_LRN_COLS(BFloat16)
#undef MIOPEN_LRN_COLS

} // namespace miopen::gpu
