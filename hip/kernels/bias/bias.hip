// bias_bwd: db[c] = alpha * sum of dy over N and the spatial dims + beta * db[c]. Two kernels:
// per-(channel, chunk) double sums by the group reduction (common/reduce.hpp), then one thread
// per channel adds its chunks in order (deterministic) and blends. The forward bias is OpTensor
// (tensor/tensor_op.hip), as in MIOpen, except on packed tensors: BiasFwdPacked, a block over a
// balanced chunk of one (n, c) plane, the channel's bias read once per block, U float4s of y in
// flight a thread; the expression is OpTensor Add's (alpha * y + alpha * b, then + beta * y).
#include "bias/bias_kernels.hpp"
#include "common/reduce.hpp"

namespace miopen::gpu {
namespace {

struct SumDy
{
    const float* dy;
    __device__ void Begin(int64_t, const int64_t (&)[2]) {}
    __device__ void Add(const int64_t (&off)[1], double& s1, double&) const { s1 += dy[off[0]]; }
};

__global__ void BiasBwdFinish(GroupArgs<1> a, const Partial2* partial, float* db, float alpha,
                              float beta)
{
    for(int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; g < a.groups;
        g += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        const float sum = static_cast<float>(SumPartials(partial, g, a.chunks).s1);
        float* out      = db + goff[1];
        *out            = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
    }
}

__device__ inline float4 LoadY(const float4* p, bool streaming)
{
    return streaming ? LoadStreaming(p) : *p;
}

__device__ inline void StoreY(float4* p, float4 v, bool streaming)
{
    if(streaming)
        StoreStreaming(p, v);
    else
        *p = v;
}

__device__ inline float BiasY(float y, float b, float alpha, float beta, bool read_out)
{
    const float r = alpha * y + alpha * b; // OpTensorF<Add>
    return read_out ? r + beta * y : r;    // Blend
}

template <bool ReadOut, bool Streaming>
__global__ void __launch_bounds__(kBiasFwdThreads) BiasFwdPacked(BiasFwdPackedArgs p)
{
    const int64_t plane = blockIdx.x / p.chunks; // n * C + c
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q;
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    float4* y           = reinterpret_cast<float4*>(p.y) + plane * p.plane_q;
    const float b       = p.b[(plane % p.channels) * p.b_stride];
    for(int64_t q0 = begin + threadIdx.x; q0 < end; q0 += int64_t{kBiasFwdThreads} * kBiasFwdUnroll)
    {
        float4 v[kBiasFwdUnroll];
#pragma unroll
        for(int u = 0; u < kBiasFwdUnroll; ++u)
        {
            const int64_t q = q0 + u * kBiasFwdThreads;
            if(q < end)
                v[u] = LoadY(y + q, Streaming);
        }
#pragma unroll
        for(int u = 0; u < kBiasFwdUnroll; ++u)
        {
            const int64_t q = q0 + u * kBiasFwdThreads;
            if(q >= end)
                continue;
            float4 r;
            r.x = BiasY(v[u].x, b, p.alpha, p.beta, ReadOut);
            r.y = BiasY(v[u].y, b, p.alpha, p.beta, ReadOut);
            r.z = BiasY(v[u].z, b, p.alpha, p.beta, ReadOut);
            r.w = BiasY(v[u].w, b, p.alpha, p.beta, ReadOut);
            StoreY(y + q, r, Streaming);
        }
    }
}

template <bool Streaming>
void LaunchFwd(const BiasFwdPackedArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BiasFwdPacked<true, Streaming>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BiasFwdPacked<false, Streaming>), l, 0, p);
}

} // namespace

void LaunchBiasFwdPacked(const BiasFwdPackedArgs& p, const Launch& l, bool streaming)
{
    if(streaming)
        LaunchFwd<true>(p, l);
    else
        LaunchFwd<false>(p, l);
}

void LaunchBiasBwdPartial(const GroupArgs<1>& a, const Launch& l, const float* dy,
                          Partial2* partial)
{
    MIOPEN_CY_LAUNCH((GroupPartial<1, SumDy>), l, 0, a, SumDy{dy}, partial);
}

void LaunchBiasBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                         float* db, float alpha, float beta)
{
    MIOPEN_CY_LAUNCH(BiasBwdFinish, l, 0, a, partial, db, alpha, beta);
}

} // namespace miopen::gpu
