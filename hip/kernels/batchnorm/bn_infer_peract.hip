// bn_infer_peract: per-activation batch-norm inference on packed x and y whose C[D]HW run is a
// whole number of units (vec = 4 elements, or 8 of fp16 / bf16 where the run is whole eights; x
// and y of storage type T, a unit loaded as a float4, 8 bytes or 16 bytes of 16-bit data), with
// packed, 16-byte aligned fp32 parameter tensors (1 x C[D]HW, in x's order). One launch, no
// coefficient kernel and no scratch: a thread owns one unit of the C[D]HW run, computes its
// coefficients from scale, bias, mean and variance once (the formulas of bn_infer_coef: inv_std =
// 1 / sqrtf(var + eps) in float, a = alpha * scale * inv_std, c = alpha * bias, so the same bits
// as the coefficient path), and applies them to `nb` consecutive n of the batch, U units of x
// loaded before the first is used (4 of 4 elements, 2 of 8: 16 or 32 bytes of 16-bit data).
// y = (x - m) * a + c (+ beta * y): fmaf(x - m, a, c), then fmaf(beta, y, that), as
// bn_infer_packed. Grid: chunks * groups blocks, the group (of nb n) fastest, so the blocks that
// read the same parameters run together (the parameters come from DRAM about once).
#include "kernels/batchnorm/bn_infer_peract_kernels.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {
namespace {

constexpr int kPeractThreads = 256;

__device__ inline float PeractY(float x, float m, float a, float c) { return fmaf(x - m, a, c); }

/// The W elements at p as fp32: Load4 for a quad (any type), else LoadVec's 16-byte groups.
template <class T, int W>
__device__ inline void LoadUnit(const T* p, float (&v)[W])
{
    if constexpr(W == 4)
    {
        const float4 q = Load4(p);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
    else
        LoadVec<T, W>(p, v);
}

template <class T, int W>
__device__ inline void StoreUnit(T* p, const float (&v)[W])
{
    if constexpr(W == 4)
        Store4(p, make_float4(v[0], v[1], v[2], v[3]));
    else
        StoreVec<T, W>(p, v);
}

/// W elements a thread (one 16-byte access of T per 4 or 8), U units of x loaded before the
/// first is used.
template <class T, int W, int U, bool ReadOut>
__global__ void __launch_bounds__(kPeractThreads) BnInferPeract(BnInferPeractArgs p)
{
    const int64_t g     = blockIdx.x % p.groups;
    const int64_t chunk = blockIdx.x / p.groups;
    const int64_t v     = chunk * kPeractThreads + threadIdx.x; // unit within the C[D]HW run
    if(v >= p.plane_v)
        return;
    float m[W], a[W], c[W];
    LoadVec<float, W>(p.est_mean + W * v, m);
    LoadVec<float, W>(p.scale + W * v, a);
    LoadVec<float, W>(p.bias + W * v, c);
    {
        float var[W];
        LoadVec<float, W>(p.est_var + W * v, var);
#pragma unroll
        for(int j = 0; j < W; ++j)
        {
            a[j] = p.alpha * a[j] * (1.0f / sqrtf(var[j] + p.epsilon));
            c[j] = p.alpha * c[j];
        }
    }
    const int64_t n0 = g * p.nb;
    const int64_t n1 = n0 + p.nb < p.n ? n0 + p.nb : p.n;
    const T* x       = static_cast<const T*>(p.x) + W * v;
    T* y             = static_cast<T*>(p.y) + W * v;
    const int64_t st = W * p.plane_v; // elements from one n to the next
    for(int64_t i0 = n0; i0 < n1; i0 += U)
    {
        float xv[U][W], ov[U][W];
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            if(i0 + u >= n1)
                continue;
            LoadUnit<T, W>(x + (i0 + u) * st, xv[u]);
            if(ReadOut)
                LoadUnit<T, W>(y + (i0 + u) * st, ov[u]);
        }
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            if(i0 + u >= n1)
                continue;
            float r[W];
#pragma unroll
            for(int j = 0; j < W; ++j)
            {
                r[j] = PeractY(xv[u][j], m[j], a[j], c[j]);
                if(ReadOut)
                    r[j] = fmaf(p.beta, ov[u][j], r[j]);
            }
            StoreUnit<T, W>(y + (i0 + u) * st, r);
        }
    }
}

} // namespace

int BnInferPeractThreads() { return kPeractThreads; }

template <class T, int W, int U>
void LaunchPeract(const BnInferPeractArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BnInferPeract<T, W, U, true>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BnInferPeract<T, W, U, false>), l, 0, p);
}

template <class T>
void LaunchBnInferPeract(const BnInferPeractArgs& p, const Launch& l)
{
    if constexpr(sizeof(T) == 2)
    {
        if(p.vec == 8)
            return LaunchPeract<T, 8, 2>(p, l);
    }
    LaunchPeract<T, 4, 4>(p, l);
}

template void LaunchBnInferPeract<float>(const BnInferPeractArgs&, const Launch&);
template void LaunchBnInferPeract<Half>(const BnInferPeractArgs&, const Launch&);
template void LaunchBnInferPeract<BFloat16>(const BnInferPeractArgs&, const Launch&);

} // namespace miopen::gpu
