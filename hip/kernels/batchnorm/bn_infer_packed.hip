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
//                   float4 coefficient loads a quad: 16-bit data ran at 0.36 of copy on an H200).
// y = (x - m) * a + c (+ beta * y), the expression of bn_apply, its fused multiply-adds written
// out: fmaf(x - m, a, c), then fmaf(beta, y, that).
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

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
    kPerChannelFixed = 3, // kPerChannel, a thread's channel quad fixed (coef_fixed)
};

template <class T, int U, int Mode, bool ReadOut>
__global__ void __launch_bounds__(kBnThreads) BnInferPacked(BnInferPackedArgs p)
{
    constexpr bool PerAct = Mode != kPlaneParams;
    const int64_t plane = blockIdx.x / p.chunks;           // spatial: n * C + c; else n
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q;                // float4s within the plane
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    const T* x          = static_cast<const T*>(p.x) + plane * p.plane_q * 4;
    T* y                = static_cast<T*>(p.y) + plane * p.plane_q * 4;
    float m = 0.0f, a = 0.0f, c = 0.0f;
    if(!PerAct)
    {
        const int64_t ch    = plane % p.channels;
        const int64_t at    = ch * p.param_stride;
        const float inv_std = 1.0f / sqrtf(p.est_var[at] + p.epsilon);
        m                   = p.est_mean[at];
        a                   = p.alpha * p.scale[at] * inv_std;
        c                   = p.alpha * p.bias[at];
    }
    const float4* cm = reinterpret_cast<const float4*>(p.coef_m);
    const float4* ca = reinterpret_cast<const float4*>(p.coef_a);
    const float4* cc = reinterpret_cast<const float4*>(p.coef_c);
    float4 fm = {}, fa = {}, fc = {};
    if(Mode == kPerChannelFixed)
    {
        // begin is a multiple of coef_q and coef_q divides kBnThreads: every q this thread
        // takes (begin + threadIdx.x + multiples of kBnThreads) has this remainder
        const int64_t k = (begin + threadIdx.x) % p.coef_q;
        fm              = cm[k];
        fa              = ca[k];
        fc              = cc[k];
    }
    for(int64_t q0 = begin + threadIdx.x; q0 < end; q0 += int64_t{kBnThreads} * U)
    {
        float4 v[U], o[U], vm[U], va[U], vc[U];
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kBnThreads;
            if(q >= end)
                continue;
            v[u] = Load4(x + 4 * q);
            if(Mode == kPerChannelFixed)
            {
                vm[u] = fm;
                va[u] = fa;
                vc[u] = fc;
            }
            else if(PerAct)
            {
                const int64_t k = Mode == kPerChannel ? q % p.coef_q : q;
                vm[u]           = cm[k];
                va[u]           = ca[k];
                vc[u]           = cc[k];
            }
            if(ReadOut)
                o[u] = Load4(y + 4 * q);
        }
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kBnThreads;
            if(q >= end)
                continue;
            float4 r;
            if(PerAct)
            {
                r.x = BnY(v[u].x, vm[u].x, va[u].x, vc[u].x);
                r.y = BnY(v[u].y, vm[u].y, va[u].y, vc[u].y);
                r.z = BnY(v[u].z, vm[u].z, va[u].z, vc[u].z);
                r.w = BnY(v[u].w, vm[u].w, va[u].w, vc[u].w);
            }
            else
            {
                r.x = BnY(v[u].x, m, a, c);
                r.y = BnY(v[u].y, m, a, c);
                r.z = BnY(v[u].z, m, a, c);
                r.w = BnY(v[u].w, m, a, c);
            }
            if(ReadOut)
            {
                r.x = fmaf(p.beta, o[u].x, r.x);
                r.y = fmaf(p.beta, o[u].y, r.y);
                r.z = fmaf(p.beta, o[u].z, r.z);
                r.w = fmaf(p.beta, o[u].w, r.w);
            }
            Store4(y + 4 * q, r);
        }
    }
}

template <class T, int U, int Mode>
void LaunchU(const BnInferPackedArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BnInferPacked<T, U, Mode, true>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BnInferPacked<T, U, Mode, false>), l, 0, p);
}

} // namespace

int BnInferPackedThreads() { return kBnThreads; }

template <class T>
void LaunchBnInferPacked(const BnInferPackedArgs& p, const Launch& l, int unroll)
{
    // fp32: 4 quads a thread (2 with coefficient arrays); 16-bit data twice as many, so that a
    // thread keeps as many bytes in flight
    if(p.coef_m == nullptr)
        unroll == 8 ? LaunchU<T, 8, kPlaneParams>(p, l) : LaunchU<T, 4, kPlaneParams>(p, l);
    else if(p.coef_fixed)
        unroll == 8 ? LaunchU<T, 8, kPerChannelFixed>(p, l)
                    : LaunchU<T, 4, kPerChannelFixed>(p, l);
    else if(p.coef_q != p.plane_q)
        unroll == 2 ? LaunchU<T, 2, kPerChannel>(p, l) : LaunchU<T, 4, kPerChannel>(p, l);
    else
        unroll == 2 ? LaunchU<T, 2, kPerElement>(p, l) : LaunchU<T, 4, kPerElement>(p, l);
}

template void LaunchBnInferPacked<float>(const BnInferPackedArgs&, const Launch&, int);
template void LaunchBnInferPacked<Half>(const BnInferPackedArgs&, const Launch&, int);
template void LaunchBnInferPacked<BFloat16>(const BnInferPackedArgs&, const Launch&, int);

} // namespace miopen::gpu
