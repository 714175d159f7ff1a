// CPU kernels of batch normalization, the part both directions share (data of any storage type,
// statistics accumulated in double, any strides).
//
// Storage types: every traversal hands its kernels rows of fp32 (RowIn / RowOut / RowFlush).
// For float data these are the caller's own rows at their own strides (no copy: the fp32 path is
// unchanged); for fp16 / bf16 a row is converted into a thread-local buffer (unit stride) on the
// way in and rounded once into the tensor on the way out, so arithmetic is the fp32 path's.
//
// x's dims split into group dims (C in spatial mode; C, [D,] H, W per activation), each group
// owning one set of statistics, and reduction dims (the rest). Two traversals, picked by which
// kind of dim has x's smallest stride:
//  - row mode (spatial NCHW): a work item is one group and a chunk of its elements, walked along
//    unit-stride rows of the reduction dims;
//  - vec mode (per-activation NCHW, spatial NHWC): a work item is a block of up to kVecBlock
//    neighbouring groups and a chunk of reduction points; every loop runs across the block.
// A group's elements are cut into chunks by shape alone, never by thread count. Each chunk's mean
// and M2 come from two passes over data still in cache, and chunks merge in a fixed order (Chan's
// formula), so results are bitwise identical for any number of threads. When a group has one
// chunk (the usual case) its statistics, parameter updates and output are computed back to back
// in one work item, so x comes from memory once and the later passes read it from L2.
// Row-mode inference has no statistics to gather and streams x in memory order instead.
#pragma once

#include "batchnorm/batchnorm_args.hpp"
#include "cpu/elementwise.hpp"
#include "cpu/storage_convert.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

// Shared by cpu/batchnorm_forward.cpp and cpu/batchnorm_backward.cpp.
namespace miopen::cpu::bn {


constexpr size_t kChunkElems   = size_t{1} << 17; // x elements per chunk: 512 KiB, L2-resident
constexpr size_t kVecBlock     = 512;             // groups per vec-mode block
constexpr size_t kMinItems     = 16;              // large tensors are cut into >= this many items
constexpr size_t kSplitMin     = size_t{1} << 20; // ... when they have at least this many elements
constexpr size_t kParallelMin  = 32768;           // smaller tensors run on one thread
constexpr size_t kParallelGroups = 8192;          // per-group loops: parallel from this many groups

// ---- rows of fp32 over data of any storage type ---------------------------------------------

/// A thread's conversion buffer `slot` (0..3), at least n floats.
inline float* RowBuffer(int slot, size_t n)
{
    thread_local std::vector<float> bufs[4];
    auto& b = bufs[slot];
    if(b.size() < n)
        b.resize(n);
    return b.data();
}

/// The n elements at p (step `stride`) as fp32: p itself for float; else converted into buffer
/// `slot`, and stride becomes 1.
template <class T>
inline const float* RowIn(const T* p, size_t n, size_t& stride, int slot)
{
    if constexpr(std::is_same_v<T, float>)
    {
        (void)n;
        (void)slot;
        return p;
    }
    else
    {
        float* buf = RowBuffer(slot, n);
        if(stride == 1)
            ConvertToFloat(p, buf, n);
        else
            for(size_t i = 0; i < n; ++i)
                buf[i] = ToFloat(p[i * stride]);
        stride = 1;
        return buf;
    }
}

/// Where to write n fp32 results for the elements at p (step `stride`): p itself for float; else
/// buffer `slot` (holding the old values when `read`), stride 1. RowFlush stores it.
template <class T>
inline float* RowOut(T* p, size_t n, size_t& stride, bool read, int slot)
{
    if constexpr(std::is_same_v<T, float>)
    {
        (void)n;
        (void)read;
        (void)slot;
        return p;
    }
    else
    {
        size_t s = stride;
        float* buf = read ? const_cast<float*>(RowIn<T>(p, n, s, slot)) : RowBuffer(slot, n);
        stride     = 1;
        return buf;
    }
}

/// Rounds a RowOut buffer once into the n elements at p (step `stride`); nothing for float.
template <class T>
inline void RowFlush(const float* buf, T* p, size_t n, size_t stride)
{
    if constexpr(std::is_same_v<T, float>)
    {
        (void)buf;
        (void)p;
        (void)n;
        (void)stride;
    }
    else if(stride == 1)
        ConvertFromFloat(buf, p, n);
    else
        for(size_t i = 0; i < n; ++i)
            p[i * stride] = FloatTo<T>(buf[i]);
}

// ---- parameters of any storage type as packed fp32 (WithStagedParams) ----------------------

/// Calls f(offset, i) for the elements of desc in row-major order of its lengths.
template <class F>
void ForEachParamElement(const TensorDescriptor& desc, F&& f)
{
    const int nd = desc.NumDims();
    std::array<size_t, kMaxTensorDims> idx{};
    const size_t n = desc.ElementSize();
    for(size_t i = 0; i < n; ++i)
    {
        size_t off = 0;
        for(int d = 0; d < nd; ++d)
            off += idx[d] * desc.Strides()[d];
        f(off, i);
        for(int d = nd - 1; d >= 0; --d)
        {
            if(++idx[d] < desc.Lens()[d])
                break;
            idx[d] = 0;
        }
    }
}

inline void GatherParam(const TensorDescriptor& desc, const void* user, float* dst)
{
    DispatchFloating(desc.Type(), "bnDesc", [&](auto tag) {
        using P    = typename decltype(tag)::type;
        const P* u = static_cast<const P*>(user);
        ForEachParamElement(desc, [&](size_t off, size_t i) { dst[i] = ToFloat(u[off]); });
    });
}

inline void ScatterParam(const float* src, const TensorDescriptor& desc, void* user)
{
    DispatchFloating(desc.Type(), "bnDesc", [&](auto tag) {
        using P = typename decltype(tag)::type;
        P* u    = static_cast<P*>(user);
        ForEachParamElement(desc, [&](size_t off, size_t i) { u[off] = FloatTo<P>(src[i]); });
    });
}

/// run(args') with the parameters in place or staged through host memory.
template <class Args, class Run>
void WithHostParams(const Args& args, Run&& run)
{
    std::vector<float> buf;
    if(args.staging.on)
        buf.resize(BnParamStaging::kSlots * args.staging.packed.ElementSize());
    WithStagedParams(args, buf.data(), GatherParam, ScatterParam, run);
}

// ---- geometry: group space x reduction space, for K operands (the parameter tensor last) ----

template <int K>
struct Geometry
{
    bool vec = false;
    Loop<K> g;                 // group space; row-major order over it numbers the groups
    Loop<K> r;                 // reduction space; the parameter tensor has stride 0 in it
    size_t groups = 1;
    size_t m      = 1;         // elements per group
    size_t g_inner = 1;        // vec: length of the group space's innermost dim
    size_t block   = 1;        // vec: groups per block
    size_t blocks_per_row = 1; // vec
    size_t items_g = 1;        // group blocks (vec) or groups (row)
    size_t chunk   = 1;        // reduction elements per chunk
    size_t chunks  = 1;
    size_t total   = 1;        // elements of x
    // Per dim of x (logical order): the step of the group index (0 for reduction dims).
    std::array<size_t, kMaxTensorDims> group_stride{};

    size_t ChunkBegin(size_t k) const { return k * chunk; }
    size_t ChunkEnd(size_t k) const { return std::min(m, (k + 1) * chunk); }
    bool Parallel() const { return total >= kParallelMin; }
    // Light loops over groups get their own parallel region only when there are many groups: a
    // region costs a wake-up of every thread, and a time slice when another process holds a core.
    bool ParallelGroups() const { return Parallel() && groups >= kParallelGroups; }
};

/// One group block: groups g0 .. g0+count-1, the offsets of its first element in each operand
/// and (vec mode) each operand's stride from one group of the block to the next.
template <int K>
struct Block
{
    size_t g0 = 0;
    size_t count = 1;
    std::array<size_t, K> base{};
    std::array<size_t, K> gs{};
};

template <int K>
std::array<size_t, K> Offsets(const Loop<K>& l, size_t index, int ndims)
{
    std::array<size_t, K> off{};
    for(int d = ndims - 1; d >= 0; --d)
    {
        const size_t i = index % l.lens[d];
        index /= l.lens[d];
        for(int k = 0; k < K; ++k)
            off[k] += i * l.strides[k][d];
    }
    return off;
}

template <int K>
Geometry<K> MakeGeometry(miopenBatchNormMode_t mode,
                         const std::array<const TensorDescriptor*, K>& descs)
{
    const TensorDescriptor& x = *descs[0];
    const int nd              = x.NumDims();
    std::vector<int> gdims, rdims;
    for(int d = 0; d < nd; ++d)
        (d == 1 || (mode == miopenBNPerActivation && d >= 2) ? gdims : rdims).push_back(d);
    // Outer to inner by x's stride, so that x's contiguous dim ends up innermost.
    const auto by_stride = [&](int a, int b) { return x.Strides()[a] > x.Strides()[b]; };
    std::stable_sort(gdims.begin(), gdims.end(), by_stride);
    std::stable_sort(rdims.begin(), rdims.end(), by_stride);

    const auto build = [&](const std::vector<int>& dims, bool reduce) {
        std::array<size_t, kMaxTensorDims> lens{};
        std::array<std::array<size_t, kMaxTensorDims>, K> st{};
        for(size_t i = 0; i < dims.size(); ++i)
        {
            lens[i] = x.Lens()[dims[i]];
            for(int k = 0; k < K; ++k)
                st[k][i] = (reduce && k == K - 1) ? 0 : descs[k]->Strides()[dims[i]];
        }
        std::array<const size_t*, K> sp;
        for(int k = 0; k < K; ++k)
            sp[k] = st[k].data();
        return MakeLoop<K>(static_cast<int>(dims.size()), lens.data(), sp);
    };

    Geometry<K> geo;
    for(size_t i = gdims.size(), step = 1; i-- > 0;)
    {
        geo.group_stride[gdims[i]] = step;
        step *= x.Lens()[gdims[i]];
    }
    geo.g = build(gdims, false);
    geo.r = build(rdims, true);
    for(int d = 0; d < geo.g.ndim; ++d)
        geo.groups *= geo.g.lens[d];
    for(int d = 0; d < geo.r.ndim; ++d)
        geo.m *= geo.r.lens[d];
    geo.total = geo.groups * geo.m;

    const int gi = geo.g.ndim - 1;
    const int ri = geo.r.ndim - 1;
    geo.vec = geo.g.lens[gi] > 1 &&
              (geo.m == 1 || geo.g.strides[0][gi] < geo.r.strides[0][ri]);

    size_t width = 1; // groups a work item covers
    if(geo.vec)
    {
        geo.g_inner        = geo.g.lens[gi];
        geo.block          = std::min(kVecBlock, geo.g_inner);
        geo.blocks_per_row = (geo.g_inner + geo.block - 1) / geo.block;
        geo.items_g        = geo.groups / geo.g_inner * geo.blocks_per_row;
        width              = geo.block;
    }
    else
    {
        geo.items_g = geo.groups;
    }
    geo.chunk = std::max<size_t>(1, kChunkElems / width);
    if(geo.total >= kSplitMin && geo.items_g < kMinItems)
    {
        const size_t want = (kMinItems + geo.items_g - 1) / geo.items_g;
        geo.chunk         = std::min(geo.chunk, (geo.m + want - 1) / want);
    }
    geo.chunk  = std::min(geo.chunk, geo.m);
    geo.chunks = (geo.m + geo.chunk - 1) / geo.chunk;
    return geo;
}

template <int K>
Block<K> GetBlock(const Geometry<K>& geo, size_t item_g)
{
    Block<K> b;
    if(!geo.vec)
    {
        b.g0   = item_g;
        b.base = Offsets(geo.g, item_g, geo.g.ndim);
        return b;
    }
    const int gi       = geo.g.ndim - 1;
    const size_t row   = item_g / geo.blocks_per_row;
    const size_t j     = item_g % geo.blocks_per_row;
    const size_t first = j * geo.block;
    b.g0               = row * geo.g_inner + first;
    b.count            = std::min(geo.block, geo.g_inner - first);
    b.base             = Offsets(geo.g, row, gi);
    for(int k = 0; k < K; ++k)
    {
        b.gs[k] = geo.g.strides[k][gi];
        b.base[k] += first * b.gs[k];
    }
    return b;
}

/// Calls fn(off, n, strides) over reduction elements [e0, e1) of block b. Row mode: runs of n
/// elements of the one group, `strides` their step. Vec mode: one call per reduction point, the
/// n = b.count elements being the block's groups, `strides` the step between groups.
template <int K, class Fn>
void ForSegments(const Geometry<K>& geo, const Block<K>& b, size_t e0, size_t e1, Fn&& fn)
{
    const Loop<K>& r = geo.r;
    const int ri     = r.ndim - 1;
    if(!geo.vec)
    {
        const size_t len = r.lens[ri];
        std::array<size_t, K> sr;
        for(int k = 0; k < K; ++k)
            sr[k] = r.strides[k][ri];
        for(size_t e = e0; e < e1;)
        {
            const size_t row = e / len;
            const size_t i   = e % len;
            const size_t n   = std::min(len - i, e1 - e);
            auto off         = Offsets(r, row, ri);
            for(int k = 0; k < K; ++k)
                off[k] += b.base[k] + i * sr[k];
            fn(off, n, sr);
            e += n;
        }
        return;
    }
    // Vec mode: an odometer over the reduction space, starting at point e0.
    std::array<size_t, kMaxTensorDims> idx{};
    std::array<size_t, K> off = b.base;
    {
        size_t p = e0;
        for(int d = ri; d >= 0; --d)
        {
            idx[d] = p % r.lens[d];
            p /= r.lens[d];
            for(int k = 0; k < K; ++k)
                off[k] += idx[d] * r.strides[k][d];
        }
    }
    for(size_t p = e0; p < e1; ++p)
    {
        fn(off, b.count, b.gs);
        for(int d = ri; d >= 0; --d)
        {
            for(int k = 0; k < K; ++k)
                off[k] += r.strides[k][d];
            if(++idx[d] < r.lens[d])
                break;
            for(int k = 0; k < K; ++k)
                off[k] -= r.lens[d] * r.strides[k][d];
            idx[d] = 0;
        }
    }
}

/// Calls f(step) with step the compile-time constant 1 when `step` is 1, else the runtime value:
/// the usual packed parameter tensors then get contiguous vector loads instead of lane-by-lane
/// strided ones.
template <class F>
inline void WithStep(size_t step, F&& f)
{
    if(step == 1)
        f(std::integral_constant<size_t, 1>{});
    else
        f(step);
}

/// Runs body(i) for i in [0, n), in parallel when `parallel`.
template <class Body>
void ParallelFor(size_t n, bool parallel, Body&& body)
{
#pragma omp parallel for schedule(static) if(parallel && n > 1)
    for(long long i = 0; i < static_cast<long long>(n); ++i)
        body(static_cast<size_t>(i));
}

// ---- fp16 / bf16 work items staged as fp32 --------------------------------------------------

/// Moves chunk k of block b of operand j (storage type T at p) between the tensor and buf, buf
/// holding the elements as fp32 in the order ForSegments visits them: tensor -> buf when In,
/// buf -> tensor (rounded once) otherwise. Runs that touch in memory become one bulk conversion.
template <bool In, int K, class T>
void MoveStage(const Geometry<K>& geo, const Block<K>& b, size_t k, int j, T* p, float* buf)
{
    // Operand j packed over the reduction space, a vec-mode block being whole contiguous rows
    // (packed NHWC): the chunk is one run, converted without walking its points.
    const Loop<K>& r    = geo.r;
    const size_t inner  = geo.vec ? b.count : 1;
    bool dense          = !geo.vec || b.gs[j] == 1;
    for(int d = r.ndim - 1; d >= 0 && dense; --d)
    {
        size_t expect = inner;
        for(int e = d + 1; e < r.ndim; ++e)
            expect *= r.lens[e];
        dense = r.strides[j][d] == expect;
    }
    if(dense)
    {
        const size_t e0 = geo.ChunkBegin(k), n = (geo.ChunkEnd(k) - e0) * inner;
        T* at           = p + b.base[j] + e0 * inner;
        if constexpr(In)
            ConvertToFloat(at, buf, n);
        else
            ConvertFromFloat(buf, at, n);
        return;
    }
    T* run        = nullptr;
    float* run_at = buf;
    size_t run_n  = 0;
    const auto flush = [&] {
        if(run_n == 0)
            return;
        if constexpr(In)
            ConvertToFloat(run, run_at, run_n);
        else
            ConvertFromFloat(run_at, run, run_n);
        run_n = 0;
    };
    ForSegments(geo, b, geo.ChunkBegin(k), geo.ChunkEnd(k),
                [&](const auto& off, size_t n, const auto& st) {
                    T* seg = p + off[j];
                    if(st[j] == 1)
                    {
                        if(run_n == 0 || run + run_n != seg)
                        {
                            flush();
                            run    = seg;
                            run_at = buf;
                        }
                        run_n += n;
                    }
                    else
                    {
                        flush();
                        for(size_t i = 0; i < n; ++i)
                        {
                            if constexpr(In)
                                buf[i] = ToFloat(seg[i * st[j]]);
                            else
                                seg[i * st[j]] = FloatTo<T>(buf[i]);
                        }
                    }
                    buf += n;
                });
    flush();
}

/// Chunk k of block b with its data operands (every operand but the parameter tensor, K - 1) as
/// fp32, for kernels that run their fp32 code on it. Float data: the tensors themselves and the
/// given geometry. fp16 / bf16: an operand read is converted once into a thread-local buffer
/// (In), one written is computed there (Out) and rounded once into the tensor (Flush), and Geo /
/// Blk walk the buffers (the chunk's points in reduction order, a vec-mode block's groups
/// contiguous in each point). Every data operand the kernels touch must go through In or Out,
/// since the staged geometry addresses buffers; the parameter operand keeps its own offsets.
/// Instead of a row conversion on each of the statistics, normalising and gradient passes, x is
/// converted once per item, in runs as long as its layout allows.
template <class T, int K>
class ItemStage
{
    static constexpr bool kStaged = !std::is_same_v<T, float>;

public:
    ItemStage(const Geometry<K>& geo, const Block<K>& b, size_t k) : geo_(geo), b_(b), k_(k)
    {
        if constexpr(kStaged)
        {
            const size_t e0   = geo.ChunkBegin(k);
            const size_t step = geo.vec ? b.count : 1; // buffer elements per reduction point
            sgeo_             = geo;
            sb_               = b;
            Loop<K> r;
            r.ndim    = 1;
            r.lens[0] = geo.m;
            for(int j = 0; j < K - 1; ++j)
            {
                r.strides[j][0] = step;
                sb_.base[j]     = size_t{0} - e0 * step; // point e0 at buffer offset 0 (mod 2^64)
                sb_.gs[j]       = 1;
            }
            sgeo_.r = r;
            n_      = (geo.ChunkEnd(k) - e0) * step;
        }
    }

    const Geometry<K>& Geo() const { return kStaged ? sgeo_ : geo_; }
    const Block<K>& Blk() const { return kStaged ? sb_ : b_; }

    /// Operand j (at p) as fp32, read; `slot`: the RowBuffer it is converted into.
    const float* In(int j, const void* p, int slot) const
    {
        if constexpr(!kStaged)
        {
            (void)j;
            (void)slot;
            return static_cast<const float*>(p);
        }
        else
        {
            float* buf = RowBuffer(slot, n_);
            MoveStage<true>(geo_, b_, k_, j, const_cast<T*>(static_cast<const T*>(p)), buf);
            return buf;
        }
    }

    /// Where to compute operand j (at p); holding its values when `read`.
    float* Out(int j, void* p, bool read, int slot) const
    {
        if constexpr(!kStaged)
        {
            (void)j;
            (void)read;
            (void)slot;
            return static_cast<float*>(p);
        }
        else
            return read ? const_cast<float*>(In(j, p, slot)) : RowBuffer(slot, n_);
    }

    /// Rounds an Out buffer into operand j (at p); nothing for float.
    void Flush(int j, const float* buf, void* p) const
    {
        if constexpr(kStaged)
            MoveStage<false>(geo_, b_, k_, j, static_cast<T*>(p), const_cast<float*>(buf));
        else
        {
            (void)j;
            (void)buf;
            (void)p;
        }
    }

private:
    const Geometry<K>& geo_;
    const Block<K>& b_;
    size_t k_;
    Geometry<K> sgeo_{};
    Block<K> sb_{};
    size_t n_ = 0;
};

// ---- unit-stride reductions -------------------------------------------------------------
// kLanes float partial sums over blocks of kBlock elements (16 adds per lane), each block added
// into kLanes double sums, and those added up in a fixed order at the end. Independent lanes keep
// the adders busy (one accumulator would wait on itself), float blocks keep the instruction count
// low, and the double sums keep long reductions accurate; the order is fixed, so is the result.

constexpr size_t kLanes = 64;
constexpr size_t kBlock = 1024;

/// Calls body(i, acc) for i = 0, kLanes, ... < n0 (n0 a multiple of kLanes) with float lanes,
/// folding them into dacc every kBlock elements.
template <size_t L, class Body>
inline void LaneBlocks(size_t n0, double (&dacc)[L], Body&& body)
{
    for(size_t b = 0; b < n0; b += kBlock)
    {
        float acc[L] = {};
        const size_t e = std::min(n0, b + kBlock);
        for(size_t i = b; i < e; i += L)
            body(i, acc);
#pragma omp simd
        for(size_t j = 0; j < L; ++j)
            dacc[j] += acc[j];
    }
}

template <size_t L>
inline double LaneTotal(const double (&dacc)[L])
{
    double s = 0.0;
    for(size_t j = 0; j < L; ++j)
        s += dacc[j];
    return s;
}

inline double SumUnit(const float* p, size_t n)
{
    double dacc[kLanes] = {};
    const size_t n0 = n / kLanes * kLanes;
    LaneBlocks(n0, dacc, [&](size_t i, float(&acc)[kLanes]) {
#pragma omp simd
        for(size_t j = 0; j < kLanes; ++j)
            acc[j] += p[i + j];
    });
    double s = LaneTotal(dacc);
    for(size_t i = n0; i < n; ++i)
        s += p[i];
    return s;
}

/// Sum of (p - mu)^2; mu is the chunk's mean, so the float differences lose nothing that matters.
inline double SumSqDevUnit(const float* p, size_t n, double mu)
{
    const float m = static_cast<float>(mu);
    double dacc[kLanes] = {};
    const size_t n0 = n / kLanes * kLanes;
    LaneBlocks(n0, dacc, [&](size_t i, float(&acc)[kLanes]) {
#pragma omp simd
        for(size_t j = 0; j < kLanes; ++j)
        {
            const float d = p[i + j] - m;
            acc[j] += d * d;
        }
    });
    double s = LaneTotal(dacc);
    for(size_t i = n0; i < n; ++i)
    {
        const double d = p[i] - mu;
        s += d * d;
    }
    return s;
}

/// s1 += sum dy, s2 += sum dy * (x - mu).
inline void GradSumsUnit(const float* x, const float* dy, size_t n, double mu, double& s1,
                         double& s2)
{
    constexpr size_t L = kLanes / 2;
    const float m = static_cast<float>(mu);
    double d1[L] = {}, d2[L] = {};
    const size_t n0 = n / L * L;
    for(size_t b = 0; b < n0; b += kBlock)
    {
        float a1[L] = {}, a2[L] = {};
        const size_t e = std::min(n0, b + kBlock);
        for(size_t i = b; i < e; i += L)
        {
#pragma omp simd
            for(size_t j = 0; j < L; ++j)
            {
                const float g = dy[i + j];
                a1[j] += g;
                a2[j] += g * (x[i + j] - m);
            }
        }
#pragma omp simd
        for(size_t j = 0; j < L; ++j)
        {
            d1[j] += a1[j];
            d2[j] += a2[j];
        }
    }
    double t1 = LaneTotal(d1), t2 = LaneTotal(d2);
    for(size_t i = n0; i < n; ++i)
    {
        const double g = dy[i];
        t1 += g;
        t2 += g * (x[i] - mu);
    }
    s1 += t1;
    s2 += t2;
}

// ---- per-chunk statistics: mean and M2 = sum (x - mean)^2, in double ----------------------

template <int K, class T>
void ChunkStats(const Geometry<K>& geo, const Block<K>& b, size_t k, const T* x,
                double* mean, double* m2)
{
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    const double inv_n = 1.0 / static_cast<double>(e1 - e0);
    if(!geo.vec)
    {
        double s = 0.0;
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st_in) {
            auto st = st_in;
            const float* xr = RowIn(x + off[0], n, st[0], 0);
            if(st[0] == 1)
                s += SumUnit(xr, n);
            else
            {
                for(size_t i = 0; i < n; ++i)
                    s += xr[i * st[0]];
            }
        });
        const double mu = s * inv_n;
        double q        = 0.0;
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st_in) {
            auto st = st_in;
            const float* xr = RowIn(x + off[0], n, st[0], 0);
            if(st[0] == 1)
                q += SumSqDevUnit(xr, n, mu);
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const double d = xr[i * st[0]] - mu;
                    q += d * d;
                }
            }
        });
        mean[0] = mu;
        m2[0]   = q;
        return;
    }
    const size_t c = b.count;
    std::fill(mean, mean + c, 0.0);
    std::fill(m2, m2 + c, 0.0);
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st_in) {
        auto st = st_in;
        const float* xr = RowIn(x + off[0], n, st[0], 0);
        if(st[0] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                mean[i] += xr[i];
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
                mean[i] += xr[i * st[0]];
        }
    });
    for(size_t i = 0; i < c; ++i)
        mean[i] *= inv_n;
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st_in) {
        auto st = st_in;
        const float* xr = RowIn(x + off[0], n, st[0], 0);
        if(st[0] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const double d = xr[i] - mean[i];
                m2[i] += d * d;
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const double d = xr[i * st[0]] - mean[i];
                m2[i] += d * d;
            }
        }
    });
}

/// Statistics of every group, chunk by chunk (used when groups have several chunks): per-chunk
/// results merged in chunk order, so the result does not depend on the thread count.
template <int K, class T>
void AllStats(const Geometry<K>& geo, const T* x, std::vector<double>& mean,
              std::vector<double>& var)
{
    const size_t nk = geo.chunks;
    std::vector<double> pm(geo.groups * nk), pq(geo.groups * nk);
    ParallelFor(geo.items_g * nk, geo.Parallel(), [&](size_t item) {
        const size_t k = item % nk;
        const auto b   = GetBlock(geo, item / nk);
        double lm[kVecBlock], lq[kVecBlock];
        const ItemStage<T, K> st(geo, b, k);
        ChunkStats(st.Geo(), st.Blk(), k, st.In(0, x, 0), lm, lq);
        for(size_t i = 0; i < b.count; ++i)
        {
            pm[(b.g0 + i) * nk + k] = lm[i];
            pq[(b.g0 + i) * nk + k] = lq[i];
        }
    });
    mean.assign(geo.groups, 0.0);
    var.assign(geo.groups, 0.0);
    ParallelFor(geo.groups, geo.ParallelGroups(), [&](size_t g) {
        double n = 0.0, mu = 0.0, q = 0.0;
        for(size_t k = 0; k < nk; ++k)
        {
            const double nb = static_cast<double>(geo.ChunkEnd(k) - geo.ChunkBegin(k));
            const double mb = pm[g * nk + k];
            const double t  = n + nb;
            const double d  = mb - mu;
            mu += d * nb / t;
            q += pq[g * nk + k] + d * d * n * nb / t;
            n = t;
        }
        mean[g] = mu;
        var[g]  = q / n;
    });
}

} // namespace miopen::cpu::bn
