// Host side of the per-group reductions: GroupArgs from the descriptors, the launch shape, the
// per-dim group steps that index per-group arrays from the element-wise engine, and the layout of
// the handle's scratch. Plain C++.
#pragma once

#include "kernels/common/launch_common.hpp"

#include <algorithm>
#include <vector>

namespace miopen::gpu {

/// Total blocks a reduction aims for: enough for every multiprocessor of today's GPUs several
/// times over. A constant (not the device's SM count), so the chunking, and with it the bits of
/// every sum, depend on the shape alone.
constexpr int64_t kGroupTargetBlocks = 1024;
/// A thread reduces at least this many elements before its block splits a group further.
constexpr int64_t kGroupMinPerThread = 32;

template <int K>
struct GroupPlan
{
    GroupArgs<K> args;
    /// Per logical dim of x: the step of the group number along it (0 for reduction dims), so a
    /// per-group array is an operand of the element-wise engine with these strides.
    std::array<size_t, kMaxTensorDims> group_stride{};
    Launch launch;
};

/// descs: the K data operands (same lengths; descs[0] is x, whose strides order the dims), then
/// the parameter tensor. is_group(d): whether logical dim d is a group dim.
template <int K, class IsGroup>
GroupPlan<K> PlanGroups(const Handle& h, const std::array<const TensorDescriptor*, K + 1>& descs,
                        IsGroup&& is_group)
{
    const TensorDescriptor& x = *descs[0];
    const int nd              = x.NumDims();
    std::vector<int> gdims, rdims;
    for(int d = 0; d < nd; ++d)
        (is_group(d) ? gdims : rdims).push_back(d);
    const auto by_stride = [&](int a, int b) { return x.Strides()[a] > x.Strides()[b]; };
    std::stable_sort(gdims.begin(), gdims.end(), by_stride);
    std::stable_sort(rdims.begin(), rdims.end(), by_stride);

    GroupPlan<K> plan;
    auto& a = plan.args;
    {
        std::array<size_t, kMaxTensorDims> lens{};
        std::array<std::array<size_t, kMaxTensorDims>, K + 1> st{};
        for(size_t i = 0; i < gdims.size(); ++i)
        {
            lens[i] = x.Lens()[gdims[i]];
            for(int k = 0; k <= K; ++k)
                st[k][i] = descs[k]->Strides()[gdims[i]];
        }
        std::array<const size_t*, K + 1> sp;
        for(int k = 0; k <= K; ++k)
            sp[k] = st[k].data();
        a.g = Collapse<K + 1>(static_cast<int>(gdims.size()), lens.data(), sp);
    }
    {
        std::array<size_t, kMaxTensorDims> lens{};
        std::array<std::array<size_t, kMaxTensorDims>, K> st{};
        for(size_t i = 0; i < rdims.size(); ++i)
        {
            lens[i] = x.Lens()[rdims[i]];
            for(int k = 0; k < K; ++k)
                st[k][i] = descs[k]->Strides()[rdims[i]];
        }
        std::array<const size_t*, K> sp;
        for(int k = 0; k < K; ++k)
            sp[k] = st[k].data();
        a.r = Collapse<K>(static_cast<int>(rdims.size()), lens.data(), sp);
    }
    for(size_t i = gdims.size(), step = 1; i-- > 0;)
    {
        plan.group_stride[gdims[i]] = step;
        step *= x.Lens()[gdims[i]];
    }
    a.groups = a.g.numel;
    a.m      = a.r.numel;

    // Vec mode when x's innermost dim is a group dim: neighbouring threads take neighbouring
    // groups. Row mode otherwise: a block's threads walk one group's rows.
    const int64_t g_inner_stride = a.g.strides[0][a.g.ndim - 1];
    const int64_t r_inner_stride = a.r.strides[0][a.r.ndim - 1];
    const bool vec = a.groups > 1 && (a.m == 1 || g_inner_stride < r_inner_stride);
    a.gx           = vec ? 32 : 1;
    a.ry           = kGroupThreads / a.gx;
    const int64_t gblocks = (a.groups + a.gx - 1) / a.gx;
    int64_t chunks = std::max<int64_t>(1, (kGroupTargetBlocks + gblocks - 1) / gblocks);
    chunks = std::min<int64_t>(chunks, std::max<int64_t>(1, a.m / (a.ry * kGroupMinPerThread)));
    chunks = std::min<int64_t>(chunks, 65535);
    a.chunk  = (a.m + chunks - 1) / chunks;
    a.chunks = static_cast<int>((a.m + a.chunk - 1) / a.chunk);
    plan.launch = On(h, D2(static_cast<unsigned>(gblocks), static_cast<unsigned>(a.chunks)),
                     D1(kGroupThreads));
    return plan;
}

/// Carves the handle's scratch into aligned pieces: Take<T>(n) returns room for n T's.
class ScratchLayout
{
public:
    template <class T>
    size_t Add(size_t n)
    {
        const size_t at = offset_;
        offset_ += (n * sizeof(T) + 255) / 256 * 256;
        return at;
    }
    size_t Bytes() const { return offset_ > 0 ? offset_ : 256; }

private:
    size_t offset_ = 0;
};

template <class T>
T* At(void* base, size_t offset)
{
    return reinterpret_cast<T*>(static_cast<char*>(base) + offset);
}

/// A launch over n items, one thread each, grid-stride.
inline Launch PerItem(const Handle& h, int64_t n)
{
    return On(h, D1(GridStrideBlocks(h, n, 256)), D1(256));
}

} // namespace miopen::gpu
