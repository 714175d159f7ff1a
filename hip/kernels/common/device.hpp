// Device helpers every kernel file shares: the launch glue between the plain argument structs
// and the vendor's launch syntax, strided offsets, the alpha/beta blend, and fixed-order block
// reductions (deterministic: the same bits on every run for a given launch shape).
#pragma once

#include "kernels/common/args.hpp"
#include "gpu/compat.hpp"

#include <cstdint>

namespace miopen::gpu {

inline dim3 ToDim3(Dim3 d) { return dim3(d.x, d.y, d.z); }
inline hipStream_t ToStream(void* s) { return static_cast<hipStream_t>(s); }

/// kernel<<<grid, block, shared, stream>>>(args...), from a Launch.
#define MIOPEN_CY_LAUNCH(kernel, launch, shared, ...)                                      \
    kernel<<<::miopen::gpu::ToDim3((launch).grid), ::miopen::gpu::ToDim3((launch).block), \
             (shared), ::miopen::gpu::ToStream((launch).stream)>>>(__VA_ARGS__)

/// Element offsets of logical index i in each of the N operands of a strided space.
template <int N>
__device__ inline void Offsets(const StridedSpace<N>& s, int64_t i, int64_t (&off)[N])
{
#pragma unroll
    for(int k = 0; k < N; ++k)
        off[k] = 0;
    if(s.ndim == 1)
    {
#pragma unroll
        for(int k = 0; k < N; ++k)
            off[k] = i * s.strides[k][0];
        return;
    }
    if(s.numel <= INT32_MAX)
    {
        // 32-bit division is several times cheaper than 64-bit.
        uint32_t r = static_cast<uint32_t>(i);
        for(int d = s.ndim - 1; d >= 0; --d)
        {
            const uint32_t len = static_cast<uint32_t>(s.lens[d]);
            const uint32_t q   = r / len;
            const uint32_t idx = r - q * len;
            r                  = q;
#pragma unroll
            for(int k = 0; k < N; ++k)
                off[k] += static_cast<int64_t>(idx) * s.strides[k][d];
        }
        return;
    }
    for(int d = s.ndim - 1; d >= 0; --d)
    {
        const int64_t idx = i % s.lens[d];
        i /= s.lens[d];
#pragma unroll
        for(int k = 0; k < N; ++k)
            off[k] += idx * s.strides[k][d];
    }
}

/// Offsets of the first element of row `row` (all dims but the innermost).
template <int N>
__device__ inline void RowOffsets(const StridedSpace<N>& s, int64_t row, int64_t (&off)[N])
{
#pragma unroll
    for(int k = 0; k < N; ++k)
        off[k] = 0;
    for(int d = s.ndim - 2; d >= 0; --d)
    {
        const int64_t idx = row % s.lens[d];
        row /= s.lens[d];
#pragma unroll
        for(int k = 0; k < N; ++k)
            off[k] += idx * s.strides[k][d];
    }
}

/// out = v + beta * out, never reading out when ReadOut is false (beta == 0): NaNs in an
/// uninitialised output must not leak.
template <bool ReadOut>
__device__ inline float Blend(float v, float beta, const float* out)
{
    return ReadOut ? v + beta * *out : v;
}

// ---- fixed-order reductions --------------------------------------------------------------
// Each thread first accumulates its own elements in a fixed order (set by the launch shape);
// then the warp folds by XOR shuffles (a fixed tree), and warp totals are added in warp order.

template <class T>
struct SumOp
{
    __device__ T operator()(T a, T b) const { return a + b; }
};

/// The max that propagates NaN (NaN wins), as the CPU kernels do.
struct MaxNanOp
{
    __device__ float operator()(float a, float b) const { return (b > a || b != b) ? b : a; }
};

template <class T, class Op>
__device__ inline T WarpReduce(T v, Op op)
{
    for(int m = warpSize / 2; m > 0; m /= 2)
        v = op(v, WarpXor(v, m));
    return v;
}

/// The reduction of v over the whole block; every thread gets the result. `shared` holds at least
/// kMaxWarpsPerBlock values of T. Every thread of the block must call it (blockDim.x a multiple
/// of warpSize, blockDim.y = blockDim.z = 1).
template <class T, class Op>
__device__ inline T BlockReduce(T v, Op op, T* shared)
{
    const int lane  = threadIdx.x % warpSize;
    const int warp  = threadIdx.x / warpSize;
    const int warps = blockDim.x / warpSize;
    v               = WarpReduce(v, op);
    __syncthreads(); // shared may still be read by an earlier reduction
    if(lane == 0)
        shared[warp] = v;
    __syncthreads();
    T total = shared[0];
    for(int w = 1; w < warps; ++w)
        total = op(total, shared[w]);
    return total;
}

} // namespace miopen::gpu
