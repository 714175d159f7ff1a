#include "cpu/conv/igemm.hpp"
#include "cpu/blas.hpp"
#include "cpu/conv/gemm.hpp"

#include <algorithm>
#include <vector>

#include <omp.h>

namespace miopen::cpu {

long IgemmRowsPerChunk(const ConvGeometry& g, long target_bytes)
{
    const long row_bytes = ColRows(g) * g.out[2] * static_cast<long>(sizeof(float));
    const long rows = g.out[0] * g.out[1];
    return std::clamp<long>(target_bytes / std::max<long>(row_bytes, 1), 1, rows);
}

void ConvFwdIgemm(const ConvGeometry& g, const float* x, const float* w, float* y, long rpc, long nb)
{
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
                        std::copy_n(out.data() + kl * ld + i * os, os,
                                    y + (n0 + i) * g.ys[0] + (grp * g.kpg + kl) * g.ys[1]);
            }
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
                    for(long kl = 0; kl < g.kpg; ++kl)
                        std::copy_n(out.data() + kl * ld + i * os, os,
                                    y + (n0 + i) * g.ys[0] + (grp * g.kpg + kl) * g.ys[1]);
            }
        }
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
        }
    }
}

void ConvBwdDataIgemm(const ConvGeometry& g, float* dx, const float* w, const float* dy, long target_bytes,
                      long nb)
{
    // The transposed problem: input dy (n, k, out), filters (c, k/g, flipped), output dx.
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
    std::vector<float> wt(static_cast<size_t>(g.c * g.kpg * fs));
    t.ws = {g.kpg * fs, fs, g.fil[1] * g.fil[2], g.fil[2], 1};
    if(g.fil[0] == 1)
        t.ws[2] = 0;
#pragma omp parallel for schedule(static)
    for(long c = 0; c < g.c; ++c)
    {
        const long grp = c / g.cpg, cl = c % g.cpg;
        for(long kl = 0; kl < g.kpg; ++kl)
        {
            const float* src = w + (grp * g.kpg + kl) * g.ws[0] + cl * g.ws[1];
            float* dst = wt.data() + c * t.ws[0] + kl * t.ws[1];
            for(long fd = 0; fd < g.fil[0]; ++fd)
                for(long fh = 0; fh < g.fil[1]; ++fh)
                    for(long fw = 0; fw < g.fil[2]; ++fw)
                        dst[((g.fil[0] - 1 - fd) * g.fil[1] + (g.fil[1] - 1 - fh)) * g.fil[2] +
                            (g.fil[2] - 1 - fw)] = src[fd * g.ws[2] + fh * g.ws[3] + fw * g.ws[4]];
        }
    }
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
    const long total = g.k * crs;
#pragma omp parallel for schedule(static)
    for(long i = 0; i < total; ++i)
    {
        float s = 0.0f;
        for(int t = 0; t < threads; ++t)
            s += partial[static_cast<size_t>(t) * total + i];
        const long k = i / crs, r = i % crs;
        dw[k * g.ws[0] + r] = s;   // packed filters: row r of the column matrix = (cl, fd, fh, fw)
    }
}

} // namespace miopen::cpu
