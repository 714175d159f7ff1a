// Winograd F(m x m, 3 x 3) on the CPU: transforms vectorised across channels (the input band is
// staged channels-innermost), one GEMM per tile element, group and block of output channels on
// OpenBLAS (single-threaded, called from our OpenMP loop), the batch in chunks of tile rows. The
// transforms are Lavin & Gray's (points 0, +-1, +-2 and infinity for m = 4; 0, +-1, infinity
// for m = 2).
#include "cpu/conv/winograd.hpp"
#include "cpu/blas.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <omp.h>

namespace miopen::cpu {
namespace {

// The 1-d transforms of one tile, on strided memory so that a loop over channels around them
// vectorises: In = B^T d (alpha -> alpha), Fil = G g (3 -> alpha), Out = A^T m (alpha -> m);
// for backward weights Dy = A dy (m -> alpha) and Wt = G^T s (alpha -> 3). Written out so that
// zero coefficients cost nothing (without -ffast-math the compiler may not drop 0 * x).
template <int M>
struct Tile;

template <>
struct Tile<2>
{
    static inline void In(const float* d, long ds, float* o, long os)
    {
        const float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
        o[0]      = d0 - d2;
        o[os]     = d1 + d2;
        o[2 * os] = d2 - d1;
        o[3 * os] = d1 - d3;
    }
    static inline void Fil(const float* g, long gs, float* o, long os)
    {
        const float g0 = g[0], g1 = g[gs], g2 = g[2 * gs];
        o[0]      = g0;
        o[os]     = 0.5f * (g0 + g1 + g2);
        o[2 * os] = 0.5f * (g0 - g1 + g2);
        o[3 * os] = g2;
    }
    static inline void Out(const float* m, long ms, float* o, long os)
    {
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms];
        o[0]  = m0 + m1 + m2;
        o[os] = m1 - m2 - m3;
    }
    // Backward weights: Dy = A dy (m -> alpha), Wt = G^T m (alpha -> 3).
    static inline void Dy(const float* d, long ds, float* o, long os)
    {
        const float d0 = d[0], d1 = d[ds];
        o[0]      = d0;
        o[os]     = d0 + d1;
        o[2 * os] = d0 - d1;
        o[3 * os] = -d1;
    }
    static inline void Wt(const float* m, long ms, float* o, long os)
    {
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms];
        o[0]      = m0 + 0.5f * (m1 + m2);
        o[os]     = 0.5f * (m1 - m2);
        o[2 * os] = 0.5f * (m1 + m2) + m3;
    }
};

template <>
struct Tile<4>
{
    static inline void In(const float* d, long ds, float* o, long os)
    {
        const float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds], d4 = d[4 * ds], d5 = d[5 * ds];
        const float a = d4 - 4.0f * d2;   // shared terms of rows 1 and 2
        const float b = d3 - 4.0f * d1;
        const float c = d4 - d2;          // and of rows 3 and 4
        const float e = 2.0f * (d3 - d1);
        o[0]      = 4.0f * d0 - 5.0f * d2 + d4;
        o[os]     = a + b;
        o[2 * os] = a - b;
        o[3 * os] = c + e;
        o[4 * os] = c - e;
        o[5 * os] = 4.0f * d1 - 5.0f * d3 + d5;
    }
    static inline void Fil(const float* g, long gs, float* o, long os)
    {
        constexpr float k6 = 1.0f / 6.0f, k12 = 1.0f / 12.0f, k24 = 1.0f / 24.0f;
        const float g0 = g[0], g1 = g[gs], g2 = g[2 * gs];
        o[0]      = 0.25f * g0;
        o[os]     = -k6 * (g0 + g1 + g2);
        o[2 * os] = -k6 * (g0 - g1 + g2);
        o[3 * os] = k24 * g0 + k12 * g1 + k6 * g2;
        o[4 * os] = k24 * g0 - k12 * g1 + k6 * g2;
        o[5 * os] = g2;
    }
    static inline void Out(const float* m, long ms, float* o, long os)
    {
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms], m4 = m[4 * ms], m5 = m[5 * ms];
        const float a = m1 + m2, b = m1 - m2;
        const float c = m3 + m4, d = m3 - m4;
        o[0]      = m0 + a + c;
        o[os]     = b + 2.0f * d;
        o[2 * os] = a + 4.0f * c;
        o[3 * os] = b + 8.0f * d + m5;
    }
    static inline void Dy(const float* d, long ds, float* o, long os)
    {
        const float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
        const float a = d0 + d2, b = d1 + d3;            // even and odd parts at +-1
        const float c = d0 + 4.0f * d2, e = 2.0f * d1 + 8.0f * d3;   // and at +-2
        o[0]      = d0;
        o[os]     = a + b;
        o[2 * os] = a - b;
        o[3 * os] = c + e;
        o[4 * os] = c - e;
        o[5 * os] = d3;
    }
    static inline void Wt(const float* m, long ms, float* o, long os)
    {
        constexpr float k6 = 1.0f / 6.0f, k12 = 1.0f / 12.0f, k24 = 1.0f / 24.0f;
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms], m4 = m[4 * ms], m5 = m[5 * ms];
        const float a = m1 + m2, b = m3 + m4;
        o[0]      = 0.25f * m0 - k6 * a + k24 * b;
        o[os]     = k6 * (m2 - m1) + k12 * (m3 - m4);
        o[2 * os] = k6 * (b - a) + m5;
    }
};

constexpr long kChanBlock = 64;   // channels per transform item: the length of the vector loops

/// Per-thread scratch of the transforms, in floats.
template <int M>
long TransformScratchFloats(const WinogradPlan& pl)
{
    constexpr long A = M + 2;
    const long tw = pl.tiles_w, wq = M * tw + 2;
    const long in = A * wq * kChanBlock + A * A * kChanBlock;
    const long out = M * A * kChanBlock + M * M * tw * kChanBlock;
    return std::max(in, out);
}

/// V[e][p0 + t][c] = (B^T d B)[e] for the tiles t of tile row `row`, channels [c0, c1). The band
/// of input rows is first staged zero padded with channels innermost, so every loop below runs
/// over channels and vectorises whatever the tile geometry.
template <int M>
void InputTransformRow(const WinogradShape& s, const WinogradPlan& pl, const float* in, long row, long c0,
                       long c1, float* v, long tiles, long p0, float* scratch)
{
    constexpr int A = M + 2;
    const long tw = pl.tiles_w, wq = M * tw + 2, cb = c1 - c0;
    const long n = row / pl.tiles_h, ti = row % pl.tiles_h;
    float* st = scratch;             // [A rows][wq columns][cb]
    float* tmp = st + A * wq * cb;   // [A][A][cb]: the row transforms of one tile
    const long q0 = std::clamp<long>(s.pad_w, 0, wq), q1 = std::clamp<long>(s.pad_w + s.w, q0, wq);
    for(int r = 0; r < A; ++r)
    {
        float* sr = st + r * wq * cb;
        const long ih = ti * M - s.pad_h + r;
        if(ih < 0 || ih >= s.h)
        {
            std::fill(sr, sr + wq * cb, 0.0f);
            continue;
        }
        std::fill(sr, sr + q0 * cb, 0.0f);
        std::fill(sr + q1 * cb, sr + wq * cb, 0.0f);
        // Transposed to channels innermost: a gather across the channel planes per column.
        const long plane_in = s.h * s.w;
        const float* src = in + ((n * s.ic + c0) * s.h + ih) * s.w;
        for(long q = q0; q < q1; ++q)
#pragma omp simd
            for(long c = 0; c < cb; ++c)
                sr[q * cb + c] = src[c * plane_in + q - s.pad_w];
    }
    for(long t = 0; t < tw; ++t)
    {
        for(int r = 0; r < A; ++r)
        {
            const float* base = st + (r * wq + t * M) * cb;
            float* tr = tmp + r * A * cb;
#pragma omp simd
            for(long c = 0; c < cb; ++c)
                Tile<M>::In(base + c, cb, tr + c, cb);
        }
        float* vt = v + (p0 + t) * s.ic + c0;
        const long plane = tiles * s.ic;
        for(int j = 0; j < A; ++j)
#pragma omp simd
            for(long c = 0; c < cb; ++c)
                Tile<M>::In(tmp + j * cb + c, A * cb, vt + j * plane + c, A * plane);
    }
}

/// out = A^T M A for the tiles of tile row `row`, output channels [k0, k1): the tile row is
/// built with channels innermost, then written back row by row.
template <int M>
void OutputTransformRow(const WinogradShape& s, const WinogradPlan& pl, const float* mb, long row, long k0,
                        long k1, float* out, long tiles, long p0, float* scratch)
{
    constexpr int A = M + 2;
    const long tw = pl.tiles_w, kb = k1 - k0;
    const long n = row / pl.tiles_h, ti = row % pl.tiles_h;
    float* sb = scratch;              // [M][A][kb]: the column transforms of one tile
    float* yst = sb + M * A * kb;     // [M rows][tw * M columns][kb]
    const long plane = tiles * s.oc;
    for(long t = 0; t < tw; ++t)
    {
        const float* mt = mb + (p0 + t) * s.oc + k0;
        for(int j = 0; j < A; ++j)
#pragma omp simd
            for(long k = 0; k < kb; ++k)
                Tile<M>::Out(mt + j * plane + k, A * plane, sb + j * kb + k, A * kb);
        for(int i = 0; i < M; ++i)
        {
            float* yr = yst + (i * tw * M + t * M) * kb;
#pragma omp simd
            for(long k = 0; k < kb; ++k)
                Tile<M>::Out(sb + i * A * kb + k, kb, yr + k, kb);
        }
    }
    const long rows_here = std::min<long>(M, s.oh - ti * M);
    for(long k = 0; k < kb; ++k)
        for(long i = 0; i < rows_here; ++i)
        {
            float* dst = out + ((n * s.oc + k0 + k) * s.oh + ti * M + i) * s.ow;
            const float* src = yst + i * tw * M * kb + k;
#pragma omp simd
            for(long q = 0; q < s.ow; ++q)
                dst[q] = src[q * kb];
        }
}

/// How the GEMM stage is split: output channels of a group in blocks of kb, tile elements in
/// esplit ranges; one item (group, block, range) transforms its filters and runs its GEMMs.
struct GemmSplit
{
    long kb, esplit;
};

GemmSplit ChooseGemmSplit(const WinogradShape& s, long a2, long tiles, int threads)
{
    // A small cost model: the GEMMs (less efficient for thin blocks), the filter transform an
    // item repeats for its range, and the transformed-filter block going through memory when it
    // outgrows the caches; the stage takes ceil(items / threads) rounds.
    static constexpr long kSplits[] = {1, 2, 3, 4, 6, 9, 12, 18, 36};
    GemmSplit best{s.ocpg, 1};
    double best_cost = 1e300;
    const long step = s.ocpg < 16 ? s.ocpg : 16;
    for(long kb = step; kb < s.ocpg + step; kb += step)
    {
        const long k = std::min(kb, s.ocpg);
        const long blocks = (s.ocpg + k - 1) / k;
        for(long es : kSplits)
        {
            if(es > a2 || a2 % es != 0)
                continue;
            const double ne = static_cast<double>(a2 / es);
            const double gemm = ne * k * s.icpg * tiles * 2.0 / 100e9 * (1.0 + 8.0 / k);
            const double filter = static_cast<double>(k) * s.icpg * 300.0 / 4e9;
            const double ublk = ne * k * s.icpg * sizeof(float);
            const double spill = ublk > (2 << 20) ? 2.0 * ublk / 10e9 : 0.0;
            const long items = s.groups * blocks * es;
            const double cost = static_cast<double>((items + threads - 1) / threads) * (gemm + filter + spill);
            if(cost < best_cost * 0.999)
            {
                best_cost = cost;
                best = {k, es};
            }
        }
    }
    return best;
}

/// Row stride (floats) of the filter-transform scratch: padded so that its rows do not all map
/// to the same cache sets (icpg = 1024 floats is exactly 4 KiB).
inline long FilterLd(long icpg) { return (icpg + 15) / 16 * 16 + 16; }

/// U[(e - e0) * rows + oc - oc0][ic] = (G g G^T)[e] for output channels [oc0, oc1) (one group)
/// and tile elements [e0, e1), vectorised across the input channels; w is (oc, icpg, 3, 3).
template <int M>
void FilterTransformBlock(const WinogradShape& s, const float* w, long oc0, long oc1, long e0, long e1, float* u,
                          long rows, float* scratch)
{
    constexpr int A = M + 2;
    const long icpg = s.icpg, ld = FilterLd(icpg);
    float* gt = scratch;           // [9 taps][ld]
    float* t1 = gt + 9 * ld;       // [A][3][ld]: G g
    float* t2 = t1 + A * 3 * ld;   // [A][ld]: one row of G g G^T
    for(long oc = oc0; oc < oc1; ++oc)
    {
        const float* src = w + oc * icpg * 9;
        for(int tap = 0; tap < 9; ++tap)
#pragma omp simd
            for(long ic = 0; ic < icpg; ++ic)
                gt[tap * ld + ic] = src[ic * 9 + tap];
        for(int b = 0; b < 3; ++b)
#pragma omp simd
            for(long ic = 0; ic < icpg; ++ic)
                Tile<M>::Fil(gt + b * ld + ic, 3 * ld, t1 + b * ld + ic, 3 * ld);
        for(int i = 0; i < A; ++i)
        {
            if((i + 1) * A <= e0 || i * A >= e1)
                continue;
#pragma omp simd
            for(long ic = 0; ic < icpg; ++ic)
                Tile<M>::Fil(t1 + i * 3 * ld + ic, ld, t2 + ic, ld);
            for(int j = 0; j < A; ++j)
            {
                const long e = i * A + j;
                if(e < e0 || e >= e1)
                    continue;
                float* dst = u + ((e - e0) * rows + (oc - oc0)) * icpg;
                std::memcpy(dst, t2 + j * ld, sizeof(float) * icpg);
            }
        }
    }
}

/// Backward data: the core's filters (oc, icpg, 3, 3) are the user's (ic, oc / groups, 3, 3)
/// transposed per group and flipped; made once into the workspace so every later read is
/// contiguous.
const float* TransposedFilters(const WinogradShape& s, const float* w, float* wt)
{
#pragma omp parallel for schedule(static)
    for(long oc = 0; oc < s.oc; ++oc)
    {
        const long grp = oc / s.ocpg, ocl = oc % s.ocpg;
        for(long ic = 0; ic < s.icpg; ++ic)
        {
            const float* src = w + ((grp * s.icpg + ic) * s.ocpg + ocl) * 9;
            float* dst = wt + (oc * s.icpg + ic) * 9;
            for(int tap = 0; tap < 9; ++tap)
                dst[tap] = src[8 - tap];
        }
    }
    return wt;
}

/// The pipelined schedule (see WinogradPlan).
template <int M>
void RunPipelined(const WinogradShape& s, const WinogradPlan& pl, const float* in, const float* w, float* out,
                  float* ws)
{
    constexpr int A = M + 2;
    constexpr long a2 = A * A;
    float* u = ws;
    float* chunk_bufs = u + pl.u_floats;
    if(s.dir == WinogradDirection::BackwardData)
        w = TransposedFilters(s, w, chunk_bufs + (pl.v_floats + pl.m_floats) * pl.threads);
    const long tw = pl.tiles_w;
    const long chunks = (pl.rows + pl.rows_per_chunk - 1) / pl.rows_per_chunk;
    const int threads = std::min(omp_get_max_threads(), pl.threads);
    const long cblocks = (s.ic + kChanBlock - 1) / kChanBlock;
    const long kblocks = (s.oc + kChanBlock - 1) / kChanBlock;
    constexpr long kFilterBlock = 16;
    const long fblocks = (s.oc + kFilterBlock - 1) / kFilterBlock;
#pragma omp parallel num_threads(threads)
    {
        {
            std::vector<float> fbuf(static_cast<size_t>((9 + 4 * A) * FilterLd(s.icpg)));
#pragma omp for schedule(static)
            for(long b = 0; b < fblocks; ++b)
            {
                const long oc0 = b * kFilterBlock, oc1 = std::min(s.oc, oc0 + kFilterBlock);
                FilterTransformBlock<M>(s, w, oc0, oc1, 0, a2, u + oc0 * s.icpg, s.oc, fbuf.data());
            }
        }
        std::vector<float> tbuf(static_cast<size_t>(TransformScratchFloats<M>(pl)));
        float* v = chunk_bufs + (pl.v_floats + pl.m_floats) * omp_get_thread_num();
        float* mb = v + pl.v_floats;
        // Each chunk is done by one thread alone, the same way whichever thread it is: the result
        // does not depend on the thread count.
#pragma omp for schedule(static)
        for(long ch = 0; ch < chunks; ++ch)
        {
            const long r0 = ch * pl.rows_per_chunk, r1 = std::min(pl.rows, r0 + pl.rows_per_chunk);
            const long nr = r1 - r0, tiles = nr * tw;
            for(long r = 0; r < nr; ++r)
                for(long cblk = 0; cblk < cblocks; ++cblk)
                    InputTransformRow<M>(s, pl, in, r0 + r, cblk * kChanBlock,
                                         std::min(s.ic, (cblk + 1) * kChanBlock), v, tiles, r * tw, tbuf.data());
            for(long e = 0; e < a2; ++e)
                for(long grp = 0; grp < s.groups; ++grp)
                    Sgemm(false, true, static_cast<int>(tiles), static_cast<int>(s.ocpg), static_cast<int>(s.icpg),
                          1.0f, v + e * tiles * s.ic + grp * s.icpg, static_cast<int>(s.ic),
                          u + (e * s.oc + grp * s.ocpg) * s.icpg, static_cast<int>(s.icpg), 0.0f,
                          mb + e * tiles * s.oc + grp * s.ocpg, static_cast<int>(s.oc));
            for(long r = 0; r < nr; ++r)
                for(long kblk = 0; kblk < kblocks; ++kblk)
                    OutputTransformRow<M>(s, pl, mb, r0 + r, kblk * kChanBlock,
                                          std::min(s.oc, (kblk + 1) * kChanBlock), out, tiles, r * tw, tbuf.data());
        }
    }
}

/// The phased schedule (see WinogradPlan).
template <int M>
void Run(const WinogradShape& s, const WinogradPlan& pl, const float* in, const float* w, float* out,
         float* ws)
{
    constexpr int A = M + 2;
    constexpr long a2 = A * A;
    float* v = ws;
    float* mb = v + pl.v_floats;
    if(s.dir == WinogradDirection::BackwardData)
        w = TransposedFilters(s, w, mb + pl.m_floats);
    const long tw = pl.tiles_w;
    const long chunks = (pl.rows + pl.rows_per_chunk - 1) / pl.rows_per_chunk;
    const int threads = omp_get_max_threads();
    const long cblocks = (s.ic + kChanBlock - 1) / kChanBlock;
    const long kblocks = (s.oc + kChanBlock - 1) / kChanBlock;
    const long tscratch = TransformScratchFloats<M>(pl);
    // The split depends on the chunk's tile count only through the cost model: use the full one.
    const GemmSplit split = ChooseGemmSplit(s, a2, pl.rows_per_chunk * tw, threads);
    const long gblocks = (s.ocpg + split.kb - 1) / split.kb;
    const long ne = a2 / split.esplit;
    const long gitems = s.groups * gblocks * split.esplit;
#pragma omp parallel num_threads(threads)
    {
        std::vector<float> tbuf(static_cast<size_t>(tscratch));
        std::vector<float> ublk(static_cast<size_t>(ne * split.kb * s.icpg));
        std::vector<float> fbuf(static_cast<size_t>((9 + 4 * A) * FilterLd(s.icpg)));
        for(long ch = 0; ch < chunks; ++ch)
        {
            const long r0 = ch * pl.rows_per_chunk, r1 = std::min(pl.rows, r0 + pl.rows_per_chunk);
            const long nr = r1 - r0, tiles = nr * tw;
#pragma omp for schedule(static)
            for(long item = 0; item < nr * cblocks; ++item)
            {
                const long r = item / cblocks, cblk = item % cblocks;
                const long c0 = cblk * kChanBlock, c1 = std::min(s.ic, c0 + kChanBlock);
                InputTransformRow<M>(s, pl, in, r0 + r, c0, c1, v, tiles, r * tw, tbuf.data());
            }
            // Per item: its filters' transform, then M_e = V_e (tiles x icpg) * U_e^T per element.
#pragma omp for schedule(static)
            for(long item = 0; item < gitems; ++item)
            {
                const long grp = item / (gblocks * split.esplit);
                const long blk = item / split.esplit % gblocks, er = item % split.esplit;
                const long k0 = blk * split.kb, k1 = std::min(s.ocpg, k0 + split.kb), kb = k1 - k0;
                const long e0 = er * ne, e1 = e0 + ne;
                FilterTransformBlock<M>(s, w, grp * s.ocpg + k0, grp * s.ocpg + k1, e0, e1, ublk.data(), kb,
                                        fbuf.data());
                for(long e = e0; e < e1; ++e)
                    Sgemm(false, true, static_cast<int>(tiles), static_cast<int>(kb), static_cast<int>(s.icpg), 1.0f,
                          v + e * tiles * s.ic + grp * s.icpg, static_cast<int>(s.ic),
                          ublk.data() + (e - e0) * kb * s.icpg, static_cast<int>(s.icpg), 0.0f,
                          mb + e * tiles * s.oc + grp * s.ocpg + k0, static_cast<int>(s.oc));
            }
#pragma omp for schedule(static)
            for(long item = 0; item < nr * kblocks; ++item)
            {
                const long r = item / kblocks, kblk = item % kblocks;
                const long k0 = kblk * kChanBlock, k1 = std::min(s.oc, k0 + kChanBlock);
                OutputTransformRow<M>(s, pl, mb, r0 + r, k0, k1, out, tiles, r * tw, tbuf.data());
            }
        }
    }
}

/// Backward weights: D[e][p0 + t][k] = (A dy A^T)[e] for the tiles of tile row `row`, output
/// channels [k0, k1); dy beyond the output is zero.
template <int M>
void DyTransformRow(const WinogradShape& s, const WinogradPlan& pl, const float* dy, long row, long k0, long k1,
                    float* d, long tiles, long p0, float* scratch)
{
    constexpr int A = M + 2;
    const long tw = pl.tiles_w, wq = M * tw, kb = k1 - k0;
    const long n = row / pl.tiles_h, ti = row % pl.tiles_h;
    float* st = scratch;             // [M rows][wq columns][kb]
    float* tmp = st + M * wq * kb;   // [M][A][kb]: the row transforms of one tile
    const long plane_out = s.oh * s.ow;
    for(int i = 0; i < M; ++i)
    {
        float* sr = st + i * wq * kb;
        const long oh = ti * M + i;
        if(oh >= s.oh)
        {
            std::fill(sr, sr + wq * kb, 0.0f);
            continue;
        }
        std::fill(sr + s.ow * kb, sr + wq * kb, 0.0f);
        const float* src = dy + ((n * s.oc + k0) * s.oh + oh) * s.ow;
        for(long q = 0; q < s.ow; ++q)
#pragma omp simd
            for(long k = 0; k < kb; ++k)
                sr[q * kb + k] = src[k * plane_out + q];
    }
    const long plane = tiles * s.oc;
    for(long t = 0; t < tw; ++t)
    {
        for(int i = 0; i < M; ++i)
        {
            const float* base = st + (i * wq + t * M) * kb;
#pragma omp simd
            for(long k = 0; k < kb; ++k)
                Tile<M>::Dy(base + k, kb, tmp + i * A * kb + k, kb);
        }
        float* dt = d + (p0 + t) * s.oc + k0;
        for(int j = 0; j < A; ++j)
#pragma omp simd
            for(long k = 0; k < kb; ++k)
                Tile<M>::Dy(tmp + j * kb + k, A * kb, dt + j * plane + k, A * plane);
    }
}

/// dw[oc][ic][3][3] = G^T S G for the summed products S[e][oc][ic] of output channel oc.
template <int M>
void WeightTransform(const WinogradShape& s, const float* sum, long oc, float* dw, float* scratch)
{
    constexpr int A = M + 2;
    const long icpg = s.icpg, ld = FilterLd(icpg), plane = s.oc * icpg;
    float* t1 = scratch;        // [3][A][ld]: G^T S
    float* t2 = t1 + 3 * A * ld;   // [9 taps][ld]
    const float* so = sum + oc * icpg;
    for(int j = 0; j < A; ++j)
#pragma omp simd
        for(long ic = 0; ic < icpg; ++ic)
            Tile<M>::Wt(so + j * plane + ic, A * plane, t1 + j * ld + ic, A * ld);
    for(int a = 0; a < 3; ++a)
#pragma omp simd
        for(long ic = 0; ic < icpg; ++ic)
            Tile<M>::Wt(t1 + a * A * ld + ic, ld, t2 + a * 3 * ld + ic, ld);
    float* dst = dw + oc * icpg * 9;
    for(int tap = 0; tap < 9; ++tap)
#pragma omp simd
        for(long ic = 0; ic < icpg; ++ic)
            dst[ic * 9 + tap] = t2[tap * ld + ic];
}

template <int M>
void RunBackwardWeights(const WinogradShape& s, const WinogradPlan& pl, const float* x, const float* dy, float* dw,
                        float* ws)
{
    constexpr int A = M + 2;
    constexpr long a2 = A * A;
    float* v = ws;
    float* d = v + pl.v_floats;
    float* sum = d + pl.m_floats;
    const long tw = pl.tiles_w;
    const long chunks = (pl.rows + pl.rows_per_chunk - 1) / pl.rows_per_chunk;
    const int threads = omp_get_max_threads();
    const long cblocks = (s.ic + kChanBlock - 1) / kChanBlock;
    const long kblocks = (s.oc + kChanBlock - 1) / kChanBlock;
    const long tscratch = std::max(TransformScratchFloats<M>(pl), M * M * tw * kChanBlock + M * A * kChanBlock);
    // GEMM items: (tile element, group, block of output channels), enough of them for the threads.
    const long want = (4L * threads + a2 * s.groups - 1) / (a2 * s.groups);
    const long gblocks = std::clamp<long>(want, 1, std::max<long>(1, s.ocpg / 16));
    const long kb = (s.ocpg + gblocks - 1) / gblocks;
#pragma omp parallel num_threads(threads)
    {
        std::vector<float> tbuf(static_cast<size_t>(std::max(tscratch, 3 * A * FilterLd(s.icpg) + 9 * FilterLd(s.icpg))));
        for(long ch = 0; ch < chunks; ++ch)
        {
            const long r0 = ch * pl.rows_per_chunk, r1 = std::min(pl.rows, r0 + pl.rows_per_chunk);
            const long nr = r1 - r0, tiles = nr * tw;
#pragma omp for schedule(static) nowait
            for(long item = 0; item < nr * cblocks; ++item)
            {
                const long r = item / cblocks, cblk = item % cblocks;
                const long c0 = cblk * kChanBlock, c1 = std::min(s.ic, c0 + kChanBlock);
                InputTransformRow<M>(s, pl, x, r0 + r, c0, c1, v, tiles, r * tw, tbuf.data());
            }
#pragma omp for schedule(static)
            for(long item = 0; item < nr * kblocks; ++item)
            {
                const long r = item / kblocks, kblk = item % kblocks;
                const long k0 = kblk * kChanBlock, k1 = std::min(s.oc, k0 + kChanBlock);
                DyTransformRow<M>(s, pl, dy, r0 + r, k0, k1, d, tiles, r * tw, tbuf.data());
            }
            // S_e (ocpg x icpg) += D_e^T (ocpg x tiles) * V_e (tiles x icpg), chunk after chunk.
#pragma omp for schedule(static)
            for(long item = 0; item < a2 * s.groups * gblocks; ++item)
            {
                const long e = item / (s.groups * gblocks), grp = item / gblocks % s.groups, blk = item % gblocks;
                const long k0 = blk * kb, k1 = std::min(s.ocpg, k0 + kb);
                if(k0 >= k1)
                    continue;
                Sgemm(true, false, static_cast<int>(k1 - k0), static_cast<int>(s.icpg), static_cast<int>(tiles), 1.0f,
                      d + e * tiles * s.oc + grp * s.ocpg + k0, static_cast<int>(s.oc),
                      v + e * tiles * s.ic + grp * s.icpg, static_cast<int>(s.ic), ch == 0 ? 0.0f : 1.0f,
                      sum + (e * s.oc + grp * s.ocpg + k0) * s.icpg, static_cast<int>(s.icpg));
            }
        }
#pragma omp for schedule(static)
        for(long oc = 0; oc < s.oc; ++oc)
            WeightTransform<M>(s, sum, oc, dw, tbuf.data());
    }
}

} // namespace

WinogradShape WinogradShape::Forward(const ConvGeometry& g)
{
    return {g.n, g.c, g.k, g.g, g.cpg, g.kpg, g.in[1], g.in[2], g.out[1], g.out[2], g.pad[1], g.pad[2],
            WinogradDirection::Forward};
}

WinogradShape WinogradShape::BackwardWeights(const ConvGeometry& g)
{
    WinogradShape s = Forward(g);
    s.dir = WinogradDirection::BackwardWeights;
    return s;
}

WinogradShape WinogradShape::BackwardData(const ConvGeometry& g)
{
    return {g.n, g.k, g.c, g.g, g.kpg, g.cpg, g.out[1], g.out[2], g.in[1], g.in[2], g.fil[1] - 1 - g.pad[1],
            g.fil[2] - 1 - g.pad[2], WinogradDirection::BackwardData};
}

WinogradPlan MakeWinogradPlan(const WinogradShape& s, int m, size_t chunk_bytes, size_t cache_bytes)
{
    WinogradPlan pl{};
    pl.m = m;
    pl.alpha = m + 2;
    pl.tiles_h = (s.oh + m - 1) / m;
    pl.tiles_w = (s.ow + m - 1) / m;
    pl.rows = s.n * pl.tiles_h;
    const long a2 = static_cast<long>(pl.alpha) * pl.alpha;
    const long row_bytes = a2 * (s.ic + s.oc) * pl.tiles_w * static_cast<long>(sizeof(float));
    const long filter_bytes = a2 * s.oc * s.icpg * static_cast<long>(sizeof(float));
    pl.threads = omp_get_max_threads();
    // Pipelined where the transformed filters fit in the cache alongside a chunk and there are
    // chunks enough for every thread.
    const long cache_rows = std::max<long>(1, static_cast<long>(cache_bytes) / std::max<long>(row_bytes, 1));
    pl.pipelined = s.dir != WinogradDirection::BackwardWeights && filter_bytes <= static_cast<long>(cache_bytes) &&
                   pl.rows >= 2L * pl.threads * cache_rows;
    pl.rows_per_chunk = pl.pipelined ? cache_rows
                                     : std::clamp<long>(static_cast<long>(chunk_bytes) / std::max<long>(row_bytes, 1),
                                                        1, pl.rows);
    pl.u_floats = pl.pipelined ? a2 * s.oc * s.icpg : 0;
    pl.v_floats = a2 * s.ic * pl.rows_per_chunk * pl.tiles_w;
    pl.m_floats = a2 * s.oc * pl.rows_per_chunk * pl.tiles_w;
    pl.w_floats = s.dir == WinogradDirection::BackwardData      ? s.oc * s.icpg * 9
                  : s.dir == WinogradDirection::BackwardWeights ? a2 * s.oc * s.icpg
                                                                : 0;
    return pl;
}

void ConvWinogradBackwardWeights(const WinogradShape& s, const WinogradPlan& plan, const float* x,
                                 const float* dy, float* dw, void* workspace)
{
    if(plan.m == 4)
        RunBackwardWeights<4>(s, plan, x, dy, dw, static_cast<float*>(workspace));
    else
        RunBackwardWeights<2>(s, plan, x, dy, dw, static_cast<float*>(workspace));
}

void ConvWinograd(const WinogradShape& s, const WinogradPlan& plan, const float* in, const float* w,
                  float* out, void* workspace)
{
    float* ws = static_cast<float*>(workspace);
    if(plan.pipelined)
        plan.m == 4 ? RunPipelined<4>(s, plan, in, w, out, ws) : RunPipelined<2>(s, plan, in, w, out, ws);
    else
        plan.m == 4 ? Run<4>(s, plan, in, w, out, ws) : Run<2>(s, plan, in, w, out, ws);
}

} // namespace miopen::cpu
