// CPU kernels of batch normalization (fp32 data, statistics accumulated in double, any strides).
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
#include "batchnorm/batchnorm_args.hpp"
#include "cpu/elementwise.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

namespace miopen::cpu {
namespace {

constexpr size_t kChunkElems   = size_t{1} << 17; // x elements per chunk: 512 KiB, L2-resident
constexpr size_t kVecBlock     = 512;             // groups per vec-mode block
constexpr size_t kMinItems     = 16;              // large tensors are cut into >= this many items
constexpr size_t kSplitMin     = size_t{1} << 20; // ... when they have at least this many elements
constexpr size_t kParallelMin  = 32768;           // smaller tensors run on one thread
constexpr size_t kParallelGroups = 8192;          // per-group loops: parallel from this many groups

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

template <int K>
void ChunkStats(const Geometry<K>& geo, const Block<K>& b, size_t k, const float* x,
                double* mean, double* m2)
{
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    const double inv_n = 1.0 / static_cast<double>(e1 - e0);
    if(!geo.vec)
    {
        double s = 0.0;
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const float* xr = x + off[0];
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
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const float* xr = x + off[0];
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
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const float* xr = x + off[0];
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
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const float* xr = x + off[0];
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
template <int K>
void AllStats(const Geometry<K>& geo, const float* x, std::vector<double>& mean,
              std::vector<double>& var)
{
    const size_t nk = geo.chunks;
    std::vector<double> pm(geo.groups * nk), pq(geo.groups * nk);
    ParallelFor(geo.items_g * nk, geo.Parallel(), [&](size_t item) {
        const size_t k = item % nk;
        const auto b   = GetBlock(geo, item / nk);
        double lm[kVecBlock], lq[kVecBlock];
        ChunkStats(geo, b, k, x, lm, lq);
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

// ---- forward ----------------------------------------------------------------------------

enum FwdOperand
{
    kFx = 0,
    kFy = 1,
    kFp = 2,
};

/// Per-group coefficients of y = (x - m) * a + c for the groups of one block.
struct FwdCoef
{
    float* m;
    float* a;
    float* c;
};

/// Coefficients of one block (on the stack) or of all groups (unfused paths).
struct FwdCoefStore
{
    explicit FwdCoefStore(size_t n) : m(n), a(n), c(n) {}
    FwdCoef At(size_t g0) { return {m.data() + g0, a.data() + g0, c.data() + g0}; }
    std::vector<float> m, a, c;
};

template <bool ReadY>
void ApplyForward(const Geometry<3>& geo, const Block<3>& b, size_t k, const BnForwardArgs& args,
                  const FwdCoef& cf)
{
    const float* x = args.x;
    float* y       = args.y;
    const float beta = args.beta;
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    if(!geo.vec)
    {
        const float m = cf.m[0], a = cf.a[0], c = cf.c[0];
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const float* xr = x + off[kFx];
            float* yr       = y + off[kFy];
            if(st[kFx] == 1 && st[kFy] == 1)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                {
                    const float v = (xr[i] - m) * a + c;
                    yr[i]         = ReadY ? v + beta * yr[i] : v;
                }
            }
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const float v     = (xr[i * st[kFx]] - m) * a + c;
                    float& out        = yr[i * st[kFy]];
                    out               = ReadY ? v + beta * out : v;
                }
            }
        });
        return;
    }
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const float* xr = x + off[kFx];
        float* yr       = y + off[kFy];
        if(st[kFx] == 1 && st[kFy] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const float v = (xr[i] - cf.m[i]) * cf.a[i] + cf.c[i];
                yr[i]         = ReadY ? v + beta * yr[i] : v;
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const float v = (xr[i * st[kFx]] - cf.m[i]) * cf.a[i] + cf.c[i];
                float& out    = yr[i * st[kFy]];
                out           = ReadY ? v + beta * out : v;
            }
        }
    });
}

void ApplyForwardItem(const Geometry<3>& geo, const Block<3>& b, size_t k,
                      const BnForwardArgs& args, const FwdCoef& cf)
{
    if(args.beta == 0.0f)
        ApplyForward<false>(geo, b, k, args, cf);
    else
        ApplyForward<true>(geo, b, k, args, cf);
}

/// From the batch statistics of block b's groups: updates running / saved statistics and fills
/// the coefficients. Simple loops over the block, so each one vectorises.
void FinishTraining(const Geometry<3>& geo, const Block<3>& b, const BnForwardArgs& args,
                    const double* mean, const double* var, const FwdCoef& cf)
{
    const size_t n     = b.count;
    const size_t base  = b.base[kFp];
    const double f     = args.exp_avg_factor;
    const double alpha = args.alpha;
    // MIOpen: unbiased running variance, except that a single element per statistic keeps it.
    const double m      = static_cast<double>(geo.m);
    const double unbias = geo.m > 1 ? m / (m - 1.0) : 1.0;
    // 1/sqrt in float: twice the lanes of double, and exact enough for fp32 outputs.
    float inv_std[kVecBlock];
    const float eps_f = static_cast<float>(args.epsilon);
#pragma omp simd
    for(size_t i = 0; i < n; ++i)
        inv_std[i] = 1.0f / std::sqrt(static_cast<float>(var[i]) + eps_f);
    WithStep(b.gs[kFp], [&](auto ps) {
        if(args.running_mean != nullptr)
        {
            float* rm = args.running_mean + base;
            float* rv = args.running_variance + base;
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                rm[i * ps] = static_cast<float>((1.0 - f) * rm[i * ps] + f * mean[i]);
                rv[i * ps] = static_cast<float>((1.0 - f) * rv[i * ps] + f * (var[i] * unbias));
            }
        }
        if(args.save_mean != nullptr)
        {
            float* sm = args.save_mean + base;
            float* si = args.save_inv_std + base;
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                sm[i * ps] = static_cast<float>(mean[i]);
                si[i * ps] = inv_std[i];
            }
        }
        const float* scale = args.scale + base;
        const float* bias  = args.bias + base;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
        {
            cf.m[i] = static_cast<float>(mean[i]);
            cf.a[i] = static_cast<float>(alpha * scale[i * ps] * inv_std[i]);
            cf.c[i] = args.alpha * bias[i * ps];
        }
    });
}

/// Coefficients of block b's groups from the estimated statistics.
void InferenceCoef(const Block<3>& b, const BnForwardArgs& args, const FwdCoef& cf)
{
    const size_t n     = b.count;
    const size_t base  = b.base[kFp];
    const float eps    = static_cast<float>(args.epsilon);
    const float alpha  = args.alpha;
    const float* em    = args.est_mean + base;
    const float* ev    = args.est_variance + base;
    const float* scale = args.scale + base;
    const float* bias  = args.bias + base;
    WithStep(b.gs[kFp], [&](auto ps) {
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
        {
            const float inv_std = 1.0f / std::sqrt(ev[i * ps] + eps);
            cf.m[i]             = em[i * ps];
            cf.a[i]             = alpha * scale[i * ps] * inv_std;
            cf.c[i]             = alpha * bias[i * ps];
        }
    });
}

Geometry<3> ForwardGeometry(const BnForwardArgs& args)
{
    return MakeGeometry<3>(args.mode, {args.xDesc, args.yDesc, args.pDesc});
}

// ---- backward ---------------------------------------------------------------------------

enum BwdOperand
{
    kBx  = 0,
    kBdy = 1,
    kBdx = 2,
    kBp  = 3,
};

/// Per-chunk sums of dy and dy * (x - mean), in double.
void ChunkGradSums(const Geometry<4>& geo, const Block<4>& b, size_t k, const BnBackwardArgs& a,
                   const double* mean, double* sdy, double* sdyx)
{
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    const float* x  = a.x;
    const float* dy = a.dy;
    if(!geo.vec)
    {
        const double mu = mean[0];
        double s1 = 0.0, s2 = 0.0;
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const float* xr  = x + off[kBx];
            const float* dyr = dy + off[kBdy];
            if(st[kBx] == 1 && st[kBdy] == 1)
                GradSumsUnit(xr, dyr, n, mu, s1, s2);
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const double g = dyr[i * st[kBdy]];
                    s1 += g;
                    s2 += g * (xr[i * st[kBx]] - mu);
                }
            }
        });
        sdy[0]  = s1;
        sdyx[0] = s2;
        return;
    }
    std::fill(sdy, sdy + b.count, 0.0);
    std::fill(sdyx, sdyx + b.count, 0.0);
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const float* xr  = x + off[kBx];
        const float* dyr = dy + off[kBdy];
        if(st[kBx] == 1 && st[kBdy] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const double g = dyr[i];
                sdy[i] += g;
                sdyx[i] += g * (xr[i] - mean[i]);
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const double g = dyr[i * st[kBdy]];
                sdy[i] += g;
                sdyx[i] += g * (xr[i * st[kBx]] - mean[i]);
            }
        }
    });
}

/// dx = c1 * dy + c2 * (x - m) + c3 per group, for the groups of one block.
struct BwdCoef
{
    float* m;
    float* c1;
    float* c2;
    float* c3;
};

struct BwdCoefStore
{
    explicit BwdCoefStore(size_t n) : m(n), c1(n), c2(n), c3(n) {}
    BwdCoef At(size_t g0) { return {m.data() + g0, c1.data() + g0, c2.data() + g0, c3.data() + g0}; }
    std::vector<float> m, c1, c2, c3;
};

/// Writes dscale and dbias of block b's groups (blended) and fills the dx coefficients.
void FinishBackward(const Geometry<4>& geo, const Block<4>& b, const BnBackwardArgs& a,
                    const double* mean, const double* inv_std, const double* sdy,
                    const double* sdyx, const BwdCoef& cf)
{
    const size_t n     = b.count;
    const size_t base  = b.base[kBp];
    const double inv_m = 1.0 / static_cast<double>(geo.m);
    const double ad    = a.alpha_data;
    const float ap = a.alpha_param, bp = a.beta_param;
    const float* scale = a.scale + base;
    float* ds          = a.dscale + base;
    float* db          = a.dbias + base;
    double dscale[kVecBlock];
#pragma omp simd
    for(size_t i = 0; i < n; ++i)
        dscale[i] = sdyx[i] * inv_std[i];
    WithStep(b.gs[kBp], [&](auto ps) {
        if(bp == 0.0f)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                ds[i * ps] = ap * static_cast<float>(dscale[i]);
                db[i * ps] = ap * static_cast<float>(sdy[i]);
            }
        }
        else
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                ds[i * ps] = ap * static_cast<float>(dscale[i]) + bp * ds[i * ps];
                db[i * ps] = ap * static_cast<float>(sdy[i]) + bp * db[i * ps];
            }
        }
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
        {
            const double c1 = ad * scale[i * ps] * inv_std[i];
            cf.m[i]         = static_cast<float>(mean[i]);
            cf.c1[i]        = static_cast<float>(c1);
            cf.c2[i]        = static_cast<float>(-c1 * inv_std[i] * dscale[i] * inv_m);
            cf.c3[i]        = static_cast<float>(-c1 * sdy[i] * inv_m);
        }
    });
}

template <bool ReadDx>
void ApplyBackward(const Geometry<4>& geo, const Block<4>& b, size_t k, const BnBackwardArgs& a,
                   const BwdCoef& cf)
{
    const float* x  = a.x;
    const float* dy = a.dy;
    float* dx       = a.dx;
    const float beta = a.beta_data;
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    if(!geo.vec)
    {
        const float m = cf.m[0], c1 = cf.c1[0], c2 = cf.c2[0], c3 = cf.c3[0];
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const float* xr  = x + off[kBx];
            const float* dyr = dy + off[kBdy];
            float* dxr       = dx + off[kBdx];
            if(st[kBx] == 1 && st[kBdy] == 1 && st[kBdx] == 1)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                {
                    const float v = c1 * dyr[i] + (c2 * (xr[i] - m) + c3);
                    dxr[i]        = ReadDx ? v + beta * dxr[i] : v;
                }
            }
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const float v = c1 * dyr[i * st[kBdy]] + (c2 * (xr[i * st[kBx]] - m) + c3);
                    float& out    = dxr[i * st[kBdx]];
                    out           = ReadDx ? v + beta * out : v;
                }
            }
        });
        return;
    }
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const float* xr  = x + off[kBx];
        const float* dyr = dy + off[kBdy];
        float* dxr       = dx + off[kBdx];
        if(st[kBx] == 1 && st[kBdy] == 1 && st[kBdx] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const float v = cf.c1[i] * dyr[i] + (cf.c2[i] * (xr[i] - cf.m[i]) + cf.c3[i]);
                dxr[i]        = ReadDx ? v + beta * dxr[i] : v;
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const float v = cf.c1[i] * dyr[i * st[kBdy]] +
                                (cf.c2[i] * (xr[i * st[kBx]] - cf.m[i]) + cf.c3[i]);
                float& out    = dxr[i * st[kBdx]];
                out           = ReadDx ? v + beta * out : v;
            }
        }
    });
}

void ApplyBackwardItem(const Geometry<4>& geo, const Block<4>& b, size_t k,
                       const BnBackwardArgs& a, const BwdCoef& cf)
{
    if(a.beta_data == 0.0f)
        ApplyBackward<false>(geo, b, k, a, cf);
    else
        ApplyBackward<true>(geo, b, k, a, cf);
}

} // namespace

void BatchNormForwardTraining(const BnForwardArgs& args)
{
    const auto geo = ForwardGeometry(args);
    if(geo.chunks == 1)
    {
        // Each work item owns whole groups: statistics, updates and output in one go.
        ParallelFor(geo.items_g, geo.Parallel(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            double mean[kVecBlock], var[kVecBlock];
            ChunkStats(geo, b, 0, args.x, mean, var);
            const double inv_m = 1.0 / static_cast<double>(geo.m);
#pragma omp simd
            for(size_t i = 0; i < b.count; ++i)
                var[i] *= inv_m;
            float cm[kVecBlock], ca[kVecBlock], cc[kVecBlock];
            const FwdCoef cf{cm, ca, cc};
            FinishTraining(geo, b, args, mean, var, cf);
            ApplyForwardItem(geo, b, 0, args, cf);
        });
        return;
    }
    std::vector<double> mean, var;
    AllStats(geo, args.x, mean, var);
    FwdCoefStore coefs(geo.groups);
    ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
        const auto b = GetBlock(geo, item);
        FinishTraining(geo, b, args, mean.data() + b.g0, var.data() + b.g0, coefs.At(b.g0));
    });
    ParallelFor(geo.items_g * geo.chunks, geo.Parallel(), [&](size_t item) {
        const auto b = GetBlock(geo, item / geo.chunks);
        ApplyForwardItem(geo, b, item % geo.chunks, args, coefs.At(b.g0));
    });
}

void BatchNormForwardInference(const BnForwardArgs& args)
{
    const auto geo = ForwardGeometry(args);
    if(geo.vec)
    {
        // Blocks of neighbouring groups: their coefficients stay in L1 across the batch.
        ParallelFor(geo.items_g * geo.chunks, geo.Parallel(), [&](size_t item) {
            const auto b = GetBlock(geo, item / geo.chunks);
            float cm[kVecBlock], ca[kVecBlock], cc[kVecBlock];
            const FwdCoef cf{cm, ca, cc};
            InferenceCoef(b, args, cf);
            ApplyForwardItem(geo, b, item % geo.chunks, args, cf);
        });
        return;
    }
    // No statistics to gather: compute every group's coefficients, then stream x in memory order
    // (one long run per thread instead of a channel's scattered rows).
    FwdCoefStore coefs(geo.groups);
    ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
        const auto b = GetBlock(geo, item);
        InferenceCoef(b, args, coefs.At(b.g0));
    });
    const TensorDescriptor& xd = *args.xDesc;
    std::array<int, kMaxTensorDims> order{};
    for(int d = 0; d < xd.NumDims(); ++d)
        order[d] = d;
    std::stable_sort(order.begin(), order.begin() + xd.NumDims(),
                     [&](int p, int q) { return xd.Strides()[p] > xd.Strides()[q]; });
    std::array<size_t, kMaxTensorDims> lens{}, xs{}, ys{}, gs{};
    for(int i = 0; i < xd.NumDims(); ++i)
    {
        lens[i] = xd.Lens()[order[i]];
        xs[i]   = xd.Strides()[order[i]];
        ys[i]   = args.yDesc->Strides()[order[i]];
        gs[i]   = geo.group_stride[order[i]];
    }
    const auto loop = MakeLoop<3>(xd.NumDims(), lens.data(), {xs.data(), ys.data(), gs.data()});
    const float* x = args.x;
    float* y       = args.y;
    const float beta = args.beta;
    const float *cm = coefs.m.data(), *ca = coefs.a.data(), *cc = coefs.c.data();
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& st) {
        const float* xr = x + off[0];
        float* yr       = y + off[1];
        if(st[2] == 0 && st[0] == 1 && st[1] == 1)
        {
            const size_t g = off[2];
            const float m = cm[g], a = ca[g], c = cc[g];
            if(beta == 0.0f)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                    yr[i] = (xr[i] - m) * a + c;
            }
            else
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                    yr[i] = (xr[i] - m) * a + c + beta * yr[i];
            }
            return;
        }
        for(size_t i = 0; i < n; ++i)
        {
            const size_t g = off[2] + i * st[2];
            Blend(yr[i * st[1]], (xr[i * st[0]] - cm[g]) * ca[g] + cc[g], 1.0f, beta);
        }
    });
}

void BatchNormBackward(const BnBackwardArgs& a)
{
    const auto geo = MakeGeometry<4>(a.mode, {a.xDesc, a.dyDesc, a.dxDesc, a.pDesc});
    const bool saved = a.saved_mean != nullptr;

    // Mean and 1/sqrt(var + eps) of block b's groups, from the saved statistics.
    const auto saved_stats = [&](const Block<4>& b, double* mean, double* inv_std) {
        const float* sm = a.saved_mean + b.base[kBp];
        const float* si = a.saved_inv_std + b.base[kBp];
        WithStep(b.gs[kBp], [&](auto ps) {
#pragma omp simd
            for(size_t i = 0; i < b.count; ++i)
            {
                mean[i]    = sm[i * ps];
                inv_std[i] = si[i * ps];
            }
        });
    };

    if(geo.chunks == 1)
    {
        ParallelFor(geo.items_g, geo.Parallel(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            double mean[kVecBlock], inv_std[kVecBlock], sdy[kVecBlock], sdyx[kVecBlock];
            if(saved)
                saved_stats(b, mean, inv_std);
            else
            {
                ChunkStats(geo, b, 0, a.x, mean, inv_std);
                const double inv_m = 1.0 / static_cast<double>(geo.m);
                const float eps    = static_cast<float>(a.epsilon);
#pragma omp simd
                for(size_t i = 0; i < b.count; ++i)
                    inv_std[i] = 1.0f / std::sqrt(static_cast<float>(inv_std[i] * inv_m) + eps);
            }
            ChunkGradSums(geo, b, 0, a, mean, sdy, sdyx);
            float cm[kVecBlock], c1[kVecBlock], c2[kVecBlock], c3[kVecBlock];
            const BwdCoef cf{cm, c1, c2, c3};
            FinishBackward(geo, b, a, mean, inv_std, sdy, sdyx, cf);
            ApplyBackwardItem(geo, b, 0, a, cf);
        });
        return;
    }

    const size_t nk = geo.chunks;
    std::vector<double> mean(geo.groups), inv_std(geo.groups);
    if(saved)
    {
        ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            saved_stats(b, mean.data() + b.g0, inv_std.data() + b.g0);
        });
    }
    else
    {
        std::vector<double> var;
        AllStats(geo, a.x, mean, var);
        const float eps = static_cast<float>(a.epsilon);
#pragma omp simd
        for(size_t g = 0; g < geo.groups; ++g)
            inv_std[g] = 1.0f / std::sqrt(static_cast<float>(var[g]) + eps);
    }
    std::vector<double> p1(geo.groups * nk), p2(geo.groups * nk);
    ParallelFor(geo.items_g * nk, geo.Parallel(), [&](size_t item) {
        const size_t k = item % nk;
        const auto b   = GetBlock(geo, item / nk);
        double s1[kVecBlock], s2[kVecBlock];
        ChunkGradSums(geo, b, k, a, mean.data() + b.g0, s1, s2);
        for(size_t i = 0; i < b.count; ++i)
        {
            p1[(b.g0 + i) * nk + k] = s1[i];
            p2[(b.g0 + i) * nk + k] = s2[i];
        }
    });
    BwdCoefStore coefs(geo.groups);
    ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
        const auto b = GetBlock(geo, item);
        double s1[kVecBlock], s2[kVecBlock];
        for(size_t i = 0; i < b.count; ++i)
        {
            s1[i] = s2[i] = 0.0;
            for(size_t k = 0; k < nk; ++k)
            {
                s1[i] += p1[(b.g0 + i) * nk + k];
                s2[i] += p2[(b.g0 + i) * nk + k];
            }
        }
        FinishBackward(geo, b, a, mean.data() + b.g0, inv_std.data() + b.g0, s1, s2,
                       coefs.At(b.g0));
    });
    ParallelFor(geo.items_g * nk, geo.Parallel(), [&](size_t item) {
        const auto b = GetBlock(geo, item / nk);
        ApplyBackwardItem(geo, b, item % nk, a, coefs.At(b.g0));
    });
}

} // namespace miopen::cpu
