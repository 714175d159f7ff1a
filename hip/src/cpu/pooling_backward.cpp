// CPU kernels of pooling, backward (the scheme: cpu/pooling_common.hpp).
#include "cpu/pooling_common.hpp"

#include <array>
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

/// Window position m's offset along dim k (0: d, 1: h, 2: w), from the table where there is one.
inline int64_t KOf(const std::vector<std::array<int32_t, 3>>& where, uint64_t m, int k,
                   int64_t Rh, int64_t R)
{
    if(!where.empty())
        return where[m][k];
    const int64_t mm = static_cast<int64_t>(m);
    return k == 0 ? mm / (Rh * R) : k == 1 ? mm / R % Rh : mm % R;
}

/// Max backward. Work item: one band of dx rows [h0, h1) of one (n, c, d) plane (CL, for
/// channels-last tensors: of one (n, d) slice and a block of up to 16 channels, innermost in the
/// accumulator, so that the part of it one output row reaches stays in L1), owned by one thread:
/// every output row whose window reaches the band sends dy to the maximum it recorded when that
/// maximum lies in the band (a scatter into the thread's band accumulator, in output order, so
/// the sums do not depend on the banding, the layout or the thread count), then the band is
/// written to dx once. Indices that name no position of the band are skipped, so a garbage
/// workspace gives wrong gradients but never a write out of bounds.
template <class Idx, bool CL, class T>
void BackwardMax(const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                 const PoolIndex& index, float beta, T* dx, const Strides5& dxs)
{
    const int64_t C = s.c, D = s.in[0], H = s.in[1], W = s.in[2];
    const int64_t OD = s.out[0], OH = s.out[1], OW = s.out[2];
    const int64_t R = s.window[2], S = s.stride[2], P = s.pad[2];
    const int64_t Rh = s.window[1];
    const Idx* idx = static_cast<const Idx*>(index.data);
    const int64_t cb      = CL ? std::min<int64_t>(C, 16) : 1; // channels an item
    const int64_t cblocks = (C + cb - 1) / cb;

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
    const int64_t planes  = s.n * cblocks * D;
    const int64_t threads = omp_get_max_threads();
    int64_t bands         = std::max<int64_t>(1, (4 * threads + planes - 1) / planes);
    bands                 = std::max(bands, (H * W * cb + 65535) / 65536);
    bands                 = std::min(bands, H);
    const int64_t B       = (H + bands - 1) / bands;
    bands                 = (H + B - 1) / B;
    const int64_t items   = planes * bands;
    const int chunk       = Chunk(items);

#pragma omp parallel if(Parallel(s.n * s.c * D * H * W))
    {
        std::vector<float> band(B * W * cb), tmp(std::max(W, OW) * cb);
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < items; ++item)
        {
            const int64_t b = item % bands;
            int64_t i       = item / bands;
            const int64_t d = i % D;
            i /= D;
            const int64_t c0 = i % cblocks * cb, n = i / cblocks;
            const int64_t nc = std::min(cb, C - c0);
            const int64_t h0 = b * B, h1 = std::min(H, h0 + B);
            float* acc       = band.data();
            std::fill(acc, acc + (h1 - h0) * W * cb, 0.0f);
            const Range rd = Covering(d, OD, s.window[0], s.stride[0], s.pad[0]);
            const Range rh{Covering(h0, OH, Rh, s.stride[1], s.pad[1]).lo,
                           Covering(h1 - 1, OH, Rh, s.stride[1], s.pad[1]).hi};
            for(int64_t od = rd.lo; od < rd.hi; ++od)
                for(int64_t oh = rh.lo; oh < rh.hi; ++oh)
                {
                    const T* dyo = dy + n * dys[0] + od * dys[2] + oh * dys[3];
                    const int64_t ds = od * s.stride[0] - s.pad[0];
                    const int64_t hs = oh * s.stride[1] - s.pad[1] - h0;
                    // CL: the block's dy as fp32, channel j at blk + j * bc, position ow at
                    // + ow * bw (16-bit rows converted once for all the block's channels).
                    const float* blk = nullptr;
                    int64_t bc = 1, bw = cb;
                    if constexpr(CL)
                    {
                        if constexpr(kIsFloat<T>)
                        {
                            blk = dyo + c0 * dys[1];
                            bc  = dys[1];
                            bw  = dys[4];
                        }
                        else
                        {
                            for(int64_t ow = 0; ow < OW; ++ow)
                            {
                                const T* g = dyo + ow * dys[4] + c0 * dys[1];
                                if(dys[1] == 1)
                                    ConvertToFloat(g, tmp.data() + ow * cb, static_cast<size_t>(nc));
                                else
                                    for(int64_t j = 0; j < nc; ++j)
                                        tmp[ow * cb + j] = ToFloat(g[j * dys[1]]);
                            }
                            blk = tmp.data();
                        }
                    }
                    for(int64_t j = 0; j < nc; ++j)
                    {
                        const int64_t c = c0 + j;
                        const auto [dyr, dysw] =
                            CL ? std::pair<const float*, int64_t>{blk + j * bc, bw}
                               : DyRow(dyo + c * dys[1], dys[4], OW, tmp.data());
                        float* ac     = acc + j;
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
                                    ac[p * cb] += dyr[ow * dysw];
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
                                ac[(h * W + w) * cb] += dyr[ow * dysw];
                        }
                    }
                }
            for(int64_t h = h0; h < h1; ++h)
            {
                const float* a = acc + (h - h0) * W * cb;
                if constexpr(!CL)
                    WriteDx(s, alpha, beta, dx, dxs, n, c0, d, h, a, tmp.data());
                else
                {
                    T* r = dx + n * dxs[0] + c0 * dxs[1] + d * dxs[2] + h * dxs[3];
                    for(int64_t w = 0; w < W; ++w)
                        WriteBlended(r + w * dxs[4], dxs[1], nc, alpha, beta, tmp.data(),
                                     [&](int64_t e) { return a[w * cb + e]; });
                }
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
    const bool dy_rows = dys[1] == 1 && dys[4] == C; // a dy row is OW x C packed
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
                    const T* dyr = dy + n * dys[0] + od * dys[2] + oh * dys[3];
                    const float* q;
                    if(dy_rows)
                        q = Load(dyr, tmp.data(), static_cast<size_t>(OW * C));
                    else
                    {
                        for(int64_t ow = 0; ow < OW; ++ow)
                            for(int64_t c = 0; c < C; ++c)
                                tmp[ow * C + c] = ToFloat(dyr[ow * dys[4] + c * dys[1]]);
                        q = tmp.data();
                    }
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
            for(int64_t w = 0; w < W; ++w)
            {
                T* r           = dx + n * dxs[0] + d * dxs[2] + h * dxs[3] + w * dxs[4];
                const float* v = a + w * C;
                WriteBlended(r, dxs[1], C, alpha, beta, tmp.data(),
                             [&](int64_t c) { return v[c]; });
            }
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
            BackwardMax<decltype(tag), true>(s, alpha, dy, dys, index, beta, dx, dxs);
        });
    }
    if(s.mode != miopenPoolingMax)
        return BackwardAverage(s, alpha, dy, dys, beta, dx, dxs);
    WithIndexType(index.type, [&](auto tag) {
        BackwardMax<decltype(tag), false>(s, alpha, dy, dys, index, beta, dx, dxs);
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
