// CPU kernels of pooling, backward (the scheme: cpu/pooling_common.hpp).
#include "cpu/pooling_common.hpp"

#include <array>
#include <limits>
#include <tuple>
#include <utility>

namespace miopen::cpu {
namespace {

using namespace pool;

/// Output positions whose window covers input position i along one dim: [lo, hi).
Range Covering(int64_t i, int64_t out, int64_t window, int64_t stride, int64_t pad)
{
    // o * stride - pad <= i < o * stride - pad + window
    const int64_t num = i + pad - window + 1;
    Range r;
    r.lo = num <= 0 ? 0 : (num + stride - 1) / stride;
    r.hi = std::min<int64_t>((i + pad) / stride + 1, out);
    r.hi = std::max(r.hi, r.lo);
    return r;
}

/// Output columns ow whose window column kw lands inside [0, W): [lo, hi).
Range ColumnsHitting(int64_t kw, int64_t W, int64_t OW, int64_t S, int64_t P)
{
    // 0 <= ow * S - P + kw < W
    const int64_t num = P - kw;
    Range r;
    r.lo = num <= 0 ? 0 : (num + S - 1) / S;
    r.hi = W - 1 + P - kw < 0 ? 0 : std::min<int64_t>((W - 1 + P - kw) / S + 1, OW);
    r.hi = std::max(r.hi, r.lo);
    return r;
}

template <class F>
void ForEachInputRow(const PoolShape& s, F&& body)
{
    const int64_t rows = s.n * s.c * s.in[0] * s.in[1];
    const int64_t work = rows * s.in[2] * 4;
    const int chunk    = Chunk(rows);
#pragma omp parallel if(Parallel(work))
    {
        std::vector<float> acc(s.in[2]), g(s.out[2]), tmp(std::max(s.in[2], s.out[2]));
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < rows; ++item)
        {
            int64_t i       = item;
            const int64_t h = i % s.in[1];
            i /= s.in[1];
            const int64_t d = i % s.in[0];
            i /= s.in[0];
            const int64_t c = i % s.c;
            const int64_t n = i / s.c;
            body(acc.data(), g.data(), tmp.data(), n, c, d, h);
        }
    }
}

template <class T>
void WriteDx(const PoolShape& s, float alpha, float beta, T* dx, const Strides5& dxs,
             int64_t n, int64_t c, int64_t d, int64_t h, const float* acc, float* tmp)
{
    T* r = dx + n * dxs[0] + c * dxs[1] + d * dxs[2] + h * dxs[3];
    WriteBlended(r, dxs[4], s.in[2], alpha, beta, tmp, [&](int64_t w) { return acc[w]; });
}

/// One dy row of OW values at p (stride `stride`) as fp32: (pointer, stride) in place for float,
/// else converted into tmp with stride 1.
template <class T>
std::pair<const float*, int64_t> DyRow(const T* p, int64_t stride, int64_t OW, float* tmp)
{
    if constexpr(kIsFloat<T>)
    {
        (void)OW;
        (void)tmp;
        return {p, stride};
    }
    else
        return {LoadRow(p, stride, OW, tmp), 1};
}

/// The dy row (n, od, oh) of a channels-last problem as OW x C fp32 values in unit stride (C
/// innermost): in place for packed fp32, else converted or gathered into tmp (OW * C floats).
template <class T>
const float* DyRowChannelsLast(const T* row, const Strides5& dys, int64_t OW, int64_t C,
                               float* tmp)
{
    if(dys[1] == 1 && dys[4] == C)
        return Load(row, tmp, static_cast<size_t>(OW * C));
    for(int64_t ow = 0; ow < OW; ++ow)
        for(int64_t c = 0; c < C; ++c)
            tmp[ow * C + c] = ToFloat(row[ow * dys[4] + c * dys[1]]);
    return tmp;
}

/// Writes the dx row (n, d, h) of a channels-last problem (row: its first element) from W x C
/// fp32 values v, C innermost: one blended run when the row is packed, else C values a column.
template <class T>
void WriteDxRowChannelsLast(T* row, const Strides5& dxs, int64_t W, int64_t C, float alpha,
                            float beta, const float* v, float* tmp)
{
    if(dxs[1] == 1 && dxs[4] == C)
        return WriteBlended(row, 1, W * C, alpha, beta, tmp, [&](int64_t i) { return v[i]; });
    for(int64_t w = 0; w < W; ++w)
        WriteBlended(row + w * dxs[4], dxs[1], C, alpha, beta, tmp,
                     [&](int64_t c) { return v[w * C + c]; });
}

/// Max backward (NCDHW and any strides). Work item: one band of dx rows [h0, h1) of one (n, c, d)
/// plane, owned by one thread: every output row whose window reaches the band sends dy to the
/// maximum it recorded when that maximum lies in the band (a scatter into the thread's band
/// accumulator, in output order, so the sums do not depend on the banding or the thread count),
/// then the band is written to dx once. Indices that name no position of the band are skipped,
/// so a garbage workspace gives wrong gradients but never a write out of bounds.
template <class Idx, class T>
void BackwardMax(const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                 const PoolIndex& index, float beta, T* dx, const Strides5& dxs)
{
    const int64_t C = s.c, D = s.in[0], H = s.in[1], W = s.in[2];
    const int64_t OD = s.out[0], OH = s.out[1], OW = s.out[2];
    const int64_t R = s.window[2], S = s.stride[2], P = s.pad[2];
    const int64_t Rh = s.window[1];
    const Idx* idx = static_cast<const Idx*>(index.data);

    // Mask mode: window position m -> (kd, kh, kw), tabulated when the window is not huge.
    const int64_t M = s.window[0] * Rh * R;
    std::vector<std::array<int32_t, 3>> where;
    if(!index.image && M <= (int64_t{1} << 22))
    {
        where.resize(M);
        for(int64_t m = 0; m < M; ++m)
            where[m] = {static_cast<int32_t>(m / (Rh * R)), static_cast<int32_t>(m / R % Rh),
                        static_cast<int32_t>(m % R)};
    }

    // Bands: whole planes when there are enough of them for the threads, else thinner, and at
    // most 64K accumulator elements so that the accumulator stays in cache.
    const int64_t planes  = s.n * C * D;
    const int64_t threads = omp_get_max_threads();
    int64_t bands         = std::max<int64_t>(1, (4 * threads + planes - 1) / planes);
    bands                 = std::max(bands, (H * W + 65535) / 65536);
    bands                 = std::min(bands, H);
    const int64_t B       = (H + bands - 1) / bands;
    bands                 = (H + B - 1) / B;
    const int64_t items   = planes * bands;
    const int chunk       = Chunk(items);

#pragma omp parallel if(Parallel(s.n * s.c * D * H * W))
    {
        std::vector<float> band(B * W), tmp(std::max(W, OW));
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < items; ++item)
        {
            const int64_t b = item % bands;
            int64_t i       = item / bands;
            const int64_t d = i % D;
            i /= D;
            const int64_t c = i % C, n = i / C;
            const int64_t h0 = b * B, h1 = std::min(H, h0 + B);
            float* acc       = band.data();
            std::fill(acc, acc + (h1 - h0) * W, 0.0f);
            const Range rd = Covering(d, OD, s.window[0], s.stride[0], s.pad[0]);
            const Range rh{Covering(h0, OH, Rh, s.stride[1], s.pad[1]).lo,
                           Covering(h1 - 1, OH, Rh, s.stride[1], s.pad[1]).hi};
            for(int64_t od = rd.lo; od < rd.hi; ++od)
                for(int64_t oh = rh.lo; oh < rh.hi; ++oh)
                {
                    const T* dyo = dy + n * dys[0] + od * dys[2] + oh * dys[3];
                    const int64_t ds = od * s.stride[0] - s.pad[0];
                    const int64_t hs = oh * s.stride[1] - s.pad[1] - h0;
                    const auto [dyr, dysw] = DyRow(dyo + c * dys[1], dys[4], OW, tmp.data());
                    const Idx* ir = idx + ((n * C + c) * OD + od) * OH * OW + oh * OW;
                    if(index.image)
                    {
                        // (d * H + h) * W + w, inside the band when h0 <= h < h1 at this d.
                        const uint64_t base = static_cast<uint64_t>((d * H + h0) * W);
                        const uint64_t size = static_cast<uint64_t>((h1 - h0) * W);
                        for(int64_t ow = 0; ow < OW; ++ow)
                        {
                            const uint64_t p = static_cast<uint64_t>(ir[ow]) - base;
                            if(p < size)
                                acc[p] += dyr[ow * dysw];
                        }
                        continue;
                    }
                    for(int64_t ow = 0; ow < OW; ++ow)
                    {
                        const uint64_t m = static_cast<uint64_t>(ir[ow]);
                        if(m >= static_cast<uint64_t>(M))
                            continue;
                        int64_t kd, kh, kw;
                        if(!where.empty())
                        {
                            kd = where[m][0];
                            kh = where[m][1];
                            kw = where[m][2];
                        }
                        else
                        {
                            kd = static_cast<int64_t>(m) / (Rh * R);
                            kh = static_cast<int64_t>(m) / R % Rh;
                            kw = static_cast<int64_t>(m) % R;
                        }
                        const int64_t h = hs + kh, w = ow * S - P + kw;
                        if(ds + kd == d && static_cast<uint64_t>(h) <
                                               static_cast<uint64_t>(h1 - h0) &&
                           static_cast<uint64_t>(w) < static_cast<uint64_t>(W))
                            acc[h * W + w] += dyr[ow * dysw];
                    }
                }
            for(int64_t h = h0; h < h1; ++h)
                WriteDx(s, alpha, beta, dx, dxs, n, c, d, h, acc + (h - h0) * W, tmp.data());
        }
    }
}

/// Channels-last max backward (C contiguous in dx), written as a gather. Work item: a band of
/// dx rows [h0, h1) of one (n, d). The output rows (od, oh) whose windows reach the band are
/// loaded once: dy as OW x C fp32 values, the indices as OW x C keys (transposed from the
/// workspace's NCDHW order, MIOpen's for every layout, in runs of whole rows per channel). Then
/// each dx element (h, w) sums, vectorised along C, the dy of the windows (od, oh, ow) covering
/// it whose index names it (a compare and a select), in (od, oh, ow) order: the scatter's order
/// (BackwardMax), so both layouts give the same bits. The row of W x C sums is written once. An
/// index that names no position of its window adds nothing.
template <class Idx, class T>
void BackwardMaxChannelsLast(const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                             const PoolIndex& index, float beta, T* dx, const Strides5& dxs)
{
    const int64_t C = s.c, D = s.in[0], H = s.in[1], W = s.in[2];
    const int64_t OD = s.out[0], OH = s.out[1], OW = s.out[2];
    const int64_t Rd = s.window[0], Rh = s.window[1], R = s.window[2], S = s.stride[2],
                  P = s.pad[2];
    const Idx* idx      = static_cast<const Idx*>(index.data);
    const int64_t plane = OD * OH * OW; // the workspace's C stride
    std::vector<Range> cols(W);         // the outputs ow whose windows cover column w
    for(int64_t w = 0; w < W; ++w)
        cols[w] = Covering(w, OW, R, S, P);
    const int64_t row   = OW * C;       // values of one loaded output row
    // dy rows are read in place when they are packed fp32, else converted into a buffer.
    const bool dy_in_place = kIsFloat<T> && dys[1] == 1 && dys[4] == C;

    // Bands of about 128 KB of loaded output rows, thinner where the threads need more items.
    const int64_t threads = omp_get_max_threads();
    const int64_t loaded  = row * static_cast<int64_t>(sizeof(Idx) + (dy_in_place ? 0 : 4));
    const int64_t fit     = std::max<int64_t>(1, (int64_t{1} << 17) / loaded);
    int64_t B = std::min(H, fit * s.stride[1]);
    while(B > 1 && s.n * D * ((H + B - 1) / B) < 4 * threads)
        B = (B + 1) / 2;
    const int64_t bands = (H + B - 1) / B;
    const int64_t items = s.n * D * bands;
    const int chunk     = Chunk(items);
#pragma omp parallel if(Parallel(s.n * C * D * H * W))
    {
        std::vector<float> acc(W * C), tmp(std::max(W, OW) * C), dyb;
        std::vector<Idx> keys;
        std::vector<const float*> dyrow;
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < items; ++item)
        {
            const int64_t b = item % bands, d = item / bands % D, n = item / (bands * D);
            const int64_t h0 = b * B, h1 = std::min(H, h0 + B);
            const Range rd = Covering(d, OD, Rd, s.stride[0], s.pad[0]);
            const Range rh{Covering(h0, OH, Rh, s.stride[1], s.pad[1]).lo,
                           Covering(h1 - 1, OH, Rh, s.stride[1], s.pad[1]).hi};
            const int64_t nh = rh.hi - rh.lo, rows = (rd.hi - rd.lo) * nh;
            if(static_cast<int64_t>(keys.size()) < rows * row)
            {
                keys.resize(rows * row);
                dyrow.resize(rows);
                if(!dy_in_place)
                    dyb.resize(rows * row);
            }
            for(int64_t od = rd.lo; od < rd.hi; ++od)
                for(int64_t oh = rh.lo; oh < rh.hi; ++oh)
                {
                    const int64_t r = (od - rd.lo) * nh + oh - rh.lo;
                    const T* dyr    = dy + n * dys[0] + od * dys[2] + oh * dys[3];
                    float* buf      = dy_in_place ? nullptr : dyb.data() + r * row;
                    dyrow[r]        = DyRowChannelsLast(dyr, dys, OW, C, buf);
                }
            // The indices of rows rh of each od, one run of nh * OW per channel.
            for(int64_t od = rd.lo; od < rd.hi; ++od)
            {
                const Idx* ir     = idx + (n * C * OD + od) * OH * OW + rh.lo * OW;
                Idx* k            = keys.data() + (od - rd.lo) * nh * row;
                const int64_t run = nh * OW; // locals: Idx stores may alias (uint8_t)
                for(int64_t c = 0; c < C; ++c)
                {
                    const Idx* src = ir + c * plane;
                    Idx* dst       = k + c;
                    for(int64_t j = 0; j < run; ++j)
                        dst[j * C] = src[j];
                }
            }
            for(int64_t h = h0; h < h1; ++h)
            {
                const Range rhh = Covering(h, OH, Rh, s.stride[1], s.pad[1]);
                for(int64_t w = 0; w < W; ++w)
                {
                    // dx(h, w, ·): the windows covering (h, w), in (od, oh, ow) order.
                    float* v = acc.data() + w * C;
                    std::fill(v, v + C, 0.0f);
                    for(int64_t od = rd.lo; od < rd.hi; ++od)
                        for(int64_t oh = rhh.lo; oh < rhh.hi; ++oh)
                        {
                            const int64_t r  = (od - rd.lo) * nh + oh - rh.lo;
                            const int64_t kd = d - (od * s.stride[0] - s.pad[0]);
                            const int64_t kh = h - (oh * s.stride[1] - s.pad[1]);
                            for(int64_t ow = cols[w].lo; ow < cols[w].hi; ++ow)
                            {
                                // The key that names (h, w) in window (od, oh, ow).
                                const int64_t kw = w - (ow * S - P);
                                const uint64_t e = static_cast<uint64_t>(
                                    index.image ? (d * H + h) * W + w : (kd * Rh + kh) * R + kw);
                                if(e > std::numeric_limits<Idx>::max())
                                    continue; // no index of this type names the position
                                const Idx* kr   = keys.data() + r * row + ow * C;
                                const float* qr = dyrow[r] + ow * C;
#pragma omp simd
                                for(int64_t c = 0; c < C; ++c)
                                {
                                    const float q = qr[c]; // read always: a select, not a masked load
                                    v[c] += kr[c] == static_cast<Idx>(e) ? q : 0.0f;
                                }
                            }
                        }
                }
                WriteDxRowChannelsLast(dx + n * dxs[0] + d * dxs[2] + h * dxs[3], dxs, W, C,
                                       alpha, beta, acc.data(), tmp.data());
            }
        }
    }
}

template <class T>
void BackwardAverage(const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                     float beta, T* dx, const Strides5& dxs)
{
    const int64_t W = s.in[2], OW = s.out[2], R = s.window[2], S = s.stride[2], P = s.pad[2];
    const bool inclusive = s.mode == miopenPoolingAverageInclusive;
    // The divisor of window (od, oh, ow) is count_d(od) * count_h(oh) * count_w(ow) when
    // exclusive, the full window size when inclusive: apply it in two separable steps.
    std::vector<float> inv_d(s.out[0]), inv_h(s.out[1]), inv_w(OW);
    const float full = 1.0f / static_cast<float>(s.window[0] * s.window[1] * R);
    for(int64_t o = 0; o < s.out[0]; ++o)
        inv_d[o] = inclusive ? 1.0f : 1.0f / Count(o, s.in[0], s.window[0], s.stride[0], s.pad[0]);
    for(int64_t o = 0; o < s.out[1]; ++o)
        inv_h[o] = inclusive ? 1.0f : 1.0f / Count(o, s.in[1], s.window[1], s.stride[1], s.pad[1]);
    for(int64_t o = 0; o < OW; ++o)
        inv_w[o] = inclusive ? full : 1.0f / Count(o, W, R, S, P);
    std::vector<Range> cols(R);
    for(int64_t kw = 0; kw < R; ++kw)
        cols[kw] = ColumnsHitting(kw, W, OW, S, P);
    ForEachInputRow(s, [&](float* acc, float* g, float* tmp, int64_t n, int64_t c, int64_t d,
                           int64_t h) {
        std::fill(acc, acc + W, 0.0f);
        std::fill(g, g + OW, 0.0f);
        const Range rd = Covering(d, s.out[0], s.window[0], s.stride[0], s.pad[0]);
        const Range rh = Covering(h, s.out[1], s.window[1], s.stride[1], s.pad[1]);
        for(int64_t od = rd.lo; od < rd.hi; ++od)
            for(int64_t oh = rh.lo; oh < rh.hi; ++oh)
            {
                const auto [dyr, dysw] = DyRow(
                    dy + n * dys[0] + c * dys[1] + od * dys[2] + oh * dys[3], dys[4], OW, tmp);
                const float k    = inv_d[od] * inv_h[oh];
                if(dysw == 1)
                {
#pragma omp simd
                    for(int64_t ow = 0; ow < OW; ++ow)
                        g[ow] += k * dyr[ow];
                }
                else
                {
                    for(int64_t ow = 0; ow < OW; ++ow)
                        g[ow] += k * dyr[ow * dysw];
                }
            }
#pragma omp simd
        for(int64_t ow = 0; ow < OW; ++ow)
            g[ow] *= inv_w[ow];
        for(int64_t kw = 0; kw < R; ++kw)
        {
            float* a = acc - P + kw;
            for(int64_t ow = cols[kw].lo; ow < cols[kw].hi; ++ow)
                a[ow * S] += g[ow];
        }
        WriteDx(s, alpha, beta, dx, dxs, n, c, d, h, acc, tmp);
    });
}

/// Channels-last average backward (C contiguous in dx): one item per dx row (n, d, h), whose
/// accumulator holds W x C values so that the inner loops run along C. Each dx element gets
/// BackwardAverage's sums in its order: k * dy over (od, oh), scaled by the column's
/// reciprocal, then the windows' shares in kw order.
template <class T>
void BackwardAverageChannelsLast(const PoolShape& s, float alpha, const T* dy,
                                 const Strides5& dys, float beta, T* dx, const Strides5& dxs)
{
    const int64_t C = s.c, D = s.in[0], H = s.in[1], W = s.in[2];
    const int64_t OD = s.out[0], OH = s.out[1], OW = s.out[2];
    const int64_t Rd = s.window[0], Rh = s.window[1], R = s.window[2], S = s.stride[2],
                  P = s.pad[2];
    const bool inclusive = s.mode == miopenPoolingAverageInclusive;
    std::vector<float> inv_d(OD), inv_h(OH), inv_w(OW);
    const float full = 1.0f / static_cast<float>(Rd * Rh * R);
    for(int64_t o = 0; o < OD; ++o)
        inv_d[o] = inclusive ? 1.0f : 1.0f / Count(o, D, Rd, s.stride[0], s.pad[0]);
    for(int64_t o = 0; o < OH; ++o)
        inv_h[o] = inclusive ? 1.0f : 1.0f / Count(o, H, Rh, s.stride[1], s.pad[1]);
    for(int64_t o = 0; o < OW; ++o)
        inv_w[o] = inclusive ? full : 1.0f / Count(o, W, R, S, P);
    std::vector<Range> cols(R);
    for(int64_t kw = 0; kw < R; ++kw)
        cols[kw] = ColumnsHitting(kw, W, OW, S, P);
    const int64_t rows = s.n * D * H;
    const int chunk    = Chunk(rows);
#pragma omp parallel if(Parallel(s.n * C * D * H * W))
    {
        std::vector<float> acc(W * C), g(OW * C), tmp(std::max(W, OW) * C);
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < rows; ++item)
        {
            const int64_t h = item % H, d = item / H % D, n = item / (H * D);
            float* a = acc.data();
            std::fill(acc.begin(), acc.end(), 0.0f);
            std::fill(g.begin(), g.end(), 0.0f);
            const Range rd = Covering(d, OD, Rd, s.stride[0], s.pad[0]);
            const Range rh = Covering(h, OH, Rh, s.stride[1], s.pad[1]);
            for(int64_t od = rd.lo; od < rd.hi; ++od)
                for(int64_t oh = rh.lo; oh < rh.hi; ++oh)
                {
                    const float* q = DyRowChannelsLast(
                        dy + n * dys[0] + od * dys[2] + oh * dys[3], dys, OW, C, tmp.data());
                    const float k = inv_d[od] * inv_h[oh];
                    float* gg     = g.data();
#pragma omp simd
                    for(int64_t i = 0; i < OW * C; ++i)
                        gg[i] += k * q[i];
                }
            float* gg = g.data();
            for(int64_t ow = 0; ow < OW; ++ow)
            {
#pragma omp simd
                for(int64_t c = 0; c < C; ++c)
                    gg[ow * C + c] *= inv_w[ow];
            }
            for(int64_t kw = 0; kw < R; ++kw)
                for(int64_t ow = cols[kw].lo; ow < cols[kw].hi; ++ow)
                {
                    float* aw       = a + (ow * S - P + kw) * C;
                    const float* gw = gg + ow * C;
#pragma omp simd
                    for(int64_t c = 0; c < C; ++c)
                        aw[c] += gw[c];
                }
            WriteDxRowChannelsLast(dx + n * dxs[0] + d * dxs[2] + h * dxs[3], dxs, W, C, alpha,
                                   beta, a, tmp.data());
        }
    }
}

} // namespace

template <class T>
void PoolBackward(const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                  const PoolIndex& index, float beta, T* dx, const Strides5& dxs)
{
    if(dxs[1] == 1 && dxs[4] != 1) // channels-last dx
    {
        if(s.mode != miopenPoolingMax)
            return BackwardAverageChannelsLast(s, alpha, dy, dys, beta, dx, dxs);
        return WithIndexType(index.type, [&](auto tag) {
            BackwardMaxChannelsLast<decltype(tag)>(s, alpha, dy, dys, index, beta, dx, dxs);
        });
    }
    if(s.mode != miopenPoolingMax)
        return BackwardAverage(s, alpha, dy, dys, beta, dx, dxs);
    WithIndexType(index.type, [&](auto tag) {
        BackwardMax<decltype(tag)>(s, alpha, dy, dys, index, beta, dx, dxs);
    });
}

#define MIOPEN_POOL_BWD(T)                                                                 \
    template void PoolBackward<T>(const PoolShape&, float, const T*, const Strides5&,     \
                                  const PoolIndex&, float, T*, const Strides5&);
MIOPEN_POOL_BWD(float)
MIOPEN_POOL_BWD(Half)
MIOPEN_POOL_BWD(BFloat16)
#undef MIOPEN_POOL_BWD

} // namespace miopen::cpu
