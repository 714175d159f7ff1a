// CPU kernels of softmax forward and backward: every algorithm and mode, any strides.
// Two engines. Rows: the softmax runs along a row (INSTANCE mode; CHANNEL mode when H = W = 1 or
// when C is the unit-stride dim), vectorised along the row. Columns: CHANNEL mode on NCHW-like
// layouts, a block of spatial positions at once, vectorised across positions. A strided operand
// is gathered into thread-local scratch (or scattered from it), so the arithmetic always runs on
// unit-stride data. Every sum runs in a fixed order that does not depend on the thread count.
#include "cpu/elementwise.hpp"
#include "softmax/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace miopen::cpu {
namespace {

// Rows up to this long are done by one task (all passes in cache); longer rows are split into
// chunks of this size, reduced per chunk and combined in order.
constexpr size_t kRowChunk = 8192;
// Column engine: about this many floats of scratch per task (C x block of positions).
constexpr size_t kColTile = 16384;
// Below this many elements the call runs on one thread: a parallel region costs more.
constexpr size_t kMinParallel = 24576;

// ---- exp, vectorisable -----------------------------------------------------------------------
// glibc's vector expf is accurate but several times slower than the rest of a softmax; these are
// the usual range reduction (x = n ln2 + r, |r| <= ln2/2) and a degree-6 polynomial fitted for
// relative error (3e-9 on the interval; about 1e-7 in float arithmetic), with 2^n built in the
// exponent bits. Plain C++ that GCC vectorises in `omp simd` loops.

inline float FromBits(int32_t b)
{
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

inline float ExpPoly(float r)
{
    const float q = std::fma(
        std::fma(std::fma(std::fma(0.0013814518f, r, 0.008368711f), r, 0.04166839f), r,
                 0.16666521f),
        r, 0.49999994f);
    return std::fma(q, r * r, r) + 1.0f;
}

constexpr float kLog2e  = 1.44269504088896341f;
constexpr float kLn2Hi  = 0.693145751953125f;      // ln 2 = kLn2Hi + kLn2Lo, kLn2Hi exact in 16 bits
constexpr float kLn2Lo  = 1.428606765330187045e-06f;
constexpr float kRound  = 12582912.0f;             // 1.5 * 2^23: t + kRound rounds t to an integer
constexpr int32_t kRoundBits = 0x4B400000;         // the bits of kRound

/// exp(x) for x <= 0 (and NaN): the ACCURATE and LOG paths, whose argument is x - max(x).
inline float ExpNonPositive(float x)
{
    const float t = std::fma(x, kLog2e, kRound);
    const float n = t - kRound;
    int32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    float r = std::fma(n, -kLn2Hi, x);
    r       = std::fma(n, -kLn2Lo, r);
    const float v = ExpPoly(r) * FromBits((bits - kRoundBits + 127) << 23);
    return x < -87.33654f ? 0.0f : v; // below FLT_MIN: flush (2^n would not fit the exponent)
}

/// exp(x) for any x: FAST softmax and the LOG backward. Splitting 2^n in two factors keeps both
/// in range from the denormals to FLT_MAX.
inline float Exp(float x)
{
    float xc      = x < -104.0f ? -104.0f : x; // comparisons keep NaN
    xc            = xc > 89.0f ? 89.0f : xc;
    const float t = std::fma(xc, kLog2e, kRound);
    const float n = t - kRound;
    int32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    const int32_t e  = bits - kRoundBits;
    const int32_t e1 = e >> 1;
    const int32_t e2 = e - e1;
    float r          = std::fma(n, -kLn2Hi, xc);
    r                = std::fma(n, -kLn2Lo, r);
    const float v =
        ExpPoly(r) * FromBits((e1 + 127) << 23) * FromBits((e2 + 127) << 23);
    return x > 88.72283935546875f ? std::numeric_limits<float>::infinity() : v;
}

// ---- unit-stride building blocks -------------------------------------------------------------

inline float Max(const float* v, size_t n)
{
    float m = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : m)
    for(size_t i = 0; i < n; ++i)
        m = v[i] > m ? v[i] : m;
    return m;
}

/// e[i] = exp(v[i] - m) (exp(v[i]) for FAST); returns the sum of e.
template <bool Fast>
inline float ExpAndSum(const float* v, size_t n, float m, float* e)
{
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for(size_t i = 0; i < n; ++i)
    {
        const float ei = Fast ? Exp(v[i]) : ExpNonPositive(v[i] - m);
        e[i]           = ei;
        s += ei;
    }
    return s;
}

inline float SumExp(const float* v, size_t n, float m)
{
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for(size_t i = 0; i < n; ++i)
        s += ExpNonPositive(v[i] - m);
    return s;
}

inline float Dot(const float* a, const float* b, size_t n)
{
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for(size_t i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

inline float Sum(const float* a, size_t n)
{
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for(size_t i = 0; i < n; ++i)
        s += a[i];
    return s;
}

/// v = y * (dy - dot) (FAST / ACCURATE) or dy - exp(y) * sum (LOG).
template <bool Log>
inline void BackwardValues(const float* y, const float* dy, size_t n, float reduced, float* v)
{
#pragma omp simd
    for(size_t i = 0; i < n; ++i)
        v[i] = Log ? dy[i] - Exp(y[i]) * reduced : y[i] * (dy[i] - reduced);
}

/// Thread-local scratch: slot `slot` holds at least n floats; reused across calls.
float* Scratch(int slot, size_t n)
{
    thread_local std::vector<float> buffers[4];
    auto& b = buffers[slot];
    if(b.size() < n)
        b.resize(n);
    return b.data();
}

// ---- strided index spaces ----------------------------------------------------------------------

/// Calls f(offsets, n, pos) for each innermost run of elements [begin, begin + count) of the
/// collapsed loop `l`: offsets[k] is operand k's offset of the run's first element, pos the
/// run's position within [begin, begin + count).
template <int K, class F>
void ForRuns(const Loop<K>& l, size_t begin, size_t count, F&& f)
{
    const int inner = l.ndim - 1;
    std::array<size_t, kMaxTensorDims> idx{};
    size_t rest = begin;
    for(int d = inner; d >= 0; --d)
    {
        idx[d] = rest % l.lens[d];
        rest /= l.lens[d];
    }
    size_t pos = 0;
    while(pos < count)
    {
        std::array<size_t, K> off{};
        for(int d = 0; d <= inner; ++d)
            for(int k = 0; k < K; ++k)
                off[k] += idx[d] * l.strides[k][d];
        const size_t n = std::min(l.lens[inner] - idx[inner], count - pos);
        f(off, n, pos);
        pos += n;
        idx[inner] += n;
        for(int d = inner; d > 0 && idx[d] == l.lens[d]; --d)
        {
            idx[d] = 0;
            ++idx[d - 1];
        }
    }
}

/// One operand of a collapsed loop: its base (the group's first element) and whether the loop is
/// one unit-stride run for it.
template <int K>
bool IsUnit(const Loop<K>& l, int k)
{
    return l.ndim == 1 && l.strides[k][0] == 1;
}

/// Elements [begin, begin + n) of operand k: a pointer into the tensor when unit-stride, else
/// gathered into buf.
template <int K>
const float* Load(const float* base, const Loop<K>& l, int k, size_t begin, size_t n, float* buf)
{
    if(IsUnit(l, k))
        return base + begin;
    ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
        const float* src   = base + off[k];
        const size_t s     = l.strides[k][l.ndim - 1];
        float* dst         = buf + pos;
        for(size_t i = 0; i < len; ++i)
            dst[i] = src[i * s];
    });
    return buf;
}

/// out = a * v + b + beta * out over a unit-stride run; out is not read when beta == 0.
inline void BlendRun(float* out, size_t stride, const float* v, size_t n, float a, float b,
                     float beta)
{
    if(stride == 1)
    {
        if(beta == 0.0f)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                out[i] = a * v[i] + b;
        }
        else
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                out[i] = a * v[i] + b + beta * out[i];
        }
        return;
    }
    for(size_t i = 0; i < n; ++i)
    {
        float& o = out[i * stride];
        o        = beta == 0.0f ? a * v[i] + b : a * v[i] + b + beta * o;
    }
}

/// Elements [begin, begin + n) of output operand k: out = a * v + b + beta * out.
template <int K>
void Store(float* base, const Loop<K>& l, int k, size_t begin, size_t n, const float* v, float a,
           float b, float beta)
{
    ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
        BlendRun(base + off[k], l.strides[k][l.ndim - 1], v + pos, len, a, b, beta);
    });
}

/// The 4-d problem split into groups (outer dims) and the extent each softmax runs over (reduce
/// dims), for K tensors with their own strides.
template <int K>
struct Split
{
    int outer_ndim = 0;
    std::array<size_t, 4> outer_lens{};
    std::array<std::array<size_t, 4>, K> outer_strides{};
    size_t groups = 1;
    Loop<K> reduce;
    size_t len = 1;

    std::array<size_t, K> GroupOffsets(size_t g) const
    {
        std::array<size_t, K> off{};
        for(int d = outer_ndim - 1; d >= 0; --d)
        {
            const size_t i = g % outer_lens[d];
            g /= outer_lens[d];
            for(int k = 0; k < K; ++k)
                off[k] += i * outer_strides[k][d];
        }
        return off;
    }
};

template <int K>
Split<K> MakeSplit(const std::array<const TensorDescriptor*, K>& descs,
                   std::initializer_list<int> outer,
                   std::initializer_list<int> reduce)
{
    Split<K> s;
    const auto& lens = descs[0]->Lens();
    for(int d : outer)
    {
        if(lens[d] == 1)
            continue;
        s.outer_lens[s.outer_ndim] = lens[d];
        for(int k = 0; k < K; ++k)
            s.outer_strides[k][s.outer_ndim] = descs[k]->Strides()[d];
        s.groups *= lens[d];
        ++s.outer_ndim;
    }
    std::array<size_t, 4> rl{};
    std::array<std::array<size_t, 4>, K> rs{};
    int n = 0;
    for(int d : reduce)
    {
        rl[n] = lens[d];
        for(int k = 0; k < K; ++k)
            rs[k][n] = descs[k]->Strides()[d];
        s.len *= lens[d];
        ++n;
    }
    std::array<const size_t*, K> sp;
    for(int k = 0; k < K; ++k)
        sp[k] = rs[k].data();
    s.reduce = MakeLoop<K>(n, rl.data(), sp);
    return s;
}

bool UseParallel(size_t elements) { return elements >= kMinParallel; }

// ---- row engine ----------------------------------------------------------------------------------

template <miopenSoftmaxAlgorithm_t Algo>
void RowsForward(const Split<2>& s, const float* x, float* y, float alpha, float beta)
{
    constexpr bool kFast = Algo == MIOPEN_SOFTMAX_FAST;
    constexpr bool kLog  = Algo == MIOPEN_SOFTMAX_LOG;
    const size_t len     = s.len;
    const long long groups = static_cast<long long>(s.groups);

    if(len <= kRowChunk)
    {
#pragma omp parallel for schedule(static) if(UseParallel(s.groups * len))
        for(long long g = 0; g < groups; ++g)
        {
            const auto off = s.GroupOffsets(static_cast<size_t>(g));
            const float* v = Load(x + off[0], s.reduce, 0, 0, len, Scratch(0, len));
            const float m  = kFast ? 0.0f : Max(v, len);
            if constexpr(kLog)
            {
                const float lse = m + std::log(SumExp(v, len, m));
                Store(y + off[1], s.reduce, 1, 0, len, v, alpha, -alpha * lse, beta);
            }
            else
            {
                float* e      = Scratch(1, len);
                const float t = ExpAndSum<kFast>(v, len, m, e);
                Store(y + off[1], s.reduce, 1, 0, len, e, alpha / t, 0.0f, beta);
            }
        }
        return;
    }

    // Long rows (INSTANCE mode over large images): chunk partials, combined in chunk order.
    const size_t chunks     = (len + kRowChunk - 1) / kRowChunk;
    const long long items   = groups * static_cast<long long>(chunks);
    const bool parallel     = UseParallel(s.groups * len);
    std::vector<float> part(items), row_max(s.groups, 0.0f), row_sum(s.groups);
    auto chunk_of = [&](long long item, size_t& g, size_t& begin, size_t& n) {
        g     = static_cast<size_t>(item) / chunks;
        begin = static_cast<size_t>(item) % chunks * kRowChunk;
        n     = std::min(kRowChunk, len - begin);
    };
    if constexpr(!kFast)
    {
#pragma omp parallel for schedule(static) if(parallel)
        for(long long item = 0; item < items; ++item)
        {
            size_t g, begin, n;
            chunk_of(item, g, begin, n);
            const auto off = s.GroupOffsets(g);
            part[item] = Max(Load(x + off[0], s.reduce, 0, begin, n, Scratch(0, n)), n);
        }
        for(size_t g = 0; g < s.groups; ++g)
            row_max[g] = Max(&part[g * chunks], chunks);
    }
#pragma omp parallel for schedule(static) if(parallel)
    for(long long item = 0; item < items; ++item)
    {
        size_t g, begin, n;
        chunk_of(item, g, begin, n);
        const auto off = s.GroupOffsets(g);
        const float* v = Load(x + off[0], s.reduce, 0, begin, n, Scratch(0, n));
        part[item]     = kFast ? ExpAndSum<true>(v, n, 0.0f, Scratch(1, n))
                               : SumExp(v, n, row_max[g]);
    }
    for(size_t g = 0; g < s.groups; ++g)
    {
        float t = 0.0f;
        for(size_t c = 0; c < chunks; ++c)
            t += part[g * chunks + c];
        row_sum[g] = t;
    }
#pragma omp parallel for schedule(static) if(parallel)
    for(long long item = 0; item < items; ++item)
    {
        size_t g, begin, n;
        chunk_of(item, g, begin, n);
        const auto off = s.GroupOffsets(g);
        const float* v = Load(x + off[0], s.reduce, 0, begin, n, Scratch(0, n));
        if constexpr(kLog)
        {
            const float lse = row_max[g] + std::log(row_sum[g]);
            Store(y + off[1], s.reduce, 1, begin, n, v, alpha, -alpha * lse, beta);
        }
        else
        {
            float* e = Scratch(1, n);
            ExpAndSum<kFast>(v, n, row_max[g], e);
            Store(y + off[1], s.reduce, 1, begin, n, e, alpha / row_sum[g], 0.0f, beta);
        }
    }
}

template <bool Log>
void RowsBackward(const Split<3>& s, const float* y, const float* dy, float* dx, float alpha,
                  float beta)
{
    const size_t len       = s.len;
    const long long groups = static_cast<long long>(s.groups);
    auto reduce            = [](const float* yv, const float* dyv, size_t n) {
        return Log ? Sum(dyv, n) : Dot(yv, dyv, n);
    };

    if(len <= kRowChunk)
    {
#pragma omp parallel for schedule(static) if(UseParallel(s.groups * len))
        for(long long g = 0; g < groups; ++g)
        {
            const auto off   = s.GroupOffsets(static_cast<size_t>(g));
            const float* yv  = Load(y + off[0], s.reduce, 0, 0, len, Scratch(0, len));
            const float* dyv = Load(dy + off[1], s.reduce, 1, 0, len, Scratch(1, len));
            float* v         = Scratch(2, len);
            BackwardValues<Log>(yv, dyv, len, reduce(yv, dyv, len), v);
            Store(dx + off[2], s.reduce, 2, 0, len, v, alpha, 0.0f, beta);
        }
        return;
    }

    const size_t chunks   = (len + kRowChunk - 1) / kRowChunk;
    const long long items = groups * static_cast<long long>(chunks);
    const bool parallel   = UseParallel(s.groups * len);
    std::vector<float> part(items), row(s.groups);
    auto chunk_of = [&](long long item, size_t& g, size_t& begin, size_t& n) {
        g     = static_cast<size_t>(item) / chunks;
        begin = static_cast<size_t>(item) % chunks * kRowChunk;
        n     = std::min(kRowChunk, len - begin);
    };
#pragma omp parallel for schedule(static) if(parallel)
    for(long long item = 0; item < items; ++item)
    {
        size_t g, begin, n;
        chunk_of(item, g, begin, n);
        const auto off   = s.GroupOffsets(g);
        const float* yv  = Log ? nullptr : Load(y + off[0], s.reduce, 0, begin, n, Scratch(0, n));
        const float* dyv = Load(dy + off[1], s.reduce, 1, begin, n, Scratch(1, n));
        part[item]       = reduce(yv, dyv, n);
    }
    for(size_t g = 0; g < s.groups; ++g)
    {
        float t = 0.0f;
        for(size_t c = 0; c < chunks; ++c)
            t += part[g * chunks + c];
        row[g] = t;
    }
#pragma omp parallel for schedule(static) if(parallel)
    for(long long item = 0; item < items; ++item)
    {
        size_t g, begin, n;
        chunk_of(item, g, begin, n);
        const auto off   = s.GroupOffsets(g);
        const float* yv  = Load(y + off[0], s.reduce, 0, begin, n, Scratch(0, n));
        const float* dyv = Load(dy + off[1], s.reduce, 1, begin, n, Scratch(1, n));
        float* v         = Scratch(2, n);
        BackwardValues<Log>(yv, dyv, n, row[g], v);
        Store(dx + off[2], s.reduce, 2, begin, n, v, alpha, 0.0f, beta);
    }
}

// ---- column engine (CHANNEL mode, C not the unit-stride dim) -----------------------------------

/// N, C and the collapsed spatial loop, for K tensors.
template <int K>
struct Columns
{
    size_t n = 1, c = 1, hw = 1;
    std::array<size_t, K> n_stride{}, c_stride{};
    Loop<K> spatial;
    size_t block = 16;   // positions per task
    size_t blocks = 1;   // per image
};

template <int K>
Columns<K> MakeColumns(const std::array<const TensorDescriptor*, K>& descs)
{
    Columns<K> col;
    const auto& lens = descs[0]->Lens();
    col.n            = lens[0];
    col.c            = lens[1];
    col.hw           = lens[2] * lens[3];
    std::array<const size_t*, K> sp;
    for(int k = 0; k < K; ++k)
    {
        col.n_stride[k] = descs[k]->Strides()[0];
        col.c_stride[k] = descs[k]->Strides()[1];
        sp[k]           = descs[k]->Strides().data() + 2;
    }
    col.spatial = MakeLoop<K>(2, lens.data() + 2, sp);
    // A tile of C x block floats stays in L1/L2; blocks are multiples of 16 floats.
    size_t block = kColTile / col.c / 16 * 16;
    block        = std::clamp<size_t>(block, 16, 1024);
    block        = std::min(block, (col.hw + 15) / 16 * 16);
    col.block    = block;
    col.blocks   = (col.hw + block - 1) / block;
    return col;
}

/// Loads operand k's positions [q0, q0 + nb) of every channel of image n into tile[c * ld + i].
template <int K>
void LoadTile(const Columns<K>& col, int k, const float* base, size_t q0, size_t nb, float* tile,
              size_t ld)
{
    for(size_t c = 0; c < col.c; ++c)
    {
        const float* p = base + c * col.c_stride[k];
        float* dst     = tile + c * ld;
        if(IsUnit(col.spatial, k))
            std::memcpy(dst, p + q0, nb * sizeof(float));
        else
            Load(p, col.spatial, k, q0, nb, dst);
    }
}

/// out[c][i] = a[i] * v[c][i] + b[i] + beta * out[c][i] for every channel.
template <int K>
void StoreTile(const Columns<K>& col, int k, float* base, size_t q0, size_t nb, const float* tile,
               size_t ld, const float* a, const float* b, float beta)
{
    for(size_t c = 0; c < col.c; ++c)
    {
        float* p       = base + c * col.c_stride[k];
        const float* v = tile + c * ld;
        ForRuns(col.spatial, q0, nb, [&](const auto& off, size_t len, size_t pos) {
            float* out      = p + off[k];
            const size_t st = col.spatial.strides[k][col.spatial.ndim - 1];
            const float* vv = v + pos;
            const float* aa = a + pos;
            const float* bb = b + pos;
            if(st == 1 && beta == 0.0f)
            {
#pragma omp simd
                for(size_t i = 0; i < len; ++i)
                    out[i] = aa[i] * vv[i] + bb[i];
            }
            else if(st == 1)
            {
#pragma omp simd
                for(size_t i = 0; i < len; ++i)
                    out[i] = aa[i] * vv[i] + bb[i] + beta * out[i];
            }
            else
            {
                for(size_t i = 0; i < len; ++i)
                {
                    float& o = out[i * st];
                    o = beta == 0.0f ? aa[i] * vv[i] + bb[i] : aa[i] * vv[i] + bb[i] + beta * o;
                }
            }
        });
    }
}

template <miopenSoftmaxAlgorithm_t Algo>
void ColumnsForward(const Columns<2>& col, const float* x, float* y, float alpha, float beta)
{
    constexpr bool kFast = Algo == MIOPEN_SOFTMAX_FAST;
    constexpr bool kLog  = Algo == MIOPEN_SOFTMAX_LOG;
    const size_t ld      = col.block;
    const long long items = static_cast<long long>(col.n * col.blocks);
#pragma omp parallel for schedule(static) if(UseParallel(col.n * col.c * col.hw))
    for(long long item = 0; item < items; ++item)
    {
        const size_t n  = static_cast<size_t>(item) / col.blocks;
        const size_t q0 = static_cast<size_t>(item) % col.blocks * ld;
        const size_t nb = std::min(ld, col.hw - q0);
        float* tile     = Scratch(0, col.c * ld);
        float* m        = Scratch(1, ld);
        float* s        = Scratch(2, ld);
        float* b        = Scratch(3, 2 * ld);
        float* a        = b + ld;
        LoadTile(col, 0, x + n * col.n_stride[0], q0, nb, tile, ld);
        std::fill(m, m + nb, kFast ? 0.0f : -std::numeric_limits<float>::infinity());
        std::fill(s, s + nb, 0.0f);
        if constexpr(!kFast)
            for(size_t c = 0; c < col.c; ++c)
            {
                const float* v = tile + c * ld;
#pragma omp simd
                for(size_t i = 0; i < nb; ++i)
                    m[i] = v[i] > m[i] ? v[i] : m[i];
            }
        for(size_t c = 0; c < col.c; ++c)
        {
            float* v = tile + c * ld;
#pragma omp simd
            for(size_t i = 0; i < nb; ++i)
            {
                const float e = kFast ? Exp(v[i]) : ExpNonPositive(v[i] - m[i]);
                if constexpr(!kLog)
                    v[i] = e;
                s[i] += e;
            }
        }
        if constexpr(kLog)
        {
            for(size_t i = 0; i < nb; ++i)
            {
                a[i] = alpha;
                b[i] = -alpha * (m[i] + std::log(s[i]));
            }
        }
        else
        {
#pragma omp simd
            for(size_t i = 0; i < nb; ++i)
            {
                a[i] = alpha / s[i];
                b[i] = 0.0f;
            }
        }
        StoreTile(col, 1, y + n * col.n_stride[1], q0, nb, tile, ld, a, b, beta);
    }
}

template <bool Log>
void ColumnsBackward(const Columns<3>& col, const float* y, const float* dy, float* dx,
                     float alpha, float beta)
{
    const size_t ld       = col.block;
    const long long items = static_cast<long long>(col.n * col.blocks);
#pragma omp parallel for schedule(static) if(UseParallel(col.n * col.c * col.hw))
    for(long long item = 0; item < items; ++item)
    {
        const size_t n  = static_cast<size_t>(item) / col.blocks;
        const size_t q0 = static_cast<size_t>(item) % col.blocks * ld;
        const size_t nb = std::min(ld, col.hw - q0);
        float* ty       = Scratch(0, col.c * ld);
        float* tdy      = Scratch(1, col.c * ld);
        float* r        = Scratch(2, ld);
        float* b        = Scratch(3, 2 * ld);
        float* a        = b + ld;
        LoadTile(col, 0, y + n * col.n_stride[0], q0, nb, ty, ld);
        LoadTile(col, 1, dy + n * col.n_stride[1], q0, nb, tdy, ld);
        std::fill(r, r + nb, 0.0f);
        for(size_t c = 0; c < col.c; ++c)
        {
            const float* yv  = ty + c * ld;
            const float* dyv = tdy + c * ld;
#pragma omp simd
            for(size_t i = 0; i < nb; ++i)
                r[i] += Log ? dyv[i] : yv[i] * dyv[i];
        }
        for(size_t c = 0; c < col.c; ++c)
        {
            float* yv        = ty + c * ld;
            const float* dyv = tdy + c * ld;
#pragma omp simd
            for(size_t i = 0; i < nb; ++i)
                yv[i] = Log ? dyv[i] - Exp(yv[i]) * r[i] : yv[i] * (dyv[i] - r[i]);
        }
        std::fill(a, a + nb, alpha);
        std::fill(b, b + nb, 0.0f);
        StoreTile(col, 2, dx + n * col.n_stride[2], q0, nb, ty, ld, a, b, beta);
    }
}

/// CHANNEL mode on rows when there is nothing to vectorise across (H = W = 1) or when C is the
/// unit-stride dim of the input that is read (NHWC and the like).
bool ChannelOnRows(const TensorDescriptor& in)
{
    return in.Lens()[2] * in.Lens()[3] == 1 || (in.Strides()[1] == 1 && in.Lens()[1] > 1);
}

template <miopenSoftmaxAlgorithm_t Algo>
void Forward(miopenSoftmaxMode_t mode, float alpha, const TensorDescriptor& xDesc, const float* x,
             float beta, const TensorDescriptor& yDesc, float* y)
{
    if(mode == MIOPEN_SOFTMAX_MODE_INSTANCE)
        RowsForward<Algo>(MakeSplit<2>({&xDesc, &yDesc}, {0}, {1, 2, 3}), x, y, alpha, beta);
    else if(ChannelOnRows(xDesc))
        RowsForward<Algo>(MakeSplit<2>({&xDesc, &yDesc}, {0, 2, 3}, {1}), x, y, alpha, beta);
    else
        ColumnsForward<Algo>(MakeColumns<2>({&xDesc, &yDesc}), x, y, alpha, beta);
}

template <bool Log>
void Backward(miopenSoftmaxMode_t mode, float alpha, const TensorDescriptor& yDesc,
              const float* y, const TensorDescriptor& dyDesc, const float* dy, float beta,
              const TensorDescriptor& dxDesc, float* dx)
{
    const std::array<const TensorDescriptor*, 3> descs{&yDesc, &dyDesc, &dxDesc};
    if(mode == MIOPEN_SOFTMAX_MODE_INSTANCE)
        RowsBackward<Log>(MakeSplit<3>(descs, {0}, {1, 2, 3}), y, dy, dx, alpha, beta);
    else if(ChannelOnRows(dyDesc))
        RowsBackward<Log>(MakeSplit<3>(descs, {0, 2, 3}, {1}), y, dy, dx, alpha, beta);
    else
        ColumnsBackward<Log>(MakeColumns<3>(descs), y, dy, dx, alpha, beta);
}

} // namespace

void SoftmaxForward(miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode, float alpha,
                    const TensorDescriptor& xDesc, const float* x, float beta,
                    const TensorDescriptor& yDesc, float* y)
{
    switch(algorithm)
    {
    case MIOPEN_SOFTMAX_FAST:
        return Forward<MIOPEN_SOFTMAX_FAST>(mode, alpha, xDesc, x, beta, yDesc, y);
    case MIOPEN_SOFTMAX_ACCURATE:
        return Forward<MIOPEN_SOFTMAX_ACCURATE>(mode, alpha, xDesc, x, beta, yDesc, y);
    case MIOPEN_SOFTMAX_LOG:
        return Forward<MIOPEN_SOFTMAX_LOG>(mode, alpha, xDesc, x, beta, yDesc, y);
    }
}

void SoftmaxBackward(miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode, float alpha,
                     const TensorDescriptor& yDesc, const float* y,
                     const TensorDescriptor& dyDesc, const float* dy, float beta,
                     const TensorDescriptor& dxDesc, float* dx)
{
    if(algorithm == MIOPEN_SOFTMAX_LOG)
        Backward<true>(mode, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx);
    else
        Backward<false>(mode, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx);
}

} // namespace miopen::cpu
