// activation_fwd / activation_bwd: the ten activation modes on the element-wise engine
// (common/elementwise.hpp) for fp32, fp16 and bf16: any strides, 16-byte rows on packed tensors.
// The 16-bit forward computes logistic, tanh and elu in fast fp32 forms (FastF) and runs packed
// tensors through ActivationPacked (four 16-byte vectors in flight a thread); the 16-bit
// backward of the three takes the fast exponential and reciprocal too (FastBack).
// One functor per mode with f(x) and f'(x)·dy, written as the CPU kernels' (cpu/activation.cpp) so that both backends give
// the same values at the kinks, for NaN and at the ends of the range (see activation/activation.hpp):
// SOFTRELU and the derivatives of LOGISTIC and TANH are computed so that they neither overflow
// nor cancel; POWER's zero base gives 0.
#include "kernels/activation/activation_kernels.hpp"
#include "kernels/common/elementwise.hpp"
#include "kernels/common/packed_map.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

/// 1 / d for d in [1, 2] (1 + e, e = exp(-|t|)): the hardware's approximate reciprocal and one
/// Newton step (within an ulp of the correctly rounded quotient), with none of the IEEE
/// division's special-case branch: the logistic and tanh forms below never leave [1, 2].
__device__ inline float Rcp12(float d)
{
    const float r = __fdividef(1.0f, d);
    return fmaf(r, fmaf(-d, r, 1.0f), r);
}

struct PassThru
{
    __device__ float F(float x) const { return x; }
    __device__ float Back(float, float dy) const { return dy; }
};

struct Logistic
{
    // s(x) = 1 / (1 + e) for x >= 0, e / (1 + e) below, e = exp(-|x|): never overflows, full
    // relative accuracy in the tail near e^x.
    __device__ float F(float x) const
    {
        const float e = expf(-fabsf(x));
        const float r = Rcp12(1.0f + e);
        return x >= 0.0f ? r : e * r;
    }
    __device__ float Back(float x, float dy) const
    {
        const float e = expf(-fabsf(x));
        const float r = Rcp12(1.0f + e);
        return dy * (e * r * r);
    }
};

struct Tanh
{
    float a, b;
    __device__ float F(float x) const { return b * tanhf(a * x); }
    __device__ float Back(float x, float dy) const
    {
        const float e = expf(-2.0f * fabsf(a * x));
        const float r = Rcp12(1.0f + e);
        return dy * (4.0f * a * b) * (e * r * r);
    }
};

struct Relu
{
    __device__ float F(float x) const { return x < 0.0f ? 0.0f : x; }
    __device__ float Back(float x, float dy) const { return x > 0.0f ? dy : 0.0f; }
};

struct SoftRelu
{
    __device__ float F(float x) const { return (x > 0.0f ? x : 0.0f) + log1pf(expf(-fabsf(x))); }
    __device__ float Back(float x, float dy) const
    {
        const float e = expf(-fabsf(x));
        const float r = Rcp12(1.0f + e);
        return dy * (x >= 0.0f ? r : e * r);
    }
};

struct Abs
{
    __device__ float F(float x) const { return fabsf(x); }
    __device__ float Back(float x, float dy) const { return x >= 0.0f ? dy : -dy; }
};

struct Power
{
    float a, b, g, bg, g1;
    __device__ float F(float x) const
    {
        const float base = a + b * x;
        return base == 0.0f ? 0.0f : powf(base, g);
    }
    __device__ float Back(float x, float dy) const
    {
        const float base    = a + b * x;
        const float at_zero = g == 1.0f ? b : 0.0f;
        return dy * (base == 0.0f ? at_zero : bg * powf(base, g1));
    }
};

struct ClippedRelu
{
    float a;
    __device__ float F(float x) const
    {
        const float m = x < 0.0f ? 0.0f : x;
        return m > a ? a : m;
    }
    __device__ float Back(float x, float dy) const { return x > 0.0f && x < a ? dy : 0.0f; }
};

struct LeakyRelu
{
    float a;
    __device__ float F(float x) const { return x > 0.0f ? x : a * x; }
    __device__ float Back(float x, float dy) const { return x > 0.0f ? dy : a * dy; }
};

struct Elu
{
    float a;
    __device__ float F(float x) const
    {
        const float e = expm1f(x);
        return x > 0.0f ? x : a * e;
    }
    __device__ float Back(float x, float dy) const
    {
        const float e = expf(x);
        return x >= 0.0f ? dy : a * e * dy;
    }
};

// ---- the fast forward forms of the 16-bit types ----------------------------------------------
// At 2 bytes an element the precise expf / tanhf / expm1f make logistic, tanh and elu
// compute-bound. A 16-bit output is rounded to 11 (fp16) or 8 (bf16) significant bits, so these
// compute in fp32 with the hardware's exponential and reciprocal, a relative error of a few fp32
// ulp, and use a short Taylor series where the exponential form would cancel (|x| < 1/16): far
// below a 16-bit ulp. fp32 outputs keep the precise forms. NaN and the infinities come out as in
// the precise forms.
// On NVIDIA, tanh and elu take the flush-to-zero forms of the exponential and the reciprocal
// (ex2.approx.ftz, rcp.approx.ftz: one MUFU instruction each; the IEEE-denormal forms behind
// __expf and __fdividef add a range test and two rescaling multiplies around each, which at the
// 16-bit element rate are a fifth of the arithmetic): there the exponential only ever enters
// 1 - e, 1 + e or e - 1 and the reciprocal's argument lies in [1, 2], so a flushed denormal
// changes no result. Logistic keeps __expf (its reciprocal is the fast one): its e * r for
// x < -87 is a bf16 denormal, kept.

constexpr float kLog2e = 1.4426950408889634f;

/// 2^y (y <= 0 where called) for a sum with 1: denormal results may flush to 0. Callers pass
/// y = x * log2(e) as one multiply (what __expf(x) computes first).
__device__ inline float Exp2NearOne(float y)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(y));
    return r;
#else
    return exp2f(y);
#endif
}

/// 1 / d for d in [1, 2].
__device__ inline float Rcp12Fast(float d)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
    return r;
#else
    return __fdividef(1.0f, d);
#endif
}

/// The mode's forward in the fast form where it has one, else its precise F.
template <class Op>
__device__ inline float FastF(const Op& op, float x)
{
    return op.F(x);
}

__device__ inline float FastF(const Logistic&, float x)
{
    const float e = __expf(-fabsf(x));
    const float r = Rcp12Fast(1.0f + e);
    return x >= 0.0f ? r : e * r;
}

__device__ inline float FastF(const Tanh& op, float x)
{
    const float u  = op.a * x;
    const float au = fabsf(u);
    // tanh(u) = u (1 - u^2/3 + 2 u^4/15 - ...) for |u| < 1/16: the next term is below 2^-27
    // relative. Both forms are computed (a warp of random data takes both anyway): no branch.
    const float u2    = u * u;
    const float small = u * fmaf(u2, fmaf(u2, 2.0f / 15.0f, -1.0f / 3.0f), 1.0f);
    const float e = Exp2NearOne(au * (-2.0f * kLog2e)); // in [0, 0.883]: 1 - e does not cancel
    const float large = copysignf((1.0f - e) * Rcp12Fast(1.0f + e), u);
    return op.b * (au < 0.0625f ? small : large);
}

__device__ inline float FastF(const Elu& op, float x)
{
    // x > 0 gives x; below, e^x - 1, by the series where it would cancel (|x| < 1/16)
    const float series = x * fmaf(x, fmaf(x, fmaf(x, 1.0f / 24.0f, 1.0f / 6.0f), 0.5f), 1.0f);
    const float em1    = x > -0.0625f ? series : Exp2NearOne(x * kLog2e) - 1.0f;
    return x > 0.0f ? x : op.a * em1;
}

/// The mode's f'(x) dy in the fast form where it has one (the 16-bit backward), else its precise
/// Back. The exponential keeps IEEE denormals here (__expf): dy * e can be a bf16 denormal.
template <class Op>
__device__ inline float FastBack(const Op& op, float x, float dy)
{
    return op.Back(x, dy);
}

__device__ inline float FastBack(const Logistic&, float x, float dy)
{
    const float e = __expf(-fabsf(x));
    const float r = Rcp12Fast(1.0f + e);
    return dy * (e * r * r);
}

__device__ inline float FastBack(const Tanh& op, float x, float dy)
{
    const float e = __expf(-2.0f * fabsf(op.a * x));
    const float r = Rcp12Fast(1.0f + e);
    return dy * (4.0f * op.a * op.b) * (e * r * r);
}

__device__ inline float FastBack(const Elu& op, float x, float dy)
{
    return x >= 0.0f ? dy : op.a * __expf(x) * dy;
}

template <class Op, bool Fast = false>
struct Forward
{
    Op op;
    float alpha;
    __device__ float operator()(const float* v) const
    {
        if constexpr(Fast)
            return alpha * FastF(op, v[0]);
        else
            return alpha * op.F(v[0]);
    }
};

// ActivationPacked: the forward of the 16-bit types on a packed, 16-byte aligned x and y (one
// run of numel elements). A thread moves kActUnroll 16-byte vectors of x (8 elements each), all
// loaded before the first is computed, so 64 bytes a thread are in flight while the fp32
// arithmetic runs; a block covers kActThreads * kActUnroll vectors. The numel % 8 tail goes to
// the last block. The blend is MapVec's (f(x) + beta * y, rounded once).
constexpr int kActThreads = 256;
constexpr int kActUnroll  = 4;

template <class T, bool ReadOut, class F>
__global__ void __launch_bounds__(kActThreads) ActivationPacked(MapArgs<1, T> a, F f)
{
    constexpr int W  = kVecOf<T>;
    const T* x       = static_cast<const T*>(a.in[0]);
    const int64_t nq = a.s.numel / W;
    const int64_t q0 = int64_t{blockIdx.x} * (kActThreads * kActUnroll) + threadIdx.x;
    float v[kActUnroll][W];
    float o[kActUnroll][W];
#pragma unroll
    for(int u = 0; u < kActUnroll; ++u)
    {
        const int64_t q = q0 + u * kActThreads;
        if(q >= nq)
            continue;
        LoadVec<T, W>(x + q * W, v[u]);
        if(ReadOut)
            LoadVec<T, W>(a.out + q * W, o[u]);
    }
#pragma unroll
    for(int u = 0; u < kActUnroll; ++u)
    {
        const int64_t q = q0 + u * kActThreads;
        if(q >= nq)
            continue;
        float r[W];
#pragma unroll
        for(int j = 0; j < W; ++j)
        {
            r[j] = f(&v[u][j]);
            if(ReadOut)
                r[j] += a.beta * o[u][j];
        }
        StoreVec<T, W>(a.out + q * W, r);
    }
    if(blockIdx.x == gridDim.x - 1)
    {
        const int64_t i = nq * W + threadIdx.x;
        if(i < a.s.numel)
        {
            const float xi = LoadFloat(x + i);
            BlendStore<ReadOut>(a.out + i, f(&xi), a.beta);
        }
    }
}

/// ActivationPacked where x and y are one packed, aligned run (PackedMapApplies), else the
/// engine's kernels; f is the fast forward.
template <class T, class F>
void LaunchForward16(const MapArgs<1, T>& a, const Launch& l, bool read_out, F f)
{
    constexpr int64_t per = int64_t{kActThreads} * kActUnroll;
    const int64_t nq      = a.s.numel / kVecOf<T>;
    if(!PackedMapApplies(a) || (nq + per - 1) / per >= (int64_t{1} << 31))
        return LaunchMapPackedOr(a, l, read_out, f);
    Launch p;
    p.grid.x  = static_cast<unsigned>(nq > 0 ? (nq + per - 1) / per : 1);
    p.block.x = kActThreads;
    p.stream  = l.stream;
    if(read_out)
        MIOPEN_CY_LAUNCH((ActivationPacked<T, true, F>), p, 0, a, f);
    else
        MIOPEN_CY_LAUNCH((ActivationPacked<T, false, F>), p, 0, a, f);
}

template <class Op, bool Fast = false>
struct Backward
{
    Op op;
    float alpha;
    __device__ float operator()(const float* v) const
    {
        if constexpr(Fast)
            return alpha * FastBack(op, v[1], v[0]);
        else
            return alpha * op.Back(v[1], v[0]);
    }
};

/// Calls fn(op) with the functor of the mode.
template <class Fn>
void WithMode(const ActivationMode& m, Fn&& fn)
{
    switch(m.mode)
    {
    case miopenActivationPASTHRU: return fn(PassThru{});
    case miopenActivationLOGISTIC: return fn(Logistic{});
    case miopenActivationTANH: return fn(Tanh{m.alpha, m.beta});
    case miopenActivationRELU: return fn(Relu{});
    case miopenActivationSOFTRELU: return fn(SoftRelu{});
    case miopenActivationABS: return fn(Abs{});
    case miopenActivationPOWER:
        return fn(Power{m.alpha, m.beta, m.gamma, m.beta * m.gamma, m.gamma - 1.0f});
    case miopenActivationCLIPPEDRELU: return fn(ClippedRelu{m.alpha});
    case miopenActivationLEAKYRELU: return fn(LeakyRelu{m.alpha});
    default: return fn(Elu{m.alpha});
    }
}

} // namespace

template <class T>
void LaunchActivationFwd(const MapArgs<1, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out)
{
    WithMode(m, [&](auto op) {
        using Op = decltype(op);
        if constexpr(sizeof(T) == 2)
            LaunchForward16(a, l, read_out, Forward<Op, true>{op, alpha});
        else
            LaunchMapPackedOr(a, l, read_out, Forward<Op>{op, alpha});
    });
}

template <class T>
void LaunchActivationBwd(const MapArgs<2, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out)
{
    WithMode(m, [&](auto op) {
        LaunchMapPackedOr(a, l, read_out, Backward<decltype(op), sizeof(T) == 2>{op, alpha});
    });
}

#define MIOPEN_CY_ACTIVATION_KERNELS(T)                                                           \
    template void LaunchActivationFwd<T>(const MapArgs<1, T>&, const Launch&,                     \
                                         const ActivationMode&, float, bool);                     \
    template void LaunchActivationBwd<T>(const MapArgs<2, T>&, const Launch&,                     \
                                         const ActivationMode&, float, bool);
MIOPEN_CY_ACTIVATION_KERNELS(float)
MIOPEN_CY_ACTIVATION_KERNELS(Half)
MIOPEN_CY_ACTIVATION_KERNELS(BFloat16)
#undef MIOPEN_CY_ACTIVATION_KERNELS

} // namespace miopen::gpu
