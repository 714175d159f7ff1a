// CPU kernel of batch normalization, backward (the scheme: cpu/batchnorm_common.hpp). Fused
// with an activation's backward (the fusion plan's BnBwdTrgActivationFused), dy is replaced by
// act'(u) * dy, u = scale * (x - mean) * inv_std + bias recomputed from x, in both the gradient
// sums and the dx loop: no temporary tensor, no extra pass.
#include "cpu/activation_functors.hpp"
#include "cpu/batchnorm_common.hpp"

#include <type_traits>

namespace miopen::cpu {
namespace {

using namespace bn;

// ---- backward ---------------------------------------------------------------------------

enum BwdOperand
{
    kBx  = 0,
    kBdy = 1,
    kBdx = 2,
    kBp  = 3,
};

/// The fused activation's input per group of a block: u = (x - m) * e + f (e = scale * inv_std,
/// f = bias), so that the kernels use op.Back(u, dy) for dy.
struct ActCoef
{
    const float* e;
    const float* f;
};

/// Per-chunk sums of dy and dy * (x - mean), in double (dy: op.Back(u, dy) when fused).
template <class Op>
void ChunkGradSums(const Geometry<4>& geo, const Block<4>& b, size_t k, const BnBackwardArgs& a,
                   const double* mean, double* sdy, double* sdyx, const ActCoef& ac, const Op& op)
{
    constexpr bool kFused = !std::is_same_v<Op, act::PassThru>;
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    const float* x  = static_cast<const float*>(a.x);
    const float* dy = static_cast<const float*>(a.dy);
    if(!geo.vec)
    {
        const double mu = mean[0];
        const float mf  = static_cast<float>(mu);
        const float ue = kFused ? ac.e[0] : 0.0f, uf = kFused ? ac.f[0] : 0.0f;
        double s1 = 0.0, s2 = 0.0;
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const Op f       = op;
            const float* xr  = x + off[kBx];
            const float* dyr = dy + off[kBdy];
            if(st[kBx] == 1 && st[kBdy] == 1)
            {
                if constexpr(!kFused)
                    GradSumsUnit(xr, dyr, n, mu, s1, s2);
                else
                {
                    // dy' a block at a time, then the plain sums over it
                    alignas(64) float g[kBlock];
                    for(size_t i0 = 0; i0 < n; i0 += kBlock)
                    {
                        const size_t m  = std::min(kBlock, n - i0);
                        const float* xb = xr + i0;
                        const float* db = dyr + i0;
#pragma omp simd
                        for(size_t i = 0; i < m; ++i)
                            g[i] = f.Back((xb[i] - mf) * ue + uf, db[i]);
                        GradSumsUnit(xb, g, m, mu, s1, s2);
                    }
                }
            }
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const float xv = xr[i * st[kBx]];
                    const double g =
                        kFused ? f.Back((xv - mf) * ue + uf, dyr[i * st[kBdy]]) : dyr[i * st[kBdy]];
                    s1 += g;
                    s2 += g * (xv - mu);
                }
            }
        });
        sdy[0]  = s1;
        sdyx[0] = s2;
        return;
    }
    std::fill(sdy, sdy + b.count, 0.0);
    std::fill(sdyx, sdyx + b.count, 0.0);
    float mf[kVecBlock];
    for(size_t i = 0; i < b.count; ++i)
        mf[i] = static_cast<float>(mean[i]);
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const Op f       = op;
        const float* xr  = x + off[kBx];
        const float* dyr = dy + off[kBdy];
        if(st[kBx] == 1 && st[kBdy] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const double g =
                    kFused ? f.Back((xr[i] - mf[i]) * ac.e[i] + ac.f[i], dyr[i]) : dyr[i];
                sdy[i] += g;
                sdyx[i] += g * (xr[i] - mean[i]);
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const float xv = xr[i * st[kBx]];
                const double g = kFused ? f.Back((xv - mf[i]) * ac.e[i] + ac.f[i],
                                                 dyr[i * st[kBdy]])
                                        : dyr[i * st[kBdy]];
                sdy[i] += g;
                sdyx[i] += g * (xv - mean[i]);
            }
        }
    });
}

/// dx = c1 * dy + c2 * (x - m) + c3 per group, for the groups of one block.
struct BwdCoef
{
    float* m;
    float* c1;
    float* c2;
    float* c3;
};

struct BwdCoefStore
{
    explicit BwdCoefStore(size_t n) : m(n), c1(n), c2(n), c3(n) {}
    BwdCoef At(size_t g0) { return {m.data() + g0, c1.data() + g0, c2.data() + g0, c3.data() + g0}; }
    std::vector<float> m, c1, c2, c3;
};

/// Writes dscale and dbias of block b's groups (blended) and fills the dx coefficients.
void FinishBackward(const Geometry<4>& geo, const Block<4>& b, const BnBackwardArgs& a,
                    const double* mean, const double* inv_std, const double* sdy,
                    const double* sdyx, const BwdCoef& cf)
{
    const size_t n     = b.count;
    const size_t base  = b.base[kBp];
    const double inv_m = 1.0 / static_cast<double>(geo.m);
    const double ad    = a.alpha_data;
    const float ap = a.alpha_param, bp = a.beta_param;
    const float* scale = a.scale + base;
    float* ds          = a.dscale + base;
    float* db          = a.dbias + base;
    double dscale[kVecBlock];
#pragma omp simd
    for(size_t i = 0; i < n; ++i)
        dscale[i] = sdyx[i] * inv_std[i];
    WithStep(b.gs[kBp], [&](auto ps) {
        if(bp == 0.0f)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                ds[i * ps] = ap * static_cast<float>(dscale[i]);
                db[i * ps] = ap * static_cast<float>(sdy[i]);
            }
        }
        else
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                ds[i * ps] = ap * static_cast<float>(dscale[i]) + bp * ds[i * ps];
                db[i * ps] = ap * static_cast<float>(sdy[i]) + bp * db[i * ps];
            }
        }
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
        {
            const double c1 = ad * scale[i * ps] * inv_std[i];
            cf.m[i]         = static_cast<float>(mean[i]);
            cf.c1[i]        = static_cast<float>(c1);
            cf.c2[i]        = static_cast<float>(-c1 * inv_std[i] * dscale[i] * inv_m);
            cf.c3[i]        = static_cast<float>(-c1 * sdy[i] * inv_m);
        }
    });
}

/// dx over chunk k of block b; fused, dy is op.Back(u, dy) (ChunkGradSums').
template <bool ReadDx, class Op>
void ApplyBackward(const Geometry<4>& geo, const Block<4>& b, size_t k, const BnBackwardArgs& a,
                   const BwdCoef& cf, const ActCoef& ac, const Op& op)
{
    constexpr bool kFused = !std::is_same_v<Op, act::PassThru>;
    const float* x  = static_cast<const float*>(a.x);
    const float* dy = static_cast<const float*>(a.dy);
    float* dx       = static_cast<float*>(a.dx);
    const float beta = a.beta_data;
    const size_t e0 = geo.ChunkBegin(k), e1 = geo.ChunkEnd(k);
    if(!geo.vec)
    {
        const float m = cf.m[0], c1 = cf.c1[0], c2 = cf.c2[0], c3 = cf.c3[0];
        const float ue = kFused ? ac.e[0] : 0.0f, uf = kFused ? ac.f[0] : 0.0f;
        ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
            const Op f       = op;
            const float* xr  = x + off[kBx];
            const float* dyr = dy + off[kBdy];
            float* dxr       = dx + off[kBdx];
            if(st[kBx] == 1 && st[kBdy] == 1 && st[kBdx] == 1)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                {
                    const float g = kFused ? f.Back((xr[i] - m) * ue + uf, dyr[i]) : dyr[i];
                    const float v = c1 * g + (c2 * (xr[i] - m) + c3);
                    dxr[i]        = ReadDx ? v + beta * dxr[i] : v;
                }
            }
            else
            {
                for(size_t i = 0; i < n; ++i)
                {
                    const float xv = xr[i * st[kBx]];
                    const float g  = kFused ? f.Back((xv - m) * ue + uf, dyr[i * st[kBdy]])
                                            : dyr[i * st[kBdy]];
                    const float v = c1 * g + (c2 * (xv - m) + c3);
                    float& out    = dxr[i * st[kBdx]];
                    out           = ReadDx ? v + beta * out : v;
                }
            }
        });
        return;
    }
    ForSegments(geo, b, e0, e1, [&](const auto& off, size_t n, const auto& st) {
        const Op f       = op;
        const float* xr  = x + off[kBx];
        const float* dyr = dy + off[kBdy];
        float* dxr       = dx + off[kBdx];
        if(st[kBx] == 1 && st[kBdy] == 1 && st[kBdx] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
            {
                const float g =
                    kFused ? f.Back((xr[i] - cf.m[i]) * ac.e[i] + ac.f[i], dyr[i]) : dyr[i];
                const float v = cf.c1[i] * g + (cf.c2[i] * (xr[i] - cf.m[i]) + cf.c3[i]);
                dxr[i]        = ReadDx ? v + beta * dxr[i] : v;
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
            {
                const float xv = xr[i * st[kBx]];
                const float g  = kFused ? f.Back((xv - cf.m[i]) * ac.e[i] + ac.f[i],
                                                 dyr[i * st[kBdy]])
                                        : dyr[i * st[kBdy]];
                const float v = cf.c1[i] * g + (cf.c2[i] * (xv - cf.m[i]) + cf.c3[i]);
                float& out    = dxr[i * st[kBdx]];
                out           = ReadDx ? v + beta * out : v;
            }
        }
    });
}

template <class Op>
void ApplyBackwardItem(const Geometry<4>& geo, const Block<4>& b, size_t k,
                       const BnBackwardArgs& a, const BwdCoef& cf, const ActCoef& ac,
                       const Op& op)
{
    if(a.beta_data == 0.0f)
        ApplyBackward<false>(geo, b, k, a, cf, ac, op);
    else
        ApplyBackward<true>(geo, b, k, a, cf, ac, op);
}

/// ApplyBackward's plain form (no fused activation) over chunk k of block b, straight from the
/// 16-bit x and dy to dx on MapTyped's row engine (converted in registers where it can): no fp32
/// copies of the three. The same arithmetic, dx = c1 * dy + (c2 * (x - m) + c3) [+ beta * dx],
/// with the group's coefficients (a vec geometry's runs hold the block's groups).
template <class T>
void ApplyBackward16(const Geometry<4>& geo, const Block<4>& b, size_t k, const BnBackwardArgs& a,
                     const BwdCoef& cf)
{
    const T* x  = static_cast<const T*>(a.x);
    const T* dy = static_cast<const T*>(a.dy);
    T* dx       = static_cast<T*>(a.dx);
    const bool vec = geo.vec;
    const float *cm = cf.m, *k1 = cf.c1, *k2 = cf.c2, *k3 = cf.c3;
    const auto block = [vec, cm, k1, k2, k3](const float* const* v, float* r, size_t n,
                                             size_t start) {
        const float* xv  = v[0];
        const float* dyv = v[1];
        if(!vec)
        {
            const float m = cm[0], c1 = k1[0], c2 = k2[0], c3 = k3[0];
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                r[i] = c1 * dyv[i] + (c2 * (xv[i] - m) + c3);
            return;
        }
        const float *m = cm + start, *c1 = k1 + start, *c2 = k2 + start, *c3 = k3 + start;
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            r[i] = c1[i] * dyv[i] + (c2[i] * (xv[i] - m[i]) + c3[i]);
    };
    ForSegments(geo, b, geo.ChunkBegin(k), geo.ChunkEnd(k),
                [&](const auto& off, size_t n, const auto& st) {
                    MapRow<T, 2>({x + off[kBx], dy + off[kBdy]}, {st[kBx], st[kBdy]},
                                 dx + off[kBdx], st[kBdx], n, a.beta_data, block);
                });
}

/// An item's x and dy staged as fp32 (ItemStage), with the backward arguments pointing at them.
template <class T>
struct BwdStage
{
    BwdStage(const Geometry<4>& geo, const Block<4>& b, size_t k, const BnBackwardArgs& a)
        : st(geo, b, k), args(a)
    {
        args.x  = st.In(kBx, a.x, 0);
        args.dy = st.In(kBdy, a.dy, 1);
    }

    /// ApplyBackwardItem over the item, dx computed as fp32 and rounded once into a.dx.
    template <class Op>
    void Apply(size_t k, const BnBackwardArgs& a, const BwdCoef& cf, const ActCoef& ac,
               const Op& op)
    {
        float* dxs = st.Out(kBdx, a.dx, a.beta_data != 0.0f, 2);
        args.dx    = dxs;
        ApplyBackwardItem(st.Geo(), st.Blk(), k, args, cf, ac, op);
        st.Flush(kBdx, dxs, a.dx);
    }

    ItemStage<T, 4> st;
    BnBackwardArgs args; // x, dy (and in Apply dx) at the staged fp32 copies
};

/// e = scale * inv_std and f = bias of block b's groups (the fused activation's input).
void FillActCoef(const Block<4>& b, const BnBackwardArgs& a, const double* inv_std, float* e,
                 float* f)
{
    if(!a.Fused())
        return;
    const float* scale = a.scale + b.base[kBp];
    const float* bias  = a.bias + b.base[kBp];
    WithStep(b.gs[kBp], [&](auto ps) {
        for(size_t i = 0; i < b.count; ++i)
        {
            e[i] = static_cast<float>(scale[i * ps] * inv_std[i]);
            f[i] = bias[i * ps];
        }
    });
}

template <class T, class Op>
void Backward(const BnBackwardArgs& a, const Op& op)
{
    const T* x = static_cast<const T*>(a.x);
    const auto geo = MakeGeometry<4>(a.mode, {a.xDesc, a.dyDesc, a.dxDesc, a.pDesc});
    const bool saved = a.saved_mean != nullptr;
    // dx straight from x and dy (ApplyBackward16): 16-bit data, not fused.
    const bool direct = !std::is_same_v<T, float> && !a.Fused();

    // Mean and 1/sqrt(var + eps) of block b's groups, from the saved statistics.
    const auto saved_stats = [&](const Block<4>& b, double* mean, double* inv_std) {
        const float* sm = a.saved_mean + b.base[kBp];
        const float* si = a.saved_inv_std + b.base[kBp];
        WithStep(b.gs[kBp], [&](auto ps) {
#pragma omp simd
            for(size_t i = 0; i < b.count; ++i)
            {
                mean[i]    = sm[i * ps];
                inv_std[i] = si[i * ps];
            }
        });
    };

    if(geo.chunks == 1)
    {
        ParallelFor(geo.items_g, geo.Parallel(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            BwdStage<T> sx(geo, b, 0, a);
            const float* xs = static_cast<const float*>(sx.args.x);
            double mean[kVecBlock], inv_std[kVecBlock], sdy[kVecBlock], sdyx[kVecBlock];
            if(saved)
                saved_stats(b, mean, inv_std);
            else
            {
                ChunkStats(sx.st.Geo(), sx.st.Blk(), 0, xs, mean, inv_std);
                const double inv_m = 1.0 / static_cast<double>(geo.m);
                const float eps    = static_cast<float>(a.epsilon);
#pragma omp simd
                for(size_t i = 0; i < b.count; ++i)
                    inv_std[i] = 1.0f / std::sqrt(static_cast<float>(inv_std[i] * inv_m) + eps);
            }
            float ue[kVecBlock], uf[kVecBlock];
            FillActCoef(b, a, inv_std, ue, uf);
            const ActCoef ac{ue, uf};
            ChunkGradSums(sx.st.Geo(), sx.st.Blk(), 0, sx.args, mean, sdy, sdyx, ac, op);
            float cm[kVecBlock], c1[kVecBlock], c2[kVecBlock], c3[kVecBlock];
            const BwdCoef cf{cm, c1, c2, c3};
            FinishBackward(geo, b, a, mean, inv_std, sdy, sdyx, cf);
            if(direct)
                ApplyBackward16<T>(geo, b, 0, a, cf);
            else
                sx.Apply(0, a, cf, ac, op);
        });
        return;
    }

    const size_t nk = geo.chunks;
    std::vector<double> mean(geo.groups), inv_std(geo.groups);
    if(saved)
    {
        ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            saved_stats(b, mean.data() + b.g0, inv_std.data() + b.g0);
        });
    }
    else
    {
        std::vector<double> var;
        AllStats(geo, x, mean, var);
        const float eps = static_cast<float>(a.epsilon);
#pragma omp simd
        for(size_t g = 0; g < geo.groups; ++g)
            inv_std[g] = 1.0f / std::sqrt(static_cast<float>(var[g]) + eps);
    }
    std::vector<float> ue(a.Fused() ? geo.groups : 0), uf(a.Fused() ? geo.groups : 0);
    if(a.Fused())
        ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
            const auto b = GetBlock(geo, item);
            FillActCoef(b, a, inv_std.data() + b.g0, ue.data() + b.g0, uf.data() + b.g0);
        });
    const auto act_of = [&](const Block<4>& b) {
        return a.Fused() ? ActCoef{ue.data() + b.g0, uf.data() + b.g0} : ActCoef{nullptr, nullptr};
    };
    std::vector<double> p1(geo.groups * nk), p2(geo.groups * nk);
    ParallelFor(geo.items_g * nk, geo.Parallel(), [&](size_t item) {
        const size_t k = item % nk;
        const auto b   = GetBlock(geo, item / nk);
        const BwdStage<T> sx(geo, b, k, a);
        double s1[kVecBlock], s2[kVecBlock];
        ChunkGradSums(sx.st.Geo(), sx.st.Blk(), k, sx.args, mean.data() + b.g0, s1, s2,
                             act_of(b), op);
        for(size_t i = 0; i < b.count; ++i)
        {
            p1[(b.g0 + i) * nk + k] = s1[i];
            p2[(b.g0 + i) * nk + k] = s2[i];
        }
    });
    BwdCoefStore coefs(geo.groups);
    ParallelFor(geo.items_g, geo.ParallelGroups(), [&](size_t item) {
        const auto b = GetBlock(geo, item);
        double s1[kVecBlock], s2[kVecBlock];
        for(size_t i = 0; i < b.count; ++i)
        {
            s1[i] = s2[i] = 0.0;
            for(size_t k = 0; k < nk; ++k)
            {
                s1[i] += p1[(b.g0 + i) * nk + k];
                s2[i] += p2[(b.g0 + i) * nk + k];
            }
        }
        FinishBackward(geo, b, a, mean.data() + b.g0, inv_std.data() + b.g0, s1, s2,
                       coefs.At(b.g0));
    });
    ParallelFor(geo.items_g * nk, geo.Parallel(), [&](size_t item) {
        const auto b   = GetBlock(geo, item / nk);
        const size_t k = item % nk;
        if(direct)
            return ApplyBackward16<T>(geo, b, k, a, coefs.At(b.g0));
        BwdStage<T> sx(geo, b, k, a);
        sx.Apply(k, a, coefs.At(b.g0), act_of(b), op);
    });
}

} // namespace

template <class T>
void BatchNormBackward(const BnBackwardArgs& args)
{
    WithHostParams(args, [](const BnBackwardArgs& a) {
        act::WithMode(a.act, [&](const auto& op) { Backward<T>(a, op); });
    });
}

template void BatchNormBackward<float>(const BnBackwardArgs&);
template void BatchNormBackward<Half>(const BnBackwardArgs&);
template void BatchNormBackward<BFloat16>(const BnBackwardArgs&);

} // namespace miopen::cpu
