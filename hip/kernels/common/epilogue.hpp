// The fused convolution epilogue in device code: what a convolution kernel's store stage applies
// to each fp32 accumulator of output channel k before the one rounding to the storage type, for
// the fusion plans of hip/src/fusion (residual, bias and batch-norm inference folded by the host
// into a per-channel scale and shift, as fusion/fusion_args.hpp's ConvEpilogueArgs holds them):
//
//   y = act(scale[k] * acc + alpha2 * scale[k] * z + shift[k])
//
// The hook for the GPU convolution kernels (not yet wired into any of them): a kernel takes a
// ConvEpilogueK by value (scale and shift as device arrays of K floats) and, in its store,
//   StoreFloat(y + i, act(EpilogueAffine(e, acc, k, i)))
// with `act` one of the functors of kernels/activation/activation_functors.hpp (PassThru when
// there is no activation), the ones activation.hip applies, so that fused and unfused
// activations stay one code.
#pragma once

#include "kernels/common/storage_types.hpp"

#include <cstddef>

namespace miopen::gpu {

template <class T>
struct ConvEpilogueK
{
    const float* scale = nullptr; // K values; null: 1
    const float* shift = nullptr; // K values; null: 0
    const T* z         = nullptr; // y's type and element index; null: no residual
    float alpha2       = 0.0f;
};

/// The affine part of the epilogue for output channel k at y's element index i.
template <class T>
__device__ inline float EpilogueAffine(const ConvEpilogueK<T>& e, float acc, int k, size_t i)
{
    const float s = e.scale != nullptr ? e.scale[k] : 1.0f;
    float v       = acc;
    if(e.z != nullptr)
        v = fmaf(e.alpha2, LoadFloat(e.z + i), v);
    return fmaf(s, v, e.shift != nullptr ? e.shift[k] : 0.0f);
}

} // namespace miopen::gpu
