// bn_train_nhwc4: spatial batch-norm training (forward and backward) on packed channels-last
// tensors (N[D]HWC) whose C is a multiple of 4 and whose x and y are 16-byte aligned: the NHWC
// partner of bn_train_nchw4 (the generic group reduction reads one element per load with 64-bit
// index arithmetic, and the element-wise apply cannot merge a channels-last space into rows).
//
//   bn_stats_nhwc4  block (p, j) = cp pairs of channels (threadIdx.x % cp) by lanes of
//                   positions (threadIdx.x / cp): each thread adds its pair's 2 channels over
//                   positions p * chunk + ty, + lanes, ... in increasing order, shifted by the
//                   channel's x at position 0: a batch of 2-3 positions loaded at once and added
//                   in fp32, the batch sums into double; then a fixed shared-memory tree over
//                   the lanes. Pairs (8 or 4-byte loads) rather than quads keep a thread's double
//                   sums to 8 registers: 32 in all, every thread slot of an SM. Partials
//                   partial[c * chunks + p], the layout BnTrainFinish adds up in chunk order.
//                   No atomics: the same bits on every run.
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
// Templated on the storage type T (Load2 / Load4 / Store4: float2 / float4, or 4 / 8 bytes of
// fp16 / bf16). Fused with an activation (bn_activ.hpp; Op, PassThru when plain): bn_apply_nhwc4
// stores act(y); bn_grad_sums_nhwc4 and bn_bwd_apply_nhwc4 take act'(u) * dy for dy.
#include "kernels/batchnorm/bn_train_nhwc4_kernels.hpp"
#include "kernels/batchnorm/bn_activ.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

#include <type_traits>

namespace miopen::gpu {
namespace {

/// Quads an apply thread loads (per operand) before it stores any: 4 float4s of fp32, as many
/// bytes (8 quads of 8 bytes) of fp16 / bf16.
template <class T>
constexpr int kQuadsInFlight = 16 / static_cast<int>(sizeof(T));

/// Positions (channel pairs) a reduction thread loads, per operand, before it adds any: as many
/// as ptxas (sm_90) issues together under the 32-register cap; one more and it issues them in
/// groups between the adds, a memory latency each. Stats: 2 float2s (16 bytes) or 3 pairs of
/// 16-bit (12 bytes); gradient sums: 2 of x and 2 of dy (32 or 16 bytes). At 2048 threads an SM:
/// 32 / 24 KB (stats), 64 / 32 KB (gradient sums) in flight.
template <class T, int Operands>
constexpr int kPairsInFlight = Operands == 1 && sizeof(T) == 2 ? 3 : 2;

/// The reductions' register cap (CUDA: 65536 / (256 * blocks)): 8 blocks an SM, 32 registers,
/// every thread slot of the SM; 6 (40) for the fused activations. HIP's second launch bound
/// means something else, so it is left out there.
#if defined(MIOPEN_CY_HAVE_CUDA)
#define MIOPEN_CY_BN_NHWC4_BOUNDS(blocks) __launch_bounds__(kBnNhwc4Threads, blocks)
#else
#define MIOPEN_CY_BN_NHWC4_BOUNDS(blocks) __launch_bounds__(kBnNhwc4Threads)
#endif

/// The positions of chunk p that lane ty of `lanes` visits: p * chunk + ty, + lanes, ... below
/// min(p * chunk + chunk, m) (a chunk is at most 2^31 elements).
__device__ inline int LanePositions(const BnNhwc4Args& a, int p, int ty, int lanes)
{
    const int64_t begin = int64_t{p} * a.chunk;
    const int len = static_cast<int>(a.chunk < a.m - begin ? a.chunk : a.m - begin);
    return len > ty ? (len - ty + lanes - 1) / lanes : 0;
}

/// v (s1 of channels 2j and 2j + 1, then s2 of both) added over the block's lanes of the same
/// pair: thread t adds thread t + s * cp, s = lanes / 2, ..., 1 (a fixed order); lane 0 ends
/// with the block's sums. Every thread of the block calls it.
__device__ inline void AddOverLanes(double (&v)[4], double (*sh)[kBnNhwc4Threads], int cp,
                                    int lanes, int ty)
{
    const int t = threadIdx.x;
#pragma unroll
    for(int k = 0; k < 4; ++k)
        sh[k][t] = v[k];
    __syncthreads();
    for(int s = lanes / 2; s > 0; s /= 2)
    {
        if(ty < s)
        {
#pragma unroll
            for(int k = 0; k < 4; ++k)
            {
                v[k] += sh[k][t + s * cp];
                sh[k][t] = v[k];
            }
        }
        __syncthreads();
    }
}

template <class T>
__global__ void MIOPEN_CY_BN_NHWC4_BOUNDS(8)
    BnStatsNhwc4(BnNhwc4Args a, const T* x, Partial2* partial)
{
    __shared__ double sh[4][kBnNhwc4Threads];
    const int cp    = a.cp;
    const int shift = __ffs(cp) - 1; // log2(cp): cp is a power of 2
    const int lanes = kBnNhwc4Threads >> shift;
    const int tx    = threadIdx.x & (cp - 1);
    const int ty    = threadIdx.x >> shift;
    const int64_t j = int64_t{blockIdx.y} * cp + tx; // channels 2j, 2j + 1
    const int64_t c = 4 * a.c4;
    const int p     = blockIdx.x;
    double v[4]     = {0.0, 0.0, 0.0, 0.0}; // s1 of 2j, 2j + 1, s2 of 2j, 2j + 1
    if(2 * j < c)
    {
        const float2 x0     = Load2(x + 2 * j);
        const uint32_t step = static_cast<uint32_t>(lanes * c);
        const T* xp         = x + (int64_t{p} * a.chunk + ty) * c + 2 * j;
        uint32_t o          = 0;
        // Offsets from the thread's first element in 32 bits (a chunk is at most 2^31
        // elements). U positions: their shifted values (exact where x is within a factor 2 of
        // x0) and squares added in fp32 in position order, then once into the double sums.
        auto add = [&](auto un) {
            constexpr int U = decltype(un)::value;
            float2 e[U];
#pragma unroll
            for(int u = 0; u < U; ++u)
                e[u] = Load2(xp + (o + u * step));
            o += U * step;
            float d0 = e[0].x - x0.x, d1 = e[0].y - x0.y;
            float a0 = d0, a1 = d1, b0 = d0 * d0, b1 = d1 * d1;
#pragma unroll
            for(int u = 1; u < U; ++u)
            {
                d0 = e[u].x - x0.x;
                d1 = e[u].y - x0.y;
                a0 += d0;
                a1 += d1;
                b0 = fmaf(d0, d0, b0);
                b1 = fmaf(d1, d1, b1);
            }
            v[0] += a0;
            v[1] += a1;
            v[2] += b0;
            v[3] += b1;
        };
        constexpr int kU = kPairsInFlight<T, 1>;
        int n            = LanePositions(a, p, ty, lanes);
#pragma unroll 1
        for(; n >= kU; n -= kU)
            add(std::integral_constant<int, kU>{});
#pragma unroll 1
        for(; n > 0; --n)
            add(std::integral_constant<int, 1>{});
    }
    AddOverLanes(v, sh, cp, lanes, ty);
    if(ty == 0 && 2 * j < c)
    {
        partial[(2 * j) * a.chunks + p]     = Partial2{v[0], v[2]};
        partial[(2 * j + 1) * a.chunks + p] = Partial2{v[1], v[3]};
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

/// Backward's sums per (channel, chunk): sum dy and sum dy * (x - mean) (batchnorm.hip's
/// GradAcc), the walk and the tree of BnStatsNhwc4. A batch's products are taken against the
/// mean rounded to float (m0, m1) and added in fp32; the partial adds (float(mean) - mean) *
/// sum dy back in double.
template <class T, class Op>
__global__ void MIOPEN_CY_BN_NHWC4_BOUNDS(kBnActive<Op> ? 6 : 8)
    BnGradSumsNhwc4(BnNhwc4Args a, const T* x, const T* dy, const double* mean, Partial2* partial,
                    const float* ue, const float* uf, Op op)
{
    __shared__ double sh[4][kBnNhwc4Threads];
    const int cp    = a.cp;
    const int shift = __ffs(cp) - 1; // log2(cp): cp is a power of 2
    const int lanes = kBnNhwc4Threads >> shift;
    const int tx    = threadIdx.x & (cp - 1);
    const int ty    = threadIdx.x >> shift;
    const int64_t j = int64_t{blockIdx.y} * cp + tx;
    const int64_t c = 4 * a.c4;
    const int p     = blockIdx.x;
    double v[4]     = {0.0, 0.0, 0.0, 0.0};
    if(2 * j < c)
    {
        const float m0 = static_cast<float>(mean[2 * j]);
        const float m1 = static_cast<float>(mean[2 * j + 1]);
        float e0 = 0.0f, e1 = 0.0f, f0 = 0.0f, f1 = 0.0f;
        if constexpr(kBnActive<Op>)
        {
            e0 = ue[2 * j];
            e1 = ue[2 * j + 1];
            f0 = uf[2 * j];
            f1 = uf[2 * j + 1];
        }
        const uint32_t step = static_cast<uint32_t>(lanes * c);
        const int64_t base  = (int64_t{p} * a.chunk + ty) * c + 2 * j;
        const T* xp         = x + base;
        const T* gp         = dy + base;
        uint32_t o          = 0;
        auto add = [&](auto un) {
            constexpr int U = decltype(un)::value;
            float2 xe[U], ge[U];
#pragma unroll
            for(int u = 0; u < U; ++u)
            {
                xe[u] = Load2(xp + (o + u * step));
                ge[u] = Load2(gp + (o + u * step));
            }
            o += U * step;
            float a0 = 0.0f, a1 = 0.0f, b0 = 0.0f, b1 = 0.0f;
#pragma unroll
            for(int u = 0; u < U; ++u)
            {
                const float g0 = BnActBack<T>(op, xe[u].x, m0, e0, f0, ge[u].x);
                const float g1 = BnActBack<T>(op, xe[u].y, m1, e1, f1, ge[u].y);
                a0             = u == 0 ? g0 : a0 + g0;
                a1             = u == 0 ? g1 : a1 + g1;
                b0             = u == 0 ? g0 * (xe[u].x - m0) : fmaf(g0, xe[u].x - m0, b0);
                b1             = u == 0 ? g1 * (xe[u].y - m1) : fmaf(g1, xe[u].y - m1, b1);
            }
            v[0] += a0;
            v[1] += a1;
            v[2] += b0;
            v[3] += b1;
        };
        constexpr int kU = kPairsInFlight<T, 2>;
        int n            = LanePositions(a, p, ty, lanes);
#pragma unroll 1
        for(; n >= kU; n -= kU)
            add(std::integral_constant<int, kU>{});
#pragma unroll 1
        for(; n > 0; --n)
            add(std::integral_constant<int, 1>{});
    }
    AddOverLanes(v, sh, cp, lanes, ty);
    if(ty == 0 && 2 * j < c)
    {
        const double mu0 = mean[2 * j], mu1 = mean[2 * j + 1];
        partial[(2 * j) * a.chunks + p] =
            Partial2{v[0], v[2] + (static_cast<double>(static_cast<float>(mu0)) - mu0) * v[0]};
        partial[(2 * j + 1) * a.chunks + p] =
            Partial2{v[1], v[3] + (static_cast<double>(static_cast<float>(mu1)) - mu1) * v[1]};
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
