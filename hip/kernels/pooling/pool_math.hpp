// The rounding steps every pooling kernel shares, written as explicit fused multiply-adds so that
// the compiler's contraction choices (which product of `alpha * v + beta * out` it fuses, or
// whether it fuses `acc + g * inv` at all) cannot differ between kernels: the generic kernels of
// pooling.hip and the 2-d ones of pool_fwd_2d.hip / pool_bwd_2d.hip round the same way, so the
// same bits on every kernel choice (tests/ops/test_pooling_2d_kernels.py demands it).
#pragma once

#include "kernels/common/device.hpp"

namespace miopen::gpu {

/// alpha * v + beta * out: beta * out rounded, then one fused multiply-add.
__device__ inline float PoolBlend(float alpha, float v, float beta, float out)
{
    return fmaf(alpha, v, beta * out);
}

/// acc + g * inv with one rounding (a fused multiply-add).
__device__ inline float PoolAcc(float acc, float g, float inv) { return fmaf(g, inv, acc); }

} // namespace miopen::gpu
