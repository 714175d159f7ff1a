// The strided 1x1 convolution around a GEMM (gemm_gather.hpp): the gather of the subsampled input
// into a packed column buffer, and the scatter of backward data's packed result into dx (zeros
// off the stride grid). One thread per written element, grid-stride loops, 64-bit indices.
#include "common/device.hpp"
#include "gemm/gemm_gather.hpp"

#include <algorithm>
#include <cstdint>

namespace miopen::gpu {
namespace {

struct GatherArgs
{
    int64_t n, c;
    int64_t in[3], out[3], str[3];
    int64_t xs[5];
};

GatherArgs Make(const ConvKArgs& a)
{
    GatherArgs g;
    g.n = a.n;
    g.c = a.c;
    for(int i = 0; i < 3; ++i)
    {
        g.in[i]  = a.in[i];
        g.out[i] = a.out[i];
        g.str[i] = a.str[i];
    }
    for(int i = 0; i < 5; ++i)
        g.xs[i] = a.xs[i];
    return g;
}

// I: the index type of the decoding (32-bit where the element count allows: far fewer cycles).
template <class I>
__global__ void Conv1x1Gather(GatherArgs g, const float* __restrict__ x, float* __restrict__ col)
{
    const int64_t os    = g.out[0] * g.out[1] * g.out[2];
    const int64_t total = g.n * g.c * os;
    const I o2 = static_cast<I>(g.out[2]), o1 = static_cast<I>(g.out[1]), o0 = static_cast<I>(g.out[0]);
    const I cc = static_cast<I>(g.c);
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        I r              = static_cast<I>(e);
        const int64_t ow = r % o2;
        r /= o2;
        const int64_t oh = r % o1;
        r /= o1;
        const int64_t od = r % o0;
        r /= o0;
        const int64_t c = r % cc;
        const int64_t n = r / cc;
        col[e] = x[n * g.xs[0] + c * g.xs[1] + od * g.str[0] * g.xs[2] + oh * g.str[1] * g.xs[3] +
                   ow * g.str[2] * g.xs[4]];
    }
}

template <class I>
__global__ void Conv1x1Scatter(GatherArgs g, const float* __restrict__ col, float* __restrict__ dx)
{
    const int64_t is    = g.in[0] * g.in[1] * g.in[2];
    const int64_t os    = g.out[0] * g.out[1] * g.out[2];
    const int64_t total = g.n * g.c * is;
    const I i2 = static_cast<I>(g.in[2]), i1 = static_cast<I>(g.in[1]), i0 = static_cast<I>(g.in[0]);
    const I cc = static_cast<I>(g.c);
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        I r              = static_cast<I>(e);
        const int64_t iw = r % i2;
        r /= i2;
        const int64_t ih = r % i1;
        r /= i1;
        const int64_t id = r % i0;
        r /= i0;
        const int64_t c = r % cc;
        const int64_t n = r / cc;
        const int64_t od = id / g.str[0], oh = ih / g.str[1], ow = iw / g.str[2];
        const bool on = id == od * g.str[0] && ih == oh * g.str[1] && iw == ow * g.str[2] && od < g.out[0] &&
                        oh < g.out[1] && ow < g.out[2];
        dx[n * g.xs[0] + c * g.xs[1] + id * g.xs[2] + ih * g.xs[3] + iw * g.xs[4]] =
            on ? col[(n * g.c + c) * os + (od * g.out[1] + oh) * g.out[2] + ow] : 0.0f;
    }
}

int Blocks(int64_t total) { return static_cast<int>(std::min<int64_t>((total + 255) / 256, 65536)); }

} // namespace

void LaunchConv1x1Gather(const ConvKArgs& a, void* stream, const float* x, float* col)
{
    const GatherArgs g  = Make(a);
    const int64_t total = g.n * g.c * g.out[0] * g.out[1] * g.out[2];
    if(total > INT32_MAX)
        Conv1x1Gather<int64_t><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, x, col);
    else if(total > 0)
        Conv1x1Gather<uint32_t><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, x, col);
}

void LaunchConv1x1Scatter(const ConvKArgs& a, void* stream, const float* col, float* dx)
{
    const GatherArgs g  = Make(a);
    const int64_t total = g.n * g.c * g.in[0] * g.in[1] * g.in[2];
    if(total > INT32_MAX)
        Conv1x1Scatter<int64_t><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, col, dx);
    else if(total > 0)
        Conv1x1Scatter<uint32_t><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, col, dx);
}

} // namespace miopen::gpu
