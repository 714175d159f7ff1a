// Direct convolution kernels on the CPU (any geometry, any strides). See direct.cpp.
#pragma once

#include "conv/conv_geometry.hpp"

namespace miopen::cpu {

void ConvFwdDirect(const ConvGeometry& g, const float* x, const float* w, float* y);
void ConvBwdDataDirect(const ConvGeometry& g, float* dx, const float* w, const float* dy);
void ConvBwdWeightsDirect(const ConvGeometry& g, const float* x, float* dw, const float* dy);

} // namespace miopen::cpu
