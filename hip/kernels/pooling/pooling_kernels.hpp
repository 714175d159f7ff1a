// Host entry points of pooling.hip, called by pooling_launch.cpp. Plain C++.
#pragma once

#include "common/args.hpp"

namespace miopen::gpu {

/// One pooling problem in 3 spatial dims (2-d pooling: depth 1), strides in elements in N, C, D,
/// H, W order. Forward: xs (x), ys (y). Backward: xs (dx), ys (dy), x2s (x, when the argmax is
/// found again from x).
struct PoolArgs
{
    int mode = 0; // a miopenPoolingMode_t value
    int64_t n = 1, c = 1;
    int64_t in[3] = {}, out[3] = {}, window[3] = {}, pad[3] = {}, stride[3] = {};
    int64_t xs[5] = {}, ys[5] = {}, x2s[5] = {};
    bool image        = false; // index encoding: image (d * H + h) * W + w, else window mask
    int index_type    = 0;     // a miopenIndexType_t value
    float alpha = 1.0f, beta = 0.0f;
    bool small = false; // every count and element offset fits in 32 bits
};

/// y = alpha * pool(x) + beta * y; max mode writes the indices to `index` when it is not null.
void LaunchPoolFwd(const PoolArgs& a, const Launch& l, const float* x, float* y, void* index);
/// dx = alpha * pool'(dy) + beta * dx, one thread per dx element (a gather: deterministic). Max
/// mode reads the argmax from `index`, or (index null) finds it again from x.
void LaunchPoolBwd(const PoolArgs& a, const Launch& l, const float* dy, const void* index,
                   const float* x, float* dx);

} // namespace miopen::gpu
