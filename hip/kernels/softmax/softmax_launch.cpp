// Launchers of softmax: the engine (rows or columns, chosen as the CPU kernels choose, plus short
// unit-stride channel rows: NHWC), the operands' outer and inner spaces, the kernel (a group of
// lanes per short row, a tile of short rows lying end to end a block, a block per row of
// 256-1024, fp16/bf16 columns two positions a thread, the generic rows or columns kernels), block
// size by the softmax's length, the launch check. One template for every storage type.
#include "kernels/common/launch_common.hpp"
#include "softmax/softmax_args.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

namespace miopen::gpu {
namespace {

/// The space of `dims` of the descriptors (same lengths).
template <int K>
StridedSpace<K> SpaceOf(const std::array<const TensorDescriptor*, K>& descs,
                        std::initializer_list<int> dims)
{
    std::array<size_t, kMaxDims> lens{};
    std::array<std::array<size_t, kMaxDims>, K> st{};
    int n = 0;
    for(int d : dims)
    {
        lens[n] = descs[0]->Lens()[d];
        for(int k = 0; k < K; ++k)
            st[k][n] = descs[k]->Strides()[d];
        ++n;
    }
    std::array<const size_t*, K> sp;
    for(int k = 0; k < K; ++k)
        sp[k] = st[k].data();
    return Collapse<K>(n, lens.data(), sp);
}

/// CHANNEL mode runs on rows when C is long and unit-stride in the input (N x C, NHWC), as on the
/// CPU; on the GPU also when C is short but unit-stride in every operand (NHWC with C < 32), where
/// softmax_rows_warp.hip's small groups of lanes read whole rows coalesced.
template <int K>
bool ChannelOnRows(const std::array<const TensorDescriptor*, K>& descs, const TensorDescriptor& in)
{
    const size_t c = in.Lens()[1];
    if(c >= 32 && (in.Strides()[1] == 1 || in.Lens()[2] * in.Lens()[3] == 1))
        return true;
    if(c < 2 || c > kSoftmaxWarpMaxLen || in.Lens()[2] * in.Lens()[3] == 1)
        return false;
    for(int k = 0; k < K; ++k)
        if(descs[k]->Strides()[1] != 1)
            return false;
    return true;
}

template <int K>
SoftmaxArgs<K> Plan(const Handle& h, miopenSoftmaxMode_t mode,
                    const std::array<const TensorDescriptor*, K>& descs,
                    const TensorDescriptor& in, float alpha, float beta, bool& rows, Launch& l)
{
    SoftmaxArgs<K> a;
    a.alpha = alpha;
    a.beta  = beta;
    rows    = mode == MIOPEN_SOFTMAX_MODE_INSTANCE || ChannelOnRows<K>(descs, in);
    if(rows)
    {
        if(mode == MIOPEN_SOFTMAX_MODE_INSTANCE)
        {
            a.outer = SpaceOf<K>(descs, {0});
            a.inner = SpaceOf<K>(descs, {1, 2, 3});
        }
        else
        {
            a.outer = SpaceOf<K>(descs, {0, 2, 3});
            a.inner = SpaceOf<K>(descs, {1});
        }
        const int64_t len = a.inner.numel;
        const unsigned threads = len >= 8192 ? 1024 : len >= 2048 ? 512 : len >= 512 ? 256
                                                                                    : len >= 128 ? 128 : 64;
        const int64_t groups = a.outer.numel;
        l = On(h, D1(static_cast<unsigned>(std::min<int64_t>(groups, int64_t{1} << 30))),
               D1(threads));
        return a;
    }
    // Columns: positions are the spatial dims of each image, or the batch when H = W = 1.
    const bool batch_cols = in.Lens()[2] * in.Lens()[3] == 1;
    a.c = static_cast<int64_t>(in.Lens()[1]);
    for(int k = 0; k < K; ++k)
        a.c_stride[k] = static_cast<int64_t>(descs[k]->Strides()[1]);
    if(batch_cols)
    {
        a.outer = SpaceOf<K>(descs, {});
        a.inner = SpaceOf<K>(descs, {0});
    }
    else
    {
        a.outer = SpaceOf<K>(descs, {0});
        a.inner = SpaceOf<K>(descs, {2, 3});
    }
    const int64_t columns = a.outer.numel * a.inner.numel;
    l = On(h, D1(GridStrideBlocks(h, columns, 256)), D1(256));
    return a;
}

/// Whether the rows are short and unit-stride in every operand: softmax_rows_short.hip, a block
/// of kSoftmaxShortThreads per row.
template <int K>
bool ShortRows(const SoftmaxArgs<K>& a, bool rows, Launch& l)
{
    if(!rows || a.inner.ndim != 1 || a.inner.numel < kSoftmaxShortMinLen ||
       a.inner.numel > kSoftmaxShortMaxLen)
        return false;
    for(int k = 0; k < K; ++k)
        if(a.inner.strides[k][0] != 1)
            return false;
    l.block = D1(kSoftmaxShortThreads);
    return true;
}

/// Whether the rows take softmax_rows_warp.hip: unit-stride rows in every operand, at most
/// kSoftmaxWarpMaxLen long (kSoftmaxWarpMaxLen / 4 when not whole aligned groups of four); sets
/// the group (lanes per row, vectors per lane, vector width), grid and block.
template <class T, int K>
bool WarpRows(const SoftmaxArgs<K>& a, bool rows, const std::array<const void*, K>& ptrs,
              SoftmaxGroup& grp, Launch& l)
{
    if(!rows || a.inner.ndim != 1)
        return false;
    for(int k = 0; k < K; ++k)
        if(a.inner.strides[k][0] != 1)
            return false;
    const int64_t len = a.inner.numel;
    bool quads        = len % 4 == 0;
    for(int k = 0; k < K && quads; ++k)
    {
        quads = (reinterpret_cast<uintptr_t>(ptrs[k]) % (4 * sizeof(T))) == 0;
        for(int d = 0; d < a.outer.ndim; ++d)
            quads = quads && a.outer.strides[k][d] % 4 == 0;
    }
    grp.vec          = quads ? 4 : 1;
    const int64_t nv = len / grp.vec; // vectors per row
    if(nv > 32 * kSoftmaxWarpPerLane)
        return false;
    if(nv > 64)
    {
        grp.lanes    = 32;
        grp.per_lane = kSoftmaxWarpPerLane;
    }
    else
    {
        grp.per_lane = 2;
        grp.lanes    = 2;
        while(grp.lanes * 2 < nv)
            grp.lanes *= 2;
    }
    // Rows per block at warp width 32; the kernel's grid stride covers the rest at width 64.
    const int64_t per = kSoftmaxWarpThreads / grp.lanes;
    l.grid  = D1(static_cast<unsigned>(std::min<int64_t>((a.outer.numel + per - 1) / per,
                                                         int64_t{1} << 30)));
    l.block = D1(kSoftmaxWarpThreads);
    return true;
}

/// Whether the rows take softmax_rows_tile.hip: the warp kernel's single-element case (rows of
/// 2..kSoftmaxTileMaxLen unit-stride elements, not whole aligned groups of four) where the rows lie
/// end to end in every operand (one outer dim of stride len, or a single row). Gives the tile
/// arguments and the launch (rows_per_block threads a block).
template <int K>
bool TileRows(const Handle& h, const SoftmaxArgs<K>& a, const SoftmaxGroup& grp,
              int rows_per_block, SoftmaxTileArgs& t, Launch& l)
{
    const int64_t len = a.inner.numel;
    if(grp.vec != 1 || len < 2 || len > kSoftmaxTileMaxLen)
        return false;
    if(a.outer.numel > 1)
    {
        if(a.outer.ndim != 1)
            return false;
        for(int k = 0; k < K; ++k)
            if(a.outer.strides[k][0] != len)
                return false;
    }
    t.rows  = a.outer.numel;
    t.len   = static_cast<int>(len);
    t.magic = static_cast<uint32_t>(((uint64_t{1} << 32) + len - 1) / len);
    t.alpha = a.alpha;
    t.beta  = a.beta;
    l = On(h, D1(GridStrideBlocks(h, t.rows, static_cast<unsigned>(rows_per_block))),
           D1(static_cast<unsigned>(rows_per_block)));
    return true;
}

/// Whether the columns engine takes softmax_cols_pair.hip (fp16/bf16, a thread per two
/// positions): unit-stride positions of even count, even channel and image strides, 4-byte aligned
/// pointers, C <= max_c. Gives the arguments counting pairs and their launch.
template <class T, int K>
bool PairColumns(const Handle& h, const SoftmaxArgs<K>& a, bool rows,
                 const std::array<const void*, K>& ptrs, int max_c, SoftmaxArgs<K>& pairs, Launch& l)
{
    if constexpr(sizeof(T) != 2)
        return false;
    if(rows || a.c > max_c || a.inner.ndim != 1 || a.inner.numel % 2 != 0)
        return false;
    for(int k = 0; k < K; ++k)
    {
        if(a.inner.strides[k][0] != 1 || a.c_stride[k] % 2 != 0 ||
           reinterpret_cast<uintptr_t>(ptrs[k]) % 4 != 0)
            return false;
        for(int d = 0; d < a.outer.ndim; ++d)
            if(a.outer.strides[k][d] % 2 != 0)
                return false;
    }
    pairs                = a;
    pairs.inner.lens[0]  = a.inner.numel / 2;
    pairs.inner.numel    = a.inner.numel / 2;
    for(int k = 0; k < K; ++k)
        pairs.inner.strides[k][0] = 2;
    const int64_t columns = pairs.outer.numel * pairs.inner.numel;
    l = On(h, D1(GridStrideBlocks(h, columns, 256)), D1(256));
    return true;
}

} // namespace

template <class T>
void SoftmaxForward(const Handle& h, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode,
                    float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
                    const TensorDescriptor& yDesc, T* y)
{
    bool rows = false;
    Launch l;
    SoftmaxGroup grp;
    SoftmaxArgs<2> pairs;
    SoftmaxTileArgs tile;
    const auto a = Plan<2>(h, mode, {&xDesc, &yDesc}, xDesc, alpha, beta, rows, l);
    if(WarpRows<T, 2>(a, rows, {x, y}, grp, l))
    {
        if(TileRows<2>(h, a, grp, kSoftmaxTileRowsFwd, tile, l))
            LaunchSoftmaxTileFwd(tile, l, algorithm, x, y);
        else
            LaunchSoftmaxWarpFwd(a, l, grp, algorithm, x, y);
    }
    else if(PairColumns<T, 2>(h, a, rows, {x, y}, kSoftmaxPairMaxCFwd, pairs, l))
    {
        if constexpr(sizeof(T) == 2)
            LaunchSoftmaxColsPairFwd(pairs, l, algorithm, x, y);
    }
    else if(ShortRows(a, rows, l))
        LaunchSoftmaxShortFwd(a, l, algorithm, x, y);
    else
        LaunchSoftmaxFwd(a, l, algorithm, rows, x, y);
    CheckLaunch("miopenSoftmaxForward");
}

template <class T>
void SoftmaxBackward(const Handle& h, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode,
                     float alpha, const TensorDescriptor& yDesc, const T* y,
                     const TensorDescriptor& dyDesc, const T* dy, float beta,
                     const TensorDescriptor& dxDesc, T* dx)
{
    bool rows = false;
    Launch l;
    SoftmaxGroup grp;
    SoftmaxArgs<3> pairs;
    SoftmaxTileArgs tile;
    const auto a = Plan<3>(h, mode, {&yDesc, &dyDesc, &dxDesc}, dyDesc, alpha, beta, rows, l);
    if(WarpRows<T, 3>(a, rows, {y, dy, dx}, grp, l))
    {
        if(TileRows<3>(h, a, grp, kSoftmaxTileRowsBwd, tile, l))
            LaunchSoftmaxTileBwd(tile, l, algorithm, y, dy, dx);
        else
            LaunchSoftmaxWarpBwd(a, l, grp, algorithm, y, dy, dx);
    }
    else if(PairColumns<T, 3>(h, a, rows, {y, dy, dx}, kSoftmaxPairMaxCBwd, pairs, l))
    {
        if constexpr(sizeof(T) == 2)
            LaunchSoftmaxColsPairBwd(pairs, l, algorithm, y, dy, dx);
    }
    else if(ShortRows(a, rows, l))
        LaunchSoftmaxShortBwd(a, l, algorithm, y, dy, dx);
    else
        LaunchSoftmaxBwd(a, l, algorithm, rows, y, dy, dx);
    CheckLaunch("miopenSoftmaxBackward");
}

#define MIOPEN_CY_SOFTMAX_INSTANCE(T)                                                              \
    template void SoftmaxForward<T>(const Handle&, miopenSoftmaxAlgorithm_t, miopenSoftmaxMode_t,  \
                                    float, const TensorDescriptor&, const T*, float,               \
                                    const TensorDescriptor&, T*);                                  \
    template void SoftmaxBackward<T>(const Handle&, miopenSoftmaxAlgorithm_t, miopenSoftmaxMode_t, \
                                     float, const TensorDescriptor&, const T*,                     \
                                     const TensorDescriptor&, const T*, float,                     \
                                     const TensorDescriptor&, T*);
MIOPEN_CY_SOFTMAX_INSTANCE(float)
MIOPEN_CY_SOFTMAX_INSTANCE(Half)
MIOPEN_CY_SOFTMAX_INSTANCE(BFloat16)
#undef MIOPEN_CY_SOFTMAX_INSTANCE

} // namespace miopen::gpu
