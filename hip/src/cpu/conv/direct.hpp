// Direct convolution kernels on the CPU (any geometry, any strides). See direct.cpp.
#pragma once

#include "conv/conv_geometry.hpp"
#include "core/storage.hpp"

namespace miopen::cpu {

/// T: float, Half or BFloat16 (instantiated in direct.cpp); fp32 accumulation, one rounding.
template <class T>
void ConvFwdDirect(const ConvGeometry& g, const T* x, const T* w, T* y);
template <class T>
void ConvBwdDataDirect(const ConvGeometry& g, T* dx, const T* w, const T* dy);
template <class T>
void ConvBwdWeightsDirect(const ConvGeometry& g, const T* x, T* dw, const T* dy);

} // namespace miopen::cpu
