// Launchers of pooling: the 3-d problem of the front door as PoolArgs, one thread per output
// (forward) or per dx element (backward), the launch check. The kernel choice: channels-last
// (pool_nhwc.hip), else the 2-d kernels (pool_fwd_2d_quad, pool_fwd_2d, pool_bwd_2d), else the
// generic ones (pooling.hip); every storage type takes the same path.
#include "kernels/common/launch_common.hpp"
#include "core/errors.hpp"
#include "pooling/pooling_args.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <cstdint>

namespace miopen::gpu {
namespace {

PoolArgs ArgsOf(const PoolShape& s, float alpha, float beta)
{
    PoolArgs a;
    a.mode  = static_cast<int>(s.mode);
    a.n     = s.n;
    a.c     = s.c;
    a.alpha = alpha;
    a.beta  = beta;
    for(int j = 0; j < 3; ++j)
    {
        a.in[j]     = s.in[j];
        a.out[j]    = s.out[j];
        a.window[j] = s.window[j];
        a.pad[j]    = s.pad[j];
        a.stride[j] = s.stride[j];
    }
    return a;
}

void Copy5(int64_t (&dst)[5], const Strides5& src)
{
    for(int i = 0; i < 5; ++i)
        dst[i] = src[i];
}

/// Largest element offset + 1 of an N, C, S0, S1, S2 tensor with these strides.
int64_t Span(int64_t n, int64_t c, const int64_t (&s)[3], const int64_t (&st)[5])
{
    return 1 + (n - 1) * st[0] + (c - 1) * st[1] + (s[0] - 1) * st[2] + (s[1] - 1) * st[3] +
           (s[2] - 1) * st[4];
}

/// Whether 32-bit index arithmetic is exact for the problem (with room for the window's reach
/// into the padding and the sums of offsets).
bool Small(const PoolArgs& a)
{
    const int64_t limit = int64_t{1} << 30;
    const int64_t in    = a.n * a.c * a.in[0] * a.in[1] * a.in[2];
    const int64_t out   = a.n * a.c * a.out[0] * a.out[1] * a.out[2];
    return in < limit && out < limit && Span(a.n, a.c, a.in, a.xs) < limit &&
           Span(a.n, a.c, a.out, a.ys) < limit && Span(a.n, a.c, a.in, a.x2s) < limit;
}

/// Whether pool_fwd_2d applies: depth 1, packed rows, 32-bit offsets; fills its arguments (x:
/// the forward's input, whose alignment may pick pool_fwd_2d_quad; null for the backward).
template <class T>
bool Plan2d(const PoolArgs& a, const PoolShape& s, Pool2dArgs& p, const T* x = nullptr)
{
    if(!a.small || a.in[0] != 1 || a.out[0] != 1 || a.window[0] != 1 || a.xs[4] != 1 ||
       a.ys[4] != 1 || a.n * a.c >= (int64_t{1} << 30))
        return false;
    auto i32 = [](int64_t v) { return static_cast<int>(v); };
    p.n = i32(a.n), p.c = i32(a.c);
    p.in_h = i32(a.in[1]), p.in_w = i32(a.in[2]), p.out_h = i32(a.out[1]), p.out_w = i32(a.out[2]);
    p.win_h = i32(a.window[1]), p.win_w = i32(a.window[2]);
    p.pad_h = i32(a.pad[1]), p.pad_w = i32(a.pad[2]);
    p.stride_h = i32(a.stride[1]), p.stride_w = i32(a.stride[2]);
    p.xs_n = i32(a.xs[0]), p.xs_c = i32(a.xs[1]), p.xs_h = i32(a.xs[3]);
    p.ys_n = i32(a.ys[0]), p.ys_c = i32(a.ys[1]), p.ys_h = i32(a.ys[3]);
    // the mode before the tiles: the variant, and so the tile, depends on it
    p.max        = s.mode == miopenPoolingMax;
    p.inclusive  = s.mode == miopenPoolingAverageInclusive;
    p.x_vec      = x != nullptr && (reinterpret_cast<uintptr_t>(x) & (4 * sizeof(T) - 1)) == 0 &&
              p.xs_n % 4 == 0 && p.xs_c % 4 == 0 && p.xs_h % 4 == 0 && p.pad_h < p.win_h;
    const int64_t tiles_w = (a.out[2] + Pool2dTileW(p) - 1) / Pool2dTileW(p);
    const int64_t tiles_h = (a.out[1] + Pool2dTileH(p) - 1) / Pool2dTileH(p);
    if(tiles_w * tiles_h * a.n * a.c >= (int64_t{1} << 31))
        return false;
    p.tiles_w = i32(tiles_w), p.tiles_h = i32(tiles_h);
    p.image      = a.image;
    p.index_type = a.index_type;
    p.alpha = a.alpha, p.beta = a.beta;
    return true;
}

} // namespace

template <class T>
void PoolForward(const Handle& h, const PoolShape& s, float alpha, const T* x, const Strides5& xs,
                 float beta, T* y, const Strides5& ys, const PoolIndex& index)
{
    PoolArgs a = ArgsOf(s, alpha, beta);
    Copy5(a.xs, xs);
    Copy5(a.ys, ys);
    a.image      = index.image;
    a.index_type = static_cast<int>(index.type);
    a.small      = Small(a);
    const int64_t total = s.n * s.c * s.out[0] * s.out[1] * s.out[2];
    if(total > 0 && PoolNhwcApplies(a, x, y, sizeof(T)))
    {
        LaunchPoolFwdNhwc(a, On(h, D1(GridStrideBlocks(h, total / 4, 256)), D1(256)), x, y,
                          index.data);
        CheckLaunch("miopenPoolingForward");
        return;
    }
    Pool2dArgs p;
    if(total > 0 && Plan2d(a, s, p, x))
    {
        if(Pool2dQuadApplies(p) && Pool2dQuadTotal(p) < (int64_t{1} << 31))
        {
            const int64_t blocks = (Pool2dQuadTotal(p) + Pool2dQuadThreads() - 1) / Pool2dQuadThreads();
            LaunchPoolFwd2dQuad(p, On(h, D1(static_cast<unsigned>(blocks)), D1(Pool2dQuadThreads())),
                                x, y, index.data);
        }
        else
        {
            const auto blocks = static_cast<unsigned>(int64_t{p.tiles_w} * p.tiles_h * p.n * p.c);
            LaunchPoolFwd2d(p, On(h, D1(blocks), D1(Pool2dThreads())), x, y, index.data);
        }
        CheckLaunch("miopenPoolingForward");
        return;
    }
    LaunchPoolFwd(a, On(h, D1(GridStrideBlocks(h, total, 256)), D1(256)), x, y, index.data);
    CheckLaunch("miopenPoolingForward");
}

template <class T>
void PoolBackward(Handle& h, const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                  const PoolIndex& index, const T* x, const TensorDescriptor& xDesc, float beta,
                  T* dx, const Strides5& dxs)
{
    const Strides5 xs = Strides5Of(xDesc);
    if(index.data == nullptr && x == dx && x != nullptr)
    {
        // The argmax is found again from x while dx is written: read x from a copy.
        const size_t bytes = xDesc.ElementSpace() * sizeof(T);
        auto* copy         = static_cast<T*>(h.Scratch(bytes));
        CopyAsync(copy, x, bytes, h.Stream());
        x = copy;
    }
    PoolArgs a = ArgsOf(s, alpha, beta);
    Copy5(a.xs, dxs);
    Copy5(a.ys, dys);
    Copy5(a.x2s, xs);
    a.image      = index.image;
    a.index_type = static_cast<int>(index.type);
    a.small      = Small(a);
    const int64_t total = s.n * s.c * s.in[0] * s.in[1] * s.in[2];
    const bool gather   = s.mode != miopenPoolingMax || index.data != nullptr;
    if(total > 0 && gather && PoolNhwcApplies(a, dx, dy, sizeof(T)))
    {
        const void* idx = index.data;
        if(s.mode == miopenPoolingMax)
        {
            // the workspace in channels-last order, in the handle's scratch
            const size_t entries = static_cast<size_t>(a.n * a.c * a.out[0] * a.out[1] * a.out[2]);
            void* copy = h.Scratch(entries * PoolIndexBytes(a.index_type));
            LaunchPoolIndexToNhwc(a, On(h, D1(GridStrideBlocks(h, PoolIndexToNhwcTiles(a), 1)),
                                        D1(256)),
                                  index.data, copy);
            CheckLaunch("miopenPoolingBackward");
            idx = copy;
        }
        LaunchPoolBwdNhwc(a, On(h, D1(GridStrideBlocks(h, total / 4, 256)), D1(256)), dy, idx,
                          dx);
        CheckLaunch("miopenPoolingBackward");
        return;
    }
    Pool2dArgs p;
    if(total > 0 && gather && Plan2d<T>(a, s, p))
    {
        // pool_bwd_2d: tiles over dx (Plan2d counted tiles over y, the forward's split)
        p.lanes_w             = PoolBwd2dLanesW(p.in_w);
        const int64_t tile_w  = PoolBwd2dTileW(p.lanes_w);
        const int64_t tile_h  = PoolBwd2dTileH(p.lanes_w);
        const int64_t tiles_w = (a.in[2] + tile_w - 1) / tile_w;
        const int64_t tiles_h = (a.in[1] + tile_h - 1) / tile_h;
        if(tiles_w * tiles_h * a.n * a.c < (int64_t{1} << 31))
        {
            p.tiles_w = static_cast<int>(tiles_w), p.tiles_h = static_cast<int>(tiles_h);
            const auto blocks = static_cast<unsigned>(tiles_w * tiles_h * a.n * a.c);
            LaunchPoolBwd2d(p, On(h, D1(blocks), D1(Pool2dThreads())), dy, index.data, dx);
            CheckLaunch("miopenPoolingBackward");
            return;
        }
    }
    LaunchPoolBwd(a, On(h, D1(GridStrideBlocks(h, total, 256)), D1(256)), dy, index.data, x, dx);
    CheckLaunch("miopenPoolingBackward");
}

#define MIOPEN_POOL_LAUNCH(T)                                                                     \
    template void PoolForward<T>(const Handle&, const PoolShape&, float, const T*,              \
                                 const Strides5&, float, T*, const Strides5&, const PoolIndex&); \
    template void PoolBackward<T>(Handle&, const PoolShape&, float, const T*, const Strides5&,  \
                                  const PoolIndex&, const T*, const TensorDescriptor&, float, T*, \
                                  const Strides5&);
MIOPEN_POOL_LAUNCH(float)
MIOPEN_POOL_LAUNCH(Half)
MIOPEN_POOL_LAUNCH(BFloat16)
#undef MIOPEN_POOL_LAUNCH

} // namespace miopen::gpu
