// Depthwise convolution on the GPU (groups == C == K, 2-d, packed NCHW): memory-bound kernels.
// Forward and backward data give each thread kDwRun neighbouring outputs of one row, so the
// filter is read once per run and the index arithmetic is shared; backward weights gives each
// block one (channel, image) pair whose threads accumulate every filter tap in registers,
// reduces them in a fixed tree order into the workspace, and a second kernel adds the images
// in order (deterministic). Packed NHWC forward and backward data: DwFwdNhwc / DwBwdNhwc.
#include "kernels/common/device.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::gpu {
namespace {

constexpr int kDwRun     = 4;
constexpr int kDwThreads = 256;

struct Dw
{
    int n, c, h, w, r, s, ho, wo, ph, pw, sh, sw, dh, dw;
};

Dw ToDw(const ConvKArgs& a)
{
    Dw d;
    d.n = static_cast<int>(a.n); d.c = static_cast<int>(a.c);
    d.h = static_cast<int>(a.in[1]); d.w = static_cast<int>(a.in[2]);
    d.r = static_cast<int>(a.fil[1]); d.s = static_cast<int>(a.fil[2]);
    d.ho = static_cast<int>(a.out[1]); d.wo = static_cast<int>(a.out[2]);
    d.ph = static_cast<int>(a.pad[1]); d.pw = static_cast<int>(a.pad[2]);
    d.sh = static_cast<int>(a.str[1]); d.sw = static_cast<int>(a.str[2]);
    d.dh = static_cast<int>(a.dil[1]); d.dw = static_cast<int>(a.dil[2]);
    return d;
}

__global__ void DwFwd(Dw d, const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y)
{
    const int runs        = (d.wo + kDwRun - 1) / kDwRun;
    const int64_t total   = int64_t{d.n} * d.c * d.ho * runs;
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += int64_t{gridDim.x} * blockDim.x)
    {
        int q         = static_cast<int>(t % runs);
        int64_t rest  = t / runs;
        const int oh  = static_cast<int>(rest % d.ho);
        const int64_t plane = rest / d.ho;   // n * c + c
        const int c   = static_cast<int>(plane % d.c);
        const int ow0 = q * kDwRun;
        const float* xp = x + plane * d.h * d.w;
        const float* wp = w + int64_t{c} * d.r * d.s;
        float acc[kDwRun];
#pragma unroll
        for(int i = 0; i < kDwRun; ++i)
            acc[i] = 0.0f;
        for(int fh = 0; fh < d.r; ++fh)
        {
            const int ih = oh * d.sh - d.ph + fh * d.dh;
            if(ih < 0 || ih >= d.h)
                continue;
            const float* xr = xp + ih * d.w;
            for(int fw = 0; fw < d.s; ++fw)
            {
                const float wv = wp[fh * d.s + fw];
                const int iw0  = ow0 * d.sw - d.pw + fw * d.dw;
#pragma unroll
                for(int i = 0; i < kDwRun; ++i)
                {
                    const int iw = iw0 + i * d.sw;
                    if(iw >= 0 && iw < d.w)
                        acc[i] = fmaf(wv, xr[iw], acc[i]);
                }
            }
        }
        float* yr = y + (plane * d.ho + oh) * d.wo;
#pragma unroll
        for(int i = 0; i < kDwRun; ++i)
            if(ow0 + i < d.wo)
                yr[ow0 + i] = acc[i];
    }
}

__global__ void DwBwd(Dw d, float* __restrict__ dx, const float* __restrict__ w, const float* __restrict__ dy)
{
    const int runs      = (d.w + kDwRun - 1) / kDwRun;
    const int64_t total = int64_t{d.n} * d.c * d.h * runs;
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += int64_t{gridDim.x} * blockDim.x)
    {
        int q         = static_cast<int>(t % runs);
        int64_t rest  = t / runs;
        const int ih  = static_cast<int>(rest % d.h);
        const int64_t plane = rest / d.h;
        const int c   = static_cast<int>(plane % d.c);
        const int iw0 = q * kDwRun;
        const float* yp = dy + plane * d.ho * d.wo;
        const float* wp = w + int64_t{c} * d.r * d.s;
        float acc[kDwRun];
#pragma unroll
        for(int i = 0; i < kDwRun; ++i)
            acc[i] = 0.0f;
        for(int fh = 0; fh < d.r; ++fh)
        {
            const int th = ih + d.ph - fh * d.dh;
            if(th < 0 || th % d.sh != 0 || th / d.sh >= d.ho)
                continue;
            const float* yr = yp + (th / d.sh) * d.wo;
            for(int fw = 0; fw < d.s; ++fw)
            {
                const float wv = wp[fh * d.s + fw];
#pragma unroll
                for(int i = 0; i < kDwRun; ++i)
                {
                    const int tw = iw0 + i + d.pw - fw * d.dw;
                    if(tw >= 0 && tw % d.sw == 0 && tw / d.sw < d.wo)
                        acc[i] = fmaf(wv, yr[tw / d.sw], acc[i]);
                }
            }
        }
        float* xr = dx + (plane * d.h + ih) * d.w;
#pragma unroll
        for(int i = 0; i < kDwRun; ++i)
            if(iw0 + i < d.w)
                xr[iw0 + i] = acc[i];
    }
}

/// One block per (image, channel): partial[c][n][tap] = sum over the image's output positions.
template <int Taps>
__global__ void DwWrwPartial(Dw d, const float* __restrict__ x, const float* __restrict__ dy, float* partial)
{
    __shared__ float red[kDwThreads];
    const int c = blockIdx.x % d.c;
    const int n = blockIdx.x / d.c;
    const int64_t plane = int64_t{n} * d.c + c;
    const float* xp = x + plane * d.h * d.w;
    const float* yp = dy + plane * d.ho * d.wo;
    float acc[Taps];
#pragma unroll
    for(int t = 0; t < Taps; ++t)
        acc[t] = 0.0f;
    const int osp = d.ho * d.wo;
    for(int o = threadIdx.x; o < osp; o += kDwThreads)
    {
        const int oh = o / d.wo, ow = o - (o / d.wo) * d.wo;
        const float g = yp[o];
#pragma unroll
        for(int t = 0; t < Taps; ++t)
        {
            if(t >= d.r * d.s)
                break;
            const int fh = t / d.s, fw = t - (t / d.s) * d.s;
            const int ih = oh * d.sh - d.ph + fh * d.dh;
            const int iw = ow * d.sw - d.pw + fw * d.dw;
            if(ih >= 0 && ih < d.h && iw >= 0 && iw < d.w)
                acc[t] = fmaf(g, xp[ih * d.w + iw], acc[t]);
        }
    }
    for(int t = 0; t < d.r * d.s && t < Taps; ++t)
    {
        float v = 0.0f;
#pragma unroll
        for(int u = 0; u < Taps; ++u)
            if(u == t)
                v = acc[u];
        red[threadIdx.x] = v;
        __syncthreads();
        for(int s = kDwThreads / 2; s > 0; s /= 2)
        {
            if(static_cast<int>(threadIdx.x) < s)
                red[threadIdx.x] += red[threadIdx.x + s];
            __syncthreads();
        }
        if(threadIdx.x == 0)
            partial[(int64_t{c} * d.n + n) * (d.r * d.s) + t] = red[0];
        __syncthreads();
    }
}

__global__ void DwWrwFinish(Dw d, const float* partial, float* dw)
{
    const int taps  = d.r * d.s;
    const int total = d.c * taps;
    for(int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x)
    {
        const int c = e / taps, t = e - (e / taps) * taps;
        float s = 0.0f;
        for(int n = 0; n < d.n; ++n)
            s += partial[(int64_t{c} * d.n + n) * taps + t];
        dw[e] = s;
    }
}

// Packed channels-last (NHWC; filters (C, R, S, 1), the same order as NCHW's (C, 1, R, S)): one
// thread per output element with the channel fastest, so that a warp reads and writes runs of
// consecutive channels (the taps' re-reads of x or dy come from the caches).
__global__ void DwFwdNhwc(Dw d, const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y)
{
    const int64_t total = int64_t{d.n} * d.ho * d.wo * d.c;
    const int taps      = d.r * d.s;
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += int64_t{gridDim.x} * blockDim.x)
    {
        const int c        = static_cast<int>(t % d.c);
        const int64_t pix  = t / d.c;                  // (n, oh, ow)
        const int ow       = static_cast<int>(pix % d.wo);
        const int64_t rest = pix / d.wo;
        const int oh       = static_cast<int>(rest % d.ho);
        const int64_t n    = rest / d.ho;
        const float* xp = x + n * d.h * d.w * d.c + c;
        const float* wp = w + int64_t{c} * taps;
        float acc = 0.0f;
        for(int fh = 0; fh < d.r; ++fh)
        {
            const int ih = oh * d.sh - d.ph + fh * d.dh;
            if(ih < 0 || ih >= d.h)
                continue;
            for(int fw = 0; fw < d.s; ++fw)
            {
                const int iw = ow * d.sw - d.pw + fw * d.dw;
                if(iw >= 0 && iw < d.w)
                    acc = fmaf(wp[fh * d.s + fw], xp[(int64_t{ih} * d.w + iw) * d.c], acc);
            }
        }
        y[t] = acc;
    }
}

__global__ void DwBwdNhwc(Dw d, float* __restrict__ dx, const float* __restrict__ w, const float* __restrict__ dy)
{
    const int64_t total = int64_t{d.n} * d.h * d.w * d.c;
    const int taps      = d.r * d.s;
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += int64_t{gridDim.x} * blockDim.x)
    {
        const int c        = static_cast<int>(t % d.c);
        const int64_t pix  = t / d.c;                  // (n, ih, iw)
        const int iw       = static_cast<int>(pix % d.w);
        const int64_t rest = pix / d.w;
        const int ih       = static_cast<int>(rest % d.h);
        const int64_t n    = rest / d.h;
        const float* yp = dy + n * d.ho * d.wo * d.c + c;
        const float* wp = w + int64_t{c} * taps;
        float acc = 0.0f;
        for(int fh = 0; fh < d.r; ++fh)
        {
            const int th = ih + d.ph - fh * d.dh;
            if(th < 0 || th % d.sh != 0 || th / d.sh >= d.ho)
                continue;
            const int oh = th / d.sh;
            for(int fw = 0; fw < d.s; ++fw)
            {
                const int tw = iw + d.pw - fw * d.dw;
                if(tw >= 0 && tw % d.sw == 0 && tw / d.sw < d.wo)
                    acc = fmaf(wp[fh * d.s + fw], yp[(int64_t{oh} * d.wo + tw / d.sw) * d.c], acc);
            }
        }
        dx[t] = acc;
    }
}

unsigned DwBlocks(int64_t work, int sms)
{
    const int64_t need = (work + kDwThreads - 1) / kDwThreads;
    const int64_t full = int64_t{sms} * 32;
    return static_cast<unsigned>(need < 1 ? 1 : (need < full ? need : full));
}

} // namespace

void LaunchConvDepthwiseFwd(const ConvKArgs& a, void* stream, int sms, const float* x, const float* w, float* y)
{
    const Dw d = ToDw(a);
    const int64_t work = int64_t{d.n} * d.c * d.ho * ((d.wo + kDwRun - 1) / kDwRun);
    DwFwd<<<DwBlocks(work, sms), kDwThreads, 0, ToStream(stream)>>>(d, x, w, y);
}

void LaunchConvDepthwiseBwd(const ConvKArgs& a, void* stream, int sms, float* dx, const float* w,
                            const float* dy)
{
    const Dw d = ToDw(a);
    const int64_t work = int64_t{d.n} * d.c * d.h * ((d.w + kDwRun - 1) / kDwRun);
    DwBwd<<<DwBlocks(work, sms), kDwThreads, 0, ToStream(stream)>>>(d, dx, w, dy);
}

void LaunchConvDepthwiseFwdNhwc(const ConvKArgs& a, void* stream, int sms, const float* x, const float* w, float* y)
{
    const Dw d = ToDw(a);
    const int64_t work = int64_t{d.n} * d.ho * d.wo * d.c;
    DwFwdNhwc<<<DwBlocks(work, sms), kDwThreads, 0, ToStream(stream)>>>(d, x, w, y);
}

void LaunchConvDepthwiseBwdNhwc(const ConvKArgs& a, void* stream, int sms, float* dx, const float* w,
                                const float* dy)
{
    const Dw d = ToDw(a);
    const int64_t work = int64_t{d.n} * d.h * d.w * d.c;
    DwBwdNhwc<<<DwBlocks(work, sms), kDwThreads, 0, ToStream(stream)>>>(d, dx, w, dy);
}

void LaunchConvDepthwiseWrw(const ConvKArgs& a, void* stream, const float* x, float* dw, const float* dy,
                            float* workspace)
{
    const Dw d = ToDw(a);
    const unsigned blocks = static_cast<unsigned>(d.n * d.c);
    if(d.r * d.s <= 9)
        DwWrwPartial<9><<<blocks, kDwThreads, 0, ToStream(stream)>>>(d, x, dy, workspace);
    else
        DwWrwPartial<25><<<blocks, kDwThreads, 0, ToStream(stream)>>>(d, x, dy, workspace);
    const int total = d.c * d.r * d.s;
    DwWrwFinish<<<(total + 255) / 256, 256, 0, ToStream(stream)>>>(d, workspace, dw);
}

} // namespace miopen::gpu
