// The column matrix of the general GEMM convolution solvers on the GPU (im2col.hip): MIOpen's
// GemmFwdRest, GemmBwdRest and GemmWrwUniversal, which run im2col / col2im of one image and
// group around our SGEMM (sgemm.hpp). Plain C++.
#pragma once

#include "kernels/conv/conv_kernels.hpp"

#include <cstdint>

namespace miopen::gpu {

/// col (rows (c, fd, fh, fw) of group grp's channels x columns (od, oh, ow), packed) of image n:
/// x at od * stride - pad + fd * dilation (each spatial dim), 0 where that falls in the padding.
/// Any geometry and strides of ConvKArgs; every element of col is written.
void LaunchIm2Col(const ConvKArgs& a, void* stream, int64_t n, int64_t grp, const float* x, float* col);

/// The adjoint: dx of image n, group grp's channels = for each input position the sum, over the
/// taps (fd, fh, fw) that reach it, of col at (channel, tap) x (the output position it reaches),
/// in tap order (a gather: deterministic); every element of those dx channels is written.
void LaunchCol2Im(const ConvKArgs& a, void* stream, int64_t n, int64_t grp, const float* col, float* dx);

/// dst[i] = src[i] (first) or dst[i] + src[i], i < count: the image-order sum of the per-image
/// weight gradients (GemmWrwUniversal).
void LaunchAccumulate(void* stream, int64_t count, bool first, const float* src, float* dst);

} // namespace miopen::gpu
