#include "cpu/conv/igemm.hpp"
#include "cpu/blas.hpp"
#include "cpu/conv/bf16_gemm.hpp"
#include "cpu/conv/gemm.hpp"
#include "cpu/storage_convert.hpp"
#include "fusion/fusion_args.hpp"

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include <omp.h>

namespace miopen::cpu {

long IgemmRowsPerChunk(const ConvGeometry& g, long target_bytes)
{
    const long row_bytes = ColRows(g) * g.out[2] * static_cast<long>(sizeof(float));
    const long rows = g.out[0] * g.out[1];
    return std::clamp<long>(target_bytes / std::max<long>(row_bytes, 1), 1, rows);
}

void ConvFwdIgemm(const ConvGeometry& g, const float* x, const float* w, float* y, long rpc, long nb,
                  const ConvBlockEpilogue* ep)
{
    const ConvEpilogueArgs* e = ep != nullptr ? ep->e : nullptr;
    // The epilogue of the kpg channels' runs of `len` positions at y offset `at` (channel grp*kpg).
    const auto epilogue = [&](long at, long len, long grp) {
        for(long kl = 0; kl < g.kpg; ++kl)
        {
            const long off = at + kl * g.ys[1];
            EpilogueRun<float>(*e, y + off, static_cast<size_t>(off), static_cast<size_t>(len),
                               static_cast<size_t>(grp * g.kpg + kl));
        }
    };
    const long rows = g.out[0] * g.out[1];
    const long crs = ColRows(g);
    const long os = rows * g.out[2];
    if(nb > 1)
    {
        // nb whole images side by side in one column matrix: one wider GEMM into a scratch
        // block, copied out per image.
        const long blocks = (g.n + nb - 1) / nb;
        const long items = blocks * g.g;
        if(items < omp_get_max_threads())
        {
            // Fewer blocks than threads: the threads share each block (im2col by image, the GEMM
            // split by SgemmParallel, the copy by output channel).
            std::vector<float> col(static_cast<size_t>(crs * nb * os)), out(static_cast<size_t>(g.kpg * nb * os));
            for(long item = 0; item < items; ++item)
            {
                const long blk = item / g.g, grp = item % g.g;
                const long n0 = blk * nb, cnt = std::min(nb, g.n - n0);
                const long ld = cnt * os;
#pragma omp parallel for schedule(static)
                for(long i = 0; i < cnt; ++i)
                    Im2ColRows(g, x, n0 + i, grp, 0, rows, col.data() + i * os, ld);
                SgemmParallel(false, false, g.kpg, ld, crs, 1.0f, w + grp * g.kpg * g.ws[0], g.ws[0], col.data(),
                              ld, 0.0f, out.data(), ld);
#pragma omp parallel for collapse(2) schedule(static)
                for(long i = 0; i < cnt; ++i)
                    for(long kl = 0; kl < g.kpg; ++kl)
                    {
                        float* yo = y + (n0 + i) * g.ys[0] + (grp * g.kpg + kl) * g.ys[1];
                        std::copy_n(out.data() + kl * ld + i * os, os, yo);
                        if(e != nullptr)
                            EpilogueRun<float>(*e, yo, static_cast<size_t>(yo - y), static_cast<size_t>(os),
                                               static_cast<size_t>(grp * g.kpg + kl));
                    }
            }
            if(ep != nullptr)
                ep->applied = true;
            return;
        }
#pragma omp parallel
        {
            std::vector<float> col(static_cast<size_t>(crs * nb * os)), out(static_cast<size_t>(g.kpg * nb * os));
#pragma omp for schedule(static)
            for(long item = 0; item < items; ++item)
            {
                const long blk = item / g.g, grp = item % g.g;
                const long n0 = blk * nb, cnt = std::min(nb, g.n - n0);
                const long ld = cnt * os;
                for(long i = 0; i < cnt; ++i)
                    Im2ColRows(g, x, n0 + i, grp, 0, rows, col.data() + i * os, ld);
                Sgemm(false, false, g.kpg, ld, crs, 1.0f, w + grp * g.kpg * g.ws[0], g.ws[0], col.data(), ld, 0.0f,
                      out.data(), ld);
                for(long i = 0; i < cnt; ++i)
                {
                    for(long kl = 0; kl < g.kpg; ++kl)
                        std::copy_n(out.data() + kl * ld + i * os, os,
                                    y + (n0 + i) * g.ys[0] + (grp * g.kpg + kl) * g.ys[1]);
                    if(e != nullptr)
                        epilogue((n0 + i) * g.ys[0] + grp * g.kpg * g.ys[1], os, grp);
                }
            }
        }
        if(ep != nullptr)
            ep->applied = true;
        return;
    }
    const long chunks = (rows + rpc - 1) / rpc;
    const long items = g.n * g.g * chunks;
#pragma omp parallel
    {
        std::vector<float> col(static_cast<size_t>(crs * rpc * g.out[2]));
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            const long ch = item % chunks, ng = item / chunks;
            const long n = ng / g.g, grp = ng % g.g;
            const long r0 = ch * rpc, r1 = std::min(rows, r0 + rpc);
            const long cols = (r1 - r0) * g.out[2];
            Im2ColRows(g, x, n, grp, r0, r1, col.data());
            Sgemm(false, false, g.kpg, cols, crs, 1.0f, w + grp * g.kpg * g.ws[0], g.ws[0], col.data(),
                  cols, 0.0f, y + n * g.ys[0] + grp * g.kpg * g.ys[1] + r0 * g.out[2], os);
            if(e != nullptr) // the chunk's kpg x cols outputs, still in cache
                epilogue(n * g.ys[0] + grp * g.kpg * g.ys[1] + r0 * g.out[2], cols, grp);
        }
    }
    if(ep != nullptr)
        ep->applied = true;
}

namespace {

// The transposed problem of stride-1 backward data: input dy (n, k, out), filters (c, k/g,
// flipped), output dx; wt receives the flipped, transposed filters (a copy in w's own type).
template <class T>
ConvGeometry BwdDataAsForward(const ConvGeometry& g, const T* w, std::vector<T>& wt)
{
    ConvGeometry t = g;
    t.c = g.k;
    t.k = g.c;
    t.cpg = g.kpg;
    t.kpg = g.cpg;
    t.in = g.out;
    t.out = g.in;
    t.xs = g.ys;
    t.ys = g.xs;
    for(int i = 0; i < 3; ++i)
    {
        t.pad[i] = g.dil[i] * (g.fil[i] - 1) - g.pad[i];
        t.str[i] = 1;
    }
    const long fs = g.fil[0] * g.fil[1] * g.fil[2];
    wt.resize(static_cast<size_t>(g.c * g.kpg * fs));
    t.ws = {g.kpg * fs, fs, g.fil[1] * g.fil[2], g.fil[2], 1};
    if(g.fil[0] == 1)
        t.ws[2] = 0;
    // In blocks of 32 channels x 16 filters: a filter row's 32 channels share its cache lines, read
    // once from memory and then from L1 (a column at a time over all filters missed the cache at
    // every read; 16 rows, since rows a power of two apart share few L1 sets).
    constexpr long CB = 32, KB = 16;
    const long cblocks = (g.c + CB - 1) / CB, kblocks = (g.kpg + KB - 1) / KB;
#pragma omp parallel for collapse(2) schedule(static)
    for(long cb = 0; cb < cblocks; ++cb)
        for(long kb = 0; kb < kblocks; ++kb)
            for(long c = cb * CB; c < std::min(g.c, cb * CB + CB); ++c)
            {
                const long grp = c / g.cpg, cl = c % g.cpg;
                const long kl1 = std::min(g.kpg, kb * KB + KB);
                if(fs == 1)
                {
                    // 1x1: a plain transpose, without the tap loops' cost on every element.
                    const T* src = w + grp * g.kpg * g.ws[0] + cl * g.ws[1];
                    T* dst = wt.data() + c * t.ws[0];
                    for(long kl = kb * KB; kl < kl1; ++kl)
                        dst[kl] = src[kl * g.ws[0]];
                    continue;
                }
                // Packed filters (the solvers need them): a filter's taps (fd, fh, fw) are
                // contiguous, and flipping all three reverses them.
                for(long kl = kb * KB; kl < kl1; ++kl)
                {
                    const T* src = w + (grp * g.kpg + kl) * g.ws[0] + cl * g.ws[1];
                    T* dst = wt.data() + c * t.ws[0] + kl * t.ws[1];
                    for(long f = 0; f < fs; ++f)
                        dst[fs - 1 - f] = src[f];
                }
            }
    return t;
}

/// Backward weights' reduction: dw[k][r] (k < rows, r < crs, row stride ws0; packed filters: row
/// r of the column matrix = (cl, fd, fh, fw)) = the threads' partial sums added in thread order
/// (deterministic), rounded once to T.
template <class T>
void AddPartials(const float* partial, int threads, long rows, long crs, long ws0, T* dw)
{
    const long total = rows * crs;
#pragma omp parallel for schedule(static)
    for(long i = 0; i < total; ++i)
    {
        float s = 0.0f;
        for(int t = 0; t < threads; ++t)
            s += partial[static_cast<size_t>(t) * total + i];
        const long k = i / crs, r = i % crs;
        dw[k * ws0 + r] = FloatTo<T>(s);
    }
}

} // namespace

void ConvBwdDataIgemm(const ConvGeometry& g, float* dx, const float* w, const float* dy, long target_bytes,
                      long nb)
{
    std::vector<float> wt;
    const ConvGeometry t = BwdDataAsForward(g, w, wt);
    ConvFwdIgemm(t, dy, wt.data(), dx, IgemmRowsPerChunk(t, target_bytes), nb);
}

void ConvBwdWeightsIgemm(const ConvGeometry& g, const float* x, float* dw, const float* dy, long rpc, long nb)
{
    const long rows = g.out[0] * g.out[1];
    const long crs = ColRows(g);
    const long os = rows * g.out[2];
    const int threads = omp_get_max_threads();
    if(nb > 1 && (g.n + nb - 1) / nb * g.g < threads)
    {
        // nb whole images per GEMM (a longer inner dimension) and fewer blocks than threads: the
        // threads split each GEMM over dW's columns (SgemmParallel), which write dW directly:
        // no per-thread partial sums, no reduction. Packed filters: dW of a group is kpg x crs.
        std::vector<float> col(static_cast<size_t>(crs * nb * os)), dyp(static_cast<size_t>(g.kpg * nb * os));
        const long blocks = (g.n + nb - 1) / nb;
        for(long grp = 0; grp < g.g; ++grp)
            for(long blk = 0; blk < blocks; ++blk)
            {
                const long n0 = blk * nb, cnt = std::min(nb, g.n - n0);
                const long ld = cnt * os;
#pragma omp parallel for schedule(static)
                for(long i = 0; i < cnt; ++i)
                {
                    Im2ColRows(g, x, n0 + i, grp, 0, rows, col.data() + i * os, ld);
                    for(long kl = 0; kl < g.kpg; ++kl)
                        std::copy_n(dy + (n0 + i) * g.ys[0] + (grp * g.kpg + kl) * g.ys[1], os,
                                    dyp.data() + kl * ld + i * os);
                }
                SgemmParallel(false, true, g.kpg, crs, ld, 1.0f, dyp.data(), ld, col.data(), ld,
                              blk == 0 ? 0.0f : 1.0f, dw + grp * g.kpg * g.ws[0], g.ws[0]);
            }
        return;
    }
    // Each thread sums its chunks into its own dW; the partial sums are added in thread order,
    // so a run is repeatable bit for bit.
    std::vector<float> partial(static_cast<size_t>(threads) * g.k * crs, 0.0f);
    if(nb > 1)
    {
        // nb whole images per GEMM (a longer inner dimension): their columns and their dy rows are
        // packed side by side.
        const long blocks = (g.n + nb - 1) / nb;
        const long items = blocks * g.g;
#pragma omp parallel num_threads(threads)
        {
            float* mine = partial.data() + static_cast<size_t>(omp_get_thread_num()) * g.k * crs;
            std::vector<float> col(static_cast<size_t>(crs * nb * os)), dyp(static_cast<size_t>(g.kpg * nb * os));
#pragma omp for schedule(static)
            for(long item = 0; item < items; ++item)
            {
                const long blk = item / g.g, grp = item % g.g;
                const long n0 = blk * nb, cnt = std::min(nb, g.n - n0);
                const long ld = cnt * os;
                for(long i = 0; i < cnt; ++i)
                {
                    Im2ColRows(g, x, n0 + i, grp, 0, rows, col.data() + i * os, ld);
                    for(long kl = 0; kl < g.kpg; ++kl)
                        std::copy_n(dy + (n0 + i) * g.ys[0] + (grp * g.kpg + kl) * g.ys[1], os,
                                    dyp.data() + kl * ld + i * os);
                }
                Sgemm(false, true, g.kpg, crs, ld, 1.0f, dyp.data(), ld, col.data(), ld, 1.0f,
                      mine + grp * g.kpg * crs, crs);
            }
        }
    }
    else
    {
        const long chunks = (rows + rpc - 1) / rpc;
        const long items = g.n * g.g * chunks;
#pragma omp parallel num_threads(threads)
        {
            float* mine = partial.data() + static_cast<size_t>(omp_get_thread_num()) * g.k * crs;
            std::vector<float> col(static_cast<size_t>(crs * rpc * g.out[2]));
#pragma omp for schedule(static)
            for(long item = 0; item < items; ++item)
            {
                const long ch = item % chunks, ng = item / chunks;
                const long n = ng / g.g, grp = ng % g.g;
                const long r0 = ch * rpc, r1 = std::min(rows, r0 + rpc);
                const long cols = (r1 - r0) * g.out[2];
                Im2ColRows(g, x, n, grp, r0, r1, col.data());
                Sgemm(false, true, g.kpg, crs, cols, 1.0f,
                      dy + n * g.ys[0] + grp * g.kpg * g.ys[1] + r0 * g.out[2], os, col.data(), cols, 1.0f,
                      mine + grp * g.kpg * crs, crs);
            }
        }
    }
    AddPartials(partial.data(), threads, g.k, crs, g.ws[0], dw);
}

// ---- fp16 / bf16 ------------------------------------------------------------------------------

namespace {

/// A per-thread buffer left uninitialised (every user writes it before reading): std::vector's
/// zero fill and a fresh allocation's page faults cost as much as a small layer's GEMM.
template <class T>
class Scratch
{
public:
    Scratch() = default;
    explicit Scratch(size_t n) { resize(n); }
    void resize(size_t n)
    {
        if(n > size_)
        {
            p_.reset(new T[n]);
            size_ = n;
        }
    }
    T* data() { return p_.get(); }
    const T* data() const { return p_.get(); }

private:
    std::unique_ptr<T[]> p_;
    size_t size_ = 0;
};

template <class T>
constexpr bool kBf16 = std::is_same_v<T, BFloat16>;

/// Whether this call runs the vdpbf16ps GEMM (bf16 on a CPU with AVX-512 BF16, not capped).
template <class T>
bool UseBf16Gemm()
{
    if constexpr(kBf16<T>)
        return bf16gemm::Available();
    else
        return false;
}

// How the 16-bit runs cut the work: items of `imgs` whole images side by side (rpc = rows) or
// chunks of rpc output rows of one image. The fp32-panel path keeps the variant's cut; the bf16
// GEMM wants wide column blocks (its A panels stream past each 32-column B panel), so it takes
// at least ~kBf16Cols columns per item, grouping small images.
struct Cut
{
    long rows, rpc, imgs, chunks, blocks;
    long Items(const ConvGeometry& g) const { return blocks * g.g * chunks; }
    long MaxCols(const ConvGeometry& g) const { return imgs * rpc * g.out[2]; }
};

constexpr long kBf16Cols = 512;

Cut MakeCut(const ConvGeometry& g, long rpc, long nb, bool bf, long target_cols)
{
    Cut c;
    c.rows = g.out[0] * g.out[1];
    const long os = c.rows * g.out[2];
    c.imgs = 1;
    if(nb > 1)
    {
        c.imgs = std::min(nb, g.n);
        rpc = c.rows;
    }
    else if(bf)
    {
        rpc = std::max(rpc, (target_cols + g.out[2] - 1) / g.out[2]);
        if(rpc >= c.rows && os < target_cols)
        {
            // Small images side by side, but not so many that a thread goes without an item.
            const long fair = std::max<long>(1, g.n * g.g / omp_get_max_threads());
            c.imgs = std::clamp<long>((target_cols + os - 1) / os, 1, std::min(g.n, fair));
        }
    }
    c.rpc = std::clamp<long>(rpc, 1, c.rows);
    c.chunks = (c.rows + c.rpc - 1) / c.rpc;
    c.blocks = (g.n + c.imgs - 1) / c.imgs;
    return c;
}

template <class T>
void FwdTyped(const ConvGeometry& g, const T* x, const T* w, T* y, long rpc, long nb,
              const ConvBlockEpilogue* ep = nullptr)
{
    const ConvEpilogueArgs* e = ep != nullptr ? ep->e : nullptr;
    const bool bf = UseBf16Gemm<T>();
    const Cut cut = MakeCut(g, rpc, nb, bf, kBf16Cols);
    const long crs = ColRows(g);
    const long items = cut.Items(g);
    const long max_cols = cut.MaxCols(g);
    bool direct_b = cut.imgs == 1;   // (packed tensors: the solvers need them)
    for(int i = 0; i < 3; ++i)
        direct_b = direct_b && g.fil[i] == 1 && g.str[i] == 1 && g.pad[i] == 0 && g.in[i] == g.out[i];
    // bf16: every group's filters packed once in K-interleaved pairs (a repack, not a conversion).
    Scratch<uint32_t> ap;
    const size_t a_size = bf16gemm::PackedASize(g.kpg, crs);
    if constexpr(kBf16<T>)
        if(bf)
        {
            ap.resize(a_size * g.g);
#pragma omp parallel for schedule(static)
            for(long grp = 0; grp < g.g; ++grp)
                bf16gemm::PackA(w + grp * g.kpg * g.ws[0], g.ws[0], g.kpg, crs, ap.data() + grp * a_size);
        }
#pragma omp parallel
    {
        Scratch<float> tile(static_cast<size_t>(g.kpg * max_cols));
        Scratch<float> col, wf;
        Scratch<T> colt;
        Scratch<uint32_t> bp;
        if(bf)
        {
            colt.resize(direct_b ? 0 : static_cast<size_t>(crs * max_cols));
            bp.resize(bf16gemm::PackedBSize(crs, max_cols));
        }
        else
        {
            col.resize(static_cast<size_t>(crs * max_cols));
            wf.resize(static_cast<size_t>(g.kpg * crs));
        }
        long wf_grp = -1;
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            const long ch = item % cut.chunks, bg = item / cut.chunks;
            const long blk = bg / g.g, grp = bg % g.g;
            const long n0 = blk * cut.imgs, cnt = std::min(cut.imgs, g.n - n0);
            const long r0 = ch * cut.rpc, r1 = std::min(cut.rows, r0 + cut.rpc);
            const long per = (r1 - r0) * g.out[2];   // columns of one image
            const long cols = cnt * per;
            if constexpr(kBf16<T>)
                if(bf)
                {
                    if(direct_b)   // 1x1, stride 1, no padding: the columns are x's rows themselves
                        bf16gemm::PackB(x + n0 * g.xs[0] + grp * g.cpg * g.xs[1] + r0 * g.out[2], g.xs[1], crs,
                                        cols, bp.data());
                    else
                    {
                        for(long i = 0; i < cnt; ++i)
                            Im2ColRows(g, x, n0 + i, grp, r0, r1, colt.data() + i * per, cols);
                        bf16gemm::PackB(colt.data(), cols, crs, cols, bp.data());
                    }
                    bf16gemm::Gemm(g.kpg, cols, crs, ap.data() + grp * a_size, bp.data(), tile.data(), cols);
                }
            if(!bf)
            {
                for(long i = 0; i < cnt; ++i)
                    Im2ColRows(g, x, n0 + i, grp, r0, r1, col.data() + i * per, cols);
                if(wf_grp != grp)
                {
                    for(long kl = 0; kl < g.kpg; ++kl)
                        ConvertToFloat(w + (grp * g.kpg + kl) * g.ws[0], wf.data() + kl * crs,
                                       static_cast<size_t>(crs));
                    wf_grp = grp;
                }
                Sgemm(false, false, g.kpg, cols, crs, 1.0f, wf.data(), crs, col.data(), cols, 0.0f, tile.data(),
                      cols);
            }
            for(long i = 0; i < cnt; ++i)
            {
                T* yo = y + (n0 + i) * g.ys[0] + grp * g.kpg * g.ys[1] + r0 * g.out[2];
                for(long kl = 0; kl < g.kpg; ++kl)
                {
                    float* v = tile.data() + kl * cols + i * per;
                    if(e != nullptr) // on the fp32 tile: one rounding, after the epilogue
                        EpilogueRun<T>(*e, v, static_cast<size_t>(yo + kl * g.ys[1] - y),
                                       static_cast<size_t>(per), static_cast<size_t>(grp * g.kpg + kl));
                    ConvertFromFloat(v, yo + kl * g.ys[1], static_cast<size_t>(per));
                }
            }
        }
    }
    if(ep != nullptr)
        ep->applied = true;
}

template <class T>
void BwdWeightsTyped(const ConvGeometry& g, const T* x, T* dw, const T* dy, long rpc, long nb)
{
    const bool bf = UseBf16Gemm<T>();
    // bf16: long K (positions) per GEMM, since each one reads and writes the thread's whole dW.
    const Cut cut = MakeCut(g, rpc, nb, bf, 4 * kBf16Cols);
    const long os = cut.rows * g.out[2];
    const long crs = ColRows(g);
    const long items = cut.Items(g);
    const long max_cols = cut.MaxCols(g);
    const int threads = omp_get_max_threads();
    // Each thread sums its chunks into its own fp32 dW; the partial sums are added in thread
    // order and rounded once, so a run is repeatable bit for bit.
    std::vector<float> partial(static_cast<size_t>(threads) * g.k * crs, 0.0f);
#pragma omp parallel num_threads(threads)
    {
        float* mine = partial.data() + static_cast<size_t>(omp_get_thread_num()) * g.k * crs;
        Scratch<float> col, dyf;
        Scratch<T> colt, dyt;
        Scratch<uint32_t> ap, bp;
        if(bf)
        {
            colt.resize(static_cast<size_t>(crs * max_cols));
            if(cut.imgs > 1)
                dyt.resize(static_cast<size_t>(g.kpg * max_cols));
            ap.resize(bf16gemm::PackedASize(g.kpg, max_cols));
            bp.resize(bf16gemm::PackedBSize(max_cols, crs));
        }
        else
        {
            col.resize(static_cast<size_t>(crs * max_cols));
            dyf.resize(static_cast<size_t>(g.kpg * max_cols));
        }
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            const long ch = item % cut.chunks, bg = item / cut.chunks;
            const long blk = bg / g.g, grp = bg % g.g;
            const long n0 = blk * cut.imgs, cnt = std::min(cut.imgs, g.n - n0);
            const long r0 = ch * cut.rpc, r1 = std::min(cut.rows, r0 + cut.rpc);
            const long per = (r1 - r0) * g.out[2];
            const long cols = cnt * per;
            auto dyo = [&](long i) { return dy + (n0 + i) * g.ys[0] + grp * g.kpg * g.ys[1] + r0 * g.out[2]; };
            if constexpr(kBf16<T>)
                if(bf)
                {
                    // dW (kpg x crs) += dy (kpg x cols) * col^T (cols x crs), K = positions.
                    for(long i = 0; i < cnt; ++i)
                        Im2ColRows(g, x, n0 + i, grp, r0, r1, colt.data() + i * per, cols);
                    if(cnt == 1)
                        bf16gemm::PackA(dyo(0), os, g.kpg, cols, ap.data());
                    else
                    {
                        for(long i = 0; i < cnt; ++i)
                            for(long kl = 0; kl < g.kpg; ++kl)
                                std::copy_n(dyo(i) + kl * os, per, dyt.data() + kl * cols + i * per);
                        bf16gemm::PackA(dyt.data(), cols, g.kpg, cols, ap.data());
                    }
                    bf16gemm::PackBT(colt.data(), cols, cols, crs, bp.data());
                    bf16gemm::Gemm(g.kpg, crs, cols, ap.data(), bp.data(), mine + grp * g.kpg * crs, crs, true);
                }
            if(!bf)
            {
                for(long i = 0; i < cnt; ++i)
                {
                    Im2ColRows(g, x, n0 + i, grp, r0, r1, col.data() + i * per, cols);
                    for(long kl = 0; kl < g.kpg; ++kl)
                        ConvertToFloat(dyo(i) + kl * os, dyf.data() + kl * cols + i * per, static_cast<size_t>(per));
                }
                Sgemm(false, true, g.kpg, crs, cols, 1.0f, dyf.data(), cols, col.data(), cols, 1.0f,
                      mine + grp * g.kpg * crs, crs);
            }
        }
    }
    AddPartials(partial.data(), threads, g.k, crs, g.ws[0], dw);
}

template <class T>
void BwdDataTyped(const ConvGeometry& g, T* dx, const T* w, const T* dy, long target_bytes, long nb)
{
    std::vector<T> wt;
    const ConvGeometry t = BwdDataAsForward(g, w, wt);
    FwdTyped(t, dy, wt.data(), dx, IgemmRowsPerChunk(t, target_bytes), nb);
}

template <class T>
void BwdDataCol2ImTyped(const ConvGeometry& g, T* dx, const T* w, const T* dy)
{
    const long crs = ColRows(g);
    const long os = g.out[0] * g.out[1] * g.out[2];
    const long is = g.in[0] * g.in[1] * g.in[2];
    const long items = g.n * g.g;
    const bool bf = UseBf16Gemm<T>();
    // The group's channels of one image as a packed fp32 image: Col2Im's target.
    ConvGeometry gi = g;
    gi.xs = {g.cpg * is, is, g.in[1] * g.in[2], g.in[2], 1};
    Scratch<uint32_t> ap;
    const size_t a_size = bf16gemm::PackedASize(crs, g.kpg);
    if constexpr(kBf16<T>)
        if(bf)
        {
            ap.resize(a_size * g.g);
#pragma omp parallel for schedule(static)
            for(long grp = 0; grp < g.g; ++grp)
                bf16gemm::PackAT(w + grp * g.kpg * g.ws[0], g.ws[0], crs, g.kpg, ap.data() + grp * a_size);
        }
#pragma omp parallel
    {
        Scratch<float> col(static_cast<size_t>(crs * os)), img(static_cast<size_t>(g.cpg * is));
        Scratch<float> wf, dyf;
        Scratch<uint32_t> bp;
        if(bf)
            bp.resize(bf16gemm::PackedBSize(g.kpg, os));
        else
        {
            wf.resize(static_cast<size_t>(g.kpg * crs));
            dyf.resize(static_cast<size_t>(g.kpg * os));
        }
        long wf_grp = -1;
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            const long n = item / g.g, grp = item % g.g;
            const T* dyo = dy + n * g.ys[0] + grp * g.kpg * g.ys[1];
            if constexpr(kBf16<T>)
                if(bf)
                {
                    bf16gemm::PackB(dyo, os, g.kpg, os, bp.data());
                    bf16gemm::Gemm(crs, os, g.kpg, ap.data() + grp * a_size, bp.data(), col.data(), os);
                }
            if(!bf)
            {
                if(wf_grp != grp)
                {
                    ConvertToFloat(w + grp * g.kpg * g.ws[0], wf.data(), static_cast<size_t>(g.kpg * crs));
                    wf_grp = grp;
                }
                for(long kl = 0; kl < g.kpg; ++kl)
                    ConvertToFloat(dyo + kl * g.ys[1], dyf.data() + kl * os, static_cast<size_t>(os));
                Sgemm(true, false, crs, os, g.kpg, 1.0f, wf.data(), crs, dyf.data(), os, 0.0f, col.data(), os);
            }
            Col2Im(gi, col.data(), 0, 0, img.data());
            T* dxo = dx + n * g.xs[0] + grp * g.cpg * g.xs[1];
            for(long cl = 0; cl < g.cpg; ++cl)
                ConvertFromFloat(img.data() + cl * is, dxo + cl * g.xs[1], static_cast<size_t>(is));
        }
    }
}

} // namespace

void ConvBwdDataGemmCol2Im(const ConvGeometry& g, Half* dx, const Half* w, const Half* dy)
{
    BwdDataCol2ImTyped(g, dx, w, dy);
}
void ConvBwdDataGemmCol2Im(const ConvGeometry& g, BFloat16* dx, const BFloat16* w, const BFloat16* dy)
{
    BwdDataCol2ImTyped(g, dx, w, dy);
}

void ConvFwdIgemm(const ConvGeometry& g, const Half* x, const Half* w, Half* y, long rpc, long nb,
                  const ConvBlockEpilogue* ep)
{
    FwdTyped(g, x, w, y, rpc, nb, ep);
}
void ConvFwdIgemm(const ConvGeometry& g, const BFloat16* x, const BFloat16* w, BFloat16* y, long rpc, long nb,
                  const ConvBlockEpilogue* ep)
{
    FwdTyped(g, x, w, y, rpc, nb, ep);
}
void ConvBwdDataIgemm(const ConvGeometry& g, Half* dx, const Half* w, const Half* dy, long target_bytes, long nb)
{
    BwdDataTyped(g, dx, w, dy, target_bytes, nb);
}
void ConvBwdDataIgemm(const ConvGeometry& g, BFloat16* dx, const BFloat16* w, const BFloat16* dy,
                      long target_bytes, long nb)
{
    BwdDataTyped(g, dx, w, dy, target_bytes, nb);
}
void ConvBwdWeightsIgemm(const ConvGeometry& g, const Half* x, Half* dw, const Half* dy, long rpc, long nb)
{
    BwdWeightsTyped(g, x, dw, dy, rpc, nb);
}
void ConvBwdWeightsIgemm(const ConvGeometry& g, const BFloat16* x, BFloat16* dw, const BFloat16* dy, long rpc,
                         long nb)
{
    BwdWeightsTyped(g, x, dw, dy, rpc, nb);
}

} // namespace miopen::cpu
