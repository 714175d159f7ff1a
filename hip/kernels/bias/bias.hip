// bias_bwd: db[c] = alpha * sum of dy over N and the spatial dims + beta * db[c]. Two kernels:
// per-(channel, chunk) double sums (BiasBwdNchw4 on packed dy, 16-byte loads; else the group
// reduction, common/reduce.hpp), then one thread per channel adds its chunks in order
// (deterministic) and blends, rounding db once. The forward bias is OpTensor
// (tensor/tensor_op.hip), as in MIOpen, except on packed tensors: BiasFwdPacked, a block over a
// balanced chunk of one (n, c) plane, the channel's bias read once per block (or, channels-last,
// a chunk of whole pixels, a thread's W channels' biases read once), U 16-byte vectors of y in
// flight a thread; the expression is OpTensor Add's (alpha * y + alpha * b, then
// + beta * y). Every kernel is one template over the storage type (fp32, fp16, bf16): values
// widen to fp32 on load, 16 bytes a thread per access (4 fp32 or 8 fp16/bf16 elements).
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

template <class T, bool ReadOut, bool Last>
__global__ void __launch_bounds__(kBiasFwdThreads) BiasFwdPacked(BiasFwdPackedArgs<T> p)
{
    constexpr int W     = kVecOf<T>;
    const int64_t plane = Last ? 0 : blockIdx.x / p.chunks; // NC[D]HW: n * C + c
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q;
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    T* y                = p.y + plane * p.plane_q * W;
    // The W channels' biases of a vector: NC[D]HW one channel a block; N[D]HWC the vector's
    // channels, the same for all of a thread's vectors when cq divides the block (fixed).
    float bv[W];
    auto load_b = [&](int64_t k) {
#pragma unroll
        for(int j = 0; j < W; ++j)
            bv[j] = LoadFloat(p.b + (k + j) * p.b_stride);
    };
    if(!Last)
    {
        const float b = LoadFloat(p.b + (plane % p.channels) * p.b_stride);
#pragma unroll
        for(int j = 0; j < W; ++j)
            bv[j] = b;
    }
    else if(p.fixed)
        load_b(static_cast<int64_t>(threadIdx.x % static_cast<unsigned>(p.cq)) * W);
    for(int64_t q0 = begin + threadIdx.x; q0 < end; q0 += int64_t{kBiasFwdThreads} * kBiasFwdUnroll)
    {
        float v[kBiasFwdUnroll][W];
#pragma unroll
        for(int u = 0; u < kBiasFwdUnroll; ++u)
        {
            const int64_t q = q0 + u * kBiasFwdThreads;
            if(q < end)
                LoadVec<T, W>(y + q * W, v[u]);
        }
#pragma unroll
        for(int u = 0; u < kBiasFwdUnroll; ++u)
        {
            const int64_t q = q0 + u * kBiasFwdThreads;
            if(q >= end)
                continue;
            if(Last && !p.fixed)
                load_b(static_cast<int64_t>(static_cast<uint32_t>(q % p.cq)) * W);
            float r[W];
#pragma unroll
            for(int j = 0; j < W; ++j)
                r[j] = BiasY(v[u][j], bv[j], p.alpha, p.beta, ReadOut);
            StoreVec<T, W>(y + q * W, r);
        }
    }
}

// BiasBwdNchw4: block (p, c) sums chunk p of channel c of packed dy (S = D*H*W a multiple of the
// 16-byte vector's W elements: 4 fp32, 8 fp16/bf16) in double, each thread over its vectors in
// increasing order (fp32: elements in order within a vector; fp16/bf16: a vector's 8 values
// first summed in fp32 by a fixed tree, then widened once), then a fixed shared-memory tree;
// partial[c * chunks + p].s1, the layout BiasBwdFinish adds up in chunk order. No atomics: the
// same bits on every run.
template <class T>
__global__ void __launch_bounds__(kBiasBwdThreads)
    BiasBwdNchw4(BiasBwdNchw4Args a, const T* dy, Partial2* partial)
{
    constexpr int kUnroll = 4;
    constexpr int W       = kVecOf<T>;
    __shared__ double sh[kBiasBwdThreads];
    const uint32_t c     = blockIdx.y;
    const uint32_t p     = blockIdx.x;
    const uint32_t s4    = a.s4;
    const uint32_t m4    = a.n * s4; // vectors of one channel
    const uint32_t begin = p * a.chunk4;
    const uint32_t end   = begin + a.chunk4 < m4 ? begin + a.chunk4 : m4;
    // The vector at channel index i: image i / s4, position i % s4 (in elements: times W).
    auto at = [&](uint32_t i) {
        const uint32_t n = i / s4;
        return ((static_cast<int64_t>(n) * a.c + c) * s4 + (i - n * s4)) * W;
    };
    double sum = 0.0;
    auto add   = [&](const float (&v)[W]) {
        if constexpr(W == 8)
        {
            // 16-bit: the vector's 8 values summed in fp32 as a fixed tree, then one widening
            // and one double add (8 of each made the fp32 -> fp64 conversions, a quarter-rate
            // unit, the limit at the 16-bit element rate)
            sum += static_cast<double>(((v[0] + v[1]) + (v[2] + v[3])) +
                                       ((v[4] + v[5]) + (v[6] + v[7])));
        }
        else
        {
#pragma unroll
            for(int j = 0; j < W; ++j)
                sum += static_cast<double>(v[j]);
        }
    };
    uint32_t i = begin + threadIdx.x;
    for(; i + (kUnroll - 1) * kBiasBwdThreads < end; i += kUnroll * kBiasBwdThreads)
    {
        float v[kUnroll][W];
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            LoadVec<T, W>(dy + at(i + u * kBiasBwdThreads), v[u]);
#pragma unroll
        for(int u = 0; u < kUnroll; ++u)
            add(v[u]);
    }
    for(; i < end; i += kBiasBwdThreads)
    {
        float v[W];
        LoadVec<T, W>(dy + at(i), v);
        add(v);
    }
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

template <class T>
void LaunchBiasFwdPacked(const BiasFwdPackedArgs<T>& p, const Launch& l)
{
    if(p.cq > 0)
    {
        if(p.beta != 0.0f)
            MIOPEN_CY_LAUNCH((BiasFwdPacked<T, true, true>), l, 0, p);
        else
            MIOPEN_CY_LAUNCH((BiasFwdPacked<T, false, true>), l, 0, p);
    }
    else if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((BiasFwdPacked<T, true, false>), l, 0, p);
    else
        MIOPEN_CY_LAUNCH((BiasFwdPacked<T, false, false>), l, 0, p);
}

template <class T>
void LaunchBiasBwdNchw4(const BiasBwdNchw4Args& a, const Launch& l, const T* dy, Partial2* partial)
{
    MIOPEN_CY_LAUNCH(BiasBwdNchw4<T>, l, 0, a, dy, partial);
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
                                         float, float);                                           \
    template void LaunchBiasFwdPacked<T>(const BiasFwdPackedArgs<T>&, const Launch&);             \
    template void LaunchBiasBwdNchw4<T>(const BiasBwdNchw4Args&, const Launch&, const T*,         \
                                        Partial2*);
MIOPEN_CY_BIAS_KERNELS(float)
MIOPEN_CY_BIAS_KERNELS(Half)
MIOPEN_CY_BIAS_KERNELS(BFloat16)
#undef MIOPEN_CY_BIAS_KERNELS

} // namespace miopen::gpu
