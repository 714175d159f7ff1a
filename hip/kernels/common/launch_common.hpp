// Host helpers of the launchers: strided spaces from tensor descriptors, grid sizes, and the
// launch check. Plain C++ (no vendor headers).
#pragma once

#include "kernels/common/args.hpp"
#include "core/errors.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace miopen::gpu {

/// The space of `ndim` lengths and N operands' strides (strides[k] points at operand k's ndim
/// strides): dims of length 1 dropped, dims contiguous in every operand merged (innermost last).
template <int N>
StridedSpace<N> Collapse(int ndim, const size_t* lens, const std::array<const size_t*, N>& strides)
{
    StridedSpace<N> s;
    s.ndim  = 0;
    s.numel = 1;
    for(int d = 0; d < ndim; ++d)
    {
        const auto len = static_cast<int64_t>(lens[d]);
        s.numel *= len;
        if(len == 1)
            continue;
        bool merge = s.ndim > 0;
        for(int k = 0; k < N && merge; ++k)
            merge = static_cast<int64_t>(strides[k][d]) * len == s.strides[k][s.ndim - 1];
        if(merge)
        {
            s.lens[s.ndim - 1] *= len;
            for(int k = 0; k < N; ++k)
                s.strides[k][s.ndim - 1] = static_cast<int64_t>(strides[k][d]);
            continue;
        }
        s.lens[s.ndim] = len;
        for(int k = 0; k < N; ++k)
            s.strides[k][s.ndim] = static_cast<int64_t>(strides[k][d]);
        ++s.ndim;
    }
    if(s.ndim == 0)
    {
        s.ndim    = 1;
        s.lens[0] = 1;
        for(int k = 0; k < N; ++k)
            s.strides[k][0] = 1;
    }
    return s;
}

/// Collapse for an element-wise map (every operand's element i depends on element i only): the
/// dims taken in the order of the last operand's (the output's) strides, outermost first, since a
/// map's result does not depend on the order its space is walked. A permuted packed layout (NHWC
/// or NDHWC described in logical NCHW order, as every channels-last descriptor is) then merges to
/// the one unit-stride run a packed tensor gives, and takes the vectorised kernels instead of the
/// strided ones (a 1x1 ReLU on an NHWC fp16 tensor ran about 10x slower than on NCHW before).
/// Dims of equal output stride keep their order (stable).
template <int N>
StridedSpace<N> CollapseMap(int ndim, const size_t* lens, const std::array<const size_t*, N>& strides)
{
    if(ndim <= 1 || ndim > kMaxDims)
        return Collapse<N>(ndim, lens, strides);
    int order[kMaxDims];
    for(int d = 0; d < ndim; ++d)
        order[d] = d;
    const size_t* out = strides[N - 1];
    std::stable_sort(order, order + ndim, [&](int a, int b) { return out[a] > out[b]; });
    size_t plens[kMaxDims];
    size_t pstrides[N][kMaxDims];
    std::array<const size_t*, N> pp{};
    for(int d = 0; d < ndim; ++d)
    {
        plens[d] = lens[order[d]];
        for(int k = 0; k < N; ++k)
            pstrides[k][d] = strides[k][order[d]];
    }
    for(int k = 0; k < N; ++k)
        pp[k] = pstrides[k];
    return Collapse<N>(ndim, plens, pp);
}

/// Strides of a descriptor whose lengths are the index space's.
inline const size_t* StridesOf(const TensorDescriptor& d) { return d.Strides().data(); }

inline unsigned CeilDiv(int64_t a, int64_t b) { return static_cast<unsigned>((a + b - 1) / b); }

/// Blocks for a grid-stride loop over `work` items of `threads` threads each: enough to fill the
/// GPU several times over (8 blocks of 256 threads per multiprocessor keep 32 KB of loads in
/// flight per SM), no more than the work needs.
inline unsigned GridStrideBlocks(const Handle& h, int64_t work, unsigned threads)
{
    const int64_t need = (work + threads - 1) / threads;
    const int64_t full = static_cast<int64_t>(MultiprocessorCount(h.Ordinal())) * 8 * 256 / threads;
    return static_cast<unsigned>(std::max<int64_t>(1, std::min(need, std::max<int64_t>(full, 1))));
}

/// The launch of a kernel on the handle's stream.
inline Launch On(const Handle& h, Dim3 grid, Dim3 block)
{
    Launch l;
    l.grid   = grid;
    l.block  = block;
    l.stream = h.Stream();
    return l;
}

inline Dim3 D1(unsigned x) { Dim3 d; d.x = x; return d; }
inline Dim3 D2(unsigned x, unsigned y) { Dim3 d; d.x = x; d.y = y; return d; }

/// The launch of an element-wise op over `s` (inputs first, the output last): the rows kernel
/// when rows are long enough to give a block real work, else one thread per element. T and NData
/// as in MapArgs (the data operands' storage type; the inputs of that type).
template <int NIn, class T = float, int NData = NIn>
MapArgs<NIn, T, NData> PlanMap(const Handle& h, const StridedSpace<NIn + 1>& s, float beta,
                               Launch& l)
{
    MapArgs<NIn, T, NData> a;
    a.s               = s;
    a.beta            = beta;
    const int64_t len = s.lens[s.ndim - 1];
    const int64_t rows = s.numel / (len > 0 ? len : 1);
    const int64_t cpr  = (len + kMapChunk - 1) / kMapChunk;
    if(len >= 256 && rows * cpr <= INT32_MAX)
    {
        a.chunk          = kMapChunk;
        a.chunks_per_row = cpr;
        l                = On(h, D1(static_cast<unsigned>(rows * cpr)), D1(kMapThreads));
    }
    else
    {
        a.chunk          = 0;
        a.chunks_per_row = 0;
        l = On(h, D1(GridStrideBlocks(h, s.numel, kMapThreads)), D1(kMapThreads));
    }
    return a;
}

/// Whether t is packed N, C, S (S the product of the dims past C, a multiple of 4) starting
/// 16-byte aligned at p, with every count of float4s in 31 bits and C within a grid's y: the
/// float4 reductions over channels (bn_train_nchw4, the bias backward). Gives n, c, s.
inline bool PackedNcs4(const TensorDescriptor& t, const void* p, int64_t& n, int64_t& c,
                       int64_t& s)
{
    if(!t.IsPacked() || t.NumDims() < 3 || (reinterpret_cast<uintptr_t>(p) & 15) != 0)
        return false;
    const auto& lens = t.Lens();
    s                = 1;
    for(size_t d = 2; d < lens.size(); ++d)
        s *= static_cast<int64_t>(lens[d]);
    n = static_cast<int64_t>(lens[0]);
    c = static_cast<int64_t>(lens[1]);
    return s % 4 == 0 && n * c * s != 0 && n * c * (s / 4) <= INT32_MAX && c <= 65535;
}

/// The balanced chunks of a plane of plane_q float4s that a block of `per` float4s (threads times
/// float4s a thread) covers: as few chunks as give each thread at most its share, all of one
/// size but the last. Gives chunk_q (float4s a chunk) and chunks (chunks a plane).
inline void PlanBalancedChunks(int64_t plane_q, int64_t per, int64_t& chunk_q, int64_t& chunks)
{
    chunks  = (plane_q + per - 1) / per;
    chunk_q = (plane_q + chunks - 1) / chunks;
    chunks  = (plane_q + chunk_q - 1) / chunk_q;
}

/// The chunks of one channel's n * s4 float4s that such a reduction's blocks (of `threads`) take:
/// about 1024 blocks in all, at least 8 float4s a thread, at most 65535 chunks (grid.x).
/// Constants, not the device's SM count, so the chunking, and with it the bits of every sum,
/// depend on the shape alone.
struct ChannelChunks
{
    int64_t chunk4 = 1; // float4s a block
    int64_t chunks = 1; // blocks a channel
};

inline ChannelChunks PlanChannelChunks(int64_t n, int64_t c, int64_t s4, int64_t threads)
{
    constexpr int64_t kTargetBlocks = 1024;
    constexpr int64_t kMinPerThread = 8;
    const int64_t m4 = n * s4;
    int64_t chunks   = std::max<int64_t>(1, (kTargetBlocks + c - 1) / c);
    chunks = std::min<int64_t>(chunks, std::max<int64_t>(1, m4 / (threads * kMinPerThread)));
    chunks = std::min<int64_t>(chunks, 65535);
    ChannelChunks r;
    r.chunk4 = (m4 + chunks - 1) / chunks;
    r.chunks = (m4 + r.chunk4 - 1) / r.chunk4;
    return r;
}

} // namespace miopen::gpu
