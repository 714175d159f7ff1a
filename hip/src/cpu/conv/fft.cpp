// FFT convolution (see fft.hpp). Layouts, per group of G items (an item is one tile of one
// channel, or one filter), complex numbers split into real and imaginary float arrays:
//   rows stage  A[c][r][p]  (n2 x n1 x G/2): items 2p and 2p+1 packed as one complex signal, so
//               one complex FFT along c gives the row spectra of two real signals;
//   cols stage  B[r][k][g]  (n1 x (n2/2+1) x G): half row spectra, FFT along r;
//   spectra     S[bin][item] interleaved complex (bin = r * (n2/2+1) + k): one matrix per bin for
//               cgemm, [tile][channel] row-major, so an item index is tile * channels + channel.
// The 1-d FFT is a Stockham autosort FFT (radices 4, 2, 3, 5) over L lanes stored contiguously,
// so every butterfly loop runs over s * L contiguous floats and vectorises.
#include "cpu/conv/fft.hpp"

#include "cpu/blas.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include <omp.h>

namespace miopen::cpu {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// One 1-d complex FFT of length n, sign -1 (forward) or +1 (inverse, unscaled).
class Fft1d
{
public:
    Fft1d(long n, int sign) : n_(n), sign_(static_cast<float>(sign))
    {
        long rest = n;
        for(const int f : {4, 2, 3, 5})
            while(rest % f == 0)
            {
                radix_.push_back(f);
                rest /= f;
            }
        // n = 2 * 4^a: one radix 2 then the 4s works too; the loop above already takes 4s first.
        long len = n;
        for(const int p : radix_)
        {
            const long m = len / p;
            std::vector<float> tr(static_cast<size_t>(m * p)), ti(tr.size());
            for(long q = 0; q < m; ++q)
                for(int k = 0; k < p; ++k)
                {
                    const double a = sign * 2.0 * kPi * static_cast<double>(q * k) / static_cast<double>(len);
                    tr[q * p + k] = static_cast<float>(std::cos(a));
                    ti[q * p + k] = static_cast<float>(std::sin(a));
                }
            twr_.push_back(std::move(tr));
            twi_.push_back(std::move(ti));
            len = m;
        }
    }

    /// Transforms L signals stored as [n][L] in (ar, ai), using (br, bi) as scratch. Returns
    /// true when the result is in (br, bi), false when in (ar, ai).
    bool Run(float* ar, float* ai, float* br, float* bi, long lanes) const
    {
        long len = n_, s = 1;
        bool in_b = false;
        for(size_t st = 0; st < radix_.size(); ++st)
        {
            const int p = radix_[st];
            const long m = len / p;
            const float* xr = in_b ? br : ar;
            const float* xi = in_b ? bi : ai;
            float* yr = in_b ? ar : br;
            float* yi = in_b ? ai : bi;
            const float* tr = twr_[st].data();
            const float* ti = twi_[st].data();
            switch(p)
            {
            case 4: Stage4(xr, xi, yr, yi, m, s * lanes, tr, ti); break;
            case 2: Stage2(xr, xi, yr, yi, m, s * lanes, tr, ti); break;
            case 3: Stage3(xr, xi, yr, yi, m, s * lanes, tr, ti); break;
            default: Stage5(xr, xi, yr, yi, m, s * lanes, tr, ti); break;
            }
            in_b = !in_b;
            len = m;
            s *= p;
        }
        return in_b;
    }

private:
    // One Stockham stage: inputs x[(q + j m) * sl + e], outputs y[(P q + k) * sl + e] =
    // (sum_j x_j w_P^{jk}) * w_len^{qk}, for q < m, e < sl.
    static void Twiddle(float& re, float& im, float wr, float wi)
    {
        const float t = re * wr - im * wi;
        im = re * wi + im * wr;
        re = t;
    }

    void Stage2(const float* xr, const float* xi, float* yr, float* yi, long m, long sl, const float* tr,
                const float* ti) const
    {
        for(long q = 0; q < m; ++q)
        {
            const float* __restrict a0r = xr + q * sl;
            const float* __restrict a0i = xi + q * sl;
            const float* __restrict a1r = xr + (q + m) * sl;
            const float* __restrict a1i = xi + (q + m) * sl;
            float* __restrict c0r = yr + 2 * q * sl;
            float* __restrict c0i = yi + 2 * q * sl;
            float* __restrict c1r = c0r + sl;
            float* __restrict c1i = c0i + sl;
            const float w1r = tr[2 * q + 1], w1i = ti[2 * q + 1];
#pragma omp simd
            for(long e = 0; e < sl; ++e)
            {
                c0r[e] = a0r[e] + a1r[e];
                c0i[e] = a0i[e] + a1i[e];
                float dr = a0r[e] - a1r[e], di = a0i[e] - a1i[e];
                Twiddle(dr, di, w1r, w1i);
                c1r[e] = dr;
                c1i[e] = di;
            }
        }
    }

    void Stage4(const float* xr, const float* xi, float* yr, float* yi, long m, long sl, const float* tr,
                const float* ti) const
    {
        const float sg = sign_;
        for(long q = 0; q < m; ++q)
        {
            const float* __restrict a0r = xr + q * sl;
            const float* __restrict a0i = xi + q * sl;
            const float* __restrict a1r = xr + (q + m) * sl;
            const float* __restrict a1i = xi + (q + m) * sl;
            const float* __restrict a2r = xr + (q + 2 * m) * sl;
            const float* __restrict a2i = xi + (q + 2 * m) * sl;
            const float* __restrict a3r = xr + (q + 3 * m) * sl;
            const float* __restrict a3i = xi + (q + 3 * m) * sl;
            float* __restrict c0r = yr + 4 * q * sl;
            float* __restrict c0i = yi + 4 * q * sl;
            float* __restrict c1r = c0r + sl;
            float* __restrict c1i = c0i + sl;
            float* __restrict c2r = c1r + sl;
            float* __restrict c2i = c1i + sl;
            float* __restrict c3r = c2r + sl;
            float* __restrict c3i = c2i + sl;
            const float w1r = tr[4 * q + 1], w1i = ti[4 * q + 1];
            const float w2r = tr[4 * q + 2], w2i = ti[4 * q + 2];
            const float w3r = tr[4 * q + 3], w3i = ti[4 * q + 3];
#pragma omp simd
            for(long e = 0; e < sl; ++e)
            {
                const float s02r = a0r[e] + a2r[e], s02i = a0i[e] + a2i[e];
                const float d02r = a0r[e] - a2r[e], d02i = a0i[e] - a2i[e];
                const float s13r = a1r[e] + a3r[e], s13i = a1i[e] + a3i[e];
                const float d13r = a1r[e] - a3r[e], d13i = a1i[e] - a3i[e];
                // sign * i * d13
                const float jr = -sg * d13i, ji = sg * d13r;
                c0r[e] = s02r + s13r;
                c0i[e] = s02i + s13i;
                float b1r = d02r + jr, b1i = d02i + ji;
                float b2r = s02r - s13r, b2i = s02i - s13i;
                float b3r = d02r - jr, b3i = d02i - ji;
                Twiddle(b1r, b1i, w1r, w1i);
                Twiddle(b2r, b2i, w2r, w2i);
                Twiddle(b3r, b3i, w3r, w3i);
                c1r[e] = b1r;
                c1i[e] = b1i;
                c2r[e] = b2r;
                c2i[e] = b2i;
                c3r[e] = b3r;
                c3i[e] = b3i;
            }
        }
    }

    void Stage3(const float* xr, const float* xi, float* yr, float* yi, long m, long sl, const float* tr,
                const float* ti) const
    {
        const float h = sign_ * static_cast<float>(std::sqrt(3.0) / 2.0);
        for(long q = 0; q < m; ++q)
        {
            const float* __restrict a0r = xr + q * sl;
            const float* __restrict a0i = xi + q * sl;
            const float* __restrict a1r = xr + (q + m) * sl;
            const float* __restrict a1i = xi + (q + m) * sl;
            const float* __restrict a2r = xr + (q + 2 * m) * sl;
            const float* __restrict a2i = xi + (q + 2 * m) * sl;
            float* __restrict c0r = yr + 3 * q * sl;
            float* __restrict c0i = yi + 3 * q * sl;
            float* __restrict c1r = c0r + sl;
            float* __restrict c1i = c0i + sl;
            float* __restrict c2r = c1r + sl;
            float* __restrict c2i = c1i + sl;
            const float w1r = tr[3 * q + 1], w1i = ti[3 * q + 1];
            const float w2r = tr[3 * q + 2], w2i = ti[3 * q + 2];
#pragma omp simd
            for(long e = 0; e < sl; ++e)
            {
                const float tr_ = a1r[e] + a2r[e], ti_ = a1i[e] + a2i[e];
                const float ur = a1r[e] - a2r[e], ui = a1i[e] - a2i[e];
                const float mr = a0r[e] - 0.5f * tr_, mi = a0i[e] - 0.5f * ti_;
                // sign * i * (sqrt(3)/2) * u
                const float jr = -h * ui, ji = h * ur;
                c0r[e] = a0r[e] + tr_;
                c0i[e] = a0i[e] + ti_;
                float b1r = mr + jr, b1i = mi + ji;
                float b2r = mr - jr, b2i = mi - ji;
                Twiddle(b1r, b1i, w1r, w1i);
                Twiddle(b2r, b2i, w2r, w2i);
                c1r[e] = b1r;
                c1i[e] = b1i;
                c2r[e] = b2r;
                c2i[e] = b2i;
            }
        }
    }

    void Stage5(const float* xr, const float* xi, float* yr, float* yi, long m, long sl, const float* tr,
                const float* ti) const
    {
        const float c1 = static_cast<float>(std::cos(2.0 * kPi / 5.0));
        const float c2 = static_cast<float>(std::cos(4.0 * kPi / 5.0));
        const float s1 = sign_ * static_cast<float>(std::sin(2.0 * kPi / 5.0));
        const float s2 = sign_ * static_cast<float>(std::sin(4.0 * kPi / 5.0));
        for(long q = 0; q < m; ++q)
        {
            const float* __restrict a0r = xr + q * sl;
            const float* __restrict a0i = xi + q * sl;
            const float* __restrict a1r = xr + (q + m) * sl;
            const float* __restrict a1i = xi + (q + m) * sl;
            const float* __restrict a2r = xr + (q + 2 * m) * sl;
            const float* __restrict a2i = xi + (q + 2 * m) * sl;
            const float* __restrict a3r = xr + (q + 3 * m) * sl;
            const float* __restrict a3i = xi + (q + 3 * m) * sl;
            const float* __restrict a4r = xr + (q + 4 * m) * sl;
            const float* __restrict a4i = xi + (q + 4 * m) * sl;
            float* __restrict o0r = yr + 5 * q * sl;
            float* __restrict o0i = yi + 5 * q * sl;
            float* __restrict o1r = o0r + sl;
            float* __restrict o1i = o0i + sl;
            float* __restrict o2r = o1r + sl;
            float* __restrict o2i = o1i + sl;
            float* __restrict o3r = o2r + sl;
            float* __restrict o3i = o2i + sl;
            float* __restrict o4r = o3r + sl;
            float* __restrict o4i = o3i + sl;
            const float w1r = tr[5 * q + 1], w1i = ti[5 * q + 1];
            const float w2r = tr[5 * q + 2], w2i = ti[5 * q + 2];
            const float w3r = tr[5 * q + 3], w3i = ti[5 * q + 3];
            const float w4r = tr[5 * q + 4], w4i = ti[5 * q + 4];
#pragma omp simd
            for(long e = 0; e < sl; ++e)
            {
                const float t1r = a1r[e] + a4r[e], t1i = a1i[e] + a4i[e];
                const float t2r = a2r[e] + a3r[e], t2i = a2i[e] + a3i[e];
                const float u1r = a1r[e] - a4r[e], u1i = a1i[e] - a4i[e];
                const float u2r = a2r[e] - a3r[e], u2i = a2i[e] - a3i[e];
                const float m1r = a0r[e] + c1 * t1r + c2 * t2r, m1i = a0i[e] + c1 * t1i + c2 * t2i;
                const float m2r = a0r[e] + c2 * t1r + c1 * t2r, m2i = a0i[e] + c2 * t1i + c1 * t2i;
                // i * (s1 u1 + s2 u2) and i * (s2 u1 - s1 u2), signs folded into s1, s2
                const float n1r = s1 * u1r + s2 * u2r, n1i = s1 * u1i + s2 * u2i;
                const float n2r = s2 * u1r - s1 * u2r, n2i = s2 * u1i - s1 * u2i;
                o0r[e] = a0r[e] + t1r + t2r;
                o0i[e] = a0i[e] + t1i + t2i;
                float b1r = m1r - n1i, b1i = m1i + n1r;
                float b4r = m1r + n1i, b4i = m1i - n1r;
                float b2r = m2r - n2i, b2i = m2i + n2r;
                float b3r = m2r + n2i, b3i = m2i - n2r;
                Twiddle(b1r, b1i, w1r, w1i);
                Twiddle(b2r, b2i, w2r, w2i);
                Twiddle(b3r, b3i, w3r, w3i);
                Twiddle(b4r, b4i, w4r, w4i);
                o1r[e] = b1r;
                o1i[e] = b1i;
                o2r[e] = b2r;
                o2i[e] = b2i;
                o3r[e] = b3r;
                o3i[e] = b3i;
                o4r[e] = b4r;
                o4i[e] = b4i;
            }
        }
    }

    long n_;
    float sign_;
    std::vector<int> radix_;
    std::vector<std::vector<float>> twr_, twi_;
};

/// The 2-d real FFT of groups of G (even) real n1 x n2 items, and its inverse, with the
/// per-thread buffers of one group.
class Fft2d
{
public:
    Fft2d(long n1, long n2, long g)
        : n1_(n1), n2_(n2), k2_(n2 / 2 + 1), g_(g), pairs_(g / 2), row_f_(n2, -1), row_i_(n2, 1),
          col_f_(n1, -1), col_i_(n1, 1), a_(4 * static_cast<size_t>(n2 * n1 * pairs_)),
          b_(4 * static_cast<size_t>(n1 * k2_ * g))
    {
    }

    /// Lanes of the rows stage when only rows [0, rows) are (or are wanted) non-zero.
    long Lanes(long rows) const { return rows * pairs_; }
    /// Rows stage: the real input of item 2p (real part) and 2p+1 (imaginary part), row r,
    /// column c sits at ARe()[c * Lanes(rows) + r * pairs + p] (and AIm()).
    float* ARe() { return a_.data(); }
    float* AIm() { return a_.data() + a_.size() / 4; }
    /// Spectra: bin (r * k2 + k), item g at BRe()[bin * G + g].
    float* BRe() { return b_re_; }
    float* BIm() { return b_im_; }

    /// Forward: from the packed real items in A, of which rows >= `rows` are zero (so their row
    /// transforms are skipped), to the half spectra in B (BRe/BIm valid after).
    void Forward(long rows)
    {
        const long lanes = Lanes(rows), quarter = static_cast<long>(a_.size() / 4);
        float* ar = a_.data();
        float* ai = ar + quarter;
        float* a2r = ai + quarter;
        float* a2i = a2r + quarter;
        if(row_f_.Run(ar, ai, a2r, a2i, lanes))
        {
            std::swap(ar, a2r);
            std::swap(ai, a2i);
        }
        const long bq = static_cast<long>(b_.size() / 4), kg = k2_ * g_;
        float* br = b_.data();
        float* bi = br + bq;
        float* b2r = bi + bq;
        float* b2i = b2r + bq;
        // Unpack two real signals from one complex spectrum Z: X_a[k] = (Z[k] + conj Z[-k]) / 2,
        // X_b[k] = (Z[k] - conj Z[-k]) / 2i.
        for(long k = 0; k < k2_; ++k)
        {
            const long nk = (n2_ - k) % n2_;
            const float* zr = ar + k * lanes;
            const float* zi = ai + k * lanes;
            const float* yr = ar + nk * lanes;
            const float* yi = ai + nk * lanes;
            for(long r = 0; r < rows; ++r)
            {
                float* outr = br + r * kg + k * g_;
                float* outi = bi + r * kg + k * g_;
                const long o = r * pairs_;
#pragma omp simd
                for(long p = 0; p < pairs_; ++p)
                {
                    const float zkr = zr[o + p], zki = zi[o + p], zmr = yr[o + p], zmi = yi[o + p];
                    outr[2 * p] = 0.5f * (zkr + zmr);
                    outi[2 * p] = 0.5f * (zki - zmi);
                    outr[2 * p + 1] = 0.5f * (zki + zmi);
                    outi[2 * p + 1] = -0.5f * (zkr - zmr);
                }
            }
        }
        std::fill(br + rows * kg, br + n1_ * kg, 0.0f);
        std::fill(bi + rows * kg, bi + n1_ * kg, 0.0f);
        if(col_f_.Run(br, bi, b2r, b2i, kg))
        {
            std::swap(br, b2r);
            std::swap(bi, b2i);
        }
        b_re_ = br;
        b_im_ = bi;
    }

    /// Where Inverse reads the spectra: fill these, then call Inverse.
    float* InRe() { return b_.data(); }
    float* InIm() { return b_.data() + b_.size() / 4; }

    /// Inverse (unscaled): from the half spectra at InRe/InIm to rows [0, rows) of the real
    /// items, item 2p in the real part and 2p+1 in the imaginary part of the returned A layout
    /// (OutRe/OutIm, Lanes(rows) lanes).
    void Inverse(long rows)
    {
        const long bq = static_cast<long>(b_.size() / 4), kg = k2_ * g_;
        float* br = b_.data();
        float* bi = br + bq;
        float* b2r = bi + bq;
        float* b2i = b2r + bq;
        if(col_i_.Run(br, bi, b2r, b2i, kg))
        {
            std::swap(br, b2r);
            std::swap(bi, b2i);
        }
        const long lanes = Lanes(rows), quarter = static_cast<long>(a_.size() / 4);
        float* ar = a_.data();
        float* ai = ar + quarter;
        float* a2r = ai + quarter;
        float* a2i = a2r + quarter;
        // Pack Z[c] = A[c] + i B[c] over the full row, A and B Hermitian (real rows).
        for(long c = 0; c < n2_; ++c)
        {
            const bool upper = c >= k2_;
            const long k = upper ? n2_ - c : c;
            const float conj = upper ? -1.0f : 1.0f;
            float* zr = ar + c * lanes;
            float* zi = ai + c * lanes;
            for(long r = 0; r < rows; ++r)
            {
                const float* inr = br + r * kg + k * g_;
                const float* ini = bi + r * kg + k * g_;
                const long o = r * pairs_;
#pragma omp simd
                for(long p = 0; p < pairs_; ++p)
                {
                    const float xar = inr[2 * p], xai = conj * ini[2 * p];
                    const float xbr = inr[2 * p + 1], xbi = conj * ini[2 * p + 1];
                    zr[o + p] = xar - xbi;
                    zi[o + p] = xai + xbr;
                }
            }
        }
        if(row_i_.Run(ar, ai, a2r, a2i, lanes))
        {
            std::swap(ar, a2r);
            std::swap(ai, a2i);
        }
        out_re_ = ar;
        out_im_ = ai;
    }
    const float* OutRe() const { return out_re_; }
    const float* OutIm() const { return out_im_; }

private:
    long n1_, n2_, k2_, g_, pairs_;
    Fft1d row_f_, row_i_, col_f_, col_i_;
    std::vector<float> a_, b_;   // two ping-pong buffers each, re and im
    float* b_re_ = nullptr;
    float* b_im_ = nullptr;
    const float* out_re_ = nullptr;
    const float* out_im_ = nullptr;
};

/// Items per group: enough lanes to vectorise, small enough to stay in L1/L2.
long GroupSize(long items, long most = 16)
{
    const long g = std::min<long>(most, items);
    return g + (g & 1);
}

/// Filters are transformed in larger groups: longer runs when their spectra are scattered.
constexpr long kFilterGroup = 32;

/// Sizes 2^a 3^b 5^c in [lo, hi].
std::vector<long> SmoothSizes(long lo, long hi)
{
    std::vector<long> out;
    for(long v = std::max<long>(lo, 2); v <= hi; ++v)
    {
        long r = v;
        for(const long f : {2, 3, 5})
            while(r % f == 0)
                r /= f;
        if(r == 1)
            out.push_back(v);
    }
    return out;
}

/// Tiles per chunk: at least this many rows in each bin's GEMM; pipelined chunks about this size.
constexpr long kMinChunkTiles = 16;
constexpr size_t kCacheChunkBytes = 256u << 10;
/// Pipelined chunks larger than this (many channels) would not stay in a thread's cache.
constexpr size_t kMaxThreadChunkBytes = 4u << 20;

long CeilDiv(long a, long b) { return (a + b - 1) / b; }

FftPlan PlanFor(const FftShape& s, long n1, long n2, size_t chunk_bytes)
{
    FftPlan p{};
    p.n1 = n1;
    p.n2 = n2;
    p.t1 = n1 - s.r + 1;
    p.t2 = n2 - s.s + 1;
    p.tiles_h = CeilDiv(s.oh, p.t1);
    p.tiles_w = CeilDiv(s.ow, p.t2);
    p.tiles = s.n * p.tiles_h * p.tiles_w;
    p.bins = n1 * (n2 / 2 + 1);
    const long per_tile = p.bins * (s.ic + s.oc);
    p.threads = omp_get_max_threads();
    p.filter_cfloats = p.bins * s.ic * s.oc;
    // Pipelined when there are enough cache-sized chunks to keep every thread busy.
    const long small = std::max<long>(kMinChunkTiles, static_cast<long>(kCacheChunkBytes / (8 * static_cast<size_t>(per_tile))));
    p.pipelined = p.threads > 1 && p.tiles >= 2L * p.threads * small &&
                  8u * static_cast<size_t>(per_tile * small) <= kMaxThreadChunkBytes;
    if(p.pipelined)
    {
        p.tiles_per_chunk = small;
        p.chunk_cfloats = per_tile * small * p.threads;
        return p;
    }
    const long fit = static_cast<long>(chunk_bytes / (8 * static_cast<size_t>(per_tile)));
    p.tiles_per_chunk = std::min(p.tiles, std::max<long>(fit, kMinChunkTiles));
    p.chunk_cfloats = per_tile * p.tiles_per_chunk;
    return p;
}

} // namespace

FftShape FftShape::Forward(const ConvGeometry& g)
{
    return {g.n, g.c, g.k, g.in[1], g.in[2], g.out[1], g.out[2], g.fil[1], g.fil[2], g.pad[1], g.pad[2], false};
}

FftShape FftShape::BackwardData(const ConvGeometry& g)
{
    return {g.n, g.k, g.c, g.out[1], g.out[2], g.in[1], g.in[2], g.fil[1], g.fil[2],
            g.fil[1] - 1 - g.pad[1], g.fil[2] - 1 - g.pad[2], true};
}

double FftPlanSeconds(const FftShape& s, const FftPlan& p)
{
    // In the units of the other CPU solvers' estimates (which assume both cores of this 2-core
    // AVX2 machine, about 3x a single thread's measured time): our FFT at ~20 GFLOP/s and cgemm
    // at ~25 GFLOP/s per thread, measured on a single thread, times 3. A real
    // n1 x n2 transform counts 2.5 n1 n2 log2(n1 n2) flops, a complex multiply-add 8.
    constexpr double kFftRate = 60e9, kGemmRate = 75e9, kBytesRate = 24e9;
    const double pts = static_cast<double>(p.n1) * p.n2;
    const double fft = 2.5 * pts * std::log2(pts);
    const double items = static_cast<double>(p.tiles) * (s.ic + s.oc);
    const double fft_s = fft * items / kFftRate;
    // cgemm with few rows (tiles per chunk) runs well below its peak (packing, edge blocks).
    const double rows = static_cast<double>(std::min(p.tiles, p.tiles_per_chunk));
    const double gemm_s = 8.0 * p.bins * static_cast<double>(p.tiles) * s.ic * s.oc / kGemmRate * (1.0 + 16.0 / rows);
    const double traffic_s = 4.0 * 8.0 * p.bins * items / kBytesRate;
    const double filter_s = fft * s.ic * s.oc / kFftRate + 8.0 * p.bins * s.ic * s.oc / kBytesRate;
    return fft_s + gemm_s + traffic_s + filter_s;
}

FftPlan MakeFftPlan(const FftShape& s, size_t chunk_bytes)
{
    // Tiles from just over the filter to just over the whole output (at most 128).
    const auto rows = SmoothSizes(s.r + 1, std::max(s.r + 1, std::min<long>(128, s.oh + s.r + 8)));
    const auto cols = SmoothSizes(s.s + 1, std::max(s.s + 1, std::min<long>(128, s.ow + s.s + 8)));
    FftPlan best{};
    double best_s = -1.0;
    for(const long n1 : rows)
        for(const long n2 : cols)
        {
            const FftPlan p = PlanFor(s, n1, n2, chunk_bytes);
            const bool fits = 8u * static_cast<size_t>(p.filter_cfloats) <= kFftMaxFilterBytes;
            const double t = FftPlanSeconds(s, p);
            const bool best_fits = best_s >= 0 && 8u * static_cast<size_t>(best.filter_cfloats) <= kFftMaxFilterBytes;
            if(best_s < 0 || (fits && !best_fits) || (fits == best_fits && t < best_s))
            {
                best = p;
                best_s = t;
            }
        }
    return best;
}

namespace {

using cf = std::complex<float>;

/// Input spectra of items [i0, i0 + G) of a chunk of nt tiles from t0 (item = tile * ic + channel),
/// into xspec[bin][item] (overlap-save: tile origin t * (t1, t2) - pad, zeros outside the image).
void ForwardGroup(const FftShape& s, const FftPlan& pl, Fft2d& fft, long g, const float* in, long t0, long nt,
                  long i0, cf* xspec)
{
    const long items = nt * s.ic, lanes = fft.Lanes(pl.n1), pairs = g / 2, n1 = pl.n1, n2 = pl.n2;
    const long hw = s.h * s.w;
    float* ar = fft.ARe();
    float* ai = fft.AIm();
    for(long j = 0; j < g; ++j)
    {
        float* dst = ((j & 1) ? ai : ar) + j / 2;
        if(i0 + j >= items)
        {
            for(long c = 0; c < n2; ++c)
                for(long r = 0; r < n1; ++r)
                    dst[c * lanes + r * pairs] = 0.0f;
            continue;
        }
        const long t = t0 + (i0 + j) / s.ic, ic = (i0 + j) % s.ic;
        const long img = t / (pl.tiles_h * pl.tiles_w);
        const long tt = t % (pl.tiles_h * pl.tiles_w);
        const long y0 = (tt / pl.tiles_w) * pl.t1 - s.pad_h;
        const long x0 = (tt % pl.tiles_w) * pl.t2 - s.pad_w;
        const float* src = in + (img * s.ic + ic) * hw;
        const long c_lo = std::clamp<long>(-x0, 0, n2), c_hi = std::clamp<long>(s.w - x0, c_lo, n2);
        for(long r = 0; r < n1; ++r)
        {
            const long y = y0 + r;
            float* d = dst + r * pairs;
            if(y < 0 || y >= s.h)
            {
                for(long c = 0; c < n2; ++c)
                    d[c * lanes] = 0.0f;
                continue;
            }
            const float* row = src + y * s.w;
            for(long c = 0; c < c_lo; ++c)
                d[c * lanes] = 0.0f;
            for(long c = c_lo; c < c_hi; ++c)
                d[c * lanes] = row[x0 + c];
            for(long c = c_hi; c < n2; ++c)
                d[c * lanes] = 0.0f;
        }
    }
    fft.Forward(n1);
    const float* br = fft.BRe();
    const float* bi = fft.BIm();
    const long cnt = std::min(g, items - i0);
    for(long b = 0; b < pl.bins; ++b)
    {
        cf* d = xspec + b * items + i0;
        for(long j = 0; j < cnt; ++j)
            d[j] = cf(br[b * g + j], bi[b * g + j]);
    }
}

/// Inverse transforms of items [i0, i0 + G) of a chunk (item = tile * oc + channel) from
/// yspec[bin][item]; each tile writes its alias-free t1 x t2 outputs.
void InverseGroup(const FftShape& s, const FftPlan& pl, Fft2d& fft, long g, const cf* yspec, long t0, long nt,
                  long i0, float* out)
{
    const long items = nt * s.oc, lanes = fft.Lanes(pl.t1), pairs = g / 2;
    const long ohw = s.oh * s.ow;
    float* br = fft.InRe();
    float* bi = fft.InIm();
    const long cnt = std::min(g, items - i0);
    for(long b = 0; b < pl.bins; ++b)
    {
        const cf* src = yspec + b * items + i0;
        float* dr = br + b * g;
        float* di = bi + b * g;
        long j = 0;
        for(; j < cnt; ++j)
        {
            dr[j] = src[j].real();
            di[j] = src[j].imag();
        }
        for(; j < g; ++j)
            dr[j] = di[j] = 0.0f;
    }
    fft.Inverse(pl.t1);
    const float* ar = fft.OutRe();
    const float* ai = fft.OutIm();
    for(long j = 0; j < cnt; ++j)
    {
        const float* srcp = ((j & 1) ? ai : ar) + (j / 2);
        const long t = t0 + (i0 + j) / s.oc, oc = (i0 + j) % s.oc;
        const long img = t / (pl.tiles_h * pl.tiles_w);
        const long tt = t % (pl.tiles_h * pl.tiles_w);
        const long y0 = (tt / pl.tiles_w) * pl.t1, x0 = (tt % pl.tiles_w) * pl.t2;
        const long rows = std::min(pl.t1, s.oh - y0), cols = std::min(pl.t2, s.ow - x0);
        float* dst = out + (img * s.oc + oc) * ohw + y0 * s.ow + x0;
        for(long r = 0; r < rows; ++r)
            for(long c = 0; c < cols; ++c)
                dst[r * s.ow + c] = srcp[c * lanes + r * pairs];
    }
}

/// One complex GEMM per bin: Y[bin] (nt x oc) = X[bin] (nt x ic) * W[bin] (ic x oc).
void BinGemm(const FftShape& s, long nt, long b, const cf* xspec, const cf* wspec, cf* yspec)
{
    Cgemm(static_cast<int>(nt), static_cast<int>(s.oc), static_cast<int>(s.ic), xspec + b * nt * s.ic,
          static_cast<int>(s.ic), wspec + b * s.ic * s.oc, static_cast<int>(s.oc), yspec + b * nt * s.oc,
          static_cast<int>(s.oc));
}

} // namespace

void ConvFft(const FftShape& s, const FftPlan& pl, const float* in, const float* w, float* out, void* workspace)
{
    const long n1 = pl.n1, n2 = pl.n2, bins = pl.bins;
    cf* wspec = static_cast<cf*>(workspace);                // [bin][ic][oc]
    cf* chunks = wspec + pl.filter_cfloats;                 // per chunk buffer: [bin][tile][ic], [bin][tile][oc]
    const float scale = 1.0f / static_cast<float>(n1 * n2);
    const int threads = pl.pipelined ? std::min(omp_get_max_threads(), pl.threads) : omp_get_max_threads();

#pragma omp parallel num_threads(threads)
    {
        // 1. Filter spectra: conj(FFT(w)) / (n1 n2), since the convolution is a correlation.
        {
            const long items = s.ic * s.oc;
            const long g = GroupSize(items, kFilterGroup);
            Fft2d fft(n1, n2, g);
            const long lanes = fft.Lanes(s.r), pairs = g / 2;
#pragma omp for schedule(static)
            for(long i0 = 0; i0 < items; i0 += g)
            {
                float* ar = fft.ARe();
                float* ai = fft.AIm();
                std::fill(ar, ar + n2 * lanes, 0.0f);
                std::fill(ai, ai + n2 * lanes, 0.0f);
                for(long j = 0; j < g && i0 + j < items; ++j)
                {
                    const long ic = (i0 + j) / s.oc, oc = (i0 + j) % s.oc;
                    float* dst = (j & 1) ? ai : ar;
                    const long p = j / 2;
                    for(long r = 0; r < s.r; ++r)
                        for(long c = 0; c < s.s; ++c)
                        {
                            const float v = s.backward
                                ? w[((ic * s.oc + oc) * s.r + (s.r - 1 - r)) * s.s + (s.s - 1 - c)]
                                : w[((oc * s.ic + ic) * s.r + r) * s.s + c];
                            dst[c * lanes + r * pairs + p] = v;
                        }
                }
                fft.Forward(s.r);
                const float* br = fft.BRe();
                const float* bi = fft.BIm();
                const long cnt = std::min(g, items - i0);
                for(long b = 0; b < bins; ++b)
                {
                    cf* d = wspec + b * items + i0;
                    for(long j = 0; j < cnt; ++j)
                        d[j] = cf(br[b * g + j] * scale, -bi[b * g + j] * scale);
                }
            }
        }

        const long gi = GroupSize(pl.tiles_per_chunk * s.ic);
        const long go = GroupSize(pl.tiles_per_chunk * s.oc);
        Fft2d fft_in(n1, n2, gi);
        Fft2d fft_out(n1, n2, go);
        if(pl.pipelined)
        {
            // 2a. Each thread takes whole chunks through input FFT, GEMMs and inverse FFT in its own
            // buffers: no barriers, and the chunk's spectra stay in its cache.
            cf* xspec = chunks + omp_get_thread_num() * (pl.chunk_cfloats / pl.threads);
            cf* yspec = xspec + bins * pl.tiles_per_chunk * s.ic;
            const long nchunks = (pl.tiles + pl.tiles_per_chunk - 1) / pl.tiles_per_chunk;
#pragma omp for schedule(dynamic, 1)
            for(long ch = 0; ch < nchunks; ++ch)
            {
                const long t0 = ch * pl.tiles_per_chunk, nt = std::min(pl.tiles_per_chunk, pl.tiles - t0);
                for(long i0 = 0; i0 < nt * s.ic; i0 += gi)
                    ForwardGroup(s, pl, fft_in, gi, in, t0, nt, i0, xspec);
                for(long b = 0; b < bins; ++b)
                    BinGemm(s, nt, b, xspec, wspec, yspec);
                for(long i0 = 0; i0 < nt * s.oc; i0 += go)
                    InverseGroup(s, pl, fft_out, go, yspec, t0, nt, i0, out);
            }
        }
        else
        {
            // 2b. All threads on one chunk at a time: input FFTs, then the bins' GEMMs, then the
            // inverse FFTs (few tiles, many channels).
            cf* xspec = chunks;
            cf* yspec = xspec + bins * pl.tiles_per_chunk * s.ic;
            for(long t0 = 0; t0 < pl.tiles; t0 += pl.tiles_per_chunk)
            {
                const long nt = std::min(pl.tiles_per_chunk, pl.tiles - t0);
#pragma omp for schedule(static)
                for(long i0 = 0; i0 < nt * s.ic; i0 += gi)
                    ForwardGroup(s, pl, fft_in, gi, in, t0, nt, i0, xspec);
#pragma omp for schedule(static)
                for(long b = 0; b < bins; ++b)
                    BinGemm(s, nt, b, xspec, wspec, yspec);
#pragma omp for schedule(static)
                for(long i0 = 0; i0 < nt * s.oc; i0 += go)
                    InverseGroup(s, pl, fft_out, go, yspec, t0, nt, i0, out);
            }
        }
    }
}

} // namespace miopen::cpu
