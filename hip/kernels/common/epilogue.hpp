// The fused convolution epilogue in device code: what a convolution kernel's store stage applies
// to each fp32 accumulator of output channel k before the one rounding to the storage type, for
// the fusion plans of hip/src/fusion (residual, bias and batch-norm inference folded by the host
// side into a per-channel scale and shift, conv/conv_args.hpp's ConvEpilogueParams):
//
//   y = act(scale[k] * (alpha * acc + alpha2 * z) + shift[k])
//
// A kernel takes a ConvEpilogueK by value (built from ConvEpilogueParams by EpilogueOf) and, in
// its store, writes DeviceFloatTo<T>(EpilogueApply(e, acc, k, i)) (i: y's element index, for z),
// behind a template flag, so that the plain convolution's code and bits are unchanged. The
// activation goes through the functors of kernels/activation/activation_functors.hpp (the 16-bit
// types through their fast forms, FastF, as activation.hip's forward), so that fused and unfused
// activations stay one code; the mode is a run-time value (one uniform switch an element) rather
// than a template, which would multiply the convolution kernels' instantiations by ten.
// The one-pass kernel of kernels/fusion/epilogue_pass.hip applies the same formula.
#pragma once

#include "conv/conv_args.hpp"
#include "kernels/activation/activation_functors.hpp"
#include "kernels/common/storage_types.hpp"

#include <cstddef>

#include <miopen/miopen.h>

namespace miopen::gpu {

template <class T>
struct ConvEpilogueK
{
    const float* scale = nullptr; // K values; null: 1
    const float* shift = nullptr; // K values; null: 0
    const T* z         = nullptr; // y's type and element index; null: no residual
    float alpha        = 1.0f;
    float alpha2       = 0.0f;
    int act            = miopenActivationPASTHRU;
    float act_alpha = 0.0f, act_beta = 0.0f, act_gamma = 0.0f;
};

/// The kernel's view of a fusion plan's epilogue (host side; null: the default, unused).
template <class T>
inline ConvEpilogueK<T> EpilogueOf(const ConvEpilogueParams* p)
{
    ConvEpilogueK<T> e;
    if(p == nullptr)
        return e;
    e.scale     = p->scale;
    e.shift     = p->shift;
    e.z         = static_cast<const T*>(p->z);
    e.alpha     = p->alpha;
    e.alpha2    = p->alpha2;
    e.act       = p->act;
    e.act_alpha = p->act_alpha;
    e.act_beta  = p->act_beta;
    e.act_gamma = p->act_gamma;
    return e;
}

/// The affine part of the epilogue for output channel k at y's element index i.
template <class T>
__device__ inline float EpilogueAffine(const ConvEpilogueK<T>& e, float acc, int k, size_t i)
{
    const float s = e.scale != nullptr ? e.scale[k] : 1.0f;
    float v       = e.alpha * acc;
    if(e.z != nullptr)
        v = fmaf(e.alpha2, LoadFloat(e.z + i), v);
    return fmaf(s, v, e.shift != nullptr ? e.shift[k] : 0.0f);
}

/// f(v) of the activation functor of mode `act` (the 16-bit types through FastF).
template <class T, class Op>
__device__ inline float EpilogueAct(const Op& op, float v)
{
    if constexpr(sizeof(T) == 2)
        return FastF(op, v);
    else
        return op.F(v);
}

template <class T>
__device__ inline float EpilogueActivate(const ConvEpilogueK<T>& e, float v)
{
    switch(e.act)
    {
    case miopenActivationPASTHRU: return v;
    case miopenActivationLOGISTIC: return EpilogueAct<T>(Logistic{}, v);
    case miopenActivationTANH: return EpilogueAct<T>(Tanh{e.act_alpha, e.act_beta}, v);
    case miopenActivationRELU: return EpilogueAct<T>(Relu{}, v);
    case miopenActivationSOFTRELU: return EpilogueAct<T>(SoftRelu{}, v);
    case miopenActivationABS: return EpilogueAct<T>(Abs{}, v);
    case miopenActivationPOWER:
        return EpilogueAct<T>(Power{e.act_alpha, e.act_beta, e.act_gamma, e.act_beta * e.act_gamma,
                                    e.act_gamma - 1.0f},
                              v);
    case miopenActivationCLIPPEDRELU: return EpilogueAct<T>(ClippedRelu{e.act_alpha}, v);
    case miopenActivationLEAKYRELU: return EpilogueAct<T>(LeakyRelu{e.act_alpha}, v);
    default: return EpilogueAct<T>(Elu{e.act_alpha}, v);
    }
}

/// The activation on N values of one thread at once: one uniform switch for all N (a store
/// stage that holds N consecutive channels in registers).
template <class T, int N>
__device__ inline void EpilogueActivateN(const ConvEpilogueK<T>& e, float (&v)[N])
{
    auto each = [&](const auto& op) {
#pragma unroll
        for(int j = 0; j < N; ++j)
            v[j] = EpilogueAct<T>(op, v[j]);
    };
    switch(e.act)
    {
    case miopenActivationPASTHRU: return;
    case miopenActivationLOGISTIC: each(Logistic{}); return;
    case miopenActivationTANH: each(Tanh{e.act_alpha, e.act_beta}); return;
    case miopenActivationRELU: each(Relu{}); return;
    case miopenActivationSOFTRELU: each(SoftRelu{}); return;
    case miopenActivationABS: each(Abs{}); return;
    case miopenActivationPOWER:
        each(Power{e.act_alpha, e.act_beta, e.act_gamma, e.act_beta * e.act_gamma,
                   e.act_gamma - 1.0f});
        return;
    case miopenActivationCLIPPEDRELU: each(ClippedRelu{e.act_alpha}); return;
    case miopenActivationLEAKYRELU: each(LeakyRelu{e.act_alpha}); return;
    default: each(Elu{e.act_alpha}); return;
    }
}

/// The whole epilogue: the affine part, then the activation (rounded by the caller's store).
template <class T>
__device__ inline float EpilogueApply(const ConvEpilogueK<T>& e, float acc, int k, size_t i)
{
    return EpilogueActivate(e, EpilogueAffine(e, acc, k, i));
}

} // namespace miopen::gpu
