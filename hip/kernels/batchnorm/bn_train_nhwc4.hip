// bn_train_nhwc4: spatial batch-norm training (forward and backward) on packed channels-last
// tensors (N[D]HWC) whose C is a multiple of 4 and whose x and y are 16-byte aligned: the NHWC
// partner of bn_train_nchw4 (the generic group reduction reads one element per load with 64-bit
// index arithmetic, and the element-wise apply cannot merge a channels-last space into rows).
//
//   bn_stats_nhwc4  block (p, j) = cq quads of channels (threadIdx.x) by lanes of positions
//                   (threadIdx.y): each thread adds its quad's 4 channels over positions
//                   p * chunk + ty, + lanes, ... in increasing order (double, shifted by the
//                   channel's x at position 0), then a fixed shared-memory tree over the lanes.
//                   Partials partial[c * chunks + p], the layout BnTrainFinish adds up in chunk
//                   order. No atomics: the same bits on every run.
//   bn_collapse_partials  the chunks' partials of each channel added into one (a block a
//                   channel: thread t adds chunks t, t + 256, ... in order, then a fixed
//                   shared-memory tree), so that the one-thread-a-channel finish kernels read one
//                   partial, not ~1024 in a serial loop (about 0.2 ms at C = 64 on an H200).
//   bn_apply_nhwc4  y = (x - m) * a + c (+ beta * y), a thread per quad, the coefficients of its
//                   4 channels (quad q % c4; read once a thread where c4 divides the block),
//                   4 quads loaded before any is stored.
//   Backward (spatial, the same conditions on x, dy and dx): bn_grad_sums_nhwc4 (sum dy and
//   sum dy * (x - mean) per (channel, chunk), bn_stats_nhwc4's walk and tree) and
//   bn_bwd_apply_nhwc4; the statistics, when not saved, from bn_stats_nhwc4, and batchnorm.hip's
//   prepare and finish kernels between.
// Templated on the storage type T (Load4 / Store4: float4 or 8 bytes of fp16 / bf16). Fused with
// an activation (bn_activ.hpp; Op, PassThru when plain): bn_apply_nhwc4 stores act(y);
// bn_grad_sums_nhwc4 and bn_bwd_apply_nhwc4 take act'(u) * dy for dy.
#include "kernels/batchnorm/bn_train_nhwc4_kernels.hpp"
#include "kernels/batchnorm/bn_activ.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {
namespace {

/// Quads a thread loads (per operand) before it uses any: 4 float4s of fp32, as many bytes (8
/// quads of 8 bytes) of fp16 / bf16.
template <class T>
constexpr int kQuadsInFlight = 16 / static_cast<int>(sizeof(T));

template <class T>
__global__ void __launch_bounds__(kBnNhwc4Threads)
    BnStatsNhwc4(BnNhwc4Args a, const T* x, Partial2* partial)
{
    __shared__ double sh[kBnNhwc4Threads][8];
    const int cq     = a.cq;
    const int lanes  = kBnNhwc4Threads / cq;
    const int tx     = threadIdx.x % cq;
    const int ty     = threadIdx.x / cq;
    const int64_t q  = int64_t{blockIdx.y} * cq + tx; // quad of channels
    const int p      = blockIdx.x;
    double s1[4] = {0.0, 0.0, 0.0, 0.0}, s2[4] = {0.0, 0.0, 0.0, 0.0};
    if(q < a.c4)
    {
        const float4 x0     = Load4(x + 4 * q);
        const double sh0[4] = {x0.x, x0.y, x0.z, x0.w};
        const int64_t begin = int64_t{p} * a.chunk;
        const int64_t end   = begin + a.chunk < a.m ? begin + a.chunk : a.m;
        const T* xq         = x + 4 * q;
        auto add = [&](float4 v) {
            const float e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for(int k = 0; k < 4; ++k)
            {
                const double dk = static_cast<double>(e[k]) - sh0[k];
                s1[k] += dk;
                s2[k] += dk * dk;
            }
        };
        int64_t i = begin + ty;
        constexpr int kU = kQuadsInFlight<T>;
        for(; i + (kU - 1) * lanes < end; i += kU * lanes)
        {
            float4 v[kU];
#pragma unroll
            for(int u = 0; u < kU; ++u)
                v[u] = Load4(xq + (i + u * lanes) * a.c4 * 4);
#pragma unroll
            for(int u = 0; u < kU; ++u)
                add(v[u]);
        }
        for(; i < end; i += lanes)
            add(Load4(xq + i * a.c4 * 4));
    }
#pragma unroll
    for(int k = 0; k < 4; ++k)
    {
        sh[threadIdx.x][k]     = s1[k];
        sh[threadIdx.x][4 + k] = s2[k];
    }
    __syncthreads();
    // Tree over the lanes (threadIdx.y), same channel quad: thread t adds thread t + s * cq.
    for(int s = lanes / 2; s > 0; s /= 2)
    {
        if(ty < s)
        {
#pragma unroll
            for(int k = 0; k < 8; ++k)
                sh[threadIdx.x][k] += sh[threadIdx.x + s * cq][k];
        }
        __syncthreads();
    }
    if(ty == 0 && q < a.c4)
    {
#pragma unroll
        for(int k = 0; k < 4; ++k)
            partial[(4 * q + k) * a.chunks + p] =
                Partial2{sh[threadIdx.x][k], sh[threadIdx.x][4 + k]};
    }
}

/// total[c] = the sum over p of partial[c * chunks + p]: a block a channel, a fixed order.
__global__ void __launch_bounds__(kBnNhwc4Threads)
    BnCollapsePartials(const Partial2* partial, int chunks, Partial2* total)
{
    __shared__ double sh[2][kBnNhwc4Threads];
    const int t           = threadIdx.x;
    const Partial2* row   = partial + int64_t{blockIdx.x} * chunks;
    double s1 = 0.0, s2 = 0.0;
    for(int p = t; p < chunks; p += kBnNhwc4Threads)
    {
        s1 += row[p].s1;
        s2 += row[p].s2;
    }
    sh[0][t] = s1;
    sh[1][t] = s2;
    __syncthreads();
    for(int s = kBnNhwc4Threads / 2; s > 0; s /= 2)
    {
        if(t < s)
        {
            sh[0][t] += sh[0][t + s];
            sh[1][t] += sh[1][t + s];
        }
        __syncthreads();
    }
    if(t == 0)
        total[blockIdx.x] = Partial2{sh[0][0], sh[1][0]};
}

/// Backward's sums per (channel, chunk): sum dy, sum dy * (x - mean) (batchnorm.hip's GradAcc),
/// the walk and the tree of BnStatsNhwc4.
template <class T, class Op>
__global__ void __launch_bounds__(kBnNhwc4Threads)
    BnGradSumsNhwc4(BnNhwc4Args a, const T* x, const T* dy, const double* mean, Partial2* partial,
                    const float* ue, const float* uf, Op op)
{
    __shared__ double sh[kBnNhwc4Threads][8];
    const int cq    = a.cq;
    const int lanes = kBnNhwc4Threads / cq;
    const int tx    = threadIdx.x % cq;
    const int ty    = threadIdx.x / cq;
    const int64_t q = int64_t{blockIdx.y} * cq + tx;
    const int p     = blockIdx.x;
    double s1[4] = {0.0, 0.0, 0.0, 0.0}, s2[4] = {0.0, 0.0, 0.0, 0.0};
    if(q < a.c4)
    {
        const double mu[4]  = {mean[4 * q], mean[4 * q + 1], mean[4 * q + 2], mean[4 * q + 3]};
        float mf[4] = {}, e[4] = {}, f[4] = {};
        if constexpr(kBnActive<Op>)
        {
#pragma unroll
            for(int k = 0; k < 4; ++k)
            {
                mf[k] = static_cast<float>(mu[k]);
                e[k]  = ue[4 * q + k];
                f[k]  = uf[4 * q + k];
            }
        }
        const int64_t begin = int64_t{p} * a.chunk;
        const int64_t end   = begin + a.chunk < a.m ? begin + a.chunk : a.m;
        const T* xq         = x + 4 * q;
        const T* gq         = dy + 4 * q;
        auto add = [&](float4 v, float4 g) {
            const float xe[4] = {v.x, v.y, v.z, v.w};
            const float ge[4] = {g.x, g.y, g.z, g.w};
#pragma unroll
            for(int k = 0; k < 4; ++k)
            {
                const double gk = BnActBack<T>(op, xe[k], mf[k], e[k], f[k], ge[k]);
                s1[k] += gk;
                s2[k] += gk * (static_cast<double>(xe[k]) - mu[k]);
            }
        };
        int64_t i = begin + ty;
        constexpr int kU = kQuadsInFlight<T>;
        for(; i + (kU - 1) * lanes < end; i += kU * lanes)
        {
            float4 v[kU], g[kU];
#pragma unroll
            for(int u = 0; u < kU; ++u)
            {
                const int64_t o = (i + u * lanes) * a.c4 * 4;
                v[u]            = Load4(xq + o);
                g[u]            = Load4(gq + o);
            }
#pragma unroll
            for(int u = 0; u < kU; ++u)
                add(v[u], g[u]);
        }
        for(; i < end; i += lanes)
            add(Load4(xq + i * a.c4 * 4), Load4(gq + i * a.c4 * 4));
    }
#pragma unroll
    for(int k = 0; k < 4; ++k)
    {
        sh[threadIdx.x][k]     = s1[k];
        sh[threadIdx.x][4 + k] = s2[k];
    }
    __syncthreads();
    for(int s = lanes / 2; s > 0; s /= 2)
    {
        if(ty < s)
        {
#pragma unroll
            for(int k = 0; k < 8; ++k)
                sh[threadIdx.x][k] += sh[threadIdx.x + s * cq][k];
        }
        __syncthreads();
    }
    if(ty == 0 && q < a.c4)
    {
#pragma unroll
        for(int k = 0; k < 4; ++k)
            partial[(4 * q + k) * a.chunks + p] =
                Partial2{sh[threadIdx.x][k], sh[threadIdx.x][4 + k]};
    }
}

/// The coefficients of the 4 channels of quad k (channels 4k .. 4k + 3) as float4s.
__device__ inline float4 CoefQuad(const float* c, int64_t k)
{
    return make_float4(c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]);
}

/// The applies walk quads i = blockIdx.x * 256 + threadIdx.x + j * stride (stride = the grid's
/// threads), kQuadsInFlight<T> quads loaded before any is stored. Fixed: c4 divides
/// kBnNhwc4Threads, so every quad of a thread has the channel quad threadIdx.x % c4 and its
/// coefficients are read once
/// (else a 64-bit remainder and 12 or 16 scalar coefficient loads a quad: at C = 64 on an H200
/// 16-bit inference ran at 0.36 of copy that way). The same expressions either way.

/// dx = c1 * dy + (c2 * (x - m) + c3) (+ beta * dx), a thread per quad (batchnorm.hip's
/// BwdApplyF).
template <class T, bool ReadDx, bool Fixed, class Op>
__global__ void __launch_bounds__(kBnNhwc4Threads)
    BnBwdApplyNhwc4(BnNhwc4Args a, const T* dy, const T* x, T* dx, BnCoef coef, Op op)
{
    const int64_t total  = a.m * a.c4;
    const int64_t stride = int64_t{gridDim.x} * blockDim.x;
    float4 fm = {}, fa = {}, fc = {}, fd = {}, fe = {}, ff = {};
    if(Fixed)
    {
        const int64_t k = threadIdx.x % a.c4;
        fm              = CoefQuad(coef.m, k);
        fa              = CoefQuad(coef.a, k);
        fc              = CoefQuad(coef.c, k);
        fd              = CoefQuad(coef.d, k);
        if constexpr(kBnActive<Op>)
        {
            fe = CoefQuad(coef.e, k);
            ff = CoefQuad(coef.f, k);
        }
    }
    auto one = [&](int64_t i, float4 v, float4 g, float4 o) {
        float4 cm = fm, ca = fa, cc = fc, cd = fd, ce = fe, cf = ff;
        if(!Fixed)
        {
            const int64_t k = i % a.c4;
            cm              = CoefQuad(coef.m, k);
            ca              = CoefQuad(coef.a, k);
            cc              = CoefQuad(coef.c, k);
            cd              = CoefQuad(coef.d, k);
            if constexpr(kBnActive<Op>)
            {
                ce = CoefQuad(coef.e, k);
                cf = CoefQuad(coef.f, k);
            }
        }
        if constexpr(kBnActive<Op>)
        {
            g.x = BnActBack<T>(op, v.x, cm.x, ce.x, cf.x, g.x);
            g.y = BnActBack<T>(op, v.y, cm.y, ce.y, cf.y, g.y);
            g.z = BnActBack<T>(op, v.z, cm.z, ce.z, cf.z, g.z);
            g.w = BnActBack<T>(op, v.w, cm.w, ce.w, cf.w, g.w);
        }
        float4 r;
        r.x = ca.x * g.x + (cc.x * (v.x - cm.x) + cd.x);
        r.y = ca.y * g.y + (cc.y * (v.y - cm.y) + cd.y);
        r.z = ca.z * g.z + (cc.z * (v.z - cm.z) + cd.z);
        r.w = ca.w * g.w + (cc.w * (v.w - cm.w) + cd.w);
        if(ReadDx)
        {
            r.x += a.beta * o.x;
            r.y += a.beta * o.y;
            r.z += a.beta * o.z;
            r.w += a.beta * o.w;
        }
        Store4(dx + 4 * i, r);
    };
    constexpr int kApplyU = kQuadsInFlight<T>;
    int64_t i             = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    for(; i + (kApplyU - 1) * stride < total; i += kApplyU * stride)
    {
        float4 v[kApplyU], g[kApplyU], o[kApplyU];
#pragma unroll
        for(int u = 0; u < kApplyU; ++u)
        {
            v[u] = Load4(x + 4 * (i + u * stride));
            g[u] = Load4(dy + 4 * (i + u * stride));
            o[u] = ReadDx ? Load4(dx + 4 * (i + u * stride)) : float4{};
        }
#pragma unroll
        for(int u = 0; u < kApplyU; ++u)
            one(i + u * stride, v[u], g[u], o[u]);
    }
    for(; i < total; i += stride)
        one(i, Load4(x + 4 * i), Load4(dy + 4 * i), ReadDx ? Load4(dx + 4 * i) : float4{});
}

template <class T, bool ReadY, bool Fixed, class Op>
__global__ void __launch_bounds__(kBnNhwc4Threads)
    BnApplyNhwc4(BnNhwc4Args a, const T* x, T* y, BnCoef coef, Op op)
{
    const int64_t total  = a.m * a.c4;
    const int64_t stride = int64_t{gridDim.x} * blockDim.x;
    float4 fm = {}, fa = {}, fc = {};
    if(Fixed)
    {
        const int64_t k = threadIdx.x % a.c4;
        fm              = CoefQuad(coef.m, k);
        fa              = CoefQuad(coef.a, k);
        fc              = CoefQuad(coef.c, k);
    }
    auto one = [&](int64_t i, float4 v, float4 o) {
        float4 cm = fm, ca = fa, cc = fc;
        if(!Fixed)
        {
            const int64_t k = i % a.c4;
            cm              = CoefQuad(coef.m, k);
            ca              = CoefQuad(coef.a, k);
            cc              = CoefQuad(coef.c, k);
        }
        float4 r;
        r.x = (v.x - cm.x) * ca.x + cc.x;
        r.y = (v.y - cm.y) * ca.y + cc.y;
        r.z = (v.z - cm.z) * ca.z + cc.z;
        r.w = (v.w - cm.w) * ca.w + cc.w;
        if(ReadY)
        {
            r.x += a.beta * o.x;
            r.y += a.beta * o.y;
            r.z += a.beta * o.z;
            r.w += a.beta * o.w;
        }
        r.x = BnActF<T>(op, r.x);
        r.y = BnActF<T>(op, r.y);
        r.z = BnActF<T>(op, r.z);
        r.w = BnActF<T>(op, r.w);
        Store4(y + 4 * i, r);
    };
    constexpr int kApplyU = kQuadsInFlight<T>;
    int64_t i             = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    for(; i + (kApplyU - 1) * stride < total; i += kApplyU * stride)
    {
        float4 v[kApplyU], o[kApplyU];
#pragma unroll
        for(int u = 0; u < kApplyU; ++u)
        {
            v[u] = Load4(x + 4 * (i + u * stride));
            o[u] = ReadY ? Load4(y + 4 * (i + u * stride)) : float4{};
        }
#pragma unroll
        for(int u = 0; u < kApplyU; ++u)
            one(i + u * stride, v[u], o[u]);
    }
    for(; i < total; i += stride)
        one(i, Load4(x + 4 * i), ReadY ? Load4(y + 4 * i) : float4{});
}

} // namespace

template <class T>
void LaunchBnStatsNhwc4(const BnNhwc4Args& a, const Launch& l, const T* x, Partial2* partial)
{
    MIOPEN_CY_LAUNCH(BnStatsNhwc4<T>, l, 0, a, x, partial);
}

void LaunchBnCollapsePartials(const Launch& l, const Partial2* partial, int chunks,
                              Partial2* total)
{
    MIOPEN_CY_LAUNCH(BnCollapsePartials, l, 0, partial, chunks, total);
}

template <class T>
void LaunchBnApplyNhwc4(const BnNhwc4Args& a, const Launch& l, const T* x, T* y, BnCoef coef,
                        const ActivationMode& act)
{
    const bool fixed = kBnNhwc4Threads % a.c4 == 0;
    WithMode(act, [&](auto op) {
        using Op = decltype(op);
        if(a.beta != 0.0f && fixed)
            MIOPEN_CY_LAUNCH((BnApplyNhwc4<T, true, true, Op>), l, 0, a, x, y, coef, op);
        else if(a.beta != 0.0f)
            MIOPEN_CY_LAUNCH((BnApplyNhwc4<T, true, false, Op>), l, 0, a, x, y, coef, op);
        else if(fixed)
            MIOPEN_CY_LAUNCH((BnApplyNhwc4<T, false, true, Op>), l, 0, a, x, y, coef, op);
        else
            MIOPEN_CY_LAUNCH((BnApplyNhwc4<T, false, false, Op>), l, 0, a, x, y, coef, op);
    });
}

template <class T>
void LaunchBnGradSumsNhwc4(const BnNhwc4Args& a, const Launch& l, const T* x, const T* dy,
                           const double* mean, Partial2* partial, const float* ue,
                           const float* uf, const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        MIOPEN_CY_LAUNCH((BnGradSumsNhwc4<T, decltype(op)>), l, 0, a, x, dy, mean, partial, ue, uf,
                         op);
    });
}

template <class T>
void LaunchBnBwdApplyNhwc4(const BnNhwc4Args& a, const Launch& l, const T* dy, const T* x, T* dx,
                           BnCoef coef, const ActivationMode& act)
{
    const bool fixed = kBnNhwc4Threads % a.c4 == 0;
    WithMode(act, [&](auto op) {
        using Op = decltype(op);
        if(a.beta != 0.0f && fixed)
            MIOPEN_CY_LAUNCH((BnBwdApplyNhwc4<T, true, true, Op>), l, 0, a, dy, x, dx, coef, op);
        else if(a.beta != 0.0f)
            MIOPEN_CY_LAUNCH((BnBwdApplyNhwc4<T, true, false, Op>), l, 0, a, dy, x, dx, coef, op);
        else if(fixed)
            MIOPEN_CY_LAUNCH((BnBwdApplyNhwc4<T, false, true, Op>), l, 0, a, dy, x, dx, coef, op);
        else
            MIOPEN_CY_LAUNCH((BnBwdApplyNhwc4<T, false, false, Op>), l, 0, a, dy, x, dx, coef,
                             op);
    });
}

#define MIOPEN_CY_BN_NHWC4(T)                                                                 \
    template void LaunchBnStatsNhwc4<T>(const BnNhwc4Args&, const Launch&, const T*,        \
                                        Partial2*);                                          \
    template void LaunchBnApplyNhwc4<T>(const BnNhwc4Args&, const Launch&, const T*, T*, BnCoef, \
                                        const ActivationMode&);                              \
    template void LaunchBnGradSumsNhwc4<T>(const BnNhwc4Args&, const Launch&, const T*,     \
                                           const T*, const double*, Partial2*, const float*, \
                                           const float*, const ActivationMode&);             \
    template void LaunchBnBwdApplyNhwc4<T>(const BnNhwc4Args&, const Launch&, const T*,     \
                                           const T*, T*, BnCoef, const ActivationMode&);
MIOPEN_CY_BN_NHWC4(float)
MIOPEN_CY_BN_NHWC4(Half)
MIOPEN_CY_BN_NHWC4(BFloat16)
#undef MIOPEN_CY_BN_NHWC4

} // namespace miopen::gpu
