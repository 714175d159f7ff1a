// im2col / col2im on the CPU. Both parallelise over channels (col2im: each thread owns whole
// dx channels, so the sums are deterministic).
#include "cpu/conv/gemm.hpp"
#include "cpu/blas.hpp"
#include "cpu/storage_convert.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace miopen::cpu {
namespace {

template <class TO, class TX>
inline TO Elem(TX v)
{
    if constexpr(std::is_same_v<TO, TX>)
        return v;
    else
        return ToFloat(v);
}

// n consecutive elements of x as the column matrix's type: a copy, or a conversion to fp32.
template <class TX, class TO>
inline void Segment(const TX* src, TO* dst, long n)
{
    if(n <= 0)
        return;
    if constexpr(std::is_same_v<TO, TX>)
        std::memcpy(dst, src, sizeof(TO) * n);
    else
        ConvertToFloat(src, dst, static_cast<size_t>(n));
}

// One row r of the column matrix (c_local, fd, fh, fw) for output rows [row_begin, row_end).
// TX: x's storage type; TO: the column matrix's (fp32, or TX itself for the bf16 GEMM).
template <class TX, class TO>
void Im2ColRow(const ConvGeometry& g, const TX* x, long n, long grp, long r, long row_begin,
               long row_end, TO* out)
{
    const long fs = g.fil[0] * g.fil[1] * g.fil[2];
    const long cl = r / fs, f = r % fs;
    const long fd = f / (g.fil[1] * g.fil[2]), fh = (f / g.fil[2]) % g.fil[1], fw = f % g.fil[2];
    const TX* xc = x + n * g.xs[0] + (grp * g.cpg + cl) * g.xs[1];
    long od_lo, od_hi, oh_lo, oh_hi, ow_lo, ow_hi;
    ValidRange(g.in[0], g.out[0], g.pad[0], g.str[0], g.dil[0], fd, od_lo, od_hi);
    ValidRange(g.in[1], g.out[1], g.pad[1], g.str[1], g.dil[1], fh, oh_lo, oh_hi);
    ValidRange(g.in[2], g.out[2], g.pad[2], g.str[2], g.dil[2], fw, ow_lo, ow_hi);
    const long sx = g.str[2] * g.xs[4];
    for(long row = row_begin; row < row_end; ++row)
    {
        const long od = row / g.out[1], oh = row % g.out[1];
        TO* o = out + (row - row_begin) * g.out[2];
        if(od < od_lo || od >= od_hi || oh < oh_lo || oh >= oh_hi)
        {
            std::memset(o, 0, sizeof(TO) * g.out[2]);
            continue;
        }
        const long id = od * g.str[0] - g.pad[0] + fd * g.dil[0];
        const long ih = oh * g.str[1] - g.pad[1] + fh * g.dil[1];
        const TX* xr = xc + id * g.xs[2] + ih * g.xs[3] + (fw * g.dil[2] - g.pad[2]) * g.xs[4];
        if(ow_lo > 0)
            std::memset(o, 0, sizeof(TO) * ow_lo);
        if(sx == 1)
            Segment(xr + ow_lo, o + ow_lo, ow_hi - ow_lo);
        else
            for(long ow = ow_lo; ow < ow_hi; ++ow)
                o[ow] = Elem<TO>(xr[ow * sx]);
        if(ow_hi < g.out[2])
            std::memset(o + std::max(ow_hi, ow_lo), 0, sizeof(TO) * (g.out[2] - std::max(ow_hi, ow_lo)));
    }
}

template <class TX, class TO>
void Im2ColRowsT(const ConvGeometry& g, const TX* x, long n, long grp, long row_begin, long row_end, TO* col,
                 long ld)
{
    const long rows = ColRows(g);
    const long cols = ld >= 0 ? ld : (row_end - row_begin) * g.out[2];
    for(long r = 0; r < rows; ++r)
        Im2ColRow(g, x, n, grp, r, row_begin, row_end, col + r * cols);
}

} // namespace

void Im2Col(const ConvGeometry& g, const float* x, long n, long grp, float* col)
{
    const long rows = ColRows(g);
    const long cols = ColCols(g);
    const long out_rows = g.out[0] * g.out[1];
#pragma omp parallel for schedule(static)
    for(long r = 0; r < rows; ++r)
        Im2ColRow(g, x, n, grp, r, 0, out_rows, col + r * cols);
}

void Im2ColRows(const ConvGeometry& g, const float* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld)
{
    Im2ColRowsT(g, x, n, grp, row_begin, row_end, col, ld);
}

void Im2ColRows(const ConvGeometry& g, const Half* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld)
{
    Im2ColRowsT(g, x, n, grp, row_begin, row_end, col, ld);
}

void Im2ColRows(const ConvGeometry& g, const BFloat16* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld)
{
    Im2ColRowsT(g, x, n, grp, row_begin, row_end, col, ld);
}

void Im2ColRows(const ConvGeometry& g, const BFloat16* x, long n, long grp, long row_begin, long row_end,
                BFloat16* col, long ld)
{
    Im2ColRowsT(g, x, n, grp, row_begin, row_end, col, ld);
}

void Col2Im(const ConvGeometry& g, const float* col, long n, long grp, float* dx)
{
    const long fs = g.fil[0] * g.fil[1] * g.fil[2];
    const long cols = ColCols(g);
#pragma omp parallel for schedule(static)
    for(long cl = 0; cl < g.cpg; ++cl)
    {
        float* xc = dx + n * g.xs[0] + (grp * g.cpg + cl) * g.xs[1];
        // Zero the channel, then add every tap's contribution.
        for(long id = 0; id < g.in[0]; ++id)
            for(long ih = 0; ih < g.in[1]; ++ih)
            {
                float* xr = xc + id * g.xs[2] + ih * g.xs[3];
                if(g.xs[4] == 1)
                    std::memset(xr, 0, sizeof(float) * g.in[2]);
                else
                    for(long iw = 0; iw < g.in[2]; ++iw)
                        xr[iw * g.xs[4]] = 0.0f;
            }
        for(long f = 0; f < fs; ++f)
        {
            const long fd = f / (g.fil[1] * g.fil[2]), fh = (f / g.fil[2]) % g.fil[1], fw = f % g.fil[2];
            const float* row = col + (cl * fs + f) * cols;
            long od_lo, od_hi, oh_lo, oh_hi, ow_lo, ow_hi;
            ValidRange(g.in[0], g.out[0], g.pad[0], g.str[0], g.dil[0], fd, od_lo, od_hi);
            ValidRange(g.in[1], g.out[1], g.pad[1], g.str[1], g.dil[1], fh, oh_lo, oh_hi);
            ValidRange(g.in[2], g.out[2], g.pad[2], g.str[2], g.dil[2], fw, ow_lo, ow_hi);
            const long sx = g.str[2] * g.xs[4];
            for(long od = od_lo; od < od_hi; ++od)
            {
                const long id = od * g.str[0] - g.pad[0] + fd * g.dil[0];
                for(long oh = oh_lo; oh < oh_hi; ++oh)
                {
                    const long ih = oh * g.str[1] - g.pad[1] + fh * g.dil[1];
                    float* xr = xc + id * g.xs[2] + ih * g.xs[3] + (fw * g.dil[2] - g.pad[2]) * g.xs[4];
                    const float* o = row + (od * g.out[1] + oh) * g.out[2];
                    for(long ow = ow_lo; ow < ow_hi; ++ow)
                        xr[ow * sx] += o[ow];
                }
            }
        }
    }
}

void ConvBwdDataGemm1x1(const ConvGeometry& g, float* dx, float* w, float* dy, float* /*col*/)
{
    const GemmViews v{g};
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
            SgemmParallel(true, false, g.cpg, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                          v.Y(dy, n, grp), g.ys[1], 0.0f, v.X(dx, n, grp), g.xs[1]);
}

void ConvBwdDataGemm1x1Strided(const ConvGeometry& g, float* dx, float* w, float* dy, float* col)
{
    const GemmViews v{g};
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
        {
            SgemmParallel(true, false, g.cpg, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                          v.Y(dy, n, grp), g.ys[1], 0.0f, col, v.os());
            Col2Im(g, col, n, grp, dx);
        }
}

void ConvBwdDataGemm(const ConvGeometry& g, float* dx, float* w, float* dy, float* col)
{
    const GemmViews v{g};
    const long rows = ColRows(g);
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
        {
            SgemmParallel(true, false, rows, v.os(), g.kpg, 1.0f, v.W(w, grp), g.ws[0],
                          v.Y(dy, n, grp), g.ys[1], 0.0f, col, v.os());
            Col2Im(g, col, n, grp, dx);
        }
}

void ConvFwdGemm1x1(const ConvGeometry& g, float* x, float* w, float* y, float* /*col*/)
{
    const GemmViews v{g};
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
            SgemmParallel(false, false, g.kpg, v.os(), g.cpg, 1.0f, v.W(w, grp), g.ws[0],
                          v.X(x, n, grp), g.xs[1], 0.0f, v.Y(y, n, grp), g.ys[1]);
}

void ConvFwdGemm1x1Strided(const ConvGeometry& g, float* x, float* w, float* y, float* col)
{
    const GemmViews v{g};
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
        {
            Im2Col(g, x, n, grp, col);
            SgemmParallel(false, false, g.kpg, v.os(), g.cpg, 1.0f, v.W(w, grp), g.ws[0], col,
                          v.os(), 0.0f, v.Y(y, n, grp), g.ys[1]);
        }
}

void ConvFwdGemm(const ConvGeometry& g, float* x, float* w, float* y, float* col)
{
    const GemmViews v{g};
    const long rows = ColRows(g);
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
        {
            Im2Col(g, x, n, grp, col);
            SgemmParallel(false, false, g.kpg, v.os(), rows, 1.0f, v.W(w, grp), g.ws[0], col,
                          v.os(), 0.0f, v.Y(y, n, grp), g.ys[1]);
        }
}

void ConvBwdWeightsGemm1x1(const ConvGeometry& g, float* x, float* dw, float* dy, float* /*col*/)
{
    const GemmViews v{g};
    for(long grp = 0; grp < g.g; ++grp)
        for(long n = 0; n < g.n; ++n)
            SgemmParallel(false, true, g.kpg, g.cpg, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1],
                          v.X(x, n, grp), g.xs[1], n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
}

void ConvBwdWeightsGemm(const ConvGeometry& g, float* x, float* dw, float* dy, float* col)
{
    const GemmViews v{g};
    const long rows = ColRows(g);
    for(long grp = 0; grp < g.g; ++grp)
        for(long n = 0; n < g.n; ++n)
        {
            Im2Col(g, x, n, grp, col);
            SgemmParallel(false, true, g.kpg, rows, v.os(), 1.0f, v.Y(dy, n, grp), g.ys[1], col,
                          v.os(), n == 0 ? 0.0f : 1.0f, v.W(dw, grp), g.ws[0]);
        }
}

// ---- channels-last 1x1 -------------------------------------------------------------------------

namespace {

long NhwcPixels(const ConvGeometry& g) { return g.n * g.out[0] * g.out[1] * g.out[2]; }

/// Element offset of input position (id, ih, iw) of image n, channel 0.
long NhwcAt(const ConvGeometry& g, long n, long id, long ih, long iw)
{
    return n * g.xs[0] + id * g.xs[2] + ih * g.xs[3] + iw * g.xs[4];
}

} // namespace

void ConvFwdGemm1x1Nhwc(const ConvGeometry& g, float* x, float* w, float* y, float* /*col*/)
{
    const int p = static_cast<int>(NhwcPixels(g));
    for(long grp = 0; grp < g.g; ++grp)
        SgemmParallel(false, true, p, g.kpg, g.cpg, 1.0f, x + grp * g.cpg, g.c, w + grp * g.kpg * g.ws[0],
                      g.ws[0], 0.0f, y + grp * g.kpg, g.k);
}

/// col[o][c] = x[n][o * stride][grp * Cg + c]: the subsampled x of image n and group grp.
static void GatherNhwc(const ConvGeometry& g, const float* x, long n, long grp, float* col)
{
    float* dst = col;
    for(long od = 0; od < g.out[0]; ++od)
        for(long oh = 0; oh < g.out[1]; ++oh)
            for(long ow = 0; ow < g.out[2]; ++ow, dst += g.cpg)
            {
                const float* src = x + NhwcAt(g, n, od * g.str[0], oh * g.str[1], ow * g.str[2]) + grp * g.cpg;
                std::copy(src, src + g.cpg, dst);
            }
}

void ConvFwdGemm1x1StridedNhwc(const ConvGeometry& g, float* x, float* w, float* y, float* col)
{
    const long os = g.out[0] * g.out[1] * g.out[2];
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
        {
            GatherNhwc(g, x, n, grp, col);
            SgemmParallel(false, true, os, g.kpg, g.cpg, 1.0f, col, g.cpg, w + grp * g.kpg * g.ws[0], g.ws[0],
                          0.0f, y + n * g.ys[0] + grp * g.kpg, g.k);
        }
}

void ConvBwdDataGemm1x1Nhwc(const ConvGeometry& g, float* dx, float* w, float* dy, float* /*col*/)
{
    const int p = static_cast<int>(NhwcPixels(g));
    for(long grp = 0; grp < g.g; ++grp)
        SgemmParallel(false, false, p, g.cpg, g.kpg, 1.0f, dy + grp * g.kpg, g.k, w + grp * g.kpg * g.ws[0],
                      g.ws[0], 0.0f, dx + grp * g.cpg, g.c);
}

void ConvBwdDataGemm1x1StridedNhwc(const ConvGeometry& g, float* dx, float* w, float* dy, float* col)
{
    const long os = g.out[0] * g.out[1] * g.out[2];
    for(long n = 0; n < g.n; ++n)
        for(long grp = 0; grp < g.g; ++grp)
        {
            SgemmParallel(false, false, os, g.cpg, g.kpg, 1.0f, dy + n * g.ys[0] + grp * g.kpg, g.k,
                          w + grp * g.kpg * g.ws[0], g.ws[0], 0.0f, col, g.cpg);
            // dx[n][i][grp * Cg + c] = col[i / stride][c] on the stride grid, else 0.
            for(long id = 0; id < g.in[0]; ++id)
                for(long ih = 0; ih < g.in[1]; ++ih)
                    for(long iw = 0; iw < g.in[2]; ++iw)
                    {
                        float* dst = dx + NhwcAt(g, n, id, ih, iw) + grp * g.cpg;
                        if(id % g.str[0] == 0 && ih % g.str[1] == 0 && iw % g.str[2] == 0)
                        {
                            const long o = ((id / g.str[0]) * g.out[1] + ih / g.str[1]) * g.out[2] + iw / g.str[2];
                            std::copy(col + o * g.cpg, col + (o + 1) * g.cpg, dst);
                        }
                        else
                            std::fill(dst, dst + g.cpg, 0.0f);
                    }
        }
}

void ConvBwdWeightsGemm1x1Nhwc(const ConvGeometry& g, float* x, float* dw, float* dy, float* /*col*/)
{
    const int p = static_cast<int>(NhwcPixels(g));
    for(long grp = 0; grp < g.g; ++grp)
        SgemmParallel(true, false, g.kpg, g.cpg, p, 1.0f, dy + grp * g.kpg, g.k, x + grp * g.cpg, g.c, 0.0f,
                      dw + grp * g.kpg * g.ws[0], g.ws[0]);
}

void ConvBwdWeightsGemm1x1StridedNhwc(const ConvGeometry& g, float* x, float* dw, float* dy, float* col)
{
    const long os = g.out[0] * g.out[1] * g.out[2];
    for(long grp = 0; grp < g.g; ++grp)
        for(long n = 0; n < g.n; ++n)
        {
            GatherNhwc(g, x, n, grp, col);
            SgemmParallel(true, false, g.kpg, g.cpg, os, 1.0f, dy + n * g.ys[0] + grp * g.kpg, g.k, col, g.cpg,
                          n == 0 ? 0.0f : 1.0f, dw + grp * g.kpg * g.ws[0], g.ws[0]);
        }
}

} // namespace miopen::cpu
