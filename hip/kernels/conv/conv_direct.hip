// Naive direct convolution on the GPU, all three directions, 1-3 spatial dims, pads, strides,
// dilations, groups and any tensor strides: the universal fallback (no workspace) and the GPU
// reference the faster solvers are checked against. Forward and backward data give each output
// element one thread; backward weights gives each weight element one block, whose threads sum
// interleaved slices of the (n, output position) range and then add them in a fixed tree order,
// so the bits are the same on every run.
#include "common/device.hpp"
#include "conv/conv_kernels.hpp"

namespace miopen::gpu {
namespace {

constexpr int kNaiveThreads = 256;
constexpr int kWrwThreads   = 256;

__global__ void ConvNaiveFwd(ConvKArgs a, const float* x, const float* w, float* y)
{
    const int64_t osp   = a.out[0] * a.out[1] * a.out[2];
    const int64_t total = a.n * a.k * osp;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t r        = i;
        const int64_t ow = r % a.out[2]; r /= a.out[2];
        const int64_t oh = r % a.out[1]; r /= a.out[1];
        const int64_t od = r % a.out[0]; r /= a.out[0];
        const int64_t k  = r % a.k;
        const int64_t n  = r / a.k;
        const int64_t c0 = (k / a.kpg) * a.cpg;
        float acc        = 0.0f;
        for(int64_t cl = 0; cl < a.cpg; ++cl)
        {
            const float* xc = x + n * a.xs[0] + (c0 + cl) * a.xs[1];
            const float* wc = w + k * a.ws[0] + cl * a.ws[1];
            for(int64_t fd = 0; fd < a.fil[0]; ++fd)
            {
                const int64_t id = od * a.str[0] - a.pad[0] + fd * a.dil[0];
                if(id < 0 || id >= a.in[0])
                    continue;
                for(int64_t fh = 0; fh < a.fil[1]; ++fh)
                {
                    const int64_t ih = oh * a.str[1] - a.pad[1] + fh * a.dil[1];
                    if(ih < 0 || ih >= a.in[1])
                        continue;
                    for(int64_t fw = 0; fw < a.fil[2]; ++fw)
                    {
                        const int64_t iw = ow * a.str[2] - a.pad[2] + fw * a.dil[2];
                        if(iw < 0 || iw >= a.in[2])
                            continue;
                        acc += wc[fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4]] *
                               xc[id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]];
                    }
                }
            }
        }
        y[n * a.ys[0] + k * a.ys[1] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]] = acc;
    }
}

/// The output index o with o * s - p + f * d == i, when there is one in [0, out).
__device__ inline bool OutIndex(int64_t i, int64_t f, int64_t s, int64_t p, int64_t d, int64_t out,
                                int64_t& o)
{
    const int64_t t = i + p - f * d;
    if(t < 0 || t % s != 0)
        return false;
    o = t / s;
    return o < out;
}

__global__ void ConvNaiveBwd(ConvKArgs a, float* dx, const float* w, const float* dy)
{
    const int64_t isp   = a.in[0] * a.in[1] * a.in[2];
    const int64_t total = a.n * a.c * isp;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t r        = i;
        const int64_t iw = r % a.in[2]; r /= a.in[2];
        const int64_t ih = r % a.in[1]; r /= a.in[1];
        const int64_t id = r % a.in[0]; r /= a.in[0];
        const int64_t c  = r % a.c;
        const int64_t n  = r / a.c;
        const int64_t cl = c % a.cpg;
        const int64_t k0 = (c / a.cpg) * a.kpg;
        float acc        = 0.0f;
        for(int64_t kl = 0; kl < a.kpg; ++kl)
        {
            const float* dyk = dy + n * a.ys[0] + (k0 + kl) * a.ys[1];
            const float* wk  = w + (k0 + kl) * a.ws[0] + cl * a.ws[1];
            for(int64_t fd = 0; fd < a.fil[0]; ++fd)
            {
                int64_t od;
                if(!OutIndex(id, fd, a.str[0], a.pad[0], a.dil[0], a.out[0], od))
                    continue;
                for(int64_t fh = 0; fh < a.fil[1]; ++fh)
                {
                    int64_t oh;
                    if(!OutIndex(ih, fh, a.str[1], a.pad[1], a.dil[1], a.out[1], oh))
                        continue;
                    for(int64_t fw = 0; fw < a.fil[2]; ++fw)
                    {
                        int64_t ow;
                        if(!OutIndex(iw, fw, a.str[2], a.pad[2], a.dil[2], a.out[2], ow))
                            continue;
                        acc += wk[fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4]] *
                               dyk[od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]];
                    }
                }
            }
        }
        dx[n * a.xs[0] + c * a.xs[1] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]] = acc;
    }
}

template <int Threads>
__global__ void ConvNaiveWrw(ConvKArgs a, const float* x, float* dw, const float* dy)
{
    __shared__ float part[Threads];
    const int64_t fsp   = a.fil[0] * a.fil[1] * a.fil[2];
    const int64_t total = a.k * a.cpg * fsp;
    const int64_t osp   = a.out[0] * a.out[1] * a.out[2];
    const int64_t red   = a.n * osp;
    for(int64_t e = blockIdx.x; e < total; e += gridDim.x)
    {
        int64_t r        = e;
        const int64_t fw = r % a.fil[2]; r /= a.fil[2];
        const int64_t fh = r % a.fil[1]; r /= a.fil[1];
        const int64_t fd = r % a.fil[0]; r /= a.fil[0];
        const int64_t cl = r % a.cpg;
        const int64_t k  = r / a.cpg;
        const int64_t c  = (k / a.kpg) * a.cpg + cl;
        float acc        = 0.0f;
        for(int64_t j = threadIdx.x; j < red; j += Threads)
        {
            int64_t q        = j;
            const int64_t ow = q % a.out[2]; q /= a.out[2];
            const int64_t oh = q % a.out[1]; q /= a.out[1];
            const int64_t od = q % a.out[0];
            const int64_t n  = q / a.out[0];
            const int64_t id = od * a.str[0] - a.pad[0] + fd * a.dil[0];
            const int64_t ih = oh * a.str[1] - a.pad[1] + fh * a.dil[1];
            const int64_t iw = ow * a.str[2] - a.pad[2] + fw * a.dil[2];
            if(id < 0 || id >= a.in[0] || ih < 0 || ih >= a.in[1] || iw < 0 || iw >= a.in[2])
                continue;
            acc += dy[n * a.ys[0] + k * a.ys[1] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]] *
                   x[n * a.xs[0] + c * a.xs[1] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]];
        }
        part[threadIdx.x] = acc;
        __syncthreads();
        for(int s = Threads / 2; s > 0; s /= 2)
        {
            if(static_cast<int>(threadIdx.x) < s)
                part[threadIdx.x] += part[threadIdx.x + s];
            __syncthreads();
        }
        if(threadIdx.x == 0)
            dw[k * a.ws[0] + cl * a.ws[1] + fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4]] = part[0];
        __syncthreads();
    }
}

unsigned Blocks(int64_t work, int threads, int sms)
{
    const int64_t need = (work + threads - 1) / threads;
    const int64_t full = int64_t{sms} * 2048 / threads * 4;
    const int64_t b    = need < full ? need : full;
    return static_cast<unsigned>(b < 1 ? 1 : b);
}

} // namespace

void LaunchConvNaiveFwd(const ConvKArgs& a, void* stream, int sms, const float* x, const float* w,
                        float* y)
{
    const int64_t work = a.n * a.k * a.out[0] * a.out[1] * a.out[2];
    ConvNaiveFwd<<<Blocks(work, kNaiveThreads, sms), kNaiveThreads, 0, ToStream(stream)>>>(a, x, w, y);
}

void LaunchConvNaiveBwd(const ConvKArgs& a, void* stream, int sms, float* dx, const float* w,
                        const float* dy)
{
    const int64_t work = a.n * a.c * a.in[0] * a.in[1] * a.in[2];
    ConvNaiveBwd<<<Blocks(work, kNaiveThreads, sms), kNaiveThreads, 0, ToStream(stream)>>>(a, dx, w, dy);
}

void LaunchConvNaiveWrw(const ConvKArgs& a, void* stream, int sms, const float* x, float* dw,
                        const float* dy)
{
    const int64_t total = a.k * a.cpg * a.fil[0] * a.fil[1] * a.fil[2];
    const int64_t cap   = int64_t{1} << 30;
    const unsigned blocks = static_cast<unsigned>(total < cap ? (total < 1 ? 1 : total) : cap);
    ConvNaiveWrw<kWrwThreads><<<blocks, kWrwThreads, 0, ToStream(stream)>>>(a, x, dw, dy);
}

} // namespace miopen::gpu
