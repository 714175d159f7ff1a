// im2col / col2im for the general GEMM convolution solvers on the GPU (im2col.hpp). One thread
// per element of col (im2col) or of dx (col2im), grid-stride loops, 64-bit index arithmetic (the
// GEMM dominates; these move the column matrix once). col2im gathers (no atomics): each dx
// element adds its taps in (fd, fh, fw) order, the order of the CPU kernel's rows.
#include "kernels/common/device.hpp"
#include "kernels/gemm/im2col.hpp"

#include <algorithm>

namespace miopen::gpu {
namespace {

constexpr int kThreads = 256;

struct ColGeom
{
    int64_t cpg, in[3], out[3], fil[3], pad[3], str[3], dil[3], xs[5];
};

ColGeom Make(const ConvKArgs& a)
{
    ColGeom g;
    g.cpg = a.cpg;
    for(int i = 0; i < 3; ++i)
    {
        g.in[i] = a.in[i], g.out[i] = a.out[i], g.fil[i] = a.fil[i];
        g.pad[i] = a.pad[i], g.str[i] = a.str[i], g.dil[i] = a.dil[i];
    }
    for(int i = 0; i < 5; ++i)
        g.xs[i] = a.xs[i];
    return g;
}

__global__ void __launch_bounds__(kThreads) Im2Col(ColGeom g, const float* __restrict__ x, float* __restrict__ col)
{
    const int64_t os    = g.out[0] * g.out[1] * g.out[2];
    const int64_t fs    = g.fil[0] * g.fil[1] * g.fil[2];
    const int64_t total = g.cpg * fs * os;
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        const int64_t o = e % os, r = e / os;
        const int64_t ow = o % g.out[2], oh = (o / g.out[2]) % g.out[1], od = o / (g.out[2] * g.out[1]);
        const int64_t f = r % fs, c = r / fs;
        const int64_t fw = f % g.fil[2], fh = (f / g.fil[2]) % g.fil[1], fd = f / (g.fil[2] * g.fil[1]);
        const int64_t id = od * g.str[0] - g.pad[0] + fd * g.dil[0];
        const int64_t ih = oh * g.str[1] - g.pad[1] + fh * g.dil[1];
        const int64_t iw = ow * g.str[2] - g.pad[2] + fw * g.dil[2];
        const bool in = id >= 0 && id < g.in[0] && ih >= 0 && ih < g.in[1] && iw >= 0 && iw < g.in[2];
        col[e] = in ? x[c * g.xs[1] + id * g.xs[2] + ih * g.xs[3] + iw * g.xs[4]] : 0.0f;
    }
}

/// The output position that tap f of dim d reaches from input position i, or -1.
__device__ inline int64_t Reach(int64_t i, int64_t f, int64_t pad, int64_t str, int64_t dil, int64_t out)
{
    const int64_t t = i + pad - f * dil;
    if(t < 0 || t % str != 0)
        return -1;
    const int64_t o = t / str;
    return o < out ? o : -1;
}

__global__ void __launch_bounds__(kThreads) Col2Im(ColGeom g, const float* __restrict__ col, float* __restrict__ dx)
{
    const int64_t is    = g.in[0] * g.in[1] * g.in[2];
    const int64_t os    = g.out[0] * g.out[1] * g.out[2];
    const int64_t fs    = g.fil[0] * g.fil[1] * g.fil[2];
    const int64_t total = g.cpg * is;
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        const int64_t i = e % is, c = e / is;
        const int64_t iw = i % g.in[2], ih = (i / g.in[2]) % g.in[1], id = i / (g.in[2] * g.in[1]);
        const float* cc = col + c * fs * os;
        float s = 0.0f;
        for(int64_t fd = 0; fd < g.fil[0]; ++fd)
        {
            const int64_t od = Reach(id, fd, g.pad[0], g.str[0], g.dil[0], g.out[0]);
            if(od < 0)
                continue;
            for(int64_t fh = 0; fh < g.fil[1]; ++fh)
            {
                const int64_t oh = Reach(ih, fh, g.pad[1], g.str[1], g.dil[1], g.out[1]);
                if(oh < 0)
                    continue;
                for(int64_t fw = 0; fw < g.fil[2]; ++fw)
                {
                    const int64_t ow = Reach(iw, fw, g.pad[2], g.str[2], g.dil[2], g.out[2]);
                    if(ow < 0)
                        continue;
                    s += cc[((fd * g.fil[1] + fh) * g.fil[2] + fw) * os + (od * g.out[1] + oh) * g.out[2] + ow];
                }
            }
        }
        dx[c * g.xs[1] + id * g.xs[2] + ih * g.xs[3] + iw * g.xs[4]] = s;
    }
}

__global__ void __launch_bounds__(kThreads) Accumulate(int64_t count, bool first, const float* __restrict__ src,
                                                       float* __restrict__ dst)
{
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
        i += int64_t{gridDim.x} * blockDim.x)
        dst[i] = first ? src[i] : dst[i] + src[i];
}

/// Blocks for `work` elements: enough to fill a large GPU, no more than the work needs.
unsigned Blocks(int64_t work)
{
    return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((work + kThreads - 1) / kThreads, 8192)));
}

} // namespace

void LaunchIm2Col(const ConvKArgs& a, void* stream, int64_t n, int64_t grp, const float* x, float* col)
{
    const ColGeom g     = Make(a);
    const int64_t total = g.cpg * g.fil[0] * g.fil[1] * g.fil[2] * g.out[0] * g.out[1] * g.out[2];
    const float* xg     = x + n * a.xs[0] + grp * a.cpg * a.xs[1];
    Im2Col<<<Blocks(total), kThreads, 0, ToStream(stream)>>>(g, xg, col);
}

void LaunchCol2Im(const ConvKArgs& a, void* stream, int64_t n, int64_t grp, const float* col, float* dx)
{
    const ColGeom g     = Make(a);
    const int64_t total = g.cpg * g.in[0] * g.in[1] * g.in[2];
    float* dxg          = dx + n * a.xs[0] + grp * a.cpg * a.xs[1];
    Col2Im<<<Blocks(total), kThreads, 0, ToStream(stream)>>>(g, col, dxg);
}

void LaunchAccumulate(void* stream, int64_t count, bool first, const float* src, float* dst)
{
    Accumulate<<<Blocks(count), kThreads, 0, ToStream(stream)>>>(count, first, src, dst);
}

} // namespace miopen::gpu
