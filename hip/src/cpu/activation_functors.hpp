// The ten activation modes as CPU functors, f(x) (operator()) and f'(x)·dy (Back), and WithMode,
// which calls a function with the functor of a mode. One definition for every CPU kernel that
// applies an activation: cpu/activation.cpp's element-wise loops and the fused batch-norm
// training forward / backward (cpu/batchnorm_*.cpp), so that fused and unfused activations give
// the same values. The GPU's twins are kernels/activation/activation_functors.hpp.
#pragma once

#include "activation/activation_args.hpp"
#include "cpu/vector_math.hpp"

#include <cmath>

// e^x comes from cpu/vector_math.hpp (inlined, so the loops vectorise on any ISA; its error is
// below 2e-7). For tanhf, log1pf and powf, glibc's math.h declares the libmvec vector variants
// only under -ffast-math, which we do not use (it would break NaN/Inf handling); declaring them
// here lets the compiler call the vector variants from `omp simd` loops (libmvec's documented
// accuracy: within 4 ulp; special values handled). libm.so pulls in libmvec.so as needed.
#if defined(__x86_64__) && defined(__GLIBC__) && defined(_OPENMP)
extern "C" {
#pragma omp declare simd notinbranch
float log1pf(float) noexcept;
#pragma omp declare simd notinbranch
float tanhf(float) noexcept;
#pragma omp declare simd notinbranch
float powf(float, float) noexcept;
}
#endif

namespace miopen::cpu::act {

// f and f' always inlined into the callers' `omp simd` loops: a call in the loop body keeps it
// scalar, and in files with many instantiations (cpu/activation.cpp) GCC's growth limits left
// some of them out of line (ELU at about 7 ns an element on an AVX2 build).
#define MIOPEN_CY_ACT_INLINE __attribute__((always_inline))

// ---- the modes: f(x) and Back(x, dy) = f'(x)·dy ------------------------------------------
// Comparisons are written so that a NaN x gives a NaN y. kMemoryBound: a few instructions per
// element, so large tensors are limited by memory traffic (see kStreamBytes).

struct PassThru
{
    static constexpr bool kMemoryBound = true;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const { return x; }
    MIOPEN_CY_ACT_INLINE float Back(float, float dy) const { return dy; }
};

/// 1/(1+e^-x) as written: relative accuracy holds for every normal result (e^-x is
/// relative-accurate, and so is the division), and e^-x = inf for x < -88.7 gives 0 where the
/// true value is below 2.7e-39 (subnormal). Derivative s(1-s) = e/(1+e)² with e = e^-|x|, which
/// never overflows and does not cancel where s rounds to 1.
struct Logistic
{
    static constexpr bool kMemoryBound = false;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const { return 1.0f / (1.0f + vmath::Exp(-x)); }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const
    {
        const float e = vmath::Exp(-std::fabs(x));
        const float r = 1.0f / (1.0f + e);
        return dy * (e * r * r);
    }
};

/// β·tanh(α·x); derivative α·β·sech²(α·x) = α·β·4e/(1+e)² with e = e^(-2|α·x|): no cancellation
/// where tanh rounds to ±1.
struct Tanh
{
    static constexpr bool kMemoryBound = false;
    float a, b;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const { return b * tanhf(a * x); }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const
    {
        const float e = vmath::Exp(-2.0f * std::fabs(a * x));
        const float r = 1.0f / (1.0f + e);
        return dy * (4.0f * a * b) * (e * r * r);
    }
};

struct Relu
{
    static constexpr bool kMemoryBound = true;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const { return x > 0.0f ? dy : 0.0f; }
};

/// log(1+e^x) = max(x, 0) + log1p(e^-|x|): no overflow for large x, and log1p keeps ≈ e^x
/// accurate for very negative x. Derivative: the logistic function.
struct SoftRelu
{
    static constexpr bool kMemoryBound = false;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const
    {
        return (x > 0.0f ? x : 0.0f) + log1pf(vmath::Exp(-std::fabs(x)));
    }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const
    {
        const float e = vmath::Exp(-std::fabs(x));
        const float r = 1.0f / (1.0f + e);
        return dy * (x >= 0.0f ? r : e * r);
    }
};

struct Abs
{
    static constexpr bool kMemoryBound = true;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const { return std::fabs(x); }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const { return x >= 0.0f ? dy : -dy; }
};

/// (α+β·x)^γ with MIOpen's rule that a zero base gives 0; β·γ·(α+β·x)^(γ-1) for the derivative.
struct Power
{
    static constexpr bool kMemoryBound = false;
    float a, b, g, bg, g1;
    Power(float alpha, float beta, float gamma)
        : a(alpha), b(beta), g(gamma), bg(beta * gamma), g1(gamma - 1.0f)
    {
    }
    MIOPEN_CY_ACT_INLINE float operator()(float x) const
    {
        const float base = a + b * x;
        return base == 0.0f ? 0.0f : powf(base, g);
    }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const
    {
        const float base = a + b * x;
        const float at_zero = g == 1.0f ? b : 0.0f;
        return dy * (base == 0.0f ? at_zero : bg * powf(base, g1));
    }
};

/// min(α, max(0, x)), exactly so for α < 0 too (the result is then α everywhere).
struct ClippedRelu
{
    static constexpr bool kMemoryBound = true;
    float a;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const
    {
        const float m = x < 0.0f ? 0.0f : x;
        return m > a ? a : m;
    }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const { return x > 0.0f && x < a ? dy : 0.0f; }
};

struct LeakyRelu
{
    static constexpr bool kMemoryBound = true;
    float a;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const { return x > 0.0f ? x : a * x; }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const { return x > 0.0f ? dy : a * dy; }
};

/// α·(e^x − 1) through expm1, accurate near 0 (vmath's, which vectorises; see Expm1).
struct Elu
{
    static constexpr bool kMemoryBound = false;
    float a;
    MIOPEN_CY_ACT_INLINE float operator()(float x) const
    {
        const float e = vmath::Expm1(x);
        return x > 0.0f ? x : a * e;
    }
    MIOPEN_CY_ACT_INLINE float Back(float x, float dy) const
    {
        const float e = vmath::Exp(x);
        return x >= 0.0f ? dy : a * e * dy;
    }
};

/// Calls fn(op) with the functor of the descriptor's mode.
template <class Fn>
void WithMode(const ActivationParams& p, Fn&& fn)
{
    switch(p.mode)
    {
    case miopenActivationPASTHRU: return fn(PassThru{});
    case miopenActivationLOGISTIC: return fn(Logistic{});
    case miopenActivationTANH: return fn(Tanh{p.alpha, p.beta});
    case miopenActivationRELU: return fn(Relu{});
    case miopenActivationSOFTRELU: return fn(SoftRelu{});
    case miopenActivationABS: return fn(Abs{});
    case miopenActivationPOWER: return fn(Power{p.alpha, p.beta, p.gamma});
    case miopenActivationCLIPPEDRELU: return fn(ClippedRelu{p.alpha});
    case miopenActivationLEAKYRELU: return fn(LeakyRelu{p.alpha});
    case miopenActivationELU: return fn(Elu{p.alpha});
    }
}

#undef MIOPEN_CY_ACT_INLINE

} // namespace miopen::cpu::act
