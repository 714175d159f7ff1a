// CPU kernels of LRN forward and backward, cross-channel and within-channel, any strides.
// Cross-channel: a task owns one image's block of spatial positions for all channels (a C x block
// tile, vectorised across positions); within-channel: a task owns one (n, c) plane. Operands are
// gathered into unit-stride thread-local scratch, window sums are direct sums in a fixed order
// (deterministic, no running-sum drift), and the scale is saved packed in N, C, H, W order.
//
// Gradient (window W(c) = [c - lo, c + hi], lo = (N-1)/2, hi = N-1-lo; s = K + a/N * sum x^2):
//   dx_c = dy_c * s_c^-beta - (2 a beta / N) * x_c * sum_{c' : c in W(c')} dy_c' y_c' / s_c'
// and c in W(c') exactly when c' is in [c - hi, c + lo]: the same window sum, mirrored.
// fp16/bf16 operands are converted to fp32 as a task gathers them and rounded once as it stores
// (the workspace's scale too: it holds T, as MIOpen sizes it).
#include "lrn/lrn_args.hpp"
#include "cpu/storage_convert.hpp"
#include "cpu/strided.hpp"
#include "cpu/vector_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace miopen::cpu {
namespace {

// Floats per tile of the cross-channel engine (C x block positions); a task holds up to five.
constexpr size_t kTile = 8192;
// Below this many elements a call runs on one thread (PyTorch's grain: 32768 per thread).
constexpr size_t kMinParallel = 65536;

// ---- s^-beta ------------------------------------------------------------------------------------

enum class PowKind
{
    ThreeQuarters, // beta = 0.75 (AlexNet, Caffe's and PyTorch's default): two square roots
    Half,          // beta = 0.5
    One,           // beta = 1
    General,       // exp(-beta log s), vectorised
};

PowKind KindOf(double beta)
{
    if(beta == 0.75)
        return PowKind::ThreeQuarters;
    if(beta == 0.5)
        return PowKind::Half;
    if(beta == 1.0)
        return PowKind::One;
    return PowKind::General;
}

template <PowKind P>
inline float PowNeg(float s, float beta)
{
    if constexpr(P == PowKind::ThreeQuarters)
    {
        const float r = 1.0f / std::sqrt(s);
        return r * std::sqrt(r);
    }
    else if constexpr(P == PowKind::Half)
        return 1.0f / std::sqrt(s);
    else if constexpr(P == PowKind::One)
        return 1.0f / s;
    else
        return vmath::Exp(-beta * vmath::Log(s));
}

// ---- window sums -----------------------------------------------------------------------------------

/// out[r][i] = sum of in[r'][i] over r' in [r - before, r + after] clipped to [0, rows), for i < n;
/// rows are ld floats apart.
void RowWindowSum(const float* in, float* out, size_t rows, size_t ld, size_t n, long before,
                  long after)
{
    const long R = static_cast<long>(rows);
    for(long r = 0; r < R; ++r)
    {
        const long r0 = std::max(0L, r - before);
        const long r1 = std::min(R - 1, r + after);
        float* o      = out + r * ld;
        if(r0 > r1)
        {
            std::fill(o, o + n, 0.0f);
            continue;
        }
        std::memcpy(o, in + r0 * ld, n * sizeof(float));
        for(long q = r0 + 1; q <= r1; ++q)
        {
            const float* v = in + q * ld;
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                o[i] += v[i];
        }
    }
}

/// out[i] = sum of in[i'] over i' in [i - before, i + after] clipped to [0, n): one row.
void LineWindowSum(const float* in, float* out, size_t n, long before, long after)
{
    const long L = static_cast<long>(n);
    std::fill(out, out + n, 0.0f);
    // One shifted add per offset, in a fixed order: vectorised along the row.
    for(long d = -before; d <= after; ++d)
    {
        const long i0 = std::max(0L, -d);
        const long i1 = std::min(L, L - d);
        if(i0 >= i1)
            continue;
        const float* src = in + d;
#pragma omp simd
        for(long i = i0; i < i1; ++i)
            out[i] += src[i];
    }
}

/// A planar window sum over an H x W plane (both offsets): out may alias nothing; tmp is H*W.
void PlaneWindowSum(const float* in, float* tmp, float* out, size_t h, size_t w, long before,
                    long after)
{
    for(size_t r = 0; r < h; ++r)
        LineWindowSum(in + r * w, tmp + r * w, w, before, after);
    RowWindowSum(tmp, out, h, w, w, before, after);
}

struct Params
{
    long lo, hi;       // the window of c is [c - lo, c + hi]
    float k, ratio;    // scale = k + ratio * window sum
    float beta;
    float grad_coef;   // 2 * alpha * beta / divisor
};

Params MakeParams(const LrnParams& lrn)
{
    Params p;
    p.lo              = static_cast<long>((lrn.n - 1) / 2);
    p.hi              = static_cast<long>(lrn.n - 1) - p.lo;
    const double area = lrn.mode == miopenLRNCrossChannel
                            ? static_cast<double>(lrn.n)
                            : static_cast<double>(lrn.n) * static_cast<double>(lrn.n);
    p.k         = static_cast<float>(lrn.k);
    p.ratio     = static_cast<float>(lrn.alpha / area);
    p.beta      = static_cast<float>(lrn.beta);
    p.grad_coef = static_cast<float>(2.0 * lrn.alpha * lrn.beta / area);
    return p;
}

/// s = k + ratio * sum over the window of x^2, for a tile of `rows` rows of n values (ld apart):
/// channels (cross-channel) or image rows (within-channel, with the horizontal sum first).
void Scale(const float* x, float* sq, float* tmp, float* s, size_t rows, size_t ld, size_t n,
           const Params& p, bool planar)
{
    for(size_t r = 0; r < rows; ++r)
    {
        const float* xr = x + r * ld;
        float* q        = sq + r * ld;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            q[i] = xr[i] * xr[i];
    }
    if(planar)
        PlaneWindowSum(sq, tmp, s, rows, n, p.lo, p.hi);
    else
        RowWindowSum(sq, s, rows, ld, n, p.lo, p.hi);
    for(size_t r = 0; r < rows; ++r)
    {
        float* sr = s + r * ld;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            sr[i] = p.k + p.ratio * sr[i];
    }
}

/// Forward on a loaded tile: y_tile = x * s^-beta; s in s_tile.
template <PowKind P>
void ForwardTile(const float* xt, float* st, float* yt, float* sq, float* tmp, size_t rows,
                 size_t ld, size_t n, const Params& p, bool planar)
{
    Scale(xt, sq, tmp, st, rows, ld, n, p, planar);
    for(size_t r = 0; r < rows; ++r)
    {
        const float* xr = xt + r * ld;
        const float* sr = st + r * ld;
        float* yr       = yt + r * ld;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            yr[i] = xr[i] * PowNeg<P>(sr[i], p.beta);
    }
}

/// Backward on a loaded tile: dx_tile = dy * s^-beta - coef * x * mirrored window sum of
/// dy * y / s. Overwrites yt with the ratio.
template <PowKind P>
void BackwardTile(const float* xt, float* yt, const float* dyt, const float* st, float* dxt,
                  float* tmp, size_t rows, size_t ld, size_t n, const Params& p, bool planar)
{
    for(size_t r = 0; r < rows; ++r)
    {
        float* yr         = yt + r * ld;
        const float* dyr  = dyt + r * ld;
        const float* sr   = st + r * ld;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            yr[i] = dyr[i] * yr[i] / sr[i];
    }
    if(planar)
        PlaneWindowSum(yt, tmp, dxt, rows, n, p.hi, p.lo);
    else
        RowWindowSum(yt, dxt, rows, ld, n, p.hi, p.lo);
    for(size_t r = 0; r < rows; ++r)
    {
        const float* xr  = xt + r * ld;
        const float* dyr = dyt + r * ld;
        const float* sr  = st + r * ld;
        float* dxr       = dxt + r * ld;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            dxr[i] = dyr[i] * PowNeg<P>(sr[i], p.beta) - p.grad_coef * xr[i] * dxr[i];
    }
}

// ---- task layout ---------------------------------------------------------------------------------

/// How the 4-d problem is cut into tasks. Cross-channel: task = (n, block of positions), rows =
/// channels. Within-channel: task = (n, c), rows = image rows, one plane per task.
struct Layout
{
    size_t N, C, H, W, HW;
    bool planar;
    size_t block, blocks, tasks;
    size_t rows, ld;

    explicit Layout(const TensorDescriptor& d, bool within)
    {
        const auto& l = d.Lens();
        N = l[0], C = l[1], H = l[2], W = l[3], HW = H * W;
        planar = within;
        if(planar)
        {
            block = HW, blocks = 1, tasks = N * C, rows = H, ld = W;
        }
        else
        {
            block  = std::clamp<size_t>(kTile / C / 16 * 16, 16, 1024);
            block  = std::min(block, (HW + 15) / 16 * 16);
            blocks = (HW + block - 1) / block;
            tasks  = N * blocks;
            rows   = C;
            ld     = block;
        }
    }
};

/// The workspace: the scale, packed in N, C, H, W order.
TensorDescriptor PackedLike(const TensorDescriptor& d)
{
    TensorDescriptor packed;
    packed.Set(miopenFloat, d.Lens(), {});
    return packed;
}

/// One operand: its descriptor and its collapsed (h, w) loop.
struct Operand
{
    const TensorDescriptor& desc;
    Loop<1> spatial;
    explicit Operand(const TensorDescriptor& d)
        : desc(d), spatial(MakeLoop<1>(2, d.Lens().data() + 2, {d.Strides().data() + 2}))
    {
    }
    size_t Plane(size_t n, size_t c) const
    {
        return n * desc.Strides()[0] + c * desc.Strides()[1];
    }
};

/// Calls f(plane offset in op, first position, count, tile offset) for each row of task t.
template <class F>
void ForTaskRows(const Layout& L, size_t t, const Operand& op, F&& f)
{
    if(L.planar)
    {
        f(op.Plane(t / L.C, t % L.C), 0, L.HW, 0);
        return;
    }
    const size_t n = t / L.blocks, q0 = t % L.blocks * L.block;
    const size_t nb = std::min(L.block, L.HW - q0);
    for(size_t c = 0; c < L.C; ++c)
        f(op.Plane(n, c), q0, nb, c * L.ld);
}

/// Elements [begin, begin + n) of the collapsed loop l of a T tensor, as fp32 into dst.
template <class T>
void LoadIntoAs(const T* base, const Loop<1>& l, size_t begin, size_t n, float* dst)
{
    if constexpr(std::is_same_v<T, float>)
        LoadInto(base, l, 0, begin, n, dst);
    else
        ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
            const T* src   = base + off[0];
            const size_t s = l.strides[0][l.ndim - 1];
            if(s == 1)
                ConvertToFloat(src, dst + pos, len);
            else
                for(size_t i = 0; i < len; ++i)
                    dst[pos + i] = ToFloat(src[i * s]);
        });
}

/// out = alpha * v + beta * out for elements [begin, begin + n) of l, rounded once to T; tmp: n
/// floats (16-bit types).
template <class T>
void StoreAs(T* base, const Loop<1>& l, size_t begin, size_t n, float alpha, float beta,
             const float* v, float* tmp)
{
    if constexpr(std::is_same_v<T, float>)
    {
        (void)tmp;
        Store(base, l, 0, begin, n, beta, [&](size_t i) { return alpha * v[i]; });
    }
    else
        ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
            T* out          = base + off[0];
            const size_t st = l.strides[0][l.ndim - 1];
            if(st == 1)
            {
                float* w = tmp + pos;
                if(beta == 0.0f)
                {
#pragma omp simd
                    for(size_t j = 0; j < len; ++j)
                        w[j] = alpha * v[pos + j];
                }
                else
                {
                    ConvertToFloat(out, w, len);
                    for(size_t j = 0; j < len; ++j)
                        w[j] = alpha * v[pos + j] + beta * w[j];
                }
                ConvertFromFloat(w, out, len);
            }
            else
            {
                for(size_t j = 0; j < len; ++j)
                {
                    const float r = alpha * v[pos + j];
                    out[j * st]   = FloatTo<T>(beta == 0.0f ? r : r + beta * ToFloat(out[j * st]));
                }
            }
        });
}

/// Gathers operand `op` of task t into the tile (rows of ld floats).
template <class T>
void LoadTask(const Layout& L, size_t t, const Operand& op, const T* data, float* tile)
{
    ForTaskRows(L, t, op, [&](size_t plane, size_t q0, size_t nb, size_t o) {
        LoadIntoAs(data + plane, op.spatial, q0, nb, tile + o);
    });
}

/// out = alpha * tile + beta * out for task t's elements of operand `op`; tmp: a free tile.
template <class T>
void StoreTask(const Layout& L, size_t t, const Operand& op, T* data, const float* tile,
               float alpha, float beta, float* tmp)
{
    ForTaskRows(L, t, op, [&](size_t plane, size_t q0, size_t nb, size_t o) {
        StoreAs(data + plane, op.spatial, q0, nb, alpha, beta, tile + o, tmp + o);
    });
}

/// Positions per row of task t (the tile's n).
size_t TaskWidth(const Layout& L, size_t t)
{
    if(L.planar)
        return L.W;
    const size_t q0 = t % L.blocks * L.block;
    return std::min(L.block, L.HW - q0);
}

template <PowKind P, class T>
void Forward(const LrnParams& lrn, float alpha, const TensorDescriptor& xDesc, const T* x,
             float beta, const TensorDescriptor& yDesc, T* y, T* scale)
{
    const Layout L(xDesc, lrn.mode == miopenLRNWithinChannel);
    const Params p        = MakeParams(lrn);
    const TensorDescriptor wsDesc = PackedLike(yDesc);
    const Operand xo(xDesc), yo(yDesc), wso(wsDesc);
    const size_t tile     = L.rows * L.ld;
    const long long tasks = static_cast<long long>(L.tasks);
#pragma omp parallel for schedule(static) if(xDesc.ElementSize() >= kMinParallel)
    for(long long t = 0; t < tasks; ++t)
    {
        float* xt  = Scratch(0, tile);
        float* st  = Scratch(1, tile);
        float* yt  = Scratch(2, tile);
        float* sq  = Scratch(3, tile);
        float* tmp = Scratch(4, tile);
        LoadTask(L, t, xo, x, xt);
        ForwardTile<P>(xt, st, yt, sq, tmp, L.rows, L.ld, TaskWidth(L, t), p, L.planar);
        StoreTask(L, t, yo, y, yt, alpha, beta, tmp);
        if(scale != nullptr)
            StoreTask(L, t, wso, scale, st, 1.0f, 0.0f, tmp);
    }
}

template <PowKind P, class T>
void Backward(const LrnParams& lrn, float alpha, const TensorDescriptor& yDesc, const T* y,
              const TensorDescriptor& dyDesc, const T* dy, const TensorDescriptor& xDesc,
              const T* x, float beta, const TensorDescriptor& dxDesc, T* dx, const T* scale)
{
    const Layout L(yDesc, lrn.mode == miopenLRNWithinChannel);
    const Params p        = MakeParams(lrn);
    const TensorDescriptor wsDesc = PackedLike(yDesc);
    const Operand xo(xDesc), yo(yDesc), dyo(dyDesc), dxo(dxDesc), wso(wsDesc);
    const size_t tile     = L.rows * L.ld;
    const long long tasks = static_cast<long long>(L.tasks);
#pragma omp parallel for schedule(static) if(yDesc.ElementSize() >= kMinParallel)
    for(long long t = 0; t < tasks; ++t)
    {
        float* xt     = Scratch(0, tile);
        float* yt     = Scratch(1, tile);
        float* dyt    = Scratch(2, tile);
        float* st     = Scratch(3, tile);
        float* dxt    = Scratch(4, tile);
        float* tmp    = Scratch(5, tile);
        const size_t n = TaskWidth(L, t);
        LoadTask(L, t, xo, x, xt);
        LoadTask(L, t, yo, y, yt);
        LoadTask(L, t, dyo, dy, dyt);
        if(scale != nullptr)
            LoadTask(L, t, wso, scale, st);
        else
            Scale(xt, dxt, tmp, st, L.rows, L.ld, n, p, L.planar);
        BackwardTile<P>(xt, yt, dyt, st, dxt, tmp, L.rows, L.ld, n, p, L.planar);
        StoreTask(L, t, dxo, dx, dxt, alpha, beta, tmp);
    }
}

} // namespace

template <class T>
void LRNForward(const LrnParams& lrn, float alpha, const TensorDescriptor& xDesc, const T* x,
                float beta, const TensorDescriptor& yDesc, T* y, T* scale)
{
    switch(KindOf(lrn.beta))
    {
    case PowKind::ThreeQuarters:
        return Forward<PowKind::ThreeQuarters>(lrn, alpha, xDesc, x, beta, yDesc, y, scale);
    case PowKind::Half: return Forward<PowKind::Half>(lrn, alpha, xDesc, x, beta, yDesc, y, scale);
    case PowKind::One: return Forward<PowKind::One>(lrn, alpha, xDesc, x, beta, yDesc, y, scale);
    case PowKind::General:
        return Forward<PowKind::General>(lrn, alpha, xDesc, x, beta, yDesc, y, scale);
    }
}

template <class T>
void LRNBackward(const LrnParams& lrn, float alpha, const TensorDescriptor& yDesc, const T* y,
                 const TensorDescriptor& dyDesc, const T* dy, const TensorDescriptor& xDesc,
                 const T* x, float beta, const TensorDescriptor& dxDesc, T* dx, const T* scale)
{
#define MIOPEN_LRN_BWD(P) \
    Backward<P>(lrn, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx, scale)
    switch(KindOf(lrn.beta))
    {
    case PowKind::ThreeQuarters: return MIOPEN_LRN_BWD(PowKind::ThreeQuarters);
    case PowKind::Half: return MIOPEN_LRN_BWD(PowKind::Half);
    case PowKind::One: return MIOPEN_LRN_BWD(PowKind::One);
    case PowKind::General: return MIOPEN_LRN_BWD(PowKind::General);
    }
#undef MIOPEN_LRN_BWD
}

#define MIOPEN_LRN_INSTANTIATE(T)                                                                  \
    template void LRNForward<T>(const LrnParams&, float, const TensorDescriptor&, const T*, float, \
                                const TensorDescriptor&, T*, T*);                                  \
    template void LRNBackward<T>(const LrnParams&, float, const TensorDescriptor&, const T*,       \
                                 const TensorDescriptor&, const T*, const TensorDescriptor&,       \
                                 const T*, float, const TensorDescriptor&, T*, const T*);
MIOPEN_LRN_INSTANTIATE(float)
MIOPEN_LRN_INSTANTIATE(Half)
MIOPEN_LRN_INSTANTIATE(BFloat16)
#undef MIOPEN_LRN_INSTANTIATE

} // namespace miopen::cpu
