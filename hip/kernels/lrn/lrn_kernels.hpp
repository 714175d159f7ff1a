// Host entry points of lrn.hip, called by lrn_launch.cpp. Plain C++.
#pragma once

#include "core/storage.hpp"
#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// One LRN problem on 4-d N, C, H, W tensors (strides in elements).
struct LrnArgs
{
    int64_t n = 1, c = 1, h = 1, w = 1;
    int64_t xs[4] = {}, ys[4] = {}, dys[4] = {}, dxs[4] = {};
    bool within   = false; // within-channel (N x N spatial window), else cross-channel
    int pow_kind  = 3;     // s^-beta: 0 beta = 0.75, 1 beta = 0.5, 2 beta = 1, 3 general
    int64_t lo = 0, hi = 0; // the window of c is [c - lo, c + hi]
    float k = 1.0f, ratio = 0.0f, lrn_beta = 0.0f, grad_coef = 0.0f;
    float alpha = 1.0f, beta = 0.0f; // the blend
};

/// y = alpha * x * s^-beta + beta * y; the scale s (packed N, C, H, W) to `scale` when non-null.
/// T: the storage type (float, Half, BFloat16) of every operand, the scale included.
template <class T>
void LaunchLrnFwd(const LrnArgs& a, const Launch& l, const T* x, T* y, T* scale);
/// dx = alpha * (dy s^-beta - coef x sum over the mirrored window of dy y / s) + beta * dx, with
/// s from `scale` or (null) recomputed from x.
template <class T>
void LaunchLrnBwd(const LrnArgs& a, const Launch& l, const T* x, const T* y, const T* dy,
                  const T* scale, T* dx);

} // namespace miopen::gpu
