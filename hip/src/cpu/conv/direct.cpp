// Direct convolution on the CPU for any geometry and any tensor strides: the universal fallback
// solvers' kernels and the reference the faster solvers are tested against. Each output element
// is written by exactly one thread (forward: per (n, k) plane; backward data: per (n, c) plane,
// scattering into a private accumulator; backward weights: per (k, c) filter, summing over n and
// the output positions in double), so results are deterministic. Templated on the storage type
// (float, Half, BFloat16): values are read into fp32, accumulated in fp32 (backward weights: fp32
// rows summed in double), and each result is rounded once to the storage type.
#include "cpu/conv/direct.hpp"

#include "core/storage.hpp"

#include <algorithm>
#include <vector>

namespace miopen::cpu {
namespace {

/// One filter tap (fd, fh, fw) and the output positions it reaches inside the input: od in
/// [od_lo, od_hi), oh in [oh_lo, oh_hi), ow in [ow_lo, ow_hi).
struct Tap
{
    long fd, fh, fw;
    long od_lo, od_hi, oh_lo, oh_hi, ow_lo, ow_hi;
};

/// f(tap) for every filter tap, in (fd, fh, fw) order: the loop nest the three directions share.
template <class F>
void ForEachTap(const ConvGeometry& g, F f)
{
    Tap t;
    for(t.fd = 0; t.fd < g.fil[0]; ++t.fd)
    {
        ValidRange(g.in[0], g.out[0], g.pad[0], g.str[0], g.dil[0], t.fd, t.od_lo, t.od_hi);
        for(t.fh = 0; t.fh < g.fil[1]; ++t.fh)
        {
            ValidRange(g.in[1], g.out[1], g.pad[1], g.str[1], g.dil[1], t.fh, t.oh_lo, t.oh_hi);
            for(t.fw = 0; t.fw < g.fil[2]; ++t.fw)
            {
                ValidRange(g.in[2], g.out[2], g.pad[2], g.str[2], g.dil[2], t.fw, t.ow_lo, t.ow_hi);
                f(static_cast<const Tap&>(t));
            }
        }
    }
}

/// f(od, oh, id, ih) for every output row (od, oh) that tap t reaches, with the input row (id, ih)
/// it reads, in (od, oh) order.
template <class F>
void ForEachRow(const ConvGeometry& g, const Tap& t, F f)
{
    for(long od = t.od_lo; od < t.od_hi; ++od)
    {
        const long id = od * g.str[0] - g.pad[0] + t.fd * g.dil[0];
        for(long oh = t.oh_lo; oh < t.oh_hi; ++oh)
            f(od, oh, id, oh * g.str[1] - g.pad[1] + t.fh * g.dil[1]);
    }
}

/// The filter offset of tap t in w (or dw).
long WOffset(const ConvGeometry& g, const Tap& t) { return t.fd * g.ws[2] + t.fh * g.ws[3] + t.fw * g.ws[4]; }

} // namespace

template <class T>
void ConvFwdDirect(const ConvGeometry& g, const T* x, const T* w, T* y)
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
                const T* xc = x + n * g.xs[0] + c * g.xs[1];
                const T* wkc = w + k * g.ws[0] + cl * g.ws[1];
                ForEachTap(g, [&](const Tap& t) {
                    const float wv = ToFloat(wkc[WOffset(g, t)]);
                    ForEachRow(g, t, [&](long od, long oh, long id, long ih) {
                        const T* xr = xc + id * g.xs[2] + ih * g.xs[3] + (t.fw * g.dil[2] - g.pad[2]) * g.xs[4];
                        float* ar = acc.data() + (od * g.out[1] + oh) * g.out[2];
                        const long sx = g.str[2] * g.xs[4];
#pragma omp simd
                        for(long ow = t.ow_lo; ow < t.ow_hi; ++ow)
                            ar[ow] += wv * ToFloat(xr[ow * sx]);
                    });
                });
            }
            T* yp = y + n * g.ys[0] + k * g.ys[1];
            for(long od = 0; od < g.out[0]; ++od)
                for(long oh = 0; oh < g.out[1]; ++oh)
                {
                    const float* ar = acc.data() + (od * g.out[1] + oh) * g.out[2];
                    T* yr = yp + od * g.ys[2] + oh * g.ys[3];
                    for(long ow = 0; ow < g.out[2]; ++ow)
                        yr[ow * g.ys[4]] = FloatTo<T>(ar[ow]);
                }
        }
    }
}

template <class T>
void ConvBwdDataDirect(const ConvGeometry& g, T* dx, const T* w, const T* dy)
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
                const T* dyk = dy + n * g.ys[0] + k * g.ys[1];
                const T* wkc = w + k * g.ws[0] + cl * g.ws[1];
                ForEachTap(g, [&](const Tap& t) {
                    const float wv = ToFloat(wkc[WOffset(g, t)]);
                    ForEachRow(g, t, [&](long od, long oh, long id, long ih) {
                        const T* dyr = dyk + od * g.ys[2] + oh * g.ys[3];
                        float* ar = acc.data() + (id * g.in[1] + ih) * g.in[2] + (t.fw * g.dil[2] - g.pad[2]);
                        for(long ow = t.ow_lo; ow < t.ow_hi; ++ow)
                            ar[ow * g.str[2]] += wv * ToFloat(dyr[ow * g.ys[4]]);
                    });
                });
            }
            T* xp = dx + n * g.xs[0] + c * g.xs[1];
            for(long id = 0; id < g.in[0]; ++id)
                for(long ih = 0; ih < g.in[1]; ++ih)
                {
                    const float* ar = acc.data() + (id * g.in[1] + ih) * g.in[2];
                    T* xr = xp + id * g.xs[2] + ih * g.xs[3];
                    for(long iw = 0; iw < g.in[2]; ++iw)
                        xr[iw * g.xs[4]] = FloatTo<T>(ar[iw]);
                }
        }
    }
}

template <class T>
void ConvBwdWeightsDirect(const ConvGeometry& g, const T* x, T* dw, const T* dy)
{
    const long filters = g.k * g.cpg;
    const long fil_sp = g.fil[0] * g.fil[1] * g.fil[2];
#pragma omp parallel
    {
        std::vector<double> acc(fil_sp);
#pragma omp for schedule(dynamic, 1)
        for(long kc = 0; kc < filters; ++kc)
        {
            const long k = kc / g.cpg, cl = kc % g.cpg, grp = k / g.kpg;
            const long c = grp * g.cpg + cl;
            std::fill(acc.begin(), acc.end(), 0.0);
            for(long n = 0; n < g.n; ++n)
            {
                const T* xc = x + n * g.xs[0] + c * g.xs[1];
                const T* dyk = dy + n * g.ys[0] + k * g.ys[1];
                ForEachTap(g, [&](const Tap& t) {
                    double sum = 0.0;
                    ForEachRow(g, t, [&](long od, long oh, long id, long ih) {
                        const T* xr = xc + id * g.xs[2] + ih * g.xs[3] + (t.fw * g.dil[2] - g.pad[2]) * g.xs[4];
                        const T* dyr = dyk + od * g.ys[2] + oh * g.ys[3];
                        const long sx = g.str[2] * g.xs[4];
                        float part = 0.0f;   // one output row: short, float is exact enough
#pragma omp simd reduction(+ : part)
                        for(long ow = t.ow_lo; ow < t.ow_hi; ++ow)
                            part += ToFloat(dyr[ow * g.ys[4]]) * ToFloat(xr[ow * sx]);
                        sum += part;
                    });
                    acc[(t.fd * g.fil[1] + t.fh) * g.fil[2] + t.fw] += sum;
                });
            }
            T* wp = dw + k * g.ws[0] + cl * g.ws[1];
            ForEachTap(g, [&](const Tap& t) {
                wp[WOffset(g, t)] = FloatTo<T>(static_cast<float>(acc[(t.fd * g.fil[1] + t.fh) * g.fil[2] + t.fw]));
            });
        }
    }
}

#define MIOPEN_CY_CONV_DIRECT(T)                                                    \
    template void ConvFwdDirect<T>(const ConvGeometry&, const T*, const T*, T*);    \
    template void ConvBwdDataDirect<T>(const ConvGeometry&, T*, const T*, const T*); \
    template void ConvBwdWeightsDirect<T>(const ConvGeometry&, const T*, T*, const T*);
MIOPEN_CY_CONV_DIRECT(float)
MIOPEN_CY_CONV_DIRECT(Half)
MIOPEN_CY_CONV_DIRECT(BFloat16)
#undef MIOPEN_CY_CONV_DIRECT

} // namespace miopen::cpu
