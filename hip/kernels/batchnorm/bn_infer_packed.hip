// bn_infer_packed: batch-norm inference on packed x and y (NC[D]HW or N[D]HWC, no gaps) whose
// planes are whole quads (the per-(n) or per-(n, c) run a multiple of 4 elements, pointers
// 16-byte aligned). One launch, quad loads and stores (Load4 / Store4: a float4 for fp32, 8 bytes
// for fp16 / bf16, templated on the storage type T), a block over a balanced chunk of one plane:
//   spatial:        the plane is one (n, c); the block computes its channel's coefficients
//                   itself (the formulas of bn_infer_coef: inv_std = 1 / sqrtf(var + eps) in
//                   float, a = alpha * scale * inv_std, c = alpha * bias), so no coefficient
//                   kernel runs and no index arithmetic is left in the loop;
//   per activation: the plane is one n; the coefficients of bn_infer_coef (one per C[D]HW
//                   element, in x's order) are read as float4s beside x;
//   spatial NHWC:   the plane is one n; the coefficients of bn_infer_coef (one per channel) are
//                   read as the float4 of quad q % (C / 4), C a multiple of 4. Where C / 4
//                   divides the block (256) and the launcher made every chunk start on a whole
//                   pixel (coef_fixed), a thread's quads all belong to the same 4 channels: their
//                   coefficients are read once, before the loop (no 64-bit remainder and three
//                   float4 coefficient loads a quad: 16-bit data ran at 0.36 of copy on an H200),
//                   or, up to 64 channels, computed once from the parameters (no coefficient
//                   kernel: 16-bit C = 64 0.87 -> 0.93 of copy on an H200; at C = 256 a warp's
//                   32 threads then load 32 channels' parameters 8 floats apart, and 16-bit
//                   took 68 us against 52 + 3 for the kernel and the reads).
// 16-bit data whose planes are whole multiples of 8 elements (spatial: [D]HW % 8 == 0; channels-last
// with fixed coefficients: C % 8 == 0) moves 8 elements an access (16-byte loads and stores, 4 in
// flight a thread) instead of quads of 8 bytes (0.82 of copy for fp16 NCHW on an H200, 0.84 fp16
// and 0.75 bf16 NHWC, where fp32's float4s reached 0.95).
// y = (x - m) * a + c (+ beta * y), the expression of bn_apply, its fused multiply-adds written
// out: fmaf(x - m, a, c), then fmaf(beta, y, that).
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/batchnorm/bn_infer_coef.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

#include <type_traits>

namespace miopen::gpu {
namespace {

constexpr int kBnThreads = 256;

__device__ inline float BnY(float x, float m, float a, float c) { return fmaf(x - m, a, c); }

// Coefficient source: from the parameters per plane (spatial NCHW), per element of the plane
// (per activation), per channel of a channels-last plane.
enum BnCoefMode
{
    kPlaneParams = 0,
    kPerElement  = 1,
    kPerChannel  = 2,
    kPerChannelFixed = 3, // kPerChannel, a thread's channels fixed (coef_fixed): read once
    kParamsFixed     = 4, // a thread's channels fixed, coefficients computed from the parameters
};

/// W fp32 values at p (W = 4 or 8: float4s).
template <int W>
__device__ inline void LoadCoef(const float* p, float (&v)[W])
{
#pragma unroll
    for(int j = 0; j < W; j += 4)
    {
        const float4 q = reinterpret_cast<const float4*>(p)[j / 4];
        v[j]           = q.x;
        v[j + 1]       = q.y;
        v[j + 2]       = q.z;
        v[j + 3]       = q.w;
    }
}

/// One unit of x as loaded: a float4 (W = 4: Load4, fp32 or 8 bytes of fp16 / bf16 widened) or
/// 16 raw bytes (W = 8, 16-bit data), widened by Widen only when used, so that the units in
/// flight hold 4 registers each, not 8.
template <int W>
using RawUnit = std::conditional_t<W == 8, uint4, float4>;

template <class T, int W>
__device__ inline RawUnit<W> LoadRaw(const T* p)
{
    if constexpr(W == 4)
        return Load4(p);
    else
        return *reinterpret_cast<const uint4*>(p);
}

template <class T, int W>
__device__ inline void Widen(const RawUnit<W>& q, float (&v)[W])
{
    if constexpr(W == 4)
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    else
        Unpack8<T>(q, v);
}

template <class T, int W>
__device__ inline void StoreY(T* p, const float (&v)[W])
{
    if constexpr(W == 4)
        Store4(p, make_float4(v[0], v[1], v[2], v[3]));
    else
        StoreVec<T, W>(p, v);
}

/// W: elements a thread moves an access (4; 8 for 16-bit data: 16-byte loads and stores); the
/// plane, chunk and coefficient counts of p are in units of W elements. U: units of x a thread
/// loads before it uses any.
template <class T, int W, int U, int Mode, bool ReadOut>
__global__ void __launch_bounds__(kBnThreads) BnInferPacked(BnInferPackedArgs p)
{
    constexpr bool PerAct = Mode != kPlaneParams;
    const int64_t plane = blockIdx.x / p.chunks;           // spatial: n * C + c; else n
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q;                // units within the plane
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    const T* x          = static_cast<const T*>(p.x) + plane * p.plane_q * W;
    T* y                = static_cast<T*>(p.y) + plane * p.plane_q * W;
    float m = 0.0f, a = 0.0f, c = 0.0f;
    if(!PerAct)
    {
        const int64_t ch = plane % p.channels;
        BnInferCoefAt(p.scale, p.bias, p.est_mean, p.est_var, ch * p.param_stride, p.alpha,
                      p.epsilon, m, a, c);
    }
    float fm[W] = {}, fa[W] = {}, fc[W] = {};
    if(Mode == kPerChannelFixed || Mode == kParamsFixed)
    {
        // begin is a multiple of coef_q and coef_q divides kBnThreads: every q this thread
        // takes (begin + threadIdx.x + multiples of kBnThreads) has this remainder, channels
        // W k ... W k + W - 1: their coefficients read once, or computed once from the parameters
        const int64_t k = (begin + threadIdx.x) % p.coef_q;
        if(Mode == kPerChannelFixed)
        {
            LoadCoef<W>(p.coef_m + W * k, fm);
            LoadCoef<W>(p.coef_a + W * k, fa);
            LoadCoef<W>(p.coef_c + W * k, fc);
        }
        else
        {
#pragma unroll
            for(int j = 0; j < W; ++j)
                BnInferCoefAt(p.scale, p.bias, p.est_mean, p.est_var,
                              (W * k + j) * p.param_stride, p.alpha, p.epsilon, fm[j], fa[j],
                              fc[j]);
        }
    }
    for(int64_t q0 = begin + threadIdx.x; q0 < end; q0 += int64_t{kBnThreads} * U)
    {
        RawUnit<W> v[U], o[U];
        float vm[U][W], va[U][W], vc[U][W];
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kBnThreads;
            if(q >= end)
                continue;
            v[u] = LoadRaw<T, W>(x + W * q);
            if(Mode == kPerChannel || Mode == kPerElement)
            {
                const int64_t k = Mode == kPerChannel ? q % p.coef_q : q;
                LoadCoef<W>(p.coef_m + W * k, vm[u]);
                LoadCoef<W>(p.coef_a + W * k, va[u]);
                LoadCoef<W>(p.coef_c + W * k, vc[u]);
            }
            if(ReadOut)
                o[u] = LoadRaw<T, W>(y + W * q);
        }
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kBnThreads;
            if(q >= end)
                continue;
            float xv[W], ov[W] = {}, r[W];
            Widen<T, W>(v[u], xv);
            if(ReadOut)
                Widen<T, W>(o[u], ov);
#pragma unroll
            for(int j = 0; j < W; ++j)
            {
                if(Mode == kPerChannelFixed || Mode == kParamsFixed)
                    r[j] = BnY(xv[j], fm[j], fa[j], fc[j]);
                else if(PerAct)
                    r[j] = BnY(xv[j], vm[u][j], va[u][j], vc[u][j]);
                else
                    r[j] = BnY(xv[j], m, a, c);
                if(ReadOut)
                    r[j] = fmaf(p.beta, ov[j], r[j]);
            }
            StoreY<T, W>(y + W * q, r);
        }
    }
}

template <class T, int W, int U, int Mode>
void LaunchU(const BnInferPackedArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BnInferPacked<T, W, U, Mode, true>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BnInferPacked<T, W, U, Mode, false>), l, 0, p);
}

} // namespace

int BnInferPackedThreads() { return kBnThreads; }

template <class T>
void LaunchBnInferPacked(const BnInferPackedArgs& p, const Launch& l, int unroll)
{
    // fp32: 4 quads a thread (2 with coefficient arrays), 16-bit quads twice as many, so that a
    // thread keeps as many bytes in flight; 16-bit units of 8 (p.vec == 8): 4 a thread
    if constexpr(sizeof(T) == 2)
    {
        if(p.vec == 8)
        {
            if(p.coef_fixed && p.coef_m == nullptr)
                LaunchU<T, 8, 4, kParamsFixed>(p, l);
            else if(p.coef_fixed)
                LaunchU<T, 8, 4, kPerChannelFixed>(p, l);
            else
                LaunchU<T, 8, 4, kPlaneParams>(p, l);
            return;
        }
    }
    if(p.coef_fixed && p.coef_m == nullptr)
        unroll == 8 ? LaunchU<T, 4, 8, kParamsFixed>(p, l) : LaunchU<T, 4, 4, kParamsFixed>(p, l);
    else if(p.coef_fixed)
        unroll == 8 ? LaunchU<T, 4, 8, kPerChannelFixed>(p, l)
                    : LaunchU<T, 4, 4, kPerChannelFixed>(p, l);
    else if(p.coef_m == nullptr)
        unroll == 8 ? LaunchU<T, 4, 8, kPlaneParams>(p, l) : LaunchU<T, 4, 4, kPlaneParams>(p, l);
    else if(p.coef_q != p.plane_q)
        unroll == 2 ? LaunchU<T, 4, 2, kPerChannel>(p, l) : LaunchU<T, 4, 4, kPerChannel>(p, l);
    else
        unroll == 2 ? LaunchU<T, 4, 2, kPerElement>(p, l) : LaunchU<T, 4, 4, kPerElement>(p, l);
}

template void LaunchBnInferPacked<float>(const BnInferPackedArgs&, const Launch&, int);
template void LaunchBnInferPacked<Half>(const BnInferPackedArgs&, const Launch&, int);
template void LaunchBnInferPacked<BFloat16>(const BnInferPackedArgs&, const Launch&, int);

} // namespace miopen::gpu
