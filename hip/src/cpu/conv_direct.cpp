// Direct convolution on the CPU for any geometry and any tensor strides: the universal fallback
// solvers' kernels and the reference the faster solvers are tested against. Each output element
// is written by exactly one thread (forward: per (n, k) plane; backward data: per (n, c) plane,
// scattering into a private accumulator; backward weights: per (k, c) filter, summing over n and
// the output positions in double), so results are deterministic.
#include "cpu/conv_direct.hpp"

#include <algorithm>
#include <vector>

namespace miopen::cpu {
void ConvFwdDirect(const ConvGeometry& g, const float* x, const float* w, float* y)
{
    const long planes = g.n * g.k;
    const long out_sp = g.out[0] * g.out[1] * g.out[2];
#pragma omp parallel
    {
        std::vector<float> acc(out_sp);
#pragma omp for schedule(dynamic, 1)
        for(long nk = 0; nk < planes; ++nk)
        {
            const long n = nk / g.k, k = nk % g.k, grp = k / g.kpg;
            std::fill(acc.begin(), acc.end(), 0.0f);
            for(long cl = 0; cl < g.cpg; ++cl)
            {
                const long c = grp * g.cpg + cl;
                const float* xc = x + n * g.xs[0] + c * g.xs[1];
                const float* wkc = w + k * g.ws[0] + cl * g.ws[1];
                for(long fd = 0; fd < g.fil[0]; ++fd)
                {
                    long od_lo, od_hi;
                    ValidRange(g.in[0], g.out[0], g.pad[0], g.str[0], g.dil[0], fd, od_lo, od_hi);
                    for(long fh = 0; fh < g.fil[1]; ++fh)
                    {
                        long oh_lo, oh_hi;
                        ValidRange(g.in[1], g.out[1], g.pad[1], g.str[1], g.dil[1], fh, oh_lo, oh_hi);
                        for(long fw = 0; fw < g.fil[2]; ++fw)
                        {
                            long ow_lo, ow_hi;
                            ValidRange(g.in[2], g.out[2], g.pad[2], g.str[2], g.dil[2], fw, ow_lo, ow_hi);
                            const float wv = wkc[fd * g.ws[2] + fh * g.ws[3] + fw * g.ws[4]];
                            for(long od = od_lo; od < od_hi; ++od)
                            {
                                const long id = od * g.str[0] - g.pad[0] + fd * g.dil[0];
                                for(long oh = oh_lo; oh < oh_hi; ++oh)
                                {
                                    const long ih = oh * g.str[1] - g.pad[1] + fh * g.dil[1];
                                    const float* xr = xc + id * g.xs[2] + ih * g.xs[3] +
                                                      (fw * g.dil[2] - g.pad[2]) * g.xs[4];
                                    float* ar = acc.data() + (od * g.out[1] + oh) * g.out[2];
                                    const long sx = g.str[2] * g.xs[4];
#pragma omp simd
                                    for(long ow = ow_lo; ow < ow_hi; ++ow)
                                        ar[ow] += wv * xr[ow * sx];
                                }
                            }
                        }
                    }
                }
            }
            float* yp = y + n * g.ys[0] + k * g.ys[1];
            for(long od = 0; od < g.out[0]; ++od)
                for(long oh = 0; oh < g.out[1]; ++oh)
                {
                    const float* ar = acc.data() + (od * g.out[1] + oh) * g.out[2];
                    float* yr = yp + od * g.ys[2] + oh * g.ys[3];
                    for(long ow = 0; ow < g.out[2]; ++ow)
                        yr[ow * g.ys[4]] = ar[ow];
                }
        }
    }
}

void ConvBwdDataDirect(const ConvGeometry& g, float* dx, const float* w, const float* dy)
{
    const long planes = g.n * g.c;
    const long in_sp = g.in[0] * g.in[1] * g.in[2];
#pragma omp parallel
    {
        std::vector<float> acc(in_sp);
#pragma omp for schedule(dynamic, 1)
        for(long nc = 0; nc < planes; ++nc)
        {
            const long n = nc / g.c, c = nc % g.c, grp = c / g.cpg, cl = c % g.cpg;
            std::fill(acc.begin(), acc.end(), 0.0f);
            for(long kl = 0; kl < g.kpg; ++kl)
            {
                const long k = grp * g.kpg + kl;
                const float* dyk = dy + n * g.ys[0] + k * g.ys[1];
                const float* wkc = w + k * g.ws[0] + cl * g.ws[1];
                for(long fd = 0; fd < g.fil[0]; ++fd)
                {
                    long od_lo, od_hi;
                    ValidRange(g.in[0], g.out[0], g.pad[0], g.str[0], g.dil[0], fd, od_lo, od_hi);
                    for(long fh = 0; fh < g.fil[1]; ++fh)
                    {
                        long oh_lo, oh_hi;
                        ValidRange(g.in[1], g.out[1], g.pad[1], g.str[1], g.dil[1], fh, oh_lo, oh_hi);
                        for(long fw = 0; fw < g.fil[2]; ++fw)
                        {
                            long ow_lo, ow_hi;
                            ValidRange(g.in[2], g.out[2], g.pad[2], g.str[2], g.dil[2], fw, ow_lo, ow_hi);
                            const float wv = wkc[fd * g.ws[2] + fh * g.ws[3] + fw * g.ws[4]];
                            for(long od = od_lo; od < od_hi; ++od)
                            {
                                const long id = od * g.str[0] - g.pad[0] + fd * g.dil[0];
                                for(long oh = oh_lo; oh < oh_hi; ++oh)
                                {
                                    const long ih = oh * g.str[1] - g.pad[1] + fh * g.dil[1];
                                    const float* dyr = dyk + od * g.ys[2] + oh * g.ys[3];
                                    float* ar = acc.data() + (id * g.in[1] + ih) * g.in[2] +
                                                (fw * g.dil[2] - g.pad[2]);
                                    for(long ow = ow_lo; ow < ow_hi; ++ow)
                                        ar[ow * g.str[2]] += wv * dyr[ow * g.ys[4]];
                                }
                            }
                        }
                    }
                }
            }
            float* xp = dx + n * g.xs[0] + c * g.xs[1];
            for(long id = 0; id < g.in[0]; ++id)
                for(long ih = 0; ih < g.in[1]; ++ih)
                {
                    const float* ar = acc.data() + (id * g.in[1] + ih) * g.in[2];
                    float* xr = xp + id * g.xs[2] + ih * g.xs[3];
                    for(long iw = 0; iw < g.in[2]; ++iw)
                        xr[iw * g.xs[4]] = ar[iw];
                }
        }
    }
}

void ConvBwdWeightsDirect(const ConvGeometry& g, const float* x, float* dw, const float* dy)
{
    const long filters = g.k * g.cpg;
    const long fil_sp = g.fil[0] * g.fil[1] * g.fil[2];
#pragma omp parallel
    {
        std::vector<double> acc(fil_sp);
        std::vector<double> row;
#pragma omp for schedule(dynamic, 1)
        for(long kc = 0; kc < filters; ++kc)
        {
            const long k = kc / g.cpg, cl = kc % g.cpg, grp = k / g.kpg;
            const long c = grp * g.cpg + cl;
            std::fill(acc.begin(), acc.end(), 0.0);
            for(long n = 0; n < g.n; ++n)
            {
                const float* xc = x + n * g.xs[0] + c * g.xs[1];
                const float* dyk = dy + n * g.ys[0] + k * g.ys[1];
                for(long fd = 0; fd < g.fil[0]; ++fd)
                {
                    long od_lo, od_hi;
                    ValidRange(g.in[0], g.out[0], g.pad[0], g.str[0], g.dil[0], fd, od_lo, od_hi);
                    for(long fh = 0; fh < g.fil[1]; ++fh)
                    {
                        long oh_lo, oh_hi;
                        ValidRange(g.in[1], g.out[1], g.pad[1], g.str[1], g.dil[1], fh, oh_lo, oh_hi);
                        for(long fw = 0; fw < g.fil[2]; ++fw)
                        {
                            long ow_lo, ow_hi;
                            ValidRange(g.in[2], g.out[2], g.pad[2], g.str[2], g.dil[2], fw, ow_lo, ow_hi);
                            double sum = 0.0;
                            for(long od = od_lo; od < od_hi; ++od)
                            {
                                const long id = od * g.str[0] - g.pad[0] + fd * g.dil[0];
                                for(long oh = oh_lo; oh < oh_hi; ++oh)
                                {
                                    const long ih = oh * g.str[1] - g.pad[1] + fh * g.dil[1];
                                    const float* xr = xc + id * g.xs[2] + ih * g.xs[3] +
                                                      (fw * g.dil[2] - g.pad[2]) * g.xs[4];
                                    const float* dyr = dyk + od * g.ys[2] + oh * g.ys[3];
                                    const long sx = g.str[2] * g.xs[4];
                                    float part = 0.0f;   // one output row: short, float is exact enough
#pragma omp simd reduction(+ : part)
                                    for(long ow = ow_lo; ow < ow_hi; ++ow)
                                        part += dyr[ow * g.ys[4]] * xr[ow * sx];
                                    sum += part;
                                }
                            }
                            acc[(fd * g.fil[1] + fh) * g.fil[2] + fw] += sum;
                        }
                    }
                }
            }
            float* wp = dw + k * g.ws[0] + cl * g.ws[1];
            for(long fd = 0; fd < g.fil[0]; ++fd)
                for(long fh = 0; fh < g.fil[1]; ++fh)
                    for(long fw = 0; fw < g.fil[2]; ++fw)
                        wp[fd * g.ws[2] + fh * g.ws[3] + fw * g.ws[4]] =
                            static_cast<float>(acc[(fd * g.fil[1] + fh) * g.fil[2] + fw]);
        }
    }
}

} // namespace miopen::cpu
