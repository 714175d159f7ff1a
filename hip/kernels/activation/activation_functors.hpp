// The ten activation modes as device functors, f(x) (F) and f'(x)·dy (Back), with the fast
// 16-bit forms (FastF, FastBack) and WithMode, which calls a function with the functor of a mode.
// One definition for every kernel that applies an activation: activation.hip's element-wise
// kernels, and the fused epilogues of the fusion plans (common/epilogue.hpp), so that fused and
// unfused activations give the same values.
// The functors are written as the CPU kernels' (cpu/activation.cpp) so that both backends give
// the same values at the kinks, for NaN and at the ends of the range (see activation/activation.hpp):
// SOFTRELU and the derivatives of LOGISTIC and TANH are computed so that they neither overflow
// nor cancel; POWER's zero base gives 0. Device code: include from .hip files only.
#pragma once

#include "kernels/activation/activation_kernels.hpp"
#include "kernels/common/device.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {

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

} // namespace miopen::gpu
