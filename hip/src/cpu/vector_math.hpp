// exp and log for float that GCC vectorises inside `omp simd` loops. glibc declares its vector
// math (libmvec) only under -ffast-math, which this library does not use, so a loop calling
// std::exp / std::log runs the scalar functions (several ns per element). These are plain C++:
// range reduction, a polynomial fitted for relative error, and the exponent built in the bits.
// Accuracy: a few ulp (max relative error below 2e-7) over the whole float range; IEEE specials
// (NaN, +-inf, 0, denormal inputs) handled.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace miopen::cpu::vmath {

// Always inlined: they vectorise only inside the caller's loop, and in a file that instantiates
// many loops (cpu/activation.cpp: ten modes, both directions, every path) GCC's growth limits
// left them as scalar calls, ELU forward and backward at about 7 ns an element.
#define MIOPEN_CY_VMATH inline __attribute__((always_inline))

MIOPEN_CY_VMATH float FromBits(int32_t b)
{
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

MIOPEN_CY_VMATH int32_t ToBits(float f)
{
    int32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

/// a << 23 and a + b on the bit patterns, done as unsigned (wrapping) arithmetic: the signed
/// forms are undefined for negative or overflowing values (UBSan), and the bits are the same.
MIOPEN_CY_VMATH int32_t Shl23(int32_t a) { return static_cast<int32_t>(static_cast<uint32_t>(a) << 23); }
MIOPEN_CY_VMATH int32_t AddBits(int32_t a, int32_t b)
{
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
MIOPEN_CY_VMATH int32_t SubBits(int32_t a, int32_t b)
{
    return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

constexpr float kLog2e     = 1.44269504088896341f;
constexpr float kLn2Hi     = 0.693145751953125f; // ln 2 = kLn2Hi + kLn2Lo, kLn2Hi has 16 bits
constexpr float kLn2Lo     = 1.428606765330187045e-06f;
constexpr float kRound     = 12582912.0f;        // 1.5 * 2^23: t + kRound rounds t to an integer
constexpr int32_t kRoundBits = 0x4B400000;       // the bits of kRound

/// e^r for |r| <= ln2 / 2: degree-6 polynomial, relative error 3e-9 on the interval.
MIOPEN_CY_VMATH float ExpReduced(float r)
{
    const float q = std::fma(
        std::fma(std::fma(std::fma(0.0013814518f, r, 0.008368711f), r, 0.04166839f), r,
                 0.16666521f),
        r, 0.49999994f);
    return std::fma(q, r * r, r) + 1.0f;
}

/// exp(x) for x <= 0 (and NaN): cheaper than Exp where the argument is x - max(x). Results below
/// FLT_MIN flush to 0.
MIOPEN_CY_VMATH float ExpNonPositive(float x)
{
    const float t = std::fma(x, kLog2e, kRound);
    const float n = t - kRound;
    float r       = std::fma(n, -kLn2Hi, x);
    r             = std::fma(n, -kLn2Lo, r);
    // 2^n is added to the exponent bits of e^r (in [0.7, 1.5)): an integer add, no multiply.
    const float v = FromBits(AddBits(ToBits(ExpReduced(r)), Shl23(SubBits(ToBits(t), kRoundBits))));
    return x < -87.33654f ? 0.0f : v;
}

/// exp(x) for any x; 2^n is applied as two factors so that both stay in range from the
/// denormals to FLT_MAX.
MIOPEN_CY_VMATH float Exp(float x)
{
    float xc       = x < -104.0f ? -104.0f : x; // comparisons keep NaN
    xc             = xc > 89.0f ? 89.0f : xc;
    const float t  = std::fma(xc, kLog2e, kRound);
    const float n  = t - kRound;
    const int32_t e  = ToBits(t) - kRoundBits;
    const int32_t e1 = e >> 1;
    const int32_t e2 = e - e1;
    float r          = std::fma(n, -kLn2Hi, xc);
    r                = std::fma(n, -kLn2Lo, r);
    const float v = ExpReduced(r) * FromBits(Shl23(e1 + 127)) * FromBits(Shl23(e2 + 127));
    return x > 88.72283935546875f ? std::numeric_limits<float>::infinity() : v;
}

/// e^x - 1: near 0 (|x| < 0.5, where Exp(x) - 1 would lose the low bits to cancellation) its
/// Taylor polynomial to x^8 / 8! (truncation below 1e-8 relative), elsewhere Exp(x) - 1 (the
/// result at least 0.39 in magnitude there: relative error below 5e-7). glibc's expm1f has a
/// vector variant in libmvec, but GCC 12 does not call it from `omp simd` loops (expf it does),
/// so a scalar expm1f made ELU 20x slower than its neighbours on AVX2 builds.
MIOPEN_CY_VMATH float Expm1(float x)
{
    float p = std::fma(x, 1.0f / 40320.0f, 1.0f / 5040.0f);
    p       = std::fma(p, x, 1.0f / 720.0f);
    p       = std::fma(p, x, 1.0f / 120.0f);
    p       = std::fma(p, x, 1.0f / 24.0f);
    p       = std::fma(p, x, 1.0f / 6.0f);
    p       = std::fma(p, x, 0.5f);
    p       = std::fma(p, x * x, x);
    const float e = Exp(x) - 1.0f;
    return std::fabs(x) < 0.5f ? p : e; // NaN: the comparison is false, e is NaN
}

/// log(x): x = 2^e * m with m in [sqrt(1/2), sqrt(2)), log(m) = f - f^2/2 + f^3 P(f), f = m - 1
/// (P of degree 6, relative error 3e-8 on the interval).
MIOPEN_CY_VMATH float Log(float x)
{
    const bool tiny   = x < 1.17549435e-38f; // denormal (or <= 0): scale into the normal range
    const float xs    = tiny ? x * 8388608.0f : x;
    const int32_t b   = ToBits(xs);
    const int32_t e   = SubBits(b, 0x3f3504f3) >> 23; // 0x3f3504f3 = sqrt(1/2)
    const float f     = FromBits(SubBits(b, Shl23(e))) - 1.0f;
    float p           = std::fma(0.08698711544275284f, f, -0.14266952872276306f);
    p                 = std::fma(p, f, 0.14915139973163605f);
    p                 = std::fma(p, f, -0.16577668488025665f);
    p                 = std::fma(p, f, 0.19963034987449646f);
    p                 = std::fma(p, f, -0.2500133514404297f);
    p                 = std::fma(p, f, 0.333339124917984f);
    const float f2    = f * f;
    const float r     = std::fma(f2 * f, p, std::fma(-0.5f, f2, f));
    const float ef    = static_cast<float>(e) - (tiny ? 23.0f : 0.0f); // a float select vectorises
    float v           = std::fma(ef, kLn2Hi, std::fma(ef, kLn2Lo, r));
    v = x == std::numeric_limits<float>::infinity() ? x : v;
    v = x == 0.0f ? -std::numeric_limits<float>::infinity() : v;
    return x >= 0.0f ? v : std::numeric_limits<float>::quiet_NaN(); // x < 0 or NaN
}

#undef MIOPEN_CY_VMATH

} // namespace miopen::cpu::vmath
