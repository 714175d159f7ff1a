// bn_train_nchw4: spatial batch-norm training (forward and backward) on packed NCHW (NCDHW)
// tensors whose H*W (D*H*W) is a multiple of 4 and whose x and y are 16-byte aligned: the
// statistics and the normalizing pass read x in quads of 4 elements (Load4: a float4 for fp32, 8
// bytes for fp16 / bf16; the generic group reduction reads one element per load, four loads in
// flight per thread, and walks the reduction space with 64-bit index arithmetic). Templated on
// the data's storage type T; arithmetic in fp32 / double, y rounded once (Store4).
//
//   bn_stats_nchw4  block (p, c) reduces chunk p of channel c: sum (x - x0), sum (x - x0)^2 in
//                   double, x0 the channel's first x, each thread over its float4s in increasing
//                   order (components x, y, z, w), then a fixed shared-memory tree over the
//                   block. Partials partial[c * chunks + p], the layout BnTrainFinish adds up in
//                   chunk order. No atomics: the same bits on every run.
//   bn_apply_nchw4  y = (x - m) * a + c (+ beta * y), the coefficients of y's channel; a block
//                   owns kApplyPerBlock float4s of the flattened tensor.
//   Backward (spatial, the same conditions on x, dy and dx): bn_grad_sums_nchw4 (sum dy and
//   sum dy * (x - mean) per (channel, chunk), bn_stats_nchw4's walk and tree) and
//   bn_bwd_apply_nchw4 (dx = c1 * dy + (c2 * (x - m) + c3), bn_apply_nchw4's shape); the
//   statistics, when not saved, come from bn_stats_nchw4, and batchnorm.hip's prepare and finish
//   kernels run between.
//
// The floor is three passes over x (read, read, write): 0.15 ms for (64, 64, 112, 112) at 4.25
// TB/s. Formulas are batchnorm.hip's (the finish kernel is shared). Fused with an activation
// (bn_activ.hpp; Op, PassThru when plain): bn_apply_nchw4 stores act(y); bn_grad_sums_nchw4 and
// bn_bwd_apply_nchw4 take act'(u) * dy for dy.
#include "kernels/batchnorm/bn_train_nchw4_kernels.hpp"
#include "kernels/batchnorm/bn_activ.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {
namespace {

constexpr int kUnroll = 4; // float4s a thread loads before it adds them

template <class T>
__global__ void __launch_bounds__(kBnNchw4Threads)
    BnStatsNchw4(BnNchw4Args a, const T* x, Partial2* partial)
{
    __shared__ double sh1[kBnNchw4Threads];
    __shared__ double sh2[kBnNchw4Threads];
    const uint32_t c     = blockIdx.y;
    const uint32_t p     = blockIdx.x;
    const uint32_t hw4   = a.hw4;
    const uint32_t m4    = a.n * hw4; // float4s of one channel
    const uint32_t begin = p * a.chunk4;
    const uint32_t end   = begin + a.chunk4 < m4 ? begin + a.chunk4 : m4;
    const double shift   = LoadFloat(x + static_cast<int64_t>(c) * hw4 * 4);
    // The float4 at channel index i: image i / hw4, position i % hw4.
    auto at = [&](uint32_t i) {
        const uint32_t n = i / hw4;
        return (static_cast<int64_t>(n) * a.c + c) * hw4 + (i - n * hw4);
    };
    double s1 = 0.0, s2 = 0.0;
    auto add = [&](float4 v) {
        const double d0 = static_cast<double>(v.x) - shift;
        const double d1 = static_cast<double>(v.y) - shift;
        const double d2 = static_cast<double>(v.z) - shift;
        const double d3 = static_cast<double>(v.w) - shift;
        s1 += d0;
        s2 += d0 * d0;
        s1 += d1;
        s2 += d1 * d1;
        s1 += d2;
        s2 += d2 * d2;
        s1 += d3;
        s2 += d3 * d3;
    };
    uint32_t i = begin + threadIdx.x;
    for(; i + (kUnroll - 1) * kBnNchw4Threads < end; i += kUnroll * kBnNchw4Threads)
    {
        float4 v[kUnroll];
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            v[u] = Load4(x + 4 * at(i + u * kBnNchw4Threads));
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            add(v[u]);
    }
    for(; i < end; i += kBnNchw4Threads)
        add(Load4(x + 4 * at(i)));
    sh1[threadIdx.x] = s1;
    sh2[threadIdx.x] = s2;
    __syncthreads();
    for(int s = kBnNchw4Threads / 2; s > 0; s /= 2)
    {
        if(static_cast<int>(threadIdx.x) < s)
        {
            sh1[threadIdx.x] += sh1[threadIdx.x + s];
            sh2[threadIdx.x] += sh2[threadIdx.x + s];
        }
        __syncthreads();
    }
    if(threadIdx.x == 0)
        partial[static_cast<int64_t>(c) * a.chunks + p] = Partial2{sh1[0], sh2[0]};
}

/// Backward's sums per (channel, chunk): sum dy, sum dy * (x - mean) (batchnorm.hip's GradAcc),
/// the walk and the tree of BnStatsNchw4.
template <class T, class Op>
__global__ void __launch_bounds__(kBnNchw4Threads)
    BnGradSumsNchw4(BnNchw4Args a, const T* x, const T* dy, const double* mean, Partial2* partial,
                    const float* ue, const float* uf, Op op)
{
    __shared__ double sh1[kBnNchw4Threads];
    __shared__ double sh2[kBnNchw4Threads];
    const uint32_t c     = blockIdx.y;
    const uint32_t p     = blockIdx.x;
    const uint32_t hw4   = a.hw4;
    const uint32_t m4    = a.n * hw4;
    const uint32_t begin = p * a.chunk4;
    const uint32_t end   = begin + a.chunk4 < m4 ? begin + a.chunk4 : m4;
    const double mu      = mean[c];
    const float mf       = static_cast<float>(mu);
    float e = 0.0f, f = 0.0f;
    if constexpr(kBnActive<Op>)
    {
        e = ue[c];
        f = uf[c];
    }
    auto at = [&](uint32_t i) {
        const uint32_t n = i / hw4;
        return (static_cast<int64_t>(n) * a.c + c) * hw4 + (i - n * hw4);
    };
    double s1 = 0.0, s2 = 0.0;
    auto add = [&](float4 v, float4 g) {
        const float xe[4] = {v.x, v.y, v.z, v.w};
        const float ge[4] = {g.x, g.y, g.z, g.w};
#pragma unroll
        for(int k = 0; k < 4; ++k)
        {
            const double gk = BnActBack<T>(op, xe[k], mf, e, f, ge[k]);
            s1 += gk;
            s2 += gk * (static_cast<double>(xe[k]) - mu);
        }
    };
    uint32_t i = begin + threadIdx.x;
    for(; i + (kUnroll - 1) * kBnNchw4Threads < end; i += kUnroll * kBnNchw4Threads)
    {
        float4 v[kUnroll], g[kUnroll];
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
        {
            const int64_t o = 4 * at(i + u * kBnNchw4Threads);
            v[u]            = Load4(x + o);
            g[u]            = Load4(dy + o);
        }
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            add(v[u], g[u]);
    }
    for(; i < end; i += kBnNchw4Threads)
        add(Load4(x + 4 * at(i)), Load4(dy + 4 * at(i)));
    sh1[threadIdx.x] = s1;
    sh2[threadIdx.x] = s2;
    __syncthreads();
    for(int s = kBnNchw4Threads / 2; s > 0; s /= 2)
    {
        if(static_cast<int>(threadIdx.x) < s)
        {
            sh1[threadIdx.x] += sh1[threadIdx.x + s];
            sh2[threadIdx.x] += sh2[threadIdx.x + s];
        }
        __syncthreads();
    }
    if(threadIdx.x == 0)
        partial[static_cast<int64_t>(c) * a.chunks + p] = Partial2{sh1[0], sh2[0]};
}

/// dx = c1 * dy + (c2 * (x - m) + c3) (+ beta * dx) per channel (batchnorm.hip's BwdApplyF).
template <class T, bool ReadDx, class Op>
__global__ void __launch_bounds__(kBnNchw4Threads)
    BnBwdApplyNchw4(BnNchw4Args a, const T* dy, const T* x, T* dx, BnCoef coef, Op op)
{
    const uint32_t hw4   = a.hw4;
    const uint32_t total = a.n * a.c * hw4;
    const uint32_t base  = blockIdx.x * uint32_t{kBnApplyPerBlock};
    constexpr int kPer   = kBnApplyPerBlock / kBnNchw4Threads;
    float4 v[kPer], g[kPer];
#pragma unroll
    for(int u = 0; u < kPer; ++u)
    {
        const uint32_t i = base + threadIdx.x + u * kBnNchw4Threads;
        if(i < total)
        {
            v[u] = Load4(x + int64_t{4} * i);
            g[u] = Load4(dy + int64_t{4} * i);
        }
    }
#pragma unroll
    for(int u = 0; u < kPer; ++u)
    {
        const uint32_t i = base + threadIdx.x + u * kBnNchw4Threads;
        if(i >= total)
            continue;
        const uint32_t ch = (i / hw4) % a.c;
        const float m = coef.m[ch], c1 = coef.a[ch], c2 = coef.c[ch], c3 = coef.d[ch];
        if constexpr(kBnActive<Op>)
        {
            const float e = coef.e[ch], f = coef.f[ch];
            g[u].x = BnActBack<T>(op, v[u].x, m, e, f, g[u].x);
            g[u].y = BnActBack<T>(op, v[u].y, m, e, f, g[u].y);
            g[u].z = BnActBack<T>(op, v[u].z, m, e, f, g[u].z);
            g[u].w = BnActBack<T>(op, v[u].w, m, e, f, g[u].w);
        }
        float4 r;
        r.x = c1 * g[u].x + (c2 * (v[u].x - m) + c3);
        r.y = c1 * g[u].y + (c2 * (v[u].y - m) + c3);
        r.z = c1 * g[u].z + (c2 * (v[u].z - m) + c3);
        r.w = c1 * g[u].w + (c2 * (v[u].w - m) + c3);
        if(ReadDx)
        {
            const float4 o = Load4(dx + int64_t{4} * i);
            r.x += a.beta * o.x;
            r.y += a.beta * o.y;
            r.z += a.beta * o.z;
            r.w += a.beta * o.w;
        }
        Store4(dx + int64_t{4} * i, r);
    }
}

template <class T, bool ReadY, class Op>
__global__ void __launch_bounds__(kBnNchw4Threads)
    BnApplyNchw4(BnNchw4Args a, const T* x, T* y, BnCoef coef, Op op)
{
    const uint32_t hw4   = a.hw4;
    const uint32_t total = a.n * a.c * hw4;
    const uint32_t base  = blockIdx.x * uint32_t{kBnApplyPerBlock};
    constexpr int kPer   = kBnApplyPerBlock / kBnNchw4Threads;
    float4 v[kPer];
#pragma unroll
    for(int u = 0; u < kPer; ++u)
    {
        const uint32_t i = base + threadIdx.x + u * kBnNchw4Threads;
        if(i < total)
            v[u] = Load4(x + int64_t{4} * i);
    }
#pragma unroll
    for(int u = 0; u < kPer; ++u)
    {
        const uint32_t i = base + threadIdx.x + u * kBnNchw4Threads;
        if(i >= total)
            continue;
        const uint32_t ch = (i / hw4) % a.c;
        const float m = coef.m[ch], s = coef.a[ch], b = coef.c[ch];
        float4 r;
        r.x = (v[u].x - m) * s + b;
        r.y = (v[u].y - m) * s + b;
        r.z = (v[u].z - m) * s + b;
        r.w = (v[u].w - m) * s + b;
        if(ReadY)
        {
            const float4 o = Load4(y + int64_t{4} * i);
            r.x += a.beta * o.x;
            r.y += a.beta * o.y;
            r.z += a.beta * o.z;
            r.w += a.beta * o.w;
        }
        r.x = BnActF<T>(op, r.x);
        r.y = BnActF<T>(op, r.y);
        r.z = BnActF<T>(op, r.z);
        r.w = BnActF<T>(op, r.w);
        Store4(y + int64_t{4} * i, r);
    }
}

} // namespace

template <class T>
void LaunchBnStatsNchw4(const BnNchw4Args& a, const Launch& l, const T* x, Partial2* partial)
{
    MIOPEN_CY_LAUNCH(BnStatsNchw4<T>, l, 0, a, x, partial);
}

template <class T>
void LaunchBnApplyNchw4(const BnNchw4Args& a, const Launch& l, const T* x, T* y, BnCoef coef,
                        const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        using Op = decltype(op);
        if(a.beta != 0.0f)
            MIOPEN_CY_LAUNCH((BnApplyNchw4<T, true, Op>), l, 0, a, x, y, coef, op);
        else
            MIOPEN_CY_LAUNCH((BnApplyNchw4<T, false, Op>), l, 0, a, x, y, coef, op);
    });
}

template <class T>
void LaunchBnGradSumsNchw4(const BnNchw4Args& a, const Launch& l, const T* x, const T* dy,
                           const double* mean, Partial2* partial, const float* ue,
                           const float* uf, const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        MIOPEN_CY_LAUNCH((BnGradSumsNchw4<T, decltype(op)>), l, 0, a, x, dy, mean, partial, ue, uf,
                         op);
    });
}

template <class T>
void LaunchBnBwdApplyNchw4(const BnNchw4Args& a, const Launch& l, const T* dy, const T* x, T* dx,
                           BnCoef coef, const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        using Op = decltype(op);
        if(a.beta != 0.0f)
            MIOPEN_CY_LAUNCH((BnBwdApplyNchw4<T, true, Op>), l, 0, a, dy, x, dx, coef, op);
        else
            MIOPEN_CY_LAUNCH((BnBwdApplyNchw4<T, false, Op>), l, 0, a, dy, x, dx, coef, op);
    });
}

#define MIOPEN_CY_BN_NCHW4(T)                                                                 \
    template void LaunchBnStatsNchw4<T>(const BnNchw4Args&, const Launch&, const T*,        \
                                        Partial2*);                                          \
    template void LaunchBnApplyNchw4<T>(const BnNchw4Args&, const Launch&, const T*, T*, BnCoef, \
                                        const ActivationMode&);                              \
    template void LaunchBnGradSumsNchw4<T>(const BnNchw4Args&, const Launch&, const T*,     \
                                           const T*, const double*, Partial2*, const float*, \
                                           const float*, const ActivationMode&);             \
    template void LaunchBnBwdApplyNchw4<T>(const BnNchw4Args&, const Launch&, const T*,     \
                                           const T*, T*, BnCoef, const ActivationMode&);
MIOPEN_CY_BN_NCHW4(float)
MIOPEN_CY_BN_NCHW4(Half)
MIOPEN_CY_BN_NCHW4(BFloat16)
#undef MIOPEN_CY_BN_NCHW4

} // namespace miopen::gpu
