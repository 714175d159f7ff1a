// softmax_fwd_rows_warp: the forward rows engine for N x C softmaxes with C <= 1024 a whole
// number of float4s (N x 1000 CHANNEL mode, the classifier's softmax). One warp per row: lane l
// loads float4s l, l + warpSize, ... of its row (all loads in flight at once, x leaves DRAM
// once), the max and the sum fold by XOR shuffles (WarpReduce: a fixed tree, deterministic), and
// no block barrier stands between a warp's loads and its stores, so a warp waiting on DRAM never
// holds back another (the block-per-row kernel of softmax_rows_short.hip syncs its block twice
// per row). Same formulas as softmax.hip:
//   y = alpha / sum * exp(x - m) (+ beta y)      LOG: y = alpha * x - alpha * (m + log sum)
#include "kernels/common/device.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kPer = kSoftmaxWarpPerLane;

__device__ inline float4 Exp4(float4 v, float m)
{
    return make_float4(expf(v.x - m), expf(v.y - m), expf(v.z - m), expf(v.w - m));
}

/// k * v + s lane by lane (LOG: alpha * x + shift).
__device__ inline float4 Affine4(float4 v, float k, float s)
{
    return make_float4(k * v.x + s, k * v.y + s, k * v.z + s, k * v.w + s);
}

__device__ inline float4 Scale4(float4 v, float s)
{
    return make_float4(s * v.x, s * v.y, s * v.z, s * v.w);
}

template <int Algo, bool ReadY>
__global__ void __launch_bounds__(kSoftmaxWarpThreads)
    SoftmaxWarpRowsFwd(SoftmaxArgs<2> a, const float* x, float* y)
{
    constexpr bool kFast = Algo == MIOPEN_SOFTMAX_FAST;
    constexpr bool kLog  = Algo == MIOPEN_SOFTMAX_LOG;
    const int lane       = static_cast<int>(threadIdx.x) % warpSize;
    const int64_t warps  = blockDim.x / warpSize;
    const int nq         = static_cast<int>(a.inner.numel / 4);
    for(int64_t g = int64_t{blockIdx.x} * warps + threadIdx.x / warpSize; g < a.outer.numel;
        g += int64_t{gridDim.x} * warps)
    {
        int64_t goff[2];
        Offsets(a.outer, g, goff);
        const float4* xg = reinterpret_cast<const float4*>(x + goff[0]);
        float4* yg       = reinterpret_cast<float4*>(y + goff[1]);
        float4 v[kPer];
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            const int q = lane + k * warpSize;
            v[k]        = q < nq ? xg[q] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
        float m = 0.0f;
        if(!kFast)
        {
            float t = -INFINITY;
#pragma unroll
            for(int k = 0; k < kPer; ++k)
                if(lane + k * warpSize < nq)
                {
                    t = MaxNanOp{}(t, v[k].x);
                    t = MaxNanOp{}(t, v[k].y);
                    t = MaxNanOp{}(t, v[k].z);
                    t = MaxNanOp{}(t, v[k].w);
                }
            m = WarpReduce(t, MaxNanOp{});
        }
        float4 e[kPer];
        float t = 0.0f;
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            e[k] = Exp4(v[k], m);
            if(lane + k * warpSize < nq)
                t += (e[k].x + e[k].y) + (e[k].z + e[k].w);
        }
        const float sum   = WarpReduce(t, SumOp<float>{});
        const float scale = a.alpha / sum;
        const float shift = -a.alpha * (m + logf(sum));
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            const int q = lane + k * warpSize;
            if(q >= nq)
                continue;
            float4 r = kLog ? Affine4(v[k], a.alpha, shift) : Scale4(e[k], scale);
            if(ReadY)
            {
                const float4 o = yg[q];
                r.x += a.beta * o.x;
                r.y += a.beta * o.y;
                r.z += a.beta * o.z;
                r.w += a.beta * o.w;
            }
            yg[q] = r;
        }
    }
}

template <int Algo>
void Fwd(const SoftmaxArgs<2>& a, const Launch& l, const float* x, float* y)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((SoftmaxWarpRowsFwd<Algo, true>), l, 0, a, x, y);
    else
        MIOPEN_CY_LAUNCH((SoftmaxWarpRowsFwd<Algo, false>), l, 0, a, x, y);
}

} // namespace

void LaunchSoftmaxWarpFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, const float* x,
                          float* y)
{
    switch(algorithm)
    {
    case MIOPEN_SOFTMAX_FAST: return Fwd<MIOPEN_SOFTMAX_FAST>(a, l, x, y);
    case MIOPEN_SOFTMAX_LOG: return Fwd<MIOPEN_SOFTMAX_LOG>(a, l, x, y);
    default: return Fwd<MIOPEN_SOFTMAX_ACCURATE>(a, l, x, y);
    }
}

} // namespace miopen::gpu
