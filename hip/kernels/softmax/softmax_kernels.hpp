// Host entry points of softmax.hip, called by softmax_launch.cpp. Plain C++.
#pragma once

#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// One softmax problem on K operands (forward {x, y}, backward {y, dy, dx}).
/// Rows engine: groups over `outer`, each softmax over the `inner` space (a block per group).
/// Columns engine (CHANNEL mode, C not unit-stride): a thread per (image, position), looping
/// over the c channels; `outer` holds the images, `inner` the positions.
template <int K>
struct SoftmaxArgs
{
    StridedSpace<K> outer;
    StridedSpace<K> inner;
    int64_t c = 1;            // columns: channels
    int64_t c_stride[K] = {}; // columns
    float alpha = 1.0f;
    float beta  = 0.0f;
};

/// softmax_rows_short.hip: rows of kSoftmaxShortMinLen..kSoftmaxShortMaxLen unit-stride
/// elements, a block of kSoftmaxShortThreads per row holding the row in registers.
constexpr int kSoftmaxShortThreads   = 128;
constexpr int kSoftmaxShortPerThread = 8;
constexpr int kSoftmaxShortMinLen    = 256;
constexpr int kSoftmaxShortMaxLen    = kSoftmaxShortThreads * kSoftmaxShortPerThread;

void LaunchSoftmaxShortFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm,
                           const float* x, float* y);
void LaunchSoftmaxShortBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm,
                           const float* y, const float* dy, float* dx);

/// softmax_rows_warp.hip: forward rows of at most kSoftmaxWarpMaxLen elements, a whole number of
/// float4s, unit stride, every row 16-byte aligned: one warp per row, the row in registers as
/// float4s, the max and the sum folded by XOR shuffles only (no block barrier). Blocks of
/// kSoftmaxWarpThreads; the kernel walks rows by a grid stride in units of the warps a block
/// holds, so the grid needs no warp width (32 on NVIDIA, 64 on AMD).
constexpr int kSoftmaxWarpThreads = 256;
constexpr int kSoftmaxWarpPerLane = 8; // float4s a lane holds at warp width 32
constexpr int kSoftmaxWarpMaxLen  = 32 * 4 * kSoftmaxWarpPerLane;

void LaunchSoftmaxWarpFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm,
                          const float* x, float* y);

/// algorithm: a miopenSoftmaxAlgorithm_t value. rows: the rows engine, else columns.
void LaunchSoftmaxFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, bool rows,
                      const float* x, float* y);
void LaunchSoftmaxBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, bool rows,
                      const float* y, const float* dy, float* dx);

} // namespace miopen::gpu
