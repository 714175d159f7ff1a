// Launchers of softmax: the engine (rows or columns, chosen as the CPU kernels choose), the
// operands' outer and inner spaces, block size by the softmax's length, the launch check.
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

/// CHANNEL mode runs on rows when C is long and unit-stride (N x C, NHWC), as on the CPU.
bool ChannelOnRows(const TensorDescriptor& in)
{
    const size_t c = in.Lens()[1];
    return c >= 32 && (in.Strides()[1] == 1 || in.Lens()[2] * in.Lens()[3] == 1);
}

template <int K>
SoftmaxArgs<K> Plan(const Handle& h, miopenSoftmaxMode_t mode,
                    const std::array<const TensorDescriptor*, K>& descs,
                    const TensorDescriptor& in, float alpha, float beta, bool& rows, Launch& l)
{
    SoftmaxArgs<K> a;
    a.alpha = alpha;
    a.beta  = beta;
    rows    = mode == MIOPEN_SOFTMAX_MODE_INSTANCE || ChannelOnRows(in);
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

/// Whether forward rows take softmax_rows_warp.hip: unit-stride rows of whole float4s, at most
/// kSoftmaxWarpMaxLen long, every row of x and y starting 16-byte aligned.
bool WarpRows(const SoftmaxArgs<2>& a, bool rows, const float* x, const float* y, Launch& l)
{
    if(!rows || a.inner.ndim != 1 || a.inner.strides[0][0] != 1 || a.inner.strides[1][0] != 1 ||
       a.inner.numel % 4 != 0 || a.inner.numel > kSoftmaxWarpMaxLen)
        return false;
    if((reinterpret_cast<uintptr_t>(x) & 15) != 0 || (reinterpret_cast<uintptr_t>(y) & 15) != 0)
        return false;
    for(int d = 0; d < a.outer.ndim; ++d)
        for(int k = 0; k < 2; ++k)
            if(a.outer.strides[k][d] % 4 != 0)
                return false;
    // rows / 8 blocks: one row per warp at warp width 32; the kernel's grid stride covers the
    // rest at width 64.
    const int64_t per = kSoftmaxWarpThreads / 32;
    l.grid  = D1(static_cast<unsigned>(std::min<int64_t>((a.outer.numel + per - 1) / per,
                                                         int64_t{1} << 30)));
    l.block = D1(kSoftmaxWarpThreads);
    return true;
}

} // namespace

void SoftmaxForward(const Handle& h, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode,
                    float alpha, const TensorDescriptor& xDesc, const float* x, float beta,
                    const TensorDescriptor& yDesc, float* y)
{
    bool rows = false;
    Launch l;
    const auto a = Plan<2>(h, mode, {&xDesc, &yDesc}, xDesc, alpha, beta, rows, l);
    if(WarpRows(a, rows, x, y, l))
        LaunchSoftmaxWarpFwd(a, l, algorithm, x, y);
    else if(ShortRows(a, rows, l))
        LaunchSoftmaxShortFwd(a, l, algorithm, x, y);
    else
        LaunchSoftmaxFwd(a, l, algorithm, rows, x, y);
    CheckLaunch("miopenSoftmaxForward");
}

void SoftmaxBackward(const Handle& h, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode,
                     float alpha, const TensorDescriptor& yDesc, const float* y,
                     const TensorDescriptor& dyDesc, const float* dy, float beta,
                     const TensorDescriptor& dxDesc, float* dx)
{
    bool rows = false;
    Launch l;
    const auto a = Plan<3>(h, mode, {&yDesc, &dyDesc, &dxDesc}, dyDesc, alpha, beta, rows, l);
    if(ShortRows(a, rows, l))
        LaunchSoftmaxShortBwd(a, l, algorithm, y, dy, dx);
    else
        LaunchSoftmaxBwd(a, l, algorithm, rows, y, dy, dx);
    CheckLaunch("miopenSoftmaxBackward");
}

} // namespace miopen::gpu
