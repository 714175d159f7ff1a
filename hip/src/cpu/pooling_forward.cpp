// CPU kernels of pooling, forward (the scheme: cpu/pooling_common.hpp).
#include "cpu/pooling_common.hpp"

namespace miopen::cpu {
namespace {

using namespace pool;

/// What one forward work item needs besides its row coordinates.
template <class T>
struct Fwd
{
    const PoolShape& s;
    const T* x;
    const Strides5& xs;
    T* y;
    const Strides5& ys;
    float alpha, beta;
    Range iw;         // interior output columns
    bool cl = false;  // channels-last: a row is W positions of C values (x's C stride 1)
    /// Floats of one converted input row (16-bit types): W in unit stride, or channels-last the
    /// row's extent (W - 1) * xs[4] + C with x's layout kept; 0 for float (read in place).
    int64_t ConvLen() const
    {
        if constexpr(kIsFloat<T>)
            return 0;
        else
            return cl ? (s.in[2] - 1) * xs[4] + s.c : s.in[2];
    }
};

/// The in-bounds input rows of the window of output row (od, oh), in scan order: pointers,
/// mask row keys kd * window_h + kh and image rows d * H + h.
struct WindowRows
{
    int64_t count = 0;
    std::vector<const float*> ptr;
    std::vector<int32_t> key;
    std::vector<int64_t> image_row; // d * H + h of each row
    std::vector<float> conv;        // 16-bit types: the rows converted to fp32
    int64_t conv_len = 0;           // floats per converted row
};

/// The input row at p as fp32 for the kernels: p itself for float, else converted into buf.
template <class T>
const float* RowAsFloat(const Fwd<T>& f, const T* p, float* buf)
{
    if constexpr(kIsFloat<T>)
    {
        (void)buf;
        return p;
    }
    else
    {
        if(f.cl)
        {
            ConvertToFloat(p, buf, static_cast<size_t>(f.ConvLen()));
            return buf;
        }
        return LoadRow(p, f.xs[4], f.s.in[2], buf);
    }
}

template <class T>
void GatherRows(const Fwd<T>& f, int64_t n, int64_t c, int64_t od, int64_t oh, WindowRows& rows)
{
    const PoolShape& s = f.s;
    const int64_t ds = od * s.stride[0] - s.pad[0], hs = oh * s.stride[1] - s.pad[1];
    const int64_t kd0 = std::max<int64_t>(0, -ds), kd1 = std::min(s.window[0], s.in[0] - ds);
    const int64_t kh0 = std::max<int64_t>(0, -hs), kh1 = std::min(s.window[1], s.in[1] - hs);
    rows.count = 0;
    const T* base = f.x + n * f.xs[0] + c * f.xs[1];
    for(int64_t kd = kd0; kd < kd1; ++kd)
        for(int64_t kh = kh0; kh < kh1; ++kh)
        {
            const int64_t d = ds + kd, h = hs + kh;
            rows.ptr[rows.count] = RowAsFloat(f, base + d * f.xs[2] + h * f.xs[3],
                                              rows.conv.data() + rows.count * rows.conv_len);
            rows.key[rows.count]       = static_cast<int32_t>(kd * s.window[1] + kh);
            rows.image_row[rows.count] = d * s.in[1] + h;
            ++rows.count;
        }
}

/// Vertical pass of the max: v[w] = max over the window's rows (NaN wins).
template <bool kUnit>
void VerticalMax(const WindowRows& rows, int64_t W, int64_t xsw, float* v)
{
    const float* r0 = rows.ptr[0];
    for(int64_t w = 0; w < W; ++w)
        v[w] = kUnit ? r0[w] : r0[w * xsw];
    for(int64_t i = 1; i < rows.count; ++i)
    {
        const float* r = rows.ptr[i];
#pragma omp simd
        for(int64_t w = 0; w < W; ++w)
            v[w] = MaxNan(v[w], kUnit ? r[w] : r[w * xsw]);
    }
}

template <bool kUnit>
void VerticalSum(const WindowRows& rows, int64_t W, int64_t xsw, float* v)
{
    const float* r0 = rows.ptr[0];
    for(int64_t w = 0; w < W; ++w)
        v[w] = kUnit ? r0[w] : r0[w * xsw];
    for(int64_t i = 1; i < rows.count; ++i)
    {
        const float* r = rows.ptr[i];
#pragma omp simd
        for(int64_t w = 0; w < W; ++w)
            v[w] += kUnit ? r[w] : r[w * xsw];
    }
}

/// Horizontal pass over the interior columns [lo, hi): out[ow] = reduce v[ow * S - P + kw],
/// kw < R. kR / kS are compile-time window and stride (0: use R / S).
template <int kR, int kS, bool kMax>
void HorizontalInterior(const float* v, int64_t lo, int64_t hi, int64_t R, int64_t S, int64_t P,
                        float* out)
{
    const int64_t r = kR ? kR : R, s = kS ? kS : S;
#pragma omp simd
    for(int64_t ow = lo; ow < hi; ++ow)
    {
        const float* q = v + ow * s - P;
        float acc      = q[0];
        for(int64_t kw = 1; kw < r; ++kw)
            acc = kMax ? MaxNan(acc, q[kw]) : acc + q[kw];
        out[ow] = acc;
    }
}

template <bool kMax>
void Horizontal(const float* v, int64_t lo, int64_t hi, int64_t R, int64_t S, int64_t P, float* out)
{
    if(R == 3 && S == 2)
        HorizontalInterior<3, 2, kMax>(v, lo, hi, R, S, P, out);
    else if(R == 2 && S == 2)
        HorizontalInterior<2, 2, kMax>(v, lo, hi, R, S, P, out);
    else if(R == 3 && S == 1)
        HorizontalInterior<3, 1, kMax>(v, lo, hi, R, S, P, out);
    else
        HorizontalInterior<0, 0, kMax>(v, lo, hi, R, S, P, out);
}

/// Max with its position for the output columns [lo, hi) of one output row, by scanning the
/// window in order (row ordinal i of `rows`, then kw) and keeping the first strict maximum, so
/// ties go to the first position in scan order. The position is kept as its scan ordinal
/// i * R + kw. kChecked clips kw to the input row. kR / kS are the window width and stride at
/// compile time (0: R / S): with them, the R loads of a row form one interleaved group that the
/// compiler vectorises.
template <bool kUnit, bool kChecked, int kR, int kS>
void ArgMaxScan(const WindowRows& rows, int64_t lo, int64_t hi, int64_t R, int64_t S, int64_t P,
                int64_t W, int64_t xsw, float* best, int32_t* bkey)
{
    const int64_t r_ = kR ? kR : R, s = kS ? kS : S;
    const int64_t xs = kUnit ? 1 : xsw;
    if(lo >= hi)
        return;
    if constexpr(kChecked)
    {
        for(int64_t ow = lo; ow < hi; ++ow)
        {
            const int64_t start = ow * s - P;
            const int64_t k0 = std::max<int64_t>(0, -start), k1 = std::min(r_, W - start);
            float b    = rows.ptr[0][(start + k0) * xs];
            int64_t kb = k0;
            for(int64_t i = 0; i < rows.count; ++i)
                for(int64_t kw = k0; kw < k1; ++kw)
                {
                    const float a = rows.ptr[i][(start + kw) * xs];
                    if(Greater(a, b))
                    {
                        b  = a;
                        kb = i * r_ + kw;
                    }
                }
            best[ow] = b;
            bkey[ow] = static_cast<int32_t>(kb);
        }
        return;
    }
    // The first position seeds the scan; comparing it with itself changes nothing.
    const float* r0 = rows.ptr[0] - P * xs;
#pragma omp simd
    for(int64_t ow = lo; ow < hi; ++ow)
    {
        best[ow] = r0[ow * s * xs];
        bkey[ow] = 0;
    }
    for(int64_t i = 0; i < rows.count; ++i)
    {
        const float* r   = rows.ptr[i] - P * xs;
        if constexpr(kR != 0)
        {
            const int32_t k0 = static_cast<int32_t>(i * kR);
#pragma omp simd
            for(int64_t ow = lo; ow < hi; ++ow)
            {
                float b    = best[ow];
                int32_t bk = bkey[ow];
                for(int kw = 0; kw < kR; ++kw)
                {
                    const float a = r[(ow * s + kw) * xs];
                    const bool t  = Greater(a, b);
                    b             = t ? a : b;
                    bk            = t ? k0 + kw : bk;
                }
                best[ow] = b;
                bkey[ow] = bk;
            }
        }
        else
        {
            for(int64_t kw = 0; kw < r_; ++kw)
            {
                const float* rk  = r + kw * xs;
                const int32_t kk = static_cast<int32_t>(i * r_ + kw);
#pragma omp simd
                for(int64_t ow = lo; ow < hi; ++ow)
                {
                    const float a = rk[ow * s * xs];
                    const bool t  = Greater(a, best[ow]);
                    best[ow]      = t ? a : best[ow];
                    bkey[ow]      = t ? kk : bkey[ow];
                }
            }
        }
    }
}

/// Per-thread scratch of the forward.
struct FwdScratch
{
    WindowRows rows;
    std::vector<float> v, out;
    std::vector<int32_t> key;
    std::vector<float> wtmp; // a row of outputs before its rounding (16-bit types)
    FwdScratch(const PoolShape& s, int64_t conv_len)
    {
        const size_t nrows = static_cast<size_t>(s.window[0] * s.window[1]);
        rows.ptr.resize(nrows);
        rows.key.resize(nrows);
        rows.image_row.resize(nrows);
        rows.conv_len = conv_len;
        rows.conv.resize(nrows * static_cast<size_t>(conv_len));
        v.resize(s.in[2]);
        out.resize(s.out[2]);
        key.resize(s.out[2]);
        wtmp.resize(std::max(s.out[2], s.c));
    }
};

template <class F>
void ForEachOutputRow(const PoolShape& s, int64_t conv_len, F&& body)
{
    const int64_t rows  = s.n * s.c * s.out[0] * s.out[1];
    const int64_t work  = rows * s.out[2] * s.window[0] * s.window[1] * s.window[2];
    const int chunk     = Chunk(rows);
#pragma omp parallel if(Parallel(work))
    {
        FwdScratch scratch(s, conv_len);
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < rows; ++item)
        {
            int64_t i        = item;
            const int64_t oh = i % s.out[1];
            i /= s.out[1];
            const int64_t od = i % s.out[0];
            i /= s.out[0];
            const int64_t c = i % s.c;
            const int64_t n = i / s.c;
            body(scratch, n, c, od, oh, item);
        }
    }
}

/// Writes one output row: y[ow] = alpha * out[ow] * scale(ow) + beta * y[ow].
template <class T, class Scale>
void WriteRow(const Fwd<T>& f, int64_t n, int64_t c, int64_t od, int64_t oh, const float* out,
              float* tmp, Scale&& scale)
{
    if(f.y == nullptr)
        return;
    T* yr = f.y + n * f.ys[0] + c * f.ys[1] + od * f.ys[2] + oh * f.ys[3];
    WriteBlended(yr, f.ys[4], f.s.out[2], f.alpha, f.beta, tmp,
                 [&](int64_t ow) { return out[ow] * scale(ow); });
}

/// The outputs of a row whose window the padding clips along w (Horizontal wrote the interior
/// ones, [iw.lo, iw.hi)): fold(acc, v) over the in-bounds columns of the row buffer v.
template <class T, class Fold>
void BorderColumns(const Fwd<T>& f, const float* v, float* out, Fold fold)
{
    const PoolShape& s = f.s;
    const int64_t W = s.in[2], OW = s.out[2], R = s.window[2], S = s.stride[2], P = s.pad[2];
    for(int64_t ow = 0; ow < OW; ++ow)
    {
        if(ow == f.iw.lo)
            ow = f.iw.hi;
        if(ow >= OW)
            break;
        const int64_t start = ow * S - P;
        const int64_t k0 = std::max<int64_t>(0, -start), k1 = std::min(R, W - start);
        float acc = v[start + k0];
        for(int64_t kw = k0 + 1; kw < k1; ++kw)
            acc = fold(acc, v[start + kw]);
        out[ow] = acc;
    }
}

template <bool kUnit, class T>
void ForwardMax(const Fwd<T>& f)
{
    const PoolShape& s = f.s;
    const int64_t W = s.in[2], R = s.window[2], S = s.stride[2], P = s.pad[2];
    ForEachOutputRow(s, f.ConvLen(), [&](FwdScratch& t, int64_t n, int64_t c, int64_t od, int64_t oh, int64_t) {
        GatherRows(f, n, c, od, oh, t.rows);
        VerticalMax<kUnit>(t.rows, W, f.xs[4], t.v.data());
        float* out = t.out.data();
        Horizontal<true>(t.v.data(), f.iw.lo, f.iw.hi, R, S, P, out);
        BorderColumns(f, t.v.data(), out, MaxNan);
        WriteRow(f, n, c, od, oh, out, t.wtmp.data(), [](int64_t) { return 1.0f; });
    });
}

template <bool kUnit, int kR, int kS, class Idx, class T>
void ForwardMaxIndex(const Fwd<T>& f, const PoolIndex& index)
{
    const PoolShape& s = f.s;
    const int64_t W = s.in[2], OW = s.out[2], R = s.window[2], S = s.stride[2], P = s.pad[2];
    const int64_t xsw = f.xs[4];
    Idx* idx = static_cast<Idx*>(index.data);
    ForEachOutputRow(s, f.ConvLen(), [&](FwdScratch& t, int64_t n, int64_t c, int64_t od, int64_t oh,
                            int64_t item) {
        GatherRows(f, n, c, od, oh, t.rows);
        float* out = t.out.data();
        int32_t* key = t.key.data();
        ArgMaxScan<kUnit, false, kR, kS>(t.rows, f.iw.lo, f.iw.hi, R, S, P, W, xsw, out, key);
        ArgMaxScan<kUnit, true, kR, kS>(t.rows, 0, f.iw.lo, R, S, P, W, xsw, out, key);
        ArgMaxScan<kUnit, true, kR, kS>(t.rows, f.iw.hi, OW, R, S, P, W, xsw, out, key);
        // The scan ordinal i * R + kw of each maximum, in the index encoding.
        const int64_t r_ = kR ? kR : R;
        Idx* ir = idx + item * OW;
        if(index.image)
        {
            for(int64_t ow = 0; ow < OW; ++ow)
            {
                const int64_t i = key[ow] / r_, kw = key[ow] % r_;
                ir[ow] = static_cast<Idx>(t.rows.image_row[i] * W + ow * S - P + kw);
            }
        }
        else
        {
            for(int64_t ow = 0; ow < OW; ++ow)
            {
                const int64_t i = key[ow] / r_, kw = key[ow] % r_;
                ir[ow] = static_cast<Idx>(static_cast<int64_t>(t.rows.key[i]) * r_ + kw);
            }
        }
        WriteRow(f, n, c, od, oh, out, t.wtmp.data(), [](int64_t) { return 1.0f; });
    });
}

template <bool kUnit, class T>
void ForwardAverage(const Fwd<T>& f)
{
    const PoolShape& s = f.s;
    const int64_t W = s.in[2], OW = s.out[2], R = s.window[2], S = s.stride[2], P = s.pad[2];
    const bool inclusive = s.mode == miopenPoolingAverageInclusive;
    // Exclusive divisor of window (od, oh, ow): rows(od, oh) * cols(ow), applied as a product
    // of reciprocals so that the write loop vectorises.
    std::vector<float> inv_cols(OW);
    for(int64_t ow = 0; ow < OW; ++ow)
        inv_cols[ow] = 1.0f / static_cast<float>(Count(ow, W, R, S, P));
    const float full = 1.0f / static_cast<float>(s.window[0] * s.window[1] * s.window[2]);
    ForEachOutputRow(s, f.ConvLen(), [&](FwdScratch& t, int64_t n, int64_t c, int64_t od, int64_t oh, int64_t) {
        GatherRows(f, n, c, od, oh, t.rows);
        VerticalSum<kUnit>(t.rows, W, f.xs[4], t.v.data());
        float* out = t.out.data();
        Horizontal<false>(t.v.data(), f.iw.lo, f.iw.hi, R, S, P, out);
        BorderColumns(f, t.v.data(), out, [](float acc, float v) { return acc + v; });
        if(inclusive)
        {
            WriteRow(f, n, c, od, oh, out, t.wtmp.data(), [&](int64_t) { return full; });
        }
        else
        {
            const float inv_rows = 1.0f / static_cast<float>(t.rows.count);
            const float* ic      = inv_cols.data();
            WriteRow(f, n, c, od, oh, out, t.wtmp.data(),
                     [=](int64_t ow) { return inv_rows * ic[ow]; });
        }
    });
}

/// Channels-last forward (C contiguous in x): one item per output row (n, od, oh); each output
/// reduces its window position by position, every position a contiguous run of C values, so the
/// inner loop runs along C. The indices still go to the workspace in (N, C, D, H, W) order.
template <bool kMax, bool kIndex, class Idx, class T>
void ForwardChannelsLast(const Fwd<T>& f, const PoolIndex& index)
{
    const PoolShape& s = f.s;
    const int64_t C = s.c, W = s.in[2], OW = s.out[2], R = s.window[2], S = s.stride[2],
                  P = s.pad[2];
    const int64_t xsw = f.xs[4], ysc = f.ys[1], ysw = f.ys[4];
    const bool inclusive = s.mode == miopenPoolingAverageInclusive;
    const float full = 1.0f / static_cast<float>(s.window[0] * s.window[1] * R);
    const int64_t rows_total = s.n * s.out[0] * s.out[1];
    const int64_t work = rows_total * OW * C * s.window[0] * s.window[1] * R;
    const int chunk    = Chunk(rows_total);
    Idx* idx = static_cast<Idx*>(index.data);
#pragma omp parallel if(Parallel(work))
    {
        FwdScratch t(s, f.ConvLen());
        std::vector<float> acc(C);
        std::vector<int32_t> key(kIndex ? C : 0);
#pragma omp for schedule(dynamic, chunk)
        for(int64_t item = 0; item < rows_total; ++item)
        {
            const int64_t oh = item % s.out[1];
            const int64_t od = item / s.out[1] % s.out[0];
            const int64_t n  = item / (s.out[1] * s.out[0]);
            GatherRows(f, n, 0, od, oh, t.rows);
            for(int64_t ow = 0; ow < OW; ++ow)
            {
                const int64_t start = ow * S - P;
                const int64_t k0 = std::max<int64_t>(0, -start), k1 = std::min(R, W - start);
                float* a = acc.data();
                const float* p0 = t.rows.ptr[0] + (start + k0) * xsw;
#pragma omp simd
                for(int64_t c = 0; c < C; ++c)
                    a[c] = p0[c];
                if constexpr(kIndex)
                    std::fill(key.begin(), key.end(), static_cast<int32_t>(k0));
                for(int64_t i = 0; i < t.rows.count; ++i)
                    for(int64_t kw = (i == 0 ? k0 + 1 : k0); kw < k1; ++kw)
                    {
                        const float* q = t.rows.ptr[i] + (start + kw) * xsw;
                        if constexpr(kIndex)
                        {
                            const int32_t k = static_cast<int32_t>(i * R + kw);
                            int32_t* kk     = key.data();
#pragma omp simd
                            for(int64_t c = 0; c < C; ++c)
                            {
                                const bool g = Greater(q[c], a[c]);
                                a[c]         = g ? q[c] : a[c];
                                kk[c]        = g ? k : kk[c];
                            }
                        }
                        else if constexpr(kMax)
                        {
#pragma omp simd
                            for(int64_t c = 0; c < C; ++c)
                                a[c] = MaxNan(a[c], q[c]);
                        }
                        else
                        {
#pragma omp simd
                            for(int64_t c = 0; c < C; ++c)
                                a[c] += q[c];
                        }
                    }
                const float scale =
                    kMax ? 1.0f
                         : inclusive ? full
                                     : 1.0f / static_cast<float>(t.rows.count * (k1 - k0));
                if(f.y != nullptr)
                {
                    T* yp = f.y + n * f.ys[0] + od * f.ys[2] + oh * f.ys[3] + ow * ysw;
                    WriteBlended(yp, ysc, C, f.alpha, f.beta, t.wtmp.data(),
                                 [&](int64_t c) { return a[c] * scale; });
                }
                if constexpr(kIndex)
                {
                    const int64_t plane = s.out[0] * s.out[1] * OW;
                    Idx* ip = idx + ((n * C * s.out[0] + od) * s.out[1] + oh) * OW + ow;
                    for(int64_t c = 0; c < C; ++c)
                    {
                        const int64_t i = key[c] / R, kw = key[c] % R;
                        ip[c * plane] = static_cast<Idx>(
                            index.image ? t.rows.image_row[i] * W + start + kw
                                        : static_cast<int64_t>(t.rows.key[i]) * R + kw);
                    }
                }
            }
        }
    }
}

} // namespace

template <class T>
void PoolForward(const PoolShape& s, float alpha, const T* x, const Strides5& xs, float beta,
                 T* y, const Strides5& ys, const PoolIndex& index)
{
    Fwd<T> f{s, x, xs, y, ys, alpha, beta,
             Interior(s.in[2], s.out[2], s.window[2], s.stride[2], s.pad[2])};
    f.cl = xs[4] != 1 && xs[1] == 1;
    // 16-bit rows are converted into unit-stride fp32 buffers (channels-last keeps its layout)
    const bool unit = xs[4] == 1 || !kIsFloat<T>;
    if(f.cl)
    {
        if(s.mode != miopenPoolingMax)
            return ForwardChannelsLast<false, false, uint8_t>(f, index);
        if(index.data == nullptr)
            return ForwardChannelsLast<true, false, uint8_t>(f, index);
        return WithIndexType(index.type, [&](auto tag) {
            ForwardChannelsLast<true, true, decltype(tag)>(f, index);
        });
    }
    if(s.mode != miopenPoolingMax)
        return unit ? ForwardAverage<true>(f) : ForwardAverage<false>(f);
    if(index.data == nullptr)
        return unit ? ForwardMax<true>(f) : ForwardMax<false>(f);
    WithIndexType(index.type, [&](auto tag) {
        using Idx = decltype(tag);
        const int64_t R = s.window[2], S = s.stride[2];
        if(unit && R == 3 && S == 2)
            ForwardMaxIndex<true, 3, 2, Idx>(f, index);
        else if(unit && R == 2 && S == 2)
            ForwardMaxIndex<true, 2, 2, Idx>(f, index);
        else if(unit && R == 3 && S == 1)
            ForwardMaxIndex<true, 3, 1, Idx>(f, index);
        else if(unit)
            ForwardMaxIndex<true, 0, 0, Idx>(f, index);
        else
            ForwardMaxIndex<false, 0, 0, Idx>(f, index);
    });
}

#define MIOPEN_POOL_FWD(T)                                                                       \
    template void PoolForward<T>(const PoolShape&, float, const T*, const Strides5&, float, T*, \
                                 const Strides5&, const PoolIndex&);
MIOPEN_POOL_FWD(float)
MIOPEN_POOL_FWD(Half)
MIOPEN_POOL_FWD(BFloat16)
#undef MIOPEN_POOL_FWD

} // namespace miopen::cpu
