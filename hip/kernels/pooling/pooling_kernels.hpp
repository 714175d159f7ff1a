// Host entry points of the pooling kernels, called by pooling_launch.cpp. Plain C++. Every
// launcher is a template on the storage type T (float, Half, BFloat16), instantiated for the
// three in its .hip file.
#pragma once

#include "core/storage.hpp"
#include "kernels/common/args.hpp"

#include <cstddef>

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
template <class T>
void LaunchPoolFwd(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index);
/// dx = alpha * pool'(dy) + beta * dx, one thread per dx element (a gather: deterministic). Max
/// mode reads the argmax from `index`, or (index null) finds it again from x.
template <class T>
void LaunchPoolBwd(const PoolArgs& a, const Launch& l, const T* dy, const void* index, const T* x,
                   T* dx);

/// pool_nhwc.hip: channels-last pooling (C stride 1 in every operand, C % 4 == 0, every other
/// stride and both pointers aligned to 4 elements, 32-bit offsets: PoolNhwcApplies), a thread
/// per 4 neighbouring channels of one output (forward) or dx position (backward, average or max
/// with the index workspace). Same results, bit for bit, as pool_fwd / pool_bwd. Grid:
/// grid-stride, any size; the forward's 2-d 2x2 / 3x3 windows (pad < window) launch a kernel of
/// one output a thread on their own grid, on l's stream.
bool PoolNhwcApplies(const PoolArgs& a, const void* in, const void* out, size_t elem);
template <class T>
void LaunchPoolFwdNhwc(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index);
/// The backward's max mode reads `index` in channels-last order (n, D*H*W position, c): the
/// workspace copied by LaunchPoolIndexToNhwc (PoolIndexBytes(a.index_type) bytes an entry;
/// grid-stride over PoolIndexToNhwcTiles(a) tiles, blocks of 256 threads) into memory of its own.
template <class T>
void LaunchPoolBwdNhwc(const PoolArgs& a, const Launch& l, const T* dy, const void* index, T* dx);
size_t PoolIndexBytes(int index_type);
int64_t PoolIndexToNhwcTiles(const PoolArgs& a);
void LaunchPoolIndexToNhwc(const PoolArgs& a, const Launch& l, const void* index, void* out);

/// The 2-d forward of pool_fwd_2d.hip: depth 1, rows packed (W stride 1 in x and y), every
/// offset in 32 bits. Strides in elements. Grid: tiles_w * tiles_h * n * c blocks of
/// Pool2dThreads() threads, each block a Pool2dTileH() x Pool2dTileW() tile of one plane.
struct Pool2dArgs
{
    int n = 1, c = 1, in_h = 1, in_w = 1, out_h = 1, out_w = 1;
    int win_h = 1, win_w = 1, pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1;
    int xs_n = 0, xs_c = 0, xs_h = 0, ys_n = 0, ys_c = 0, ys_h = 0;
    int tiles_w = 1, tiles_h = 1;
    int lanes_w = 32; // pool_bwd_2d: threads along w of a block
    bool x_vec  = false; // x's rows start aligned to 4 elements (pointer, strides: pool_fwd_2d_quad)
    bool max = false, inclusive = false, image = false;
    int index_type = 0;
    float alpha = 1.0f, beta = 0.0f;
};

/// Outputs along w and h of one block for these arguments (the variant decides).
int Pool2dTileW(const Pool2dArgs& a);
int Pool2dTileH(const Pool2dArgs& a);
int Pool2dThreads();
template <class T>
void LaunchPoolFwd2d(const Pool2dArgs& a, const Launch& l, const T* x, T* y, void* index);
/// pool_fwd_2d_quad.hip (K x K windows, K = 2 or 3, stride 2 and padding 0 or 1 along w, x_vec):
/// a thread per 4 consecutive outputs of one output row, numbered flat. Grid:
/// ceil(Pool2dQuadTotal(a) / Pool2dQuadThreads()) blocks of Pool2dQuadThreads() threads; the
/// total must be below 2^31.
bool Pool2dQuadApplies(const Pool2dArgs& a);
int Pool2dQuadThreads();
int64_t Pool2dQuadTotal(const Pool2dArgs& a);
template <class T>
void LaunchPoolFwd2dQuad(const Pool2dArgs& a, const Launch& l, const T* x, T* y, void* index);

/// The 2-d backward of pool_bwd_2d.hip (same conditions; average, or max with the index
/// workspace): xs_* are dx's strides, ys_* dy's, in/out the dx/dy sizes, tiles over dx. Grid:
/// tiles_w * tiles_h * n * c blocks of Pool2dThreads() threads, a PoolBwd2dTileH(lanes_w) x
/// PoolBwd2dTileW(lanes_w) tile of dx each, lanes_w = PoolBwd2dLanesW(in_w).
int PoolBwd2dLanesW(int in_w);
int PoolBwd2dTileW(int lanes);
int PoolBwd2dTileH(int lanes);
template <class T>
void LaunchPoolBwd2d(const Pool2dArgs& a, const Launch& l, const T* dy, const void* index, T* dx);

} // namespace miopen::gpu
