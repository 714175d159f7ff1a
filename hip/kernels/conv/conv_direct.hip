// Naive direct convolution on the GPU, all three directions, 1-3 spatial dims, pads, strides,
// dilations, groups and any tensor strides: the universal fallback (no workspace) and the GPU
// reference the faster solvers are checked against. Forward and backward data give each output
// element one thread; backward weights gives each weight element one block, whose threads sum
// interleaved slices of the (n, output position) range and then add them in a fixed tree order,
// so the bits are the same on every run. Templated on the storage type T (float, Half, BFloat16):
// values are loaded as fp32, accumulated in fp32 and rounded once to T.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::gpu {
namespace {

/// The geometry in index type I: 32-bit when every tensor fits (integer division is several
/// times cheaper), else 64-bit.
template <class I>
struct KA
{
    I n, c, k, g, cpg, kpg;
    I in[3], out[3], fil[3], pad[3], str[3], dil[3];
    I xs[5], ws[5], ys[5];
};

template <class I>
KA<I> Cast(const ConvKArgs& a)
{
    KA<I> b;
    b.n = static_cast<I>(a.n); b.c = static_cast<I>(a.c); b.k = static_cast<I>(a.k);
    b.g = static_cast<I>(a.g); b.cpg = static_cast<I>(a.cpg); b.kpg = static_cast<I>(a.kpg);
    for(int i = 0; i < 3; ++i)
    {
        b.in[i] = static_cast<I>(a.in[i]);   b.out[i] = static_cast<I>(a.out[i]);
        b.fil[i] = static_cast<I>(a.fil[i]); b.pad[i] = static_cast<I>(a.pad[i]);
        b.str[i] = static_cast<I>(a.str[i]); b.dil[i] = static_cast<I>(a.dil[i]);
    }
    for(int i = 0; i < 5; ++i)
    {
        b.xs[i] = static_cast<I>(a.xs[i]); b.ws[i] = static_cast<I>(a.ws[i]); b.ys[i] = static_cast<I>(a.ys[i]);
    }
    return b;
}

/// Whether every index of the problem fits in 32 bits.
bool Fits32(const ConvKArgs& a)
{
    const int64_t lim = INT32_MAX / 2;
    auto space = [](int64_t n0, int64_t n1, const int64_t* len, const int64_t* s) {
        return (n0 - 1) * s[0] + (n1 - 1) * s[1] + (len[0] - 1) * s[2] + (len[1] - 1) * s[3] +
               (len[2] - 1) * s[4] + 1;
    };
    return a.n * a.k * a.out[0] * a.out[1] * a.out[2] < lim && a.n * a.c * a.in[0] * a.in[1] * a.in[2] < lim &&
           space(a.n, a.c, a.in, a.xs) < lim && space(a.n, a.k, a.out, a.ys) < lim &&
           space(a.k, a.cpg, a.fil, a.ws) < lim;
}

constexpr int kNaiveThreads = 256;
constexpr int kWrwThreads   = 256;

template <class T, class I>
__global__ void ConvNaiveFwd(KA<I> a, const T* x, const T* w, T* y)
{
    const I osp   = a.out[0] * a.out[1] * a.out[2];
    const I total = a.n * a.k * osp;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        I r = static_cast<I>(i);
        const I ow = r % a.out[2]; r /= a.out[2];
        const I oh = r % a.out[1]; r /= a.out[1];
        const I od = r % a.out[0]; r /= a.out[0];
        const I k  = r % a.k;
        const I n  = r / a.k;
        const I c0 = (k / a.kpg) * a.cpg;
        float acc = 0.0f;
        for(I cl = 0; cl < a.cpg; ++cl)
        {
            const T* xc = x + n * a.xs[0] + (c0 + cl) * a.xs[1];
            const T* wc = w + k * a.ws[0] + cl * a.ws[1];
            for(I fd = 0; fd < a.fil[0]; ++fd)
            {
                const I id = od * a.str[0] - a.pad[0] + fd * a.dil[0];
                if(id < 0 || id >= a.in[0])
                    continue;
                for(I fh = 0; fh < a.fil[1]; ++fh)
                {
                    const I ih = oh * a.str[1] - a.pad[1] + fh * a.dil[1];
                    if(ih < 0 || ih >= a.in[1])
                        continue;
                    for(I fw = 0; fw < a.fil[2]; ++fw)
                    {
                        const I iw = ow * a.str[2] - a.pad[2] + fw * a.dil[2];
                        if(iw < 0 || iw >= a.in[2])
                            continue;
                        acc += LoadFloat(wc + (fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4])) *
                               LoadFloat(xc + (id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]));
                    }
                }
            }
        }
        StoreFloat(y + (n * a.ys[0] + k * a.ys[1] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]), acc);
    }
}

/// The output index o with o * s - p + f * d == i, when there is one in [0, out).
template <class I>
__device__ inline bool OutIndex(I i, I f, I s, I p, I d, I out, I& o)
{
    const I t = i + p - f * d;
    if(t < 0 || t % s != 0)
        return false;
    o = t / s;
    return o < out;
}

template <class T, class I>
__global__ void ConvNaiveBwd(KA<I> a, T* dx, const T* w, const T* dy)
{
    const I isp   = a.in[0] * a.in[1] * a.in[2];
    const I total = a.n * a.c * isp;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
        i += int64_t{gridDim.x} * blockDim.x)
    {
        I r = static_cast<I>(i);
        const I iw = r % a.in[2]; r /= a.in[2];
        const I ih = r % a.in[1]; r /= a.in[1];
        const I id = r % a.in[0]; r /= a.in[0];
        const I c  = r % a.c;
        const I n  = r / a.c;
        const I cl = c % a.cpg;
        const I k0 = (c / a.cpg) * a.kpg;
        float acc = 0.0f;
        for(I kl = 0; kl < a.kpg; ++kl)
        {
            const T* dyk = dy + n * a.ys[0] + (k0 + kl) * a.ys[1];
            const T* wk  = w + (k0 + kl) * a.ws[0] + cl * a.ws[1];
            for(I fd = 0; fd < a.fil[0]; ++fd)
            {
                I od;
                if(!OutIndex(id, fd, a.str[0], a.pad[0], a.dil[0], a.out[0], od))
                    continue;
                for(I fh = 0; fh < a.fil[1]; ++fh)
                {
                    I oh;
                    if(!OutIndex(ih, fh, a.str[1], a.pad[1], a.dil[1], a.out[1], oh))
                        continue;
                    for(I fw = 0; fw < a.fil[2]; ++fw)
                    {
                        I ow;
                        if(!OutIndex(iw, fw, a.str[2], a.pad[2], a.dil[2], a.out[2], ow))
                            continue;
                        acc += LoadFloat(wk + (fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4])) *
                               LoadFloat(dyk + (od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]));
                    }
                }
            }
        }
        StoreFloat(dx + (n * a.xs[0] + c * a.xs[1] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]), acc);
    }
}

template <int Threads, class T, class I>
__global__ void ConvNaiveWrw(KA<I> a, const T* x, T* dw, const T* dy)
{
    __shared__ float part[Threads];
    const I fsp   = a.fil[0] * a.fil[1] * a.fil[2];
    const I total = a.k * a.cpg * fsp;
    const I osp   = a.out[0] * a.out[1] * a.out[2];
    const I red   = a.n * osp;
    for(int64_t e = blockIdx.x; e < total; e += gridDim.x)
    {
        I r = static_cast<I>(e);
        const I fw = r % a.fil[2]; r /= a.fil[2];
        const I fh = r % a.fil[1]; r /= a.fil[1];
        const I fd = r % a.fil[0]; r /= a.fil[0];
        const I cl = r % a.cpg;
        const I k  = r / a.cpg;
        const I c  = (k / a.kpg) * a.cpg + cl;
        float acc = 0.0f;
        for(int64_t j = threadIdx.x; j < red; j += Threads)
        {
            I q = static_cast<I>(j);
            const I ow = q % a.out[2]; q /= a.out[2];
            const I oh = q % a.out[1]; q /= a.out[1];
            const I od = q % a.out[0];
            const I n  = q / a.out[0];
            const I id = od * a.str[0] - a.pad[0] + fd * a.dil[0];
            const I ih = oh * a.str[1] - a.pad[1] + fh * a.dil[1];
            const I iw = ow * a.str[2] - a.pad[2] + fw * a.dil[2];
            if(id < 0 || id >= a.in[0] || ih < 0 || ih >= a.in[1] || iw < 0 || iw >= a.in[2])
                continue;
            acc += LoadFloat(dy + (n * a.ys[0] + k * a.ys[1] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4])) *
                   LoadFloat(x + (n * a.xs[0] + c * a.xs[1] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]));
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
            StoreFloat(dw + (k * a.ws[0] + cl * a.ws[1] + fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4]), part[0]);
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

template <class T>
void LaunchConvNaiveFwd(const ConvKArgs& a, void* stream, int sms, const T* x, const T* w, T* y)
{
    const int64_t work = a.n * a.k * a.out[0] * a.out[1] * a.out[2];
    if(Fits32(a))
        ConvNaiveFwd<T><<<Blocks(work, kNaiveThreads, sms), kNaiveThreads, 0, ToStream(stream)>>>(Cast<int>(a), x, w, y);
    else
        ConvNaiveFwd<T><<<Blocks(work, kNaiveThreads, sms), kNaiveThreads, 0, ToStream(stream)>>>(Cast<int64_t>(a), x, w, y);
}

template <class T>
void LaunchConvNaiveBwd(const ConvKArgs& a, void* stream, int sms, T* dx, const T* w, const T* dy)
{
    const int64_t work = a.n * a.c * a.in[0] * a.in[1] * a.in[2];
    if(Fits32(a))
        ConvNaiveBwd<T><<<Blocks(work, kNaiveThreads, sms), kNaiveThreads, 0, ToStream(stream)>>>(Cast<int>(a), dx, w, dy);
    else
        ConvNaiveBwd<T><<<Blocks(work, kNaiveThreads, sms), kNaiveThreads, 0, ToStream(stream)>>>(Cast<int64_t>(a), dx, w, dy);
}

template <class T>
void LaunchConvNaiveWrw(const ConvKArgs& a, void* stream, int sms, const T* x, T* dw, const T* dy)
{
    const int64_t total = a.k * a.cpg * a.fil[0] * a.fil[1] * a.fil[2];
    const int64_t cap   = int64_t{1} << 30;
    const unsigned blocks = static_cast<unsigned>(total < cap ? (total < 1 ? 1 : total) : cap);
    if(Fits32(a))
        ConvNaiveWrw<kWrwThreads, T><<<blocks, kWrwThreads, 0, ToStream(stream)>>>(Cast<int>(a), x, dw, dy);
    else
        ConvNaiveWrw<kWrwThreads, T><<<blocks, kWrwThreads, 0, ToStream(stream)>>>(Cast<int64_t>(a), x, dw, dy);
}

#define MIOPEN_CY_CONV_NAIVE(T)                                                                    \
    template void LaunchConvNaiveFwd<T>(const ConvKArgs&, void*, int, const T*, const T*, T*);    \
    template void LaunchConvNaiveBwd<T>(const ConvKArgs&, void*, int, T*, const T*, const T*);    \
    template void LaunchConvNaiveWrw<T>(const ConvKArgs&, void*, int, const T*, T*, const T*);
MIOPEN_CY_CONV_NAIVE(float)
MIOPEN_CY_CONV_NAIVE(Half)
MIOPEN_CY_CONV_NAIVE(BFloat16)
#undef MIOPEN_CY_CONV_NAIVE

} // namespace miopen::gpu
