// Per-group reductions on the device (GroupArgs in args.hpp): a block reduces a chunk of each of
// its groups into double partial sums, in an order fixed by the launch shape, and writes them to
// a partial array that a finishing kernel adds up in chunk order. No atomics: the same input
// gives the same bits on every run.
#pragma once

#include "kernels/common/device.hpp"

namespace miopen::gpu {

/// Elements a thread addresses before it reads them: their loads are all in flight at once.
constexpr int kReduceBatch = 4;

/// Calls f(off) for thread ty's reduction elements of group g in chunk p (off[k]: operand k's
/// element offset; goff: the group's offsets, parameter tensor last), in increasing order. The
/// offsets of kReduceBatch elements are worked out first, so f's loads for them can overlap.
template <int K, class F>
__device__ inline void ForChunk(const GroupArgs<K>& a, const int64_t (&goff)[K + 1], int p, int ty,
                                F&& f)
{
    const int64_t begin = int64_t{p} * a.chunk;
    const int64_t end   = begin + a.chunk < a.m ? begin + a.chunk : a.m;
    int64_t r           = begin + ty;
    if(r >= end)
        return;
    const int inner   = a.r.ndim - 1;
    const int64_t len = a.r.lens[inner];
    int64_t row       = r / len;
    int64_t i         = r - row * len;
    int64_t roff[K];
    RowOffsets(a.r, row, roff);
    while(r < end)
    {
        int64_t off[kReduceBatch][K];
        int n = 0;
#pragma unroll
        for(int u = 0; u < kReduceBatch; ++u)
        {
            // r only grows, so the rest of the steps skip too; a `break` kept clang from
            // unrolling the loop (hipcc's "loop not unrolled")
            if(r >= end)
                continue;
#pragma unroll
            for(int k = 0; k < K; ++k)
                off[u][k] = goff[k] + roff[k] + i * a.r.strides[k][inner];
            ++n;
            r += a.ry;
            i += a.ry;
            if(i >= len && r < end)
            {
                row += i / len;
                i %= len;
                RowOffsets(a.r, row, roff);
            }
        }
        if(n == kReduceBatch)
        {
#pragma unroll
            for(int u = 0; u < kReduceBatch; ++u)
                f(off[u]);
        }
        else
        {
            for(int u = 0; u < n; ++u)
                f(off[u]);
        }
    }
}

/// The partial sums of every (group, chunk): Acc has `Begin(g, goff)` and `Add(off, s1, s2)`.
/// Threads of one group (ty) are folded by a fixed tree in shared memory.
template <int K, class Acc>
__global__ void __launch_bounds__(kGroupThreads) GroupPartial(GroupArgs<K> a, Acc acc, Partial2* partial)
{
    __shared__ double sh1[kGroupThreads];
    __shared__ double sh2[kGroupThreads];
    const int tx = threadIdx.x % a.gx;
    const int ty = threadIdx.x / a.gx;
    const int64_t g = int64_t{blockIdx.x} * a.gx + tx;
    const int p     = blockIdx.y;
    double s1 = 0.0, s2 = 0.0;
    if(g < a.groups)
    {
        int64_t goff[K + 1];
        Offsets(a.g, g, goff);
        Acc local = acc;
        local.Begin(g, goff);
        ForChunk(a, goff, p, ty, [&](const int64_t(&off)[K]) { local.Add(off, s1, s2); });
    }
    sh1[threadIdx.x] = s1;
    sh2[threadIdx.x] = s2;
    __syncthreads();
    for(int s = a.ry / 2; s > 0; s /= 2)
    {
        if(ty < s)
        {
            sh1[threadIdx.x] += sh1[threadIdx.x + s * a.gx];
            sh2[threadIdx.x] += sh2[threadIdx.x + s * a.gx];
        }
        __syncthreads();
    }
    if(ty == 0 && g < a.groups)
        partial[g * a.chunks + p] = Partial2{sh1[tx], sh2[tx]};
}

/// The partial sums of group g added in chunk order.
__device__ inline Partial2 SumPartials(const Partial2* partial, int64_t g, int chunks)
{
    Partial2 t{0.0, 0.0};
    for(int p = 0; p < chunks; ++p)
    {
        t.s1 += partial[g * chunks + p].s1;
        t.s2 += partial[g * chunks + p].s2;
    }
    return t;
}

} // namespace miopen::gpu
