// CPU kernels of miopenActivationForward / Backward. One functor per mode gives f(x) and
// f'(x)·dy; one loop template per direction runs it over ForEachRow (cpu/elementwise.hpp): a
// unit-stride row is one `omp simd` loop, a strided row is gathered into a small block, computed
// vectorised and scattered back, so transcendental modes vectorise whatever the layout. Large
// outputs of memory-bound modes are written with streaming stores (kStreamBytes). fp16 and bf16
// run the same functors through MapTyped (blocks converted to fp32, one rounding on store).
#include "activation/activation_args.hpp"
#include "cpu/elementwise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__AVX__)
#include <immintrin.h>
#endif

// glibc's math.h declares the libmvec vector variants of expf, tanhf, ... only under
// -ffast-math, which we do not use (it would break NaN/Inf handling). Declaring them here lets
// the compiler call the vector variants from `omp simd` loops (libmvec's documented accuracy:
// within 4 ulp; special values handled). libm.so pulls in libmvec.so as needed.
#if defined(__x86_64__) && defined(__GLIBC__) && defined(_OPENMP)
extern "C" {
#pragma omp declare simd notinbranch
float expf(float) noexcept;
#pragma omp declare simd notinbranch
float expm1f(float) noexcept;
#pragma omp declare simd notinbranch
float log1pf(float) noexcept;
#pragma omp declare simd notinbranch
float tanhf(float) noexcept;
#pragma omp declare simd notinbranch
float powf(float, float) noexcept;
}
#endif

namespace miopen::cpu {
namespace {

// ---- the modes: f(x) and Back(x, dy) = f'(x)·dy ------------------------------------------
// Comparisons are written so that a NaN x gives a NaN y. kMemoryBound: a few instructions per
// element, so large tensors are limited by memory traffic (see kStreamBytes).

struct PassThru
{
    static constexpr bool kMemoryBound = true;
    float operator()(float x) const { return x; }
    float Back(float, float dy) const { return dy; }
};

/// 1/(1+e^-x) as written: relative accuracy holds for every normal result (e^-x is
/// relative-accurate, and so is the division), and e^-x = inf for x < -88.7 gives 0 where the
/// true value is below 2.7e-39 (subnormal). Derivative s(1-s) = e/(1+e)² with e = e^-|x|, which
/// never overflows and does not cancel where s rounds to 1.
struct Logistic
{
    static constexpr bool kMemoryBound = false;
    float operator()(float x) const { return 1.0f / (1.0f + expf(-x)); }
    float Back(float x, float dy) const
    {
        const float e = expf(-std::fabs(x));
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
    float operator()(float x) const { return b * tanhf(a * x); }
    float Back(float x, float dy) const
    {
        const float e = expf(-2.0f * std::fabs(a * x));
        const float r = 1.0f / (1.0f + e);
        return dy * (4.0f * a * b) * (e * r * r);
    }
};

struct Relu
{
    static constexpr bool kMemoryBound = true;
    float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
    float Back(float x, float dy) const { return x > 0.0f ? dy : 0.0f; }
};

/// log(1+e^x) = max(x, 0) + log1p(e^-|x|): no overflow for large x, and log1p keeps ≈ e^x
/// accurate for very negative x. Derivative: the logistic function.
struct SoftRelu
{
    static constexpr bool kMemoryBound = false;
    float operator()(float x) const
    {
        return (x > 0.0f ? x : 0.0f) + log1pf(expf(-std::fabs(x)));
    }
    float Back(float x, float dy) const
    {
        const float e = expf(-std::fabs(x));
        const float r = 1.0f / (1.0f + e);
        return dy * (x >= 0.0f ? r : e * r);
    }
};

struct Abs
{
    static constexpr bool kMemoryBound = true;
    float operator()(float x) const { return std::fabs(x); }
    float Back(float x, float dy) const { return x >= 0.0f ? dy : -dy; }
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
    float operator()(float x) const
    {
        const float base = a + b * x;
        return base == 0.0f ? 0.0f : powf(base, g);
    }
    float Back(float x, float dy) const
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
    float operator()(float x) const
    {
        const float m = x < 0.0f ? 0.0f : x;
        return m > a ? a : m;
    }
    float Back(float x, float dy) const { return x > 0.0f && x < a ? dy : 0.0f; }
};

struct LeakyRelu
{
    static constexpr bool kMemoryBound = true;
    float a;
    float operator()(float x) const { return x > 0.0f ? x : a * x; }
    float Back(float x, float dy) const { return x > 0.0f ? dy : a * dy; }
};

/// α·(e^x − 1) through expm1, accurate near 0.
struct Elu
{
    static constexpr bool kMemoryBound = false;
    float a;
    float operator()(float x) const
    {
        const float e = expm1f(x);
        return x > 0.0f ? x : a * e;
    }
    float Back(float x, float dy) const
    {
        const float e = expf(x);
        return x >= 0.0f ? dy : a * e * dy;
    }
};

// ---- the loops ----------------------------------------------------------------------------

/// Elements per gathered block of a strided row: small enough to stay in L1 (two blocks of
/// floats for backward), large enough to amortise the loop overhead.
constexpr size_t kBlock = 512;

/// Streaming (non-temporal) stores pay off when the tensors touched do not fit in the last-level
/// cache anyway (32 MiB on the machine this was tuned on; sysconf's figure is not trustworthy in
/// VMs), and only for memory-bound modes: measured on (8,64,112,112), RELU forward gains ~15%,
/// while LOGISTIC, whose time is computation, loses ~20%. Below the threshold the output is
/// left in cache for the next layer.
constexpr size_t kStreamBytes = size_t(48) << 20;

/// dst[0, n) = src[0, n) with non-temporal stores where the target has them: the output of a
/// large tensor is not read back soon, so it skips the read-for-ownership of each line.
inline void StreamStore(float* dst, const float* src, size_t n)
{
    size_t i = 0;
#if defined(__AVX512F__) || defined(__AVX__)
#if defined(__AVX512F__)
    constexpr size_t kLanes = 16;
#else
    constexpr size_t kLanes = 8;
#endif
    for(; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) % (kLanes * 4)) != 0; ++i)
        dst[i] = src[i];
    for(; i + kLanes <= n; i += kLanes)
#if defined(__AVX512F__)
        _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
#else
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
#endif
#endif
    for(; i < n; ++i)
        dst[i] = src[i];
}

inline void StreamFence()
{
#if defined(__AVX__)
    _mm_sfence();
#endif
}

template <bool ReadOut>
inline float Blended(float v, float alpha, float beta, float out)
{
    return ReadOut ? alpha * v + beta * out : alpha * v;
}

template <bool ReadY, class Op>
void ForwardRows(const Op& op, float alpha, float beta, const TensorDescriptor& xDesc,
                 const float* x, const TensorDescriptor& yDesc, float* y)
{
    const auto loop = MakeLoop<2>(yDesc.NumDims(), yDesc.Lens().data(),
                                  {StridesOf(xDesc), StridesOf(yDesc)});
    const bool stream = !ReadY && Op::kMemoryBound &&
                        2 * yDesc.ElementSize() * sizeof(float) >= kStreamBytes;
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        // Local copies: values reached through a reference may alias y, and GCC then reloads
        // them every iteration and gives up on vectorising (libmvec calls included).
        const Op f      = op;
        const float al  = alpha;
        const float be  = beta;
        const float* xr = x + off[0];
        float* yr       = y + off[1];
        alignas(64) float buf[kBlock];
        if(s[0] == 1 && s[1] == 1)
        {
            if(stream)
            {
                for(size_t start = 0; start < n; start += kBlock)
                {
                    const size_t m  = std::min(kBlock, n - start);
                    const float* xb = xr + start;
#pragma omp simd
                    for(size_t i = 0; i < m; ++i)
                        buf[i] = al * f(xb[i]);
                    StreamStore(yr + start, buf, m);
                }
                StreamFence();
                return;
            }
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                yr[i] = Blended<ReadY>(f(xr[i]), al, be, ReadY ? yr[i] : 0.0f);
            return;
        }
        for(size_t start = 0; start < n; start += kBlock)
        {
            const size_t m  = std::min(kBlock, n - start);
            const float* xb = xr + start * s[0];
            float* yb       = yr + start * s[1];
            for(size_t i = 0; i < m; ++i)
                buf[i] = xb[i * s[0]];
#pragma omp simd
            for(size_t i = 0; i < m; ++i)
                buf[i] = f(buf[i]);
            for(size_t i = 0; i < m; ++i)
                yb[i * s[1]] = Blended<ReadY>(buf[i], al, be, ReadY ? yb[i * s[1]] : 0.0f);
        }
    });
}

template <bool ReadDx, class Op>
void BackwardRows(const Op& op, float alpha, float beta, const TensorDescriptor& dyDesc,
                  const float* dy, const TensorDescriptor& xDesc, const float* x,
                  const TensorDescriptor& dxDesc, float* dx)
{
    const auto loop = MakeLoop<3>(dxDesc.NumDims(), dxDesc.Lens().data(),
                                  {StridesOf(dyDesc), StridesOf(xDesc), StridesOf(dxDesc)});
    const bool stream = !ReadDx && Op::kMemoryBound &&
                        3 * dxDesc.ElementSize() * sizeof(float) >= kStreamBytes;
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        const Op f       = op; // local copies: see ForwardRows
        const float al   = alpha;
        const float be   = beta;
        const float* dyr = dy + off[0];
        const float* xr  = x + off[1];
        float* dxr       = dx + off[2];
        alignas(64) float bx[kBlock];
        alignas(64) float bdy[kBlock];
        if(s[0] == 1 && s[1] == 1 && s[2] == 1)
        {
            if(stream)
            {
                for(size_t start = 0; start < n; start += kBlock)
                {
                    const size_t m   = std::min(kBlock, n - start);
                    const float* dyb = dyr + start;
                    const float* xb  = xr + start;
#pragma omp simd
                    for(size_t i = 0; i < m; ++i)
                        bx[i] = al * f.Back(xb[i], dyb[i]);
                    StreamStore(dxr + start, bx, m);
                }
                StreamFence();
                return;
            }
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                dxr[i] = Blended<ReadDx>(f.Back(xr[i], dyr[i]), al, be, ReadDx ? dxr[i] : 0.0f);
            return;
        }
        for(size_t start = 0; start < n; start += kBlock)
        {
            const size_t m   = std::min(kBlock, n - start);
            const float* dyb = dyr + start * s[0];
            const float* xb  = xr + start * s[1];
            float* dxb       = dxr + start * s[2];
            for(size_t i = 0; i < m; ++i)
            {
                bdy[i] = dyb[i * s[0]];
                bx[i]  = xb[i * s[1]];
            }
#pragma omp simd
            for(size_t i = 0; i < m; ++i)
                bx[i] = f.Back(bx[i], bdy[i]);
            for(size_t i = 0; i < m; ++i)
                dxb[i * s[2]] = Blended<ReadDx>(bx[i], al, be, ReadDx ? dxb[i * s[2]] : 0.0f);
        }
    });
}

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

/// fp16 / bf16: the same functor over MapTyped's fp32 blocks.
template <class T, class Op>
void ForwardTyped(const Op& op, float alpha, float beta, const TensorDescriptor& xDesc,
                  const T* x, const TensorDescriptor& yDesc, T* y)
{
    MapTyped<T, 1>(yDesc, {StridesOf(xDesc), StridesOf(yDesc)}, {x}, y, beta,
                   [op, alpha](const float* const* v, float* r, size_t m) {
                       const Op f      = op; // local copies: see ForwardRows
                       const float al  = alpha;
                       const float* xv = v[0];
#pragma omp simd
                       for(size_t i = 0; i < m; ++i)
                           r[i] = al * f(xv[i]);
                   });
}

template <class T, class Op>
void BackwardTyped(const Op& op, float alpha, float beta, const TensorDescriptor& dyDesc,
                   const T* dy, const TensorDescriptor& xDesc, const T* x,
                   const TensorDescriptor& dxDesc, T* dx)
{
    MapTyped<T, 2>(dxDesc, {StridesOf(dyDesc), StridesOf(xDesc), StridesOf(dxDesc)}, {dy, x}, dx,
                   beta, [op, alpha](const float* const* v, float* r, size_t m) {
                       const Op f       = op; // local copies: see ForwardRows
                       const float al   = alpha;
                       const float* dyv = v[0];
                       const float* xv  = v[1];
#pragma omp simd
                       for(size_t i = 0; i < m; ++i)
                           r[i] = al * f.Back(xv[i], dyv[i]);
                   });
}

} // namespace

template <class T>
void ActivationForward(const ActivationParams& p, float alpha, const TensorDescriptor& xDesc,
                       const T* x, float beta, const TensorDescriptor& yDesc, T* y)
{
    WithMode(p, [&](const auto& op) {
        if constexpr(!std::is_same_v<T, float>)
            ForwardTyped(op, alpha, beta, xDesc, x, yDesc, y);
        else if(beta == 0.0f)
            ForwardRows<false>(op, alpha, beta, xDesc, x, yDesc, y);
        else
            ForwardRows<true>(op, alpha, beta, xDesc, x, yDesc, y);
    });
}

template <class T>
void ActivationBackward(const ActivationParams& p, float alpha, const TensorDescriptor& dyDesc,
                        const T* dy, const TensorDescriptor& xDesc, const T* x, float beta,
                        const TensorDescriptor& dxDesc, T* dx)
{
    WithMode(p, [&](const auto& op) {
        if constexpr(!std::is_same_v<T, float>)
            BackwardTyped(op, alpha, beta, dyDesc, dy, xDesc, x, dxDesc, dx);
        else if(beta == 0.0f)
            BackwardRows<false>(op, alpha, beta, dyDesc, dy, xDesc, x, dxDesc, dx);
        else
            BackwardRows<true>(op, alpha, beta, dyDesc, dy, xDesc, x, dxDesc, dx);
    });
}

#define MIOPEN_CY_ACTIVATION(T)                                                                   \
    template void ActivationForward<T>(const ActivationParams&, float, const TensorDescriptor&,   \
                                       const T*, float, const TensorDescriptor&, T*);             \
    template void ActivationBackward<T>(const ActivationParams&, float, const TensorDescriptor&,  \
                                        const T*, const TensorDescriptor&, const T*, float,       \
                                        const TensorDescriptor&, T*);
MIOPEN_CY_ACTIVATION(float)
MIOPEN_CY_ACTIVATION(Half)
MIOPEN_CY_ACTIVATION(BFloat16)
#undef MIOPEN_CY_ACTIVATION

} // namespace miopen::cpu
