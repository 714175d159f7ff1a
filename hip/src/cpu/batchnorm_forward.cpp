// CPU kernels of batch normalization, forward training and inference (the scheme: cpu/batchnorm_common.hpp).
// The fused training + activation (the fusion plan's BnFwdTrgActivationFused) applies the
// activation in the normalising loop, to each value before it is stored: one pass over y.
#include "cpu/activation_functors.hpp"
#include "cpu/batchnorm_common.hpp"

namespace miopen::cpu {
namespace {

using namespace bn;

// ---- forward ----------------------------------------------------------------------------

enum FwdOperand
{
    kFx = 0,
    kFy = 1,
    kFp = 2,
};

/// Per-group coefficients of y = (x - m) * a + c for the groups of one block.
struct FwdCoef
{
    float* m;
    float* a;
    float* c;
};

/// Coefficients of one block (on the stack) or of all groups (unfused paths).
struct FwdCoefStore
{
    explicit FwdCoefStore(size_t n) : m(n), a(n), c(n) {}
    FwdCoef At(size_t g0) { return {m.data() + g0, a.data() + g0, c.data() + g0}; }
    std::vector<float> m, a, c;
};

/// y = act((x - m) * a + c [+ beta * y]) over chunk k of block b (act: the fused activation's
/// functor, cpu/activation_functors.hpp; act::PassThru for the plain batch norm).
template <bool ReadY, class Op>
void ApplyForward(const Geometry<3>& geo, const Block<3>& b, size_t k, const BnForwardArgs& args,
                  const FwdCoef& cf, const Op& op)
{
    const float* x = static_cast<const float*>(args.x);
    float* y       = static_cast<float*>(args.y);
    const float beta = args.beta;
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    if(!geo.vec)
    {
        const float m = cf.m[0], a = cf.a[0], c = cf.c[0];
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const Op f      = op; // a local copy, so the loop vectorises (see cpu/activation.cpp)
            const float* xr = x + off[kFx];
            float* yr       = y + off[kFy];
            if(st[kFx] == 1 && st[kFy] == 1)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                {
                    const float v = (xr[i] - m) * a + c;
                    yr[i]         = f(ReadY ? v + beta * yr[i] : v);
                }
            }
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const float v     = (xr[i * st[kFx]] - m) * a + c;
                    float& out        = yr[i * st[kFy]];
                    out               = f(ReadY ? v + beta * out : v);
                }
            }
        });
        return;
    }
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const Op f      = op;
        const float* xr = x + off[kFx];
        float* yr       = y + off[kFy];
        if(st[kFx] == 1 && st[kFy] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const float v = (xr[i] - cf.m[i]) * cf.a[i] + cf.c[i];
                yr[i]         = f(ReadY ? v + beta * yr[i] : v);
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const float v = (xr[i * st[kFx]] - cf.m[i]) * cf.a[i] + cf.c[i];
                float& out    = yr[i * st[kFy]];
                out           = f(ReadY ? v + beta * out : v);
            }
        }
    });
}

/// ApplyForward for the fused activation (args.act) and beta of args, all of it fp32.
void ApplyForwardItem(const Geometry<3>& geo, const Block<3>& b, size_t k,
                      const BnForwardArgs& args, const FwdCoef& cf)
{
    act::WithMode(args.act, [&](const auto& op) {
        if(args.beta == 0.0f)
            ApplyForward<false>(geo, b, k, args, cf, op);
        else
            ApplyForward<true>(geo, b, k, args, cf, op);
    });
}

/// ApplyForwardItem over an item staged as fp32 (xs: its x, from st.In).
template <class T>
void ApplyForwardStaged(const ItemStage<T, 3>& st, size_t k, const BnForwardArgs& args,
                        const FwdCoef& cf, const float* xs)
{
    BnForwardArgs a = args;
    float* ys       = st.Out(kFy, args.y, args.beta != 0.0f, 2);
    a.x             = xs;
    a.y             = ys;
    ApplyForwardItem(st.Geo(), st.Blk(), k, a, cf);
    st.Flush(kFy, ys, args.y);
}

/// y = (x - m) * a + c [+ beta * y] over n elements of one group, 16-bit x and y at strides xs
/// and ys, on MapTyped's row engine (blocks converted in registers where it can): no fp32 copy of
/// the row. The training forward's rows and the inference's stream share it.
template <class T>
void ApplyRow16(const T* x, size_t xs, T* y, size_t ys, size_t n, float m, float a, float c,
                float beta)
{
    const auto block = [m, a, c](const float* const* v, float* r, size_t k, size_t) {
        const float* xv = v[0];
#pragma omp simd
        for(size_t i = 0; i < k; ++i)
            r[i] = (xv[i] - m) * a + c;
    };
    MapRow<T, 1>({x}, {xs}, y, ys, n, beta, block);
}

/// ApplyRow16 over a run whose i-th element has its own coefficients m[i], a[i], c[i] (a vec
/// geometry's groups, a channels-last pixel's channels).
template <class T>
void ApplyRunCoefs16(const T* x, size_t xs, T* y, size_t ys, size_t n, const float* cm,
                     const float* ca, const float* cc, float beta)
{
    const auto block = [cm, ca, cc](const float* const* v, float* r, size_t k, size_t start) {
        const float* xv = v[0];
        const float* m  = cm + start;
        const float* a  = ca + start;
        const float* c  = cc + start;
#pragma omp simd
        for(size_t i = 0; i < k; ++i)
            r[i] = (xv[i] - m[i]) * a[i] + c[i];
    };
    MapRow<T, 1>({x}, {xs}, y, ys, n, beta, block);
}

/// ApplyForward's plain batch norm (no fused activation) over chunk k of block b, straight from
/// x to y in 16 bits on MapTyped's row engine: a row geometry's segments are runs of one group
/// (ApplyRow16), a vec geometry's runs of the block's groups, each element with its group's
/// coefficients.
template <class T>
void ApplyForward16(const Geometry<3>& geo, const Block<3>& b, size_t k, const BnForwardArgs& args,
                    const FwdCoef& cf)
{
    const T* x = static_cast<const T*>(args.x);
    T* y       = static_cast<T*>(args.y);
    if(!geo.vec)
    {
        ForSegments(geo, b, geo.ChunkBegin(k), geo.ChunkEnd(k),
                    [&](const auto& off, size_t n, const auto& st) {
                        ApplyRow16(x + off[kFx], st[kFx], y + off[kFy], st[kFy], n, cf.m[0],
                                   cf.a[0], cf.c[0], args.beta);
                    });
        return;
    }
    ForSegments(geo, b, geo.ChunkBegin(k), geo.ChunkEnd(k),
                [&](const auto& off, size_t n, const auto& st) {
                    ApplyRunCoefs16(x + off[kFx], st[kFx], y + off[kFy], st[kFy], n, cf.m, cf.a,
                                    cf.c, args.beta);
                });
}

/// From the batch statistics of block b's groups: updates running / saved statistics and fills
/// the coefficients. Simple loops over the block, so each one vectorises.
void FinishTraining(const Geometry<3>& geo, const Block<3>& b, const BnForwardArgs& args,
                    const double* mean, const double* var, const FwdCoef& cf)
{
    const size_t n     = b.count;
    const size_t base  = b.base[kFp];
    const double f     = args.exp_avg_factor;
    const double alpha = args.alpha;
    // MIOpen: unbiased running variance, except that a single element per statistic keeps it.
    const double m      = static_cast<double>(geo.m);
    const double unbias = geo.m > 1 ? m / (m - 1.0) : 1.0;
    // 1/sqrt in float: twice the lanes of double, and exact enough for fp32 outputs.
    float inv_std[kVecBlock];
    const float eps_f = static_cast<float>(args.epsilon);
#pragma omp simd
    for(size_t i = 0; i < n; ++i)
        inv_std[i] = 1.0f / std::sqrt(static_cast<float>(var[i]) + eps_f);
    WithStep(b.gs[kFp], [&](auto ps) {
        if(args.running_mean != nullptr)
        {
            float* rm = args.running_mean + base;
            float* rv = args.running_variance + base;
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                rm[i * ps] = static_cast<float>((1.0 - f) * rm[i * ps] + f * mean[i]);
                rv[i * ps] = static_cast<float>((1.0 - f) * rv[i * ps] + f * (var[i] * unbias));
            }
        }
        if(args.save_mean != nullptr)
        {
            float* sm = args.save_mean + base;
            float* si = args.save_inv_std + base;
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                sm[i * ps] = static_cast<float>(mean[i]);
                si[i * ps] = inv_std[i];
            }
        }
        const float* scale = args.scale + base;
        const float* bias  = args.bias + base;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
        {
            cf.m[i] = static_cast<float>(mean[i]);
            cf.a[i] = static_cast<float>(alpha * scale[i * ps] * inv_std[i]);
            cf.c[i] = args.alpha * bias[i * ps];
        }
    });
}

/// Coefficients of block b's groups from the estimated statistics.
void InferenceCoef(const Block<3>& b, const BnForwardArgs& args, const FwdCoef& cf)
{
    const size_t n     = b.count;
    const size_t base  = b.base[kFp];
    const float eps    = static_cast<float>(args.epsilon);
    const float alpha  = args.alpha;
    const float* em    = args.est_mean + base;
    const float* ev    = args.est_variance + base;
    const float* scale = args.scale + base;
    const float* bias  = args.bias + base;
    WithStep(b.gs[kFp], [&](auto ps) {
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
        {
            const float inv_std = 1.0f / std::sqrt(ev[i * ps] + eps);
            cf.m[i]             = em[i * ps];
            cf.a[i]             = alpha * scale[i * ps] * inv_std;
            cf.c[i]             = alpha * bias[i * ps];
        }
    });
}

Geometry<3> ForwardGeometry(const BnForwardArgs& args)
{
    return MakeGeometry<3>(args.mode, {args.xDesc, args.yDesc, args.pDesc});
}

template <class T>
void ForwardTraining(const BnForwardArgs& args)
{
    const T* x        = static_cast<const T*>(args.x);
    const auto geo    = ForwardGeometry(args);
    // y straight from x (ApplyForward16): 16-bit data, no fused activation.
    const bool direct =
        !std::is_same_v<T, float> && args.act.mode == miopenActivationPASTHRU;
    if(geo.chunks == 1)
    {
        // Each work item owns whole groups: statistics, updates and output in one go.
        ParallelFor(geo.items_g, geo.Parallel(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            const ItemStage<T, 3> st(geo, b, 0);
            const float* xs = st.In(kFx, x, 0);
            double mean[kVecBlock], var[kVecBlock];
            ChunkStats(st.Geo(), st.Blk(), 0, xs, mean, var);
            const double inv_m = 1.0 / static_cast<double>(geo.m);
#pragma omp simd
            for(size_t i = 0; i < b.count; ++i)
                var[i] *= inv_m;
            float cm[kVecBlock], ca[kVecBlock], cc[kVecBlock];
            const FwdCoef cf{cm, ca, cc};
            FinishTraining(geo, b, args, mean, var, cf);
            if(direct)
                ApplyForward16<T>(geo, b, 0, args, cf);
            else
                ApplyForwardStaged(st, 0, args, cf, xs);
        });
        return;
    }
    std::vector<double> mean, var;
    AllStats(geo, x, mean, var);
    FwdCoefStore coefs(geo.groups);
    ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
        const auto b = GetBlock(geo, item);
        FinishTraining(geo, b, args, mean.data() + b.g0, var.data() + b.g0, coefs.At(b.g0));
    });
    ParallelFor(geo.items_g * geo.chunks, geo.Parallel(), [&](size_t item) {
        const auto b  = GetBlock(geo, item / geo.chunks);
        const size_t k = item % geo.chunks;
        if(direct)
            return ApplyForward16<T>(geo, b, k, args, coefs.At(b.g0));
        const ItemStage<T, 3> st(geo, b, k);
        ApplyForwardStaged(st, k, args, coefs.At(b.g0), st.In(kFx, x, 0));
    });
}

/// Whether every position of d's other dims holds its C channels contiguously: unit channel
/// stride, every other dim's stride at least C (channels-last NHWC / NDHWC, packed or padded).
bool ChannelsInnermost(const TensorDescriptor& d)
{
    const size_t c = d.Lens()[1];
    if(d.NumDims() < 2 || d.Strides()[1] != 1)
        return false;
    for(int i = 0; i < d.NumDims(); ++i)
        if(i != 1 && d.Lens()[i] > 1 && d.Strides()[i] < c)
            return false;
    return true;
}

/// Spatial inference on 16-bit channels-last x and y: every pixel's C channels are one row of
/// MapTyped's engine (blocks of 32 in registers where it can), the coefficients read at the
/// block's channels.
template <class T>
void InferenceChannelsLast(const BnForwardArgs& args, const FwdCoefStore& coefs)
{
    const TensorDescriptor& xd = *args.xDesc;
    const size_t c             = xd.Lens()[1];
    std::array<size_t, kMaxTensorDims> lens{}, xs{}, ys{};
    int nd = 0;
    for(int d = 0; d < xd.NumDims(); ++d)
    {
        if(d == 1)
            continue;
        lens[nd] = xd.Lens()[d];
        xs[nd]   = xd.Strides()[d];
        ys[nd]   = args.yDesc->Strides()[d];
        ++nd;
    }
    const auto pixels = MakeLoop<2>(nd, lens.data(), {xs.data(), ys.data()});
    const T* x        = static_cast<const T*>(args.x);
    T* y              = static_cast<T*>(args.y);
    const float *cm = coefs.m.data(), *ca = coefs.a.data(), *cc = coefs.c.data();
    ForEachRow(pixels, [&](const auto& off, size_t n, const auto& s) {
        for(size_t p = 0; p < n; ++p)
            ApplyRunCoefs16(x + off[0] + p * s[0], 1, y + off[1] + p * s[1], 1, c, cm, ca, cc,
                            args.beta);
    });
}

template <class T>
void ForwardInference(const BnForwardArgs& args)
{
    const auto geo = ForwardGeometry(args);
    // 16-bit channels-last spatial data: each pixel's channels a row of MapTyped's engine
    bool channels_last = false;
    if constexpr(!std::is_same_v<T, float>)
        channels_last = args.mode == miopenBNSpatial && ChannelsInnermost(*args.xDesc) &&
                        ChannelsInnermost(*args.yDesc);
    if(geo.vec && !channels_last)
    {
        // Blocks of neighbouring groups: their coefficients stay in L1 across the batch.
        ParallelFor(geo.items_g * geo.chunks, geo.Parallel(), [&](size_t item) {
            const auto b   = GetBlock(geo, item / geo.chunks);
            const size_t k = item % geo.chunks;
            float cm[kVecBlock], ca[kVecBlock], cc[kVecBlock];
            const FwdCoef cf{cm, ca, cc};
            InferenceCoef(b, args, cf);
            const ItemStage<T, 3> st(geo, b, k);
            ApplyForwardStaged(st, k, args, cf, st.In(kFx, args.x, 0));
        });
        return;
    }
    // No statistics to gather: compute every group's coefficients, then stream x in memory order
    // (one long run per thread instead of a channel's scattered rows).
    FwdCoefStore coefs(geo.groups);
    ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
        const auto b = GetBlock(geo, item);
        InferenceCoef(b, args, coefs.At(b.g0));
    });
    if constexpr(!std::is_same_v<T, float>)
    {
        if(channels_last)
            return InferenceChannelsLast<T>(args, coefs);
    }
    const TensorDescriptor& xd = *args.xDesc;
    std::array<int, kMaxTensorDims> order{};
    for(int d = 0; d < xd.NumDims(); ++d)
        order[d] = d;
    std::stable_sort(order.begin(), order.begin() + xd.NumDims(),
                     [&](int p, int q) { return xd.Strides()[p] > xd.Strides()[q]; });
    std::array<size_t, kMaxTensorDims> lens{}, xs{}, ys{}, gs{};
    for(int i = 0; i < xd.NumDims(); ++i)
    {
        lens[i] = xd.Lens()[order[i]];
        xs[i]   = xd.Strides()[order[i]];
        ys[i]   = args.yDesc->Strides()[order[i]];
        gs[i]   = geo.group_stride[order[i]];
    }
    const auto loop = MakeLoop<3>(xd.NumDims(), lens.data(), {xs.data(), ys.data(), gs.data()});
    const T* x = static_cast<const T*>(args.x);
    T* y       = static_cast<T*>(args.y);
    const float beta = args.beta;
    const float *cm = coefs.m.data(), *ca = coefs.a.data(), *cc = coefs.c.data();
    const auto row = [&](const auto& off, size_t n, const auto& st_in) {
        if constexpr(!std::is_same_v<T, float>)
        {
            if(st_in[2] == 0) // one group: MapTyped's row engine (16-bit in registers)
            {
                const size_t g = off[2];
                ApplyRow16(x + off[0], st_in[0], y + off[1], st_in[1], n, cm[g], ca[g], cc[g],
                           beta);
                return;
            }
        }
        auto st         = st_in;
        const float* xr = RowIn(x + off[0], n, st[0], 0);
        float* yr       = RowOut(y + off[1], n, st[1], beta != 0.0f, 1);
        if(st[2] == 0 && st[0] == 1 && st[1] == 1)
        {
            const size_t g = off[2];
            const float m = cm[g], a = ca[g], c = cc[g];
            if(beta == 0.0f)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                    yr[i] = (xr[i] - m) * a + c;
            }
            else
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                    yr[i] = (xr[i] - m) * a + c + beta * yr[i];
            }
            RowFlush(yr, y + off[1], n, st_in[1]);
            return;
        }
        for(size_t i = 0; i < n; ++i)
        {
            const size_t g = off[2] + i * st[2];
            Blend(yr[i * st[1]], (xr[i * st[0]] - cm[g]) * ca[g] + cc[g], 1.0f, beta);
        }
        RowFlush(yr, y + off[1], n, st_in[1]);
    };
    // 16-bit rows in pieces whose fp32 copies stay in L1 (converted in, computed, rounded out).
    constexpr size_t kPiece = std::is_same_v<T, float> ? ~size_t{0} : 2048;
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& st) {
        for(size_t b0 = 0; b0 < n; b0 += kPiece)
        {
            auto o = off;
            for(size_t k = 0; k < o.size(); ++k)
                o[k] += b0 * st[k];
            row(o, std::min(kPiece, n - b0), st);
        }
    });
}

} // namespace

template <class T>
void BatchNormForwardTraining(const BnForwardArgs& args)
{
    WithHostParams(args, [](const BnForwardArgs& a) { ForwardTraining<T>(a); });
}

template <class T>
void BatchNormForwardInference(const BnForwardArgs& args)
{
    WithHostParams(args, [](const BnForwardArgs& a) { ForwardInference<T>(a); });
}

#define MIOPEN_CY_BN_FORWARD(T)                                        \
    template void BatchNormForwardTraining<T>(const BnForwardArgs&); \
    template void BatchNormForwardInference<T>(const BnForwardArgs&);
MIOPEN_CY_BN_FORWARD(float)
MIOPEN_CY_BN_FORWARD(Half)
MIOPEN_CY_BN_FORWARD(BFloat16)
#undef MIOPEN_CY_BN_FORWARD

} // namespace miopen::cpu
