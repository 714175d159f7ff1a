// bn_infer_packed: batch-norm inference on packed x and y (NC[D]HW, no gaps) whose planes are
// whole float4s (the per-(n) or per-(n, c) run a multiple of 4 elements, pointers 16-byte
// aligned). One launch, float4 loads and stores, a block over a balanced chunk of one plane:
//   spatial:        the plane is one (n, c); the block computes its channel's coefficients
//                   itself (the formulas of bn_infer_coef: inv_std = 1 / sqrtf(var + eps) in
//                   float, a = alpha * scale * inv_std, c = alpha * bias), so no coefficient
//                   kernel runs and no index arithmetic is left in the loop;
//   per activation: the plane is one n; the coefficients of bn_infer_coef (one per C[D]HW
//                   element, in x's order) are read as float4s beside x.
// y = (x - m) * a + c (+ beta * y), the expression of bn_apply, its fused multiply-adds written
// out: fmaf(x - m, a, c), then fmaf(beta, y, that).
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/common/device.hpp"

namespace miopen::gpu {
namespace {

constexpr int kBnThreads = 256;

__device__ inline float BnY(float x, float m, float a, float c) { return fmaf(x - m, a, c); }

template <int U, bool PerAct, bool ReadOut>
__global__ void __launch_bounds__(kBnThreads) BnInferPacked(BnInferPackedArgs p)
{
    const int64_t plane = blockIdx.x / p.chunks;           // spatial: n * C + c; else n
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q;                // float4s within the plane
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    const float4* x     = reinterpret_cast<const float4*>(p.x) + plane * p.plane_q;
    float4* y           = reinterpret_cast<float4*>(p.y) + plane * p.plane_q;
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
    for(int64_t q0 = begin + threadIdx.x; q0 < end; q0 += int64_t{kBnThreads} * U)
    {
        float4 v[U], o[U], vm[U], va[U], vc[U];
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kBnThreads;
            if(q >= end)
                continue;
            v[u] = x[q];
            if(PerAct)
            {
                vm[u] = cm[q];
                va[u] = ca[q];
                vc[u] = cc[q];
            }
            if(ReadOut)
                o[u] = y[q];
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
            y[q] = r;
        }
    }
}

template <int U, bool PerAct>
void LaunchU(const BnInferPackedArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BnInferPacked<U, PerAct, true>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BnInferPacked<U, PerAct, false>), l, 0, p);
}

} // namespace

int BnInferPackedThreads() { return kBnThreads; }

void LaunchBnInferPacked(const BnInferPackedArgs& p, const Launch& l, int unroll)
{
    const bool per_act = p.coef_m != nullptr;
    if(unroll == 2)
        per_act ? LaunchU<2, true>(p, l) : LaunchU<2, false>(p, l);
    else
        per_act ? LaunchU<4, true>(p, l) : LaunchU<4, false>(p, l);
}

} // namespace miopen::gpu
