// The strided 1x1 convolution around a GEMM (gemm_gather.hpp): the gather of the subsampled input
// into a packed column buffer, and the scatter of backward data's packed result into dx (zeros
// off the stride grid). Grid-stride loops; 32-bit index decoding where the sizes allow. The
// scatter runs one thread per stride-wide run of a dx row (LaunchConv1x1Scatter). The
// channels-last pair (LaunchConv1x1GatherNhwc / ScatterNhwc) moves whole pixels of C channels.
#include "kernels/common/device.hpp"
#include "kernels/gemm/gemm_gather.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

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

// One thread per (n, c, input row, output column): the stride-wide run of dx that the output
// column covers in that input row (the col value at its start where the row is on the stride
// grid, zeros elsewhere). Consecutive threads write consecutive runs; a third of the index
// divisions of a thread per element and 1/stride of the threads. Every dx element is written
// once: out = (in - 1) / stride + 1, so the runs tile each row (the last one cut at in[2]).
template <class I, bool kPair>
__global__ void Conv1x1ScatterRuns(GatherArgs g, const float* __restrict__ col, float* __restrict__ dx)
{
    const int64_t os    = g.out[0] * g.out[1] * g.out[2];
    const int64_t total = g.n * g.c * g.in[0] * g.in[1] * g.out[2];
    const I o2 = static_cast<I>(g.out[2]), i1 = static_cast<I>(g.in[1]), i0 = static_cast<I>(g.in[0]);
    const I cc = static_cast<I>(g.c);
    const I s0 = static_cast<I>(g.str[0]), s1 = static_cast<I>(g.str[1]);
    const int64_t s2 = kPair ? 2 : g.str[2];
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        I r      = static_cast<I>(e);
        const I ow = r % o2;
        r /= o2;
        const I ih = r % i1;
        r /= i1;
        const I id = r % i0;
        const I pl = r / i0;   // n * c + c: col's plane
        const I c = pl % cc, n = pl / cc;
        const I od = id / s0, oh = ih / s1;
        const bool on = id == od * s0 && ih == oh * s1 && od < g.out[0] && oh < g.out[1];
        const float v = on ? col[int64_t{pl} * os + (int64_t{od} * g.out[1] + oh) * g.out[2] + ow] : 0.0f;
        const int64_t iw0 = int64_t{ow} * s2;
        float* dst = dx + int64_t{n} * g.xs[0] + int64_t{c} * g.xs[1] + int64_t{id} * g.xs[2] +
                     int64_t{ih} * g.xs[3];
        if(kPair)   // stride 2, unit column stride, even row starts and width: one 8-byte store
        {
            *reinterpret_cast<float2*>(dst + iw0) = make_float2(v, 0.0f);
        }
        else
        {
            dst[iw0 * g.xs[4]] = v;
            for(int64_t j = 1; j < s2 && iw0 + j < g.in[2]; ++j)
                dst[(iw0 + j) * g.xs[4]] = 0.0f;
        }
    }
}

int Blocks(int64_t total) { return static_cast<int>(std::min<int64_t>((total + 255) / 256, 65536)); }

// Channels-last: V channels a thread (V = 4: float4 accesses), the channel fastest across
// threads, so that a warp reads and writes whole contiguous pixel rows of C. x and dx are
// packed N, D, H, W, C (their strides are implied by in[] and c); col is packed N, od, oh, ow, C.
template <class I, int V>
__global__ void Conv1x1GatherNhwc(GatherArgs g, const float* __restrict__ x, float* __restrict__ col)
{
    using Vec           = typename std::conditional<V == 4, float4, float>::type;
    const I cv          = static_cast<I>(g.c / V);
    const int64_t total = g.n * g.out[0] * g.out[1] * g.out[2] * (g.c / V);
    const I o2 = static_cast<I>(g.out[2]), o1 = static_cast<I>(g.out[1]), o0 = static_cast<I>(g.out[0]);
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        I r       = static_cast<I>(e);
        const I c = r % cv;
        r /= cv;
        const I ow = r % o2;
        r /= o2;
        const I oh = r % o1;
        r /= o1;
        const I od = r % o0;
        const I n  = r / o0;
        const int64_t pix = ((int64_t{n} * g.in[0] + int64_t{od} * g.str[0]) * g.in[1] + int64_t{oh} * g.str[1]) *
                                g.in[2] +
                            int64_t{ow} * g.str[2];
        reinterpret_cast<Vec*>(col)[e] = reinterpret_cast<const Vec*>(x)[pix * cv + c];
    }
}

template <class I, int V>
__global__ void Conv1x1ScatterNhwc(GatherArgs g, const float* __restrict__ col, float* __restrict__ dx)
{
    using Vec           = typename std::conditional<V == 4, float4, float>::type;
    const I cv          = static_cast<I>(g.c / V);
    const int64_t total = g.n * g.in[0] * g.in[1] * g.in[2] * (g.c / V);
    const I i2 = static_cast<I>(g.in[2]), i1 = static_cast<I>(g.in[1]), i0 = static_cast<I>(g.in[0]);
    const I s2 = static_cast<I>(g.str[2]), s1 = static_cast<I>(g.str[1]), s0 = static_cast<I>(g.str[0]);
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        I r       = static_cast<I>(e);
        const I c = r % cv;
        r /= cv;
        const I iw = r % i2;
        r /= i2;
        const I ih = r % i1;
        r /= i1;
        const I id = r % i0;
        const I n  = r / i0;
        const I od = id / s0, oh = ih / s1, ow = iw / s2;
        const bool on = id == od * s0 && ih == oh * s1 && iw == ow * s2;
        Vec v;
        if constexpr(V == 4)
            v = make_float4(0.f, 0.f, 0.f, 0.f);
        else
            v = 0.0f;
        if(on)
            v = reinterpret_cast<const Vec*>(col)[(((int64_t{n} * g.out[0] + od) * g.out[1] + oh) * g.out[2] + ow) * cv + c];
        reinterpret_cast<Vec*>(dx)[e] = v;
    }
}

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
    const int64_t total = g.n * g.c * g.in[0] * g.in[1] * g.out[2];
    if(total <= 0)
        return;
    if(total > INT32_MAX || g.n * g.c * g.in[0] * g.in[1] * g.in[2] > INT32_MAX)
    {
        Conv1x1ScatterRuns<int64_t, false><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, col, dx);
        return;
    }
    const bool pair = g.str[2] == 2 && g.xs[4] == 1 && g.in[2] % 2 == 0 && g.xs[0] % 2 == 0 &&
                      g.xs[1] % 2 == 0 && g.xs[2] % 2 == 0 && g.xs[3] % 2 == 0 &&
                      reinterpret_cast<uintptr_t>(dx) % (2 * sizeof(float)) == 0;
    if(pair)
        Conv1x1ScatterRuns<uint32_t, true><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, col, dx);
    else
        Conv1x1ScatterRuns<uint32_t, false><<<Blocks(total), 256, 0, ToStream(stream)>>>(g, col, dx);
}

namespace {

bool Vec4Nhwc(const GatherArgs& g, const void* a, const void* b)
{
    return g.c % 4 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0;
}

} // namespace

void LaunchConv1x1GatherNhwc(const ConvKArgs& a, void* stream, const float* x, float* col)
{
    const GatherArgs g = Make(a);
    const bool v4      = Vec4Nhwc(g, x, col);
    const int64_t total = g.n * g.out[0] * g.out[1] * g.out[2] * (v4 ? g.c / 4 : g.c);
    const bool wide     = g.n * g.in[0] * g.in[1] * g.in[2] * g.c > INT32_MAX;
    if(total <= 0)
        return;
    hipStream_t st = ToStream(stream);
    if(wide && v4)
        Conv1x1GatherNhwc<int64_t, 4><<<Blocks(total), 256, 0, st>>>(g, x, col);
    else if(wide)
        Conv1x1GatherNhwc<int64_t, 1><<<Blocks(total), 256, 0, st>>>(g, x, col);
    else if(v4)
        Conv1x1GatherNhwc<uint32_t, 4><<<Blocks(total), 256, 0, st>>>(g, x, col);
    else
        Conv1x1GatherNhwc<uint32_t, 1><<<Blocks(total), 256, 0, st>>>(g, x, col);
}

void LaunchConv1x1ScatterNhwc(const ConvKArgs& a, void* stream, const float* col, float* dx)
{
    const GatherArgs g = Make(a);
    const bool v4      = Vec4Nhwc(g, col, dx);
    const int64_t total = g.n * g.in[0] * g.in[1] * g.in[2] * (v4 ? g.c / 4 : g.c);
    const bool wide     = g.n * g.in[0] * g.in[1] * g.in[2] * g.c > INT32_MAX;
    if(total <= 0)
        return;
    hipStream_t st = ToStream(stream);
    if(wide && v4)
        Conv1x1ScatterNhwc<int64_t, 4><<<Blocks(total), 256, 0, st>>>(g, col, dx);
    else if(wide)
        Conv1x1ScatterNhwc<int64_t, 1><<<Blocks(total), 256, 0, st>>>(g, col, dx);
    else if(v4)
        Conv1x1ScatterNhwc<uint32_t, 4><<<Blocks(total), 256, 0, st>>>(g, col, dx);
    else
        Conv1x1ScatterNhwc<uint32_t, 1><<<Blocks(total), 256, 0, st>>>(g, col, dx);
}

} // namespace miopen::gpu
