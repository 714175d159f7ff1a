// bn_infer_peract: per-activation batch-norm inference on packed x and y whose C[D]HW run is a
// whole number of quads (4 elements; x and y of storage type T, loaded by Load4 as a float4 or
// 8 bytes of fp16 / bf16), with packed, 16-byte aligned fp32 parameter tensors (1 x C[D]HW, in
// x's order). One launch, no coefficient kernel and no scratch: a thread owns one float4 of the
// C[D]HW run, computes its 4 coefficients from scale, bias, mean and variance once (the
// formulas of bn_infer_coef: inv_std = 1 / sqrtf(var + eps) in float, a = alpha * scale *
// inv_std, c = alpha * bias, so the same bits as the coefficient path), and applies them to
// `nb` consecutive n of the batch, kPeractUnroll quads of x loaded before the first is used.
// y = (x - m) * a + c (+ beta * y): fmaf(x - m, a, c), then fmaf(beta, y, that), as
// bn_infer_packed. Grid: chunks * groups blocks, the group (of nb n) fastest, so the blocks that
// read the same parameters run together (the parameters come from DRAM about once).
#include "kernels/batchnorm/bn_infer_peract_kernels.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {
namespace {

constexpr int kPeractThreads = 256;
/// Quads of x a thread loads before it uses any: 4, of any type. (4331036 loaded 8 of fp16 /
/// bf16, all of a thread's kBnPeractNb = 8 n at once: ptxas gave the kernel 100 registers, 39
/// before, 2 blocks an SM instead of 6, and on an H200 it ran 1.6x slower.)
constexpr int kPeractUnroll = 4;

__device__ inline float PeractY(float x, float m, float a, float c) { return fmaf(x - m, a, c); }

template <class T, bool ReadOut>
__global__ void __launch_bounds__(kPeractThreads) BnInferPeract(BnInferPeractArgs p)
{
    const int64_t g     = blockIdx.x % p.groups;
    const int64_t chunk = blockIdx.x / p.groups;
    const int64_t q     = chunk * kPeractThreads + threadIdx.x; // float4 within the C[D]HW run
    if(q >= p.plane_q)
        return;
    const float4 sc = reinterpret_cast<const float4*>(p.scale)[q];
    const float4 bi = reinterpret_cast<const float4*>(p.bias)[q];
    const float4 mn = reinterpret_cast<const float4*>(p.est_mean)[q];
    const float4 vr = reinterpret_cast<const float4*>(p.est_var)[q];
    float4 a, c;
    a.x = p.alpha * sc.x * (1.0f / sqrtf(vr.x + p.epsilon));
    a.y = p.alpha * sc.y * (1.0f / sqrtf(vr.y + p.epsilon));
    a.z = p.alpha * sc.z * (1.0f / sqrtf(vr.z + p.epsilon));
    a.w = p.alpha * sc.w * (1.0f / sqrtf(vr.w + p.epsilon));
    c.x = p.alpha * bi.x;
    c.y = p.alpha * bi.y;
    c.z = p.alpha * bi.z;
    c.w = p.alpha * bi.w;
    const int64_t n0 = g * p.nb;
    const int64_t n1 = n0 + p.nb < p.n ? n0 + p.nb : p.n;
    const T* x       = static_cast<const T*>(p.x) + 4 * q;
    T* y             = static_cast<T*>(p.y) + 4 * q;
    const int64_t st = 4 * p.plane_q; // elements from one n to the next
    constexpr int kU = kPeractUnroll;
    for(int64_t i0 = n0; i0 < n1; i0 += kU)
    {
        float4 v[kU], o[kU];
#pragma unroll
        for(int u = 0; u < kU; ++u)
        {
            if(i0 + u >= n1)
                continue;
            v[u] = Load4(x + (i0 + u) * st);
            if(ReadOut)
                o[u] = Load4(y + (i0 + u) * st);
        }
#pragma unroll
        for(int u = 0; u < kU; ++u)
        {
            if(i0 + u >= n1)
                continue;
            float4 r;
            r.x = PeractY(v[u].x, mn.x, a.x, c.x);
            r.y = PeractY(v[u].y, mn.y, a.y, c.y);
            r.z = PeractY(v[u].z, mn.z, a.z, c.z);
            r.w = PeractY(v[u].w, mn.w, a.w, c.w);
            if(ReadOut)
            {
                r.x = fmaf(p.beta, o[u].x, r.x);
                r.y = fmaf(p.beta, o[u].y, r.y);
                r.z = fmaf(p.beta, o[u].z, r.z);
                r.w = fmaf(p.beta, o[u].w, r.w);
            }
            Store4(y + (i0 + u) * st, r);
        }
    }
}

} // namespace

int BnInferPeractThreads() { return kPeractThreads; }

template <class T>
void LaunchBnInferPeract(const BnInferPeractArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BnInferPeract<T, true>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BnInferPeract<T, false>), l, 0, p);
}

template void LaunchBnInferPeract<float>(const BnInferPeractArgs&, const Launch&);
template void LaunchBnInferPeract<Half>(const BnInferPeractArgs&, const Launch&);
template void LaunchBnInferPeract<BFloat16>(const BnInferPeractArgs&, const Launch&);

} // namespace miopen::gpu
