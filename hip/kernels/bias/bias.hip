// bias_bwd: db[c] = alpha * sum of dy over N and the spatial dims + beta * db[c]. Two kernels:
// per-(channel, chunk) double sums (BiasBwdNchw4 on packed dy, float4 loads; else the group
// reduction, common/reduce.hpp), then one thread per channel adds its chunks in order
// (deterministic) and blends. The forward bias is OpTensor (tensor/tensor_op.hip), as in MIOpen,
// except on packed tensors: BiasFwdPacked, a block over a balanced chunk of one (n, c) plane,
// the channel's bias read once per block, U float4s of y in flight a thread; the expression is
// OpTensor Add's (alpha * y + alpha * b, then + beta * y). fp16 and bf16: forward through
// OpTensor, backward through the group reduction (dy widened as it is read) and the finish,
// which rounds db once.
#include "kernels/bias/bias_kernels.hpp"
#include "kernels/common/reduce.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {
namespace {

template <class T>
struct SumDy
{
    const T* dy;
    __device__ void Begin(int64_t, const int64_t (&)[2]) {}
    __device__ void Add(const int64_t (&off)[1], double& s1, double&) const
    {
        s1 += LoadFloat(dy + off[0]);
    }
};

template <class T>
__global__ void BiasBwdFinish(GroupArgs<1> a, const Partial2* partial, T* db, float alpha,
                              float beta)
{
    for(int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; g < a.groups;
        g += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        const float sum = static_cast<float>(SumPartials(partial, g, a.chunks).s1);
        T* out          = db + goff[1];
        StoreFloat(out, beta == 0.0f ? alpha * sum : alpha * sum + beta * LoadFloat(out));
    }
}

__device__ inline float BiasY(float y, float b, float alpha, float beta, bool read_out)
{
    const float r = alpha * y + alpha * b; // OpTensorF<Add>
    return read_out ? r + beta * y : r;    // Blend
}

template <bool ReadOut>
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
                v[u] = y[q];
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
            y[q] = r;
        }
    }
}

// BiasBwdNchw4: block (p, c) sums chunk p of channel c of packed dy (S = D*H*W a multiple of 4)
// in double, each thread over its float4s in increasing order (components x, y, z, w), then a
// fixed shared-memory tree; partial[c * chunks + p].s1, the layout BiasBwdFinish adds up in
// chunk order. No atomics: the same bits on every run.
__global__ void __launch_bounds__(kBiasBwdThreads)
    BiasBwdNchw4(BiasBwdNchw4Args a, const float* dy, Partial2* partial)
{
    constexpr int kUnroll = 4;
    __shared__ double sh[kBiasBwdThreads];
    const uint32_t c     = blockIdx.y;
    const uint32_t p     = blockIdx.x;
    const uint32_t s4    = a.s4;
    const uint32_t m4    = a.n * s4; // float4s of one channel
    const uint32_t begin = p * a.chunk4;
    const uint32_t end   = begin + a.chunk4 < m4 ? begin + a.chunk4 : m4;
    const float4* dy4    = reinterpret_cast<const float4*>(dy);
    // The float4 at channel index i: image i / s4, position i % s4.
    auto at = [&](uint32_t i) {
        const uint32_t n = i / s4;
        return (static_cast<int64_t>(n) * a.c + c) * s4 + (i - n * s4);
    };
    double sum = 0.0;
    auto add   = [&](float4 v) {
        sum += static_cast<double>(v.x);
        sum += static_cast<double>(v.y);
        sum += static_cast<double>(v.z);
        sum += static_cast<double>(v.w);
    };
    uint32_t i = begin + threadIdx.x;
    for(; i + (kUnroll - 1) * kBiasBwdThreads < end; i += kUnroll * kBiasBwdThreads)
    {
        float4 v[kUnroll];
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            v[u] = dy4[at(i + u * kBiasBwdThreads)];
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            add(v[u]);
    }
    for(; i < end; i += kBiasBwdThreads)
        add(dy4[at(i)]);
    sh[threadIdx.x] = sum;
    __syncthreads();
    for(int s = kBiasBwdThreads / 2; s > 0; s /= 2)
    {
        if(static_cast<int>(threadIdx.x) < s)
            sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if(threadIdx.x == 0)
        partial[static_cast<int64_t>(c) * a.chunks + p] = Partial2{sh[0], 0.0};
}

} // namespace

void LaunchBiasFwdPacked(const BiasFwdPackedArgs& p, const Launch& l)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BiasFwdPacked<true>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BiasFwdPacked<false>), l, 0, p);
}

void LaunchBiasBwdNchw4(const BiasBwdNchw4Args& a, const Launch& l, const float* dy,
                        Partial2* partial)
{
    MIOPEN_CY_LAUNCH(BiasBwdNchw4, l, 0, a, dy, partial);
}

template <class T>
void LaunchBiasBwdPartial(const GroupArgs<1>& a, const Launch& l, const T* dy, Partial2* partial)
{
    MIOPEN_CY_LAUNCH((GroupPartial<1, SumDy<T>>), l, 0, a, SumDy<T>{dy}, partial);
}

template <class T>
void LaunchBiasBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial, T* db,
                         float alpha, float beta)
{
    MIOPEN_CY_LAUNCH(BiasBwdFinish<T>, l, 0, a, partial, db, alpha, beta);
}

#define MIOPEN_CY_BIAS_KERNELS(T)                                                                 \
    template void LaunchBiasBwdPartial<T>(const GroupArgs<1>&, const Launch&, const T*,           \
                                          Partial2*);                                             \
    template void LaunchBiasBwdFinish<T>(const GroupArgs<1>&, const Launch&, const Partial2*, T*, \
                                         float, float);
MIOPEN_CY_BIAS_KERNELS(float)
MIOPEN_CY_BIAS_KERNELS(Half)
MIOPEN_CY_BIAS_KERNELS(BFloat16)
#undef MIOPEN_CY_BIAS_KERNELS

} // namespace miopen::gpu
