// Host entry points of softmax.hip, called by softmax_launch.cpp. Plain C++.
#pragma once

#include "common/args.hpp"

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

/// algorithm: a miopenSoftmaxAlgorithm_t value. rows: the rows engine, else columns.
void LaunchSoftmaxFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, bool rows,
                      const float* x, float* y);
void LaunchSoftmaxBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, bool rows,
                      const float* y, const float* dy, float* dx);

} // namespace miopen::gpu
