// activation_fwd / activation_bwd: the ten activation modes on the element-wise engine
// (common/elementwise.hpp) for fp32, fp16 and bf16: any strides, 16-byte rows on packed tensors.
// The 16-bit forward computes logistic, tanh and elu in fast fp32 forms (FastF) and runs packed
// tensors through ActivationPacked (four 16-byte vectors in flight a thread); the 16-bit
// backward of the three takes the fast exponential and reciprocal too (FastBack).
// The functors of the modes live in activation_functors.hpp (shared with the fused epilogues).
#include "kernels/activation/activation_functors.hpp"
#include "kernels/activation/activation_kernels.hpp"
#include "kernels/common/elementwise.hpp"
#include "kernels/common/packed_map.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

template <class Op, bool Fast = false>
struct Forward
{
    Op op;
    float alpha;
    __device__ float operator()(const float* v) const
    {
        if constexpr(Fast)
            return alpha * FastF(op, v[0]);
        else
            return alpha * op.F(v[0]);
    }
};

// ActivationPacked: the forward of the 16-bit types on a packed, 16-byte aligned x and y (one
// run of numel elements). A thread moves kActUnroll 16-byte vectors of x (8 elements each), all
// loaded before the first is computed, so 64 bytes a thread are in flight while the fp32
// arithmetic runs; a block covers kActThreads * kActUnroll vectors. The numel % 8 tail goes to
// the last block. The blend is MapVec's (f(x) + beta * y, rounded once).
constexpr int kActThreads = 256;
constexpr int kActUnroll  = 4;

template <class T, bool ReadOut, class F>
__global__ void __launch_bounds__(kActThreads) ActivationPacked(MapArgs<1, T> a, F f)
{
    constexpr int W  = kVecOf<T>;
    const T* x       = static_cast<const T*>(a.in[0]);
    const int64_t nq = a.s.numel / W;
    const int64_t q0 = int64_t{blockIdx.x} * (kActThreads * kActUnroll) + threadIdx.x;
    float v[kActUnroll][W];
    float o[kActUnroll][W];
#pragma unroll
    for(int u = 0; u < kActUnroll; ++u)
    {
        const int64_t q = q0 + u * kActThreads;
        if(q >= nq)
            continue;
        LoadVec<T, W>(x + q * W, v[u]);
        if(ReadOut)
            LoadVec<T, W>(a.out + q * W, o[u]);
    }
#pragma unroll
    for(int u = 0; u < kActUnroll; ++u)
    {
        const int64_t q = q0 + u * kActThreads;
        if(q >= nq)
            continue;
        float r[W];
#pragma unroll
        for(int j = 0; j < W; ++j)
        {
            r[j] = f(&v[u][j]);
            if(ReadOut)
                r[j] += a.beta * o[u][j];
        }
        StoreVec<T, W>(a.out + q * W, r);
    }
    if(blockIdx.x == gridDim.x - 1)
    {
        const int64_t i = nq * W + threadIdx.x;
        if(i < a.s.numel)
        {
            const float xi = LoadFloat(x + i);
            BlendStore<ReadOut>(a.out + i, f(&xi), a.beta);
        }
    }
}

/// ActivationPacked where x and y are one packed, aligned run (PackedMapApplies), else the
/// engine's kernels; f is the fast forward.
template <class T, class F>
void LaunchForward16(const MapArgs<1, T>& a, const Launch& l, bool read_out, F f)
{
    constexpr int64_t per = int64_t{kActThreads} * kActUnroll;
    const int64_t nq      = a.s.numel / kVecOf<T>;
    if(!PackedMapApplies(a) || (nq + per - 1) / per >= (int64_t{1} << 31))
        return LaunchMapPackedOr(a, l, read_out, f);
    Launch p;
    p.grid.x  = static_cast<unsigned>(nq > 0 ? (nq + per - 1) / per : 1);
    p.block.x = kActThreads;
    p.stream  = l.stream;
    if(read_out)
        MIOPEN_CY_LAUNCH((ActivationPacked<T, true, F>), p, 0, a, f);
    else
        MIOPEN_CY_LAUNCH((ActivationPacked<T, false, F>), p, 0, a, f);
}

template <class Op, bool Fast = false>
struct Backward
{
    Op op;
    float alpha;
    __device__ float operator()(const float* v) const
    {
        if constexpr(Fast)
            return alpha * FastBack(op, v[1], v[0]);
        else
            return alpha * op.Back(v[1], v[0]);
    }
};

} // namespace

template <class T>
void LaunchActivationFwd(const MapArgs<1, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out)
{
    WithMode(m, [&](auto op) {
        using Op = decltype(op);
        if constexpr(sizeof(T) == 2)
            LaunchForward16(a, l, read_out, Forward<Op, true>{op, alpha});
        else
            LaunchMapPackedOr(a, l, read_out, Forward<Op>{op, alpha});
    });
}

template <class T>
void LaunchActivationBwd(const MapArgs<2, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out)
{
    WithMode(m, [&](auto op) {
        LaunchMapPackedOr(a, l, read_out, Backward<decltype(op), sizeof(T) == 2>{op, alpha});
    });
}

#define MIOPEN_CY_ACTIVATION_KERNELS(T)                                                           \
    template void LaunchActivationFwd<T>(const MapArgs<1, T>&, const Launch&,                     \
                                         const ActivationMode&, float, bool);                     \
    template void LaunchActivationBwd<T>(const MapArgs<2, T>&, const Launch&,                     \
                                         const ActivationMode&, float, bool);
MIOPEN_CY_ACTIVATION_KERNELS(float)
MIOPEN_CY_ACTIVATION_KERNELS(Half)
MIOPEN_CY_ACTIVATION_KERNELS(BFloat16)
#undef MIOPEN_CY_ACTIVATION_KERNELS

} // namespace miopen::gpu
