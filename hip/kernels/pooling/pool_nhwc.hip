// pool_fwd_nhwc / pool_bwd_nhwc: pooling on channels-last tensors (NHWC, NDHWC: C stride 1 in
// every operand, C % 4 == 0, every other stride and both pointers aligned to 4 elements, offsets
// in 32 bits where `small`), max (with or without the index workspace), average and
// average-inclusive; the backward for average, and for max with the index workspace (without
// one, the generic kernel finds the argmax again from x), which the backward reads from a
// channels-last copy in the handle's scratch (PoolIndexToNhwc: the workspace's own order puts
// the 4 channels of a thread a plane apart, a separate sector each, no read coalesced).
// A thread owns 4 neighbouring channels of one output (forward) or 4 such quads of one dx
// position (backward, the quads `per` quads apart): adjacent threads take adjacent channel
// groups, so every window position is coalesced runs of C values across the threads of a
// position, read as one Load4 a quad (a float4 for fp32, 8 bytes for fp16/bf16). Results are
// those of pool_fwd / pool_bwd of pooling.hip bit for bit: the same window scan (first strict
// maximum, NaN largest), the same sums in (d, h, w) order, the same scales and the blend of
// pool_math.hpp; the index workspace stays in y's logical (N, C, D, H, W) order. Storage types:
// template T, arithmetic in fp32, one rounding per output (Store4).
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kThreadsNhwc = 256;
constexpr int kVec         = 4; // channels a thread

__device__ inline bool GreaterNhwc(float a, float b) { return a > b || (a != a && b == b); }

__device__ inline void Unpack(float4 q, float (&v)[kVec])
{
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
}

/// The problem in the index type I (int32_t when `small`). xs: the input's strides (x forward,
/// dx backward), ys: the output's (y forward, dy backward).
template <class I>
struct GeoNhwc
{
    I n, c, groups, in[3], out[3], window[3], pad[3], stride[3], xs[5], ys[5];
    __device__ explicit GeoNhwc(const PoolArgs& a)
        : n(static_cast<I>(a.n)), c(static_cast<I>(a.c)), groups(static_cast<I>(a.c / kVec))
    {
#pragma unroll
        for(int j = 0; j < 3; ++j)
        {
            in[j]     = static_cast<I>(a.in[j]);
            out[j]    = static_cast<I>(a.out[j]);
            window[j] = static_cast<I>(a.window[j]);
            pad[j]    = static_cast<I>(a.pad[j]);
            stride[j] = static_cast<I>(a.stride[j]);
        }
#pragma unroll
        for(int j = 0; j < 5; ++j)
        {
            xs[j] = static_cast<I>(a.xs[j]);
            ys[j] = static_cast<I>(a.ys[j]);
        }
    }

    /// The in-bounds window [k0, k1) of output o along each dim and its unclipped start.
    __device__ void Window(const I (&o)[3], I (&start)[3], I (&k0)[3], I (&k1)[3]) const
    {
#pragma unroll
        for(int j = 0; j < 3; ++j)
        {
            start[j]  = o[j] * stride[j] - pad[j];
            k0[j]     = start[j] < 0 ? -start[j] : 0;
            const I e = in[j] - start[j];
            k1[j]     = window[j] < e ? window[j] : e;
        }
    }
};

template <class I, class T, class Idx, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(kThreadsNhwc)
    PoolFwdNhwc(PoolArgs args, const T* __restrict__ x, T* __restrict__ y, Idx* index)
{
    const GeoNhwc<I> a(args);
    const I total        = a.n * a.out[0] * a.out[1] * a.out[2] * a.groups;
    const bool inclusive = args.mode == miopenPoolingAverageInclusive;
    const float full = 1.0f / static_cast<float>(a.window[0] * a.window[1] * a.window[2]);
    for(I i = static_cast<I>(blockIdx.x * blockDim.x + threadIdx.x); i < total;
        i += static_cast<I>(gridDim.x * blockDim.x))
    {
        I r       = i;
        const I g = r % a.groups;
        r /= a.groups;
        I o[3];
        o[2] = r % a.out[2];
        r /= a.out[2];
        o[1] = r % a.out[1];
        r /= a.out[1];
        o[0]      = r % a.out[0];
        const I n = r / a.out[0];
        const I c = g * kVec;
        I start[3], k0[3], k1[3];
        a.Window(o, start, k0, k1);
        const T* xb = x + n * a.xs[0] + c;
        float v[kVec];
        I best[kVec][3];
        if(Max)
        {
            Unpack(Load4(xb + ((start[0] + k0[0]) * a.xs[2] + (start[1] + k0[1]) * a.xs[3] +
                               (start[2] + k0[2]) * a.xs[4])),
                   v);
#pragma unroll
            for(int e = 0; e < kVec; ++e)
            {
                best[e][0] = k0[0];
                best[e][1] = k0[1];
                best[e][2] = k0[2];
            }
            for(I kd = k0[0]; kd < k1[0]; ++kd)
                for(I kh = k0[1]; kh < k1[1]; ++kh)
                {
                    const T* row = xb + (start[0] + kd) * a.xs[2] + (start[1] + kh) * a.xs[3];
                    for(I kw = k0[2]; kw < k1[2]; ++kw)
                    {
                        float q[kVec];
                        Unpack(Load4(row + (start[2] + kw) * a.xs[4]), q);
#pragma unroll
                        for(int e = 0; e < kVec; ++e)
                            if(GreaterNhwc(q[e], v[e]))
                            {
                                v[e]       = q[e];
                                best[e][0] = kd;
                                best[e][1] = kh;
                                best[e][2] = kw;
                            }
                    }
                }
        }
        else
        {
#pragma unroll
            for(int e = 0; e < kVec; ++e)
                v[e] = 0.0f;
            for(I kd = k0[0]; kd < k1[0]; ++kd)
                for(I kh = k0[1]; kh < k1[1]; ++kh)
                {
                    const T* row = xb + (start[0] + kd) * a.xs[2] + (start[1] + kh) * a.xs[3];
                    for(I kw = k0[2]; kw < k1[2]; ++kw)
                    {
                        float q[kVec];
                        Unpack(Load4(row + (start[2] + kw) * a.xs[4]), q);
#pragma unroll
                        for(int e = 0; e < kVec; ++e)
                            v[e] += q[e];
                    }
                }
            const float scale =
                inclusive ? full
                          : (1.0f / static_cast<float>((k1[0] - k0[0]) * (k1[1] - k0[1]))) *
                                (1.0f / static_cast<float>(k1[2] - k0[2]));
#pragma unroll
            for(int e = 0; e < kVec; ++e)
                v[e] = v[e] * scale;
        }
        T* out = y + n * a.ys[0] + c + o[0] * a.ys[2] + o[1] * a.ys[3] + o[2] * a.ys[4];
        float res[kVec];
        if(ReadY)
        {
            float old[kVec];
            Unpack(Load4(out), old);
#pragma unroll
            for(int e = 0; e < kVec; ++e)
                res[e] = PoolBlend(args.alpha, v[e], args.beta, old[e]);
        }
        else
        {
#pragma unroll
            for(int e = 0; e < kVec; ++e)
                res[e] = args.alpha * v[e];
        }
        Store4(out, make_float4(res[0], res[1], res[2], res[3]));
        if(Index)
        {
            const int64_t plane = static_cast<int64_t>(a.out[0]) * a.out[1] * a.out[2];
            const int64_t at =
                ((static_cast<int64_t>(n) * a.c + c) * a.out[0] + o[0]) * a.out[1] * a.out[2] +
                static_cast<int64_t>(o[1]) * a.out[2] + o[2];
#pragma unroll
            for(int e = 0; e < kVec; ++e)
            {
                int64_t code;
                if(args.image)
                    code = (static_cast<int64_t>(start[0] + best[e][0]) * a.in[1] +
                            (start[1] + best[e][1])) *
                               a.in[2] +
                           (start[2] + best[e][2]);
                else
                    code = (static_cast<int64_t>(best[e][0]) * a.window[1] + best[e][1]) *
                               a.window[2] +
                           best[e][2];
                index[at + e * plane] = static_cast<Idx>(code);
            }
        }
    }
}

/// Output positions whose window covers input position i along dim j: [lo, hi).
template <class I>
__device__ inline void CoveringNhwc(const GeoNhwc<I>& a, int j, I i, I& lo, I& hi)
{
    const I num = i + a.pad[j] - a.window[j] + 1;
    lo          = num <= 0 ? 0 : (num + a.stride[j] - 1) / a.stride[j];
    hi          = (i + a.pad[j]) / a.stride[j] + 1;
    if(hi > a.out[j])
        hi = a.out[j];
}

/// The index workspace (y's logical order: n, c, then the P = D*H*W output positions) copied into
/// channels-last order (n, position, c), so that the backward's threads of neighbouring channels
/// read neighbouring entries: a 32 x 32 tile of (c, position) a block iteration, through shared
/// memory. Grid-stride over the N * ceil(C / 32) * ceil(P / 32) tiles, kThreadsNhwc threads.
constexpr int kTile = 32;

template <class Idx>
__global__ void __launch_bounds__(kThreadsNhwc)
    PoolIndexToNhwc(const Idx* __restrict__ in, Idx* __restrict__ out, int64_t n, int64_t c,
                    int64_t p)
{
    __shared__ Idx tile[kTile][kTile + 1];
    const int tx           = static_cast<int>(threadIdx.x) % kTile;
    const int ty           = static_cast<int>(threadIdx.x) / kTile;
    constexpr int kRows    = kThreadsNhwc / kTile;
    const int64_t c_tiles  = (c + kTile - 1) / kTile;
    const int64_t p_tiles  = (p + kTile - 1) / kTile;
    const int64_t tiles    = n * c_tiles * p_tiles;
    for(int64_t t = blockIdx.x; t < tiles; t += gridDim.x)
    {
        const int64_t img = t / (c_tiles * p_tiles);
        const int64_t rem = t % (c_tiles * p_tiles);
        const int64_t c0  = rem / p_tiles * kTile;
        const int64_t p0  = rem % p_tiles * kTile;
#pragma unroll
        for(int j = 0; j < kTile; j += kRows)
        {
            const int64_t ci = c0 + ty + j, pi = p0 + tx;
            if(ci < c && pi < p)
                tile[ty + j][tx] = in[(img * c + ci) * p + pi];
        }
        __syncthreads();
#pragma unroll
        for(int j = 0; j < kTile; j += kRows)
        {
            const int64_t pi = p0 + ty + j, ci = c0 + tx;
            if(pi < p && ci < c)
                out[(img * p + pi) * c + ci] = tile[tx][ty + j];
        }
        __syncthreads();
    }
}

/// Backward: xs are dx's strides, ys dy's. Max: the argmax from the channels-last copy of the
/// index workspace (PoolIndexToNhwc). A thread owns kGroupsBwd channel quads of one dx position,
/// quads g0, g0 + per, ... (per = ceil(groups / kGroupsBwd) threads a position), so the
/// position's decoding, its covering outputs and their windows are worked out once for 16
/// channels (integer division dominated the kernel at a quad a thread); each quad's sum keeps
/// its (d, h, w) order, so the bits are pool_bwd's.
constexpr int kGroupsBwd = 4;

template <class I, class T, class Idx, bool Max, bool ReadDx>
__global__ void __launch_bounds__(kThreadsNhwc)
    PoolBwdNhwc(PoolArgs args, const T* __restrict__ dy, const Idx* __restrict__ index,
                T* __restrict__ dx)
{
    const GeoNhwc<I> a(args);
    const I per          = (a.groups + kGroupsBwd - 1) / kGroupsBwd;
    const I total        = a.n * a.in[0] * a.in[1] * a.in[2] * per;
    const bool inclusive = args.mode == miopenPoolingAverageInclusive;
    const float full = 1.0f / static_cast<float>(a.window[0] * a.window[1] * a.window[2]);
    for(I i = static_cast<I>(blockIdx.x * blockDim.x + threadIdx.x); i < total;
        i += static_cast<I>(gridDim.x * blockDim.x))
    {
        I r        = i;
        const I g0 = r % per;
        r /= per;
        I p[3];
        p[2] = r % a.in[2];
        r /= a.in[2];
        p[1] = r % a.in[1];
        r /= a.in[1];
        p[0]      = r % a.in[0];
        const I n = r / a.in[0];
        bool valid[kGroupsBwd];
#pragma unroll
        for(int k = 0; k < kGroupsBwd; ++k)
            valid[k] = g0 + k * per < a.groups;
        const I cstep = per * kVec; // channels between a thread's quads
        I lo[3], hi[3];
#pragma unroll
        for(int j = 0; j < 3; ++j)
            CoveringNhwc(a, j, p[j], lo[j], hi[j]);
        const T* dyb = dy + n * a.ys[0] + g0 * kVec;
        const int64_t image_code =
            (static_cast<int64_t>(p[0]) * a.in[1] + p[1]) * a.in[2] + p[2];
        float acc[kGroupsBwd][kVec];
#pragma unroll
        for(int k = 0; k < kGroupsBwd; ++k)
#pragma unroll
            for(int e = 0; e < kVec; ++e)
                acc[k][e] = 0.0f;
        for(I od = lo[0]; od < hi[0]; ++od)
            for(I oh = lo[1]; oh < hi[1]; ++oh)
                for(I ow = lo[2]; ow < hi[2]; ++ow)
                {
                    const T* dyo = dyb + (od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]);
                    float gv[kGroupsBwd][kVec];
#pragma unroll
                    for(int k = 0; k < kGroupsBwd; ++k)
                        if(valid[k])
                            Unpack(Load4(dyo + k * cstep), gv[k]);
                    const I o[3] = {od, oh, ow};
                    I start[3], k0[3], k1[3];
                    a.Window(o, start, k0, k1);
                    if(!Max)
                    {
                        const float inv =
                            inclusive ? full
                                      : (1.0f / static_cast<float>((k1[0] - k0[0]) *
                                                                   (k1[1] - k0[1]))) *
                                            (1.0f / static_cast<float>(k1[2] - k0[2]));
#pragma unroll
                        for(int k = 0; k < kGroupsBwd; ++k)
                            if(valid[k])
#pragma unroll
                                for(int e = 0; e < kVec; ++e)
                                    acc[k][e] = PoolAcc(acc[k][e], gv[k][e], inv);
                    }
                    else
                    {
                        int64_t code = image_code;
                        if(!args.image)
                            code = (static_cast<int64_t>(p[0] - start[0]) * a.window[1] +
                                    (p[1] - start[1])) *
                                       a.window[2] +
                                   (p[2] - start[2]);
                        // the channels-last copy of the workspace: 4 neighbouring entries a quad
                        const int64_t at =
                            (((static_cast<int64_t>(n) * a.out[0] + od) * a.out[1] + oh) *
                                 a.out[2] +
                             ow) *
                                a.c +
                            g0 * kVec;
#pragma unroll
                        for(int k = 0; k < kGroupsBwd; ++k)
                            if(valid[k])
#pragma unroll
                                for(int e = 0; e < kVec; ++e)
                                {
                                    const uint64_t v = index[at + k * cstep + e];
                                    if(v == static_cast<uint64_t>(code))
                                        acc[k][e] += gv[k][e];
                                }
                    }
                }
        T* outb = dx + n * a.xs[0] + g0 * kVec + p[0] * a.xs[2] + p[1] * a.xs[3] + p[2] * a.xs[4];
#pragma unroll
        for(int k = 0; k < kGroupsBwd; ++k)
        {
            if(!valid[k])
                continue;
            T* out = outb + k * cstep;
            float res[kVec];
            if(ReadDx)
            {
                float old[kVec];
                Unpack(Load4(out), old);
#pragma unroll
                for(int e = 0; e < kVec; ++e)
                    res[e] = PoolBlend(args.alpha, acc[k][e], args.beta, old[e]);
            }
            else
            {
#pragma unroll
                for(int e = 0; e < kVec; ++e)
                    res[e] = args.alpha * acc[k][e];
            }
            Store4(out, make_float4(res[0], res[1], res[2], res[3]));
        }
    }
}

template <class F>
void WithIndexTypeNhwc(int type, F&& f)
{
    switch(type)
    {
    case miopenIndexUint8: return f(uint8_t{});
    case miopenIndexUint16: return f(uint16_t{});
    case miopenIndexUint32: return f(uint32_t{});
    default: return f(uint64_t{});
    }
}

template <class I, class T>
void FwdNhwc(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    const bool read = a.beta != 0.0f;
    if(a.mode != miopenPoolingMax)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwdNhwc<I, T, uint8_t, false, false, true>), l, 0, a, x, y,
                             nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwdNhwc<I, T, uint8_t, false, false, false>), l, 0, a, x, y,
                             nullptr);
        return;
    }
    if(index == nullptr)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwdNhwc<I, T, uint8_t, true, false, true>), l, 0, a, x, y,
                             nullptr);
        else
            MIOPEN_CY_LAUNCH((PoolFwdNhwc<I, T, uint8_t, true, false, false>), l, 0, a, x, y,
                             nullptr);
        return;
    }
    WithIndexTypeNhwc(a.index_type, [&](auto tag) {
        using Idx = decltype(tag);
        Idx* idx  = static_cast<Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolFwdNhwc<I, T, Idx, true, true, true>), l, 0, a, x, y, idx);
        else
            MIOPEN_CY_LAUNCH((PoolFwdNhwc<I, T, Idx, true, true, false>), l, 0, a, x, y, idx);
    });
}

template <class I, class T>
void BwdNhwc(const PoolArgs& a, const Launch& l, const T* dy, const void* index, T* dx)
{
    const bool read = a.beta != 0.0f;
    if(a.mode != miopenPoolingMax)
    {
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwdNhwc<I, T, uint8_t, false, true>), l, 0, a, dy, nullptr, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwdNhwc<I, T, uint8_t, false, false>), l, 0, a, dy, nullptr,
                             dx);
        return;
    }
    WithIndexTypeNhwc(a.index_type, [&](auto tag) {
        using Idx      = decltype(tag);
        const Idx* idx = static_cast<const Idx*>(index);
        if(read)
            MIOPEN_CY_LAUNCH((PoolBwdNhwc<I, T, Idx, true, true>), l, 0, a, dy, idx, dx);
        else
            MIOPEN_CY_LAUNCH((PoolBwdNhwc<I, T, Idx, true, false>), l, 0, a, dy, idx, dx);
    });
}

} // namespace

bool PoolNhwcApplies(const PoolArgs& a, const void* in, const void* out, size_t elem)
{
    auto aligned = [&](const void* p) {
        return (reinterpret_cast<uintptr_t>(p) & (kVec * elem - 1)) == 0;
    };
    if(!a.small || a.c <= 0 || a.c % kVec != 0 || a.xs[1] != 1 || a.ys[1] != 1)
        return false;
    for(int j : {0, 2, 3, 4})
        if(a.xs[j] % kVec != 0 || a.ys[j] % kVec != 0)
            return false;
    return aligned(in) && aligned(out);
}

template <class T>
void LaunchPoolFwdNhwc(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    FwdNhwc<int32_t>(a, l, x, y, index); // PoolNhwcApplies demands `small`
}

size_t PoolIndexBytes(int index_type)
{
    size_t bytes = 0;
    WithIndexTypeNhwc(index_type, [&](auto tag) { bytes = sizeof(tag); });
    return bytes;
}

void LaunchPoolIndexToNhwc(const PoolArgs& a, const Launch& l, const void* index, void* out)
{
    const int64_t p = a.out[0] * a.out[1] * a.out[2];
    WithIndexTypeNhwc(a.index_type, [&](auto tag) {
        using Idx = decltype(tag);
        MIOPEN_CY_LAUNCH((PoolIndexToNhwc<Idx>), l, 0, static_cast<const Idx*>(index),
                         static_cast<Idx*>(out), a.n, a.c, p);
    });
}

int64_t PoolIndexToNhwcTiles(const PoolArgs& a)
{
    const int64_t p = a.out[0] * a.out[1] * a.out[2];
    return a.n * ((a.c + kTile - 1) / kTile) * ((p + kTile - 1) / kTile);
}

template <class T>
void LaunchPoolBwdNhwc(const PoolArgs& a, const Launch& l, const T* dy, const void* index, T* dx)
{
    BwdNhwc<int32_t>(a, l, dy, index, dx);
}

#define MIOPEN_POOL_NHWC(T)                                                                     \
    template void LaunchPoolFwdNhwc<T>(const PoolArgs&, const Launch&, const T*, T*, void*);   \
    template void LaunchPoolBwdNhwc<T>(const PoolArgs&, const Launch&, const T*, const void*,  \
                                       T*);
MIOPEN_POOL_NHWC(float)
MIOPEN_POOL_NHWC(Half)
MIOPEN_POOL_NHWC(BFloat16)
#undef MIOPEN_POOL_NHWC

} // namespace miopen::gpu
