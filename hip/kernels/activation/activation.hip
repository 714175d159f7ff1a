// activation_fwd / activation_bwd: the ten activation modes on the element-wise engine
// (common/elementwise.hpp) for fp32, fp16 and bf16: any strides, 16-byte rows on packed tensors.
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

template <class Op>
struct Forward
{
    Op op;
    float alpha;
    __device__ float operator()(const float* v) const { return alpha * op.F(v[0]); }
};

template <class Op>
struct Backward
{
    Op op;
    float alpha;
    __device__ float operator()(const float* v) const { return alpha * op.Back(v[1], v[0]); }
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
        LaunchMapPackedOr(a, l, read_out, Forward<decltype(op)>{op, alpha});
    });
}

template <class T>
void LaunchActivationBwd(const MapArgs<2, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out)
{
    WithMode(m, [&](auto op) {
        LaunchMapPackedOr(a, l, read_out, Backward<decltype(op)>{op, alpha});
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
