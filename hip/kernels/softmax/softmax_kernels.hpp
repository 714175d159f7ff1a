// Host entry points of the softmax kernels, called by softmax_launch.cpp. Plain C++. Each is a
// template on the storage type T (float, Half, BFloat16), instantiated beside its kernels.
#pragma once

#include "core/storage.hpp"
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

template <class T>
void LaunchSoftmaxShortFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, const T* x,
                           T* y);
template <class T>
void LaunchSoftmaxShortBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, const T* y,
                           const T* dy, T* dx);

/// softmax_rows_warp.hip: rows of at most kSoftmaxWarpMaxLen unit-stride elements (in every
/// operand), a group of `lanes` lanes of one warp per row (a power of two, 2 to 32), each lane
/// holding up to `per_lane` vectors of `vec` elements (vec 4: rows of whole groups of four, every
/// row aligned to 4 elements; else 1). per_lane is 2 (any lanes) or kSoftmaxWarpPerLane (32
/// lanes). Blocks of kSoftmaxWarpThreads; the kernel walks rows by a grid stride in units of the
/// warps a block holds, so the grid needs no warp width (32 on NVIDIA, 64 on AMD).
constexpr int kSoftmaxWarpThreads = 256;
constexpr int kSoftmaxWarpPerLane = 8;
constexpr int kSoftmaxWarpMaxLen  = 32 * 4 * kSoftmaxWarpPerLane;

struct SoftmaxGroup
{
    int lanes    = 32;
    int per_lane = kSoftmaxWarpPerLane;
    int vec      = 4;
};

template <class T>
void LaunchSoftmaxWarpFwd(const SoftmaxArgs<2>& a, const Launch& l, const SoftmaxGroup& g,
                          int algorithm, const T* x, T* y);
template <class T>
void LaunchSoftmaxWarpBwd(const SoftmaxArgs<3>& a, const Launch& l, const SoftmaxGroup& g,
                          int algorithm, const T* y, const T* dy, T* dx);

/// softmax_rows_tile.hip: rows of 2..kSoftmaxTileMaxLen elements lying end to end in every
/// operand (row r at element r * len, unit stride), a block per tile of kSoftmaxTileRowsFwd
/// (forward) / kSoftmaxTileRowsBwd (backward) rows, that many threads a block, grid-stride over
/// the tiles. magic = ceil(2^32 / len).
constexpr int kSoftmaxTileMaxLen  = 32;
constexpr int kSoftmaxTileRowsFwd = 256;
constexpr int kSoftmaxTileRowsBwd = 128;

struct SoftmaxTileArgs
{
    int64_t rows   = 0;
    int len        = 2;
    uint32_t magic = 0;
    float alpha    = 1.0f;
    float beta     = 0.0f;
};

template <class T>
void LaunchSoftmaxTileFwd(const SoftmaxTileArgs& a, const Launch& l, int algorithm, const T* x,
                          T* y);
template <class T>
void LaunchSoftmaxTileBwd(const SoftmaxTileArgs& a, const Launch& l, int algorithm, const T* y,
                          const T* dy, T* dx);

/// softmax_cols_pair.hip: the columns engine for fp16/bf16 (Half, BFloat16 only) with a thread
/// per two neighbouring positions, C <= kSoftmaxPairMaxCFwd (forward) or kSoftmaxPairMaxCBwd
/// (backward). `a` counts pairs: its inner space is the positions halved, at stride 2.
constexpr int kSoftmaxPairMaxCFwd = 64;
constexpr int kSoftmaxPairMaxCBwd = 64;

template <class T>
void LaunchSoftmaxColsPairFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, const T* x,
                              T* y);
template <class T>
void LaunchSoftmaxColsPairBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, const T* y,
                              const T* dy, T* dx);

/// algorithm: a miopenSoftmaxAlgorithm_t value. rows: the rows engine, else columns.
template <class T>
void LaunchSoftmaxFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, bool rows,
                      const T* x, T* y);
template <class T>
void LaunchSoftmaxBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, bool rows,
                      const T* y, const T* dy, T* dx);

} // namespace miopen::gpu
