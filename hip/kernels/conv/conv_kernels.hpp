// Host entry points of the GPU convolution kernels (conv_direct.hip, conv_igemm.hip), called by
// the *_launch.cpp beside them. Plain C++: the argument struct (conv/conv_args.hpp) is built on
// the host and passed by value.
#pragma once

#include "conv/conv_args.hpp"
#include "core/storage.hpp"
#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// Naive direct kernels: one thread per output element (forward, backward data); one block per
/// weight-gradient element with a fixed-order block reduction (backward weights). Any geometry,
/// any strides, no workspace; deterministic. T: float, Half or BFloat16 (fp32 accumulation, one
/// rounding to T).
template <class T>
void LaunchConvNaiveFwd(const ConvKArgs& a, void* stream, int sms, const T* x, const T* w, T* y);
template <class T>
void LaunchConvNaiveBwd(const ConvKArgs& a, void* stream, int sms, T* dx, const T* w, const T* dy);
template <class T>
void LaunchConvNaiveWrw(const ConvKArgs& a, void* stream, int sms, const T* x, T* dw, const T* dy);

/// Implicit GEMM, one direction per call (backward data by stride phases: no zero terms). `variant` is a row of kIgemmTiles (conv/conv_args.hpp). Backward
/// weights splits the reduction over n and the output positions into `splits` parts: with
/// splits > 1 the partial sums go to `workspace` (splits * k * cpg * filter floats) and a second
/// kernel adds them in a fixed order (deterministic).
void LaunchConvIgemmFwd(const ConvKArgs& a, void* stream, int variant, const float* x,
                        const float* w, float* y);
void LaunchConvIgemmBwd(const ConvKArgs& a, void* stream, int variant, float* dx, const float* w,
                        const float* dy);
void LaunchConvIgemmWrw(const ConvKArgs& a, void* stream, int variant, int splits, const float* x,
                        float* dw, const float* dy, float* workspace);

/// Backward data for few channels per group (conv_bwd_smallc.hip): a direct gather by stride
/// phases, 2-d (d unused), C/G <= kConvBwdSmallCMaxC, any strides, no workspace; 32-bit indices.
constexpr int kConvBwdSmallCMaxC = 4;
bool ConvBwdSmallCApplies(const ConvKArgs& a);
/// The row-strip kernel where it applies (dilation_w divides stride_w, at most 8 filter taps along
/// w a phase), else the gather with 4 positions a thread.
void LaunchConvBwdSmallC(const ConvKArgs& a, void* stream, float* dx, const float* w, const float* dy);

/// Depthwise (groups == C == K, 2-d, packed NCHW; conv_depthwise.hip). Backward weights needs
/// c * n * filter floats of workspace (per-image partial sums, added in order) and at most 25 taps.
void LaunchConvDepthwiseFwd(const ConvKArgs& a, void* stream, int sms, const float* x, const float* w,
                            float* y);
void LaunchConvDepthwiseBwd(const ConvKArgs& a, void* stream, int sms, float* dx, const float* w,
                            const float* dy);
/// The same on packed NHWC tensors (filters (C, R, S, 1)), forward and backward data: a thread
/// per output element, the channel fastest.
void LaunchConvDepthwiseFwdNhwc(const ConvKArgs& a, void* stream, int sms, const float* x, const float* w,
                                float* y);
void LaunchConvDepthwiseBwdNhwc(const ConvKArgs& a, void* stream, int sms, float* dx, const float* w,
                                const float* dy);
void LaunchConvDepthwiseWrw(const ConvKArgs& a, void* stream, const float* x, float* dw, const float* dy,
                            float* workspace);

/// Grouped and depthwise direct kernels for few channels per group (conv_grouped.hip): 2-d (d
/// unused), packed NCHW, C/G and K/G <= kConvGroupedMaxPerGroup, 32-bit indices. `direction`:
/// 0 forward, 1 backward data (any filter, pads, strides, dilations), 2 backward weights (square
/// filters 1, 3, 5, 7). Backward weights with splits > 1 needs splits * k * cpg * r * s floats of
/// workspace (partials added in split order: deterministic); splits == 1 needs none.
constexpr int kConvGroupedMaxPerGroup = 32;
bool ConvGroupedApplies(const ConvKArgs& a, int direction);
int ConvGroupedWrwSplits(const ConvKArgs& a, int sms);
void LaunchConvGroupedFwd(const ConvKArgs& a, void* stream, const float* x, const float* w, float* y);
void LaunchConvGroupedBwd(const ConvKArgs& a, void* stream, float* dx, const float* w, const float* dy);
void LaunchConvGroupedWrw(const ConvKArgs& a, void* stream, int splits, const float* x, float* dw,
                          const float* dy, float* workspace);

} // namespace miopen::gpu
