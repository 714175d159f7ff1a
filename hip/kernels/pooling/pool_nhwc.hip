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
// The 2-d forward with a 2x2 or 3x3 window (pad < window) takes PoolFwdNhwcK instead: its window
// unrolled, all its loads in flight before the first use, 8 channels (16 bytes) a thread for
// fp16/bf16 where C and the strides allow, one output a thread; the same bits.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/pooling/pool_math.hpp"
#include "kernels/pooling/pooling_kernels.hpp"

#include <miopen/miopen.h>

#include <type_traits>

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

// ---- the 2-d forward for K x K windows (K = 2, 3): every window load in flight at once ---------
// PoolFwdNhwcK: depth 1, a K x K window with pad < K in h and w, any strides. A thread owns V
// channels of one output (V = 4; V = 8 for fp16/bf16 where C, the strides and the pointers allow
// 16-byte vectors) and loads all K * K window vectors (positions outside the image clamped to
// the edge, then skipped) before it uses the first: 9 loads in flight a thread for 3x3 where PoolFwdNhwc's window loops,
// their bounds known only at run time, issued them one or a few at a time. One output a thread,
// no grid-stride loop. The results are PoolFwdNhwc's bit for bit: the same scan (first strict
// maximum in (kh, kw) order over the in-bounds window, NaN largest, the argmax starting at the
// first in-bounds position), the same sums in (kh, kw) order from 0, the same scale and blend.

/// The raw storage of V elements of T (16 or 8 bytes).
template <class T, int V>
using RawOf = std::conditional_t<sizeof(T) * V == 16, uint4, uint2>;

template <class T, int V>
__device__ inline void Unraw(const RawOf<T, V>& r, float (&v)[V])
{
    if constexpr(sizeof(T) == 4)
    {
        v[0] = __uint_as_float(r.x);
        v[1] = __uint_as_float(r.y);
        v[2] = __uint_as_float(r.z);
        v[3] = __uint_as_float(r.w);
    }
    else if constexpr(V == 8)
        Unpack8<T>(r, v);
    else
        Unpack(QuadToFloat4<T>(r), v);
}

template <class T, int V>
__device__ inline void StoreV(T* p, const float (&v)[V])
{
    if constexpr(V == 8)
        StoreVec<T, 8>(p, v);
    else
        Store4(p, make_float4(v[0], v[1], v[2], v[3]));
}

template <int K, int V, class T, class Idx, bool Max, bool Index, bool ReadY>
__global__ void __launch_bounds__(kThreadsNhwc)
    PoolFwdNhwcK(PoolArgs args, const T* __restrict__ x, T* __restrict__ y, Idx* index)
{
    static_assert(sizeof(T) * V == 16 || sizeof(T) * V == 8, "16- or 8-byte vectors");
    using Raw        = RawOf<T, V>;
    const int groups = static_cast<int>(args.c) / V;
    const int out_h = static_cast<int>(args.out[1]), out_w = static_cast<int>(args.out[2]);
    const int total = static_cast<int>(args.n) * out_h * out_w * groups;
    const int i     = static_cast<int>(blockIdx.x) * kThreadsNhwc + static_cast<int>(threadIdx.x);
    if(i >= total)
        return;
    int r        = i / groups;
    const int c  = (i - r * groups) * V;
    const int q  = r / out_w;
    const int ow = r - q * out_w;
    const int n  = q / out_h;
    const int oh = q - n * out_h;
    const int in_h = static_cast<int>(args.in[1]), in_w = static_cast<int>(args.in[2]);
    const int h0   = oh * static_cast<int>(args.stride[1]) - static_cast<int>(args.pad[1]);
    const int w0   = ow * static_cast<int>(args.stride[2]) - static_cast<int>(args.pad[2]);
    const int xs_h = static_cast<int>(args.xs[3]), xs_w = static_cast<int>(args.xs[4]);
    const T* xb    = x + n * static_cast<int>(args.xs[0]) + c;

    // Every load unconditional (a position outside the image reads its clamped neighbour, which
    // the scan then skips): no branch between the loads, so all K * K are issued back to back.
    Raw raw[K][K];
    bool inside[K][K];
#pragma unroll
    for(int kh = 0; kh < K; ++kh)
    {
        const int hh   = h0 + kh;
        const bool hin = hh >= 0 && hh < in_h;
        const int hc   = hh < 0 ? 0 : (hh < in_h ? hh : in_h - 1);
#pragma unroll
        for(int kw = 0; kw < K; ++kw)
        {
            const int ww   = w0 + kw;
            inside[kh][kw] = hin && ww >= 0 && ww < in_w;
            const int wc   = ww < 0 ? 0 : (ww < in_w ? ww : in_w - 1);
            raw[kh][kw]    = *reinterpret_cast<const Raw*>(xb + hc * xs_h + wc * xs_w);
        }
    }

    // the in-bounds window [k0, k1) along h and w (nonempty: pad < K)
    const int k0h = h0 < 0 ? -h0 : 0, k0w = w0 < 0 ? -w0 : 0;
    const int k1h = K < in_h - h0 ? K : in_h - h0, k1w = K < in_w - w0 ? K : in_w - w0;
    float v[V];
    int best[V];
    if(Max)
    {
#pragma unroll
        for(int e = 0; e < V; ++e)
        {
            v[e]    = __uint_as_float(0xff800000u); // -inf: the first in-bounds value replaces it
            best[e] = k0h * K + k0w;                // unless it is -inf itself
        }
#pragma unroll
        for(int kh = 0; kh < K; ++kh)
#pragma unroll
            for(int kw = 0; kw < K; ++kw)
            {
                float w[V];
                Unraw<T, V>(raw[kh][kw], w);
#pragma unroll
                for(int e = 0; e < V; ++e)
                    if(inside[kh][kw] && GreaterNhwc(w[e], v[e]))
                    {
                        v[e]    = w[e];
                        best[e] = kh * K + kw;
                    }
            }
    }
    else
    {
#pragma unroll
        for(int e = 0; e < V; ++e)
            v[e] = 0.0f;
#pragma unroll
        for(int kh = 0; kh < K; ++kh)
#pragma unroll
            for(int kw = 0; kw < K; ++kw)
            {
                float w[V];
                Unraw<T, V>(raw[kh][kw], w);
#pragma unroll
                for(int e = 0; e < V; ++e)
                    if(inside[kh][kw])
                        v[e] += w[e];
            }
        const float scale = args.mode == miopenPoolingAverageInclusive
                                ? 1.0f / static_cast<float>(K * K)
                                : (1.0f / static_cast<float>(k1h - k0h)) *
                                      (1.0f / static_cast<float>(k1w - k0w));
#pragma unroll
        for(int e = 0; e < V; ++e)
            v[e] = v[e] * scale;
    }
    T* out = y + n * static_cast<int>(args.ys[0]) + c + oh * static_cast<int>(args.ys[3]) +
             ow * static_cast<int>(args.ys[4]);
    float res[V];
    if(ReadY)
    {
        float old[V];
        Unraw<T, V>(*reinterpret_cast<const Raw*>(out), old);
#pragma unroll
        for(int e = 0; e < V; ++e)
            res[e] = PoolBlend(args.alpha, v[e], args.beta, old[e]);
    }
    else
    {
#pragma unroll
        for(int e = 0; e < V; ++e)
            res[e] = args.alpha * v[e];
    }
    StoreV<T, V>(out, res);
    if(Index)
    {
        const int64_t plane = static_cast<int64_t>(out_h) * out_w;
        const int64_t at    = (static_cast<int64_t>(n) * args.c + c) * plane +
                           static_cast<int64_t>(oh) * out_w + ow;
#pragma unroll
        for(int e = 0; e < V; ++e)
        {
            const int bh = best[e] / K, bw = best[e] - bh * K;
            const int64_t code =
                args.image ? static_cast<int64_t>(h0 + bh) * in_w + (w0 + bw) : best[e];
            index[at + e * plane] = static_cast<Idx>(code);
        }
    }
}

/// Whether PoolFwdNhwcK applies (PoolNhwcApplies holds): its window size K, else 0.
int PoolNhwcK(const PoolArgs& a)
{
    if(a.in[0] != 1 || a.out[0] != 1 || a.window[0] != 1 || a.pad[0] != 0)
        return 0;
    const int64_t k = a.window[1];
    if((k != 2 && k != 3) || a.window[2] != k || a.pad[1] >= k || a.pad[2] >= k)
        return 0;
    return static_cast<int>(k);
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

template <int K, int V, class T, class Idx, bool Max, bool Index>
void FwdNhwcKBlend(const PoolArgs& a, const Launch& p, const T* x, T* y, Idx* idx)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((PoolFwdNhwcK<K, V, T, Idx, Max, Index, true>), p, 0, a, x, y, idx);
    else
        MIOPEN_CY_LAUNCH((PoolFwdNhwcK<K, V, T, Idx, Max, Index, false>), p, 0, a, x, y, idx);
}

/// PoolFwdNhwcK on one output a thread (its own grid, l's stream).
template <int K, int V, class T>
void FwdNhwcK(const PoolArgs& a, const Launch& l, const T* x, T* y, void* index)
{
    const int64_t total = a.n * a.out[1] * a.out[2] * (a.c / V);
    Launch p;
    p.grid.x  = static_cast<unsigned>((total + kThreadsNhwc - 1) / kThreadsNhwc);
    p.block.x = kThreadsNhwc;
    p.stream  = l.stream;
    if(a.mode != miopenPoolingMax)
        return FwdNhwcKBlend<K, V, T, uint8_t, false, false>(a, p, x, y, nullptr);
    if(index == nullptr)
        return FwdNhwcKBlend<K, V, T, uint8_t, true, false>(a, p, x, y, nullptr);
    WithIndexTypeNhwc(a.index_type, [&](auto tag) {
        using Idx = decltype(tag);
        FwdNhwcKBlend<K, V, T, Idx, true, true>(a, p, x, y, static_cast<Idx*>(index));
    });
}

/// The vector width of PoolFwdNhwcK for T: 4 for fp32 (a float4); 8 for fp16/bf16 (16 bytes)
/// where C, the N/H/W strides and both pointers allow it, else 0 (PoolFwdNhwc takes it).
template <class T>
int PoolNhwcKVec(const PoolArgs& a, const void* x, const void* y)
{
    if constexpr(sizeof(T) == 4)
        return 4;
    auto aligned = [](const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; };
    if(a.c % 8 != 0 || !aligned(x) || !aligned(y))
        return 0;
    for(int j : {0, 3, 4})
        if(a.xs[j] % 8 != 0 || a.ys[j] % 8 != 0)
            return 0;
    return 8;
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
    // PoolNhwcApplies demands `small`: 32-bit offsets
    const int k = PoolNhwcK(a);
    const int v = k != 0 ? PoolNhwcKVec<T>(a, x, y) : 0;
    constexpr int V = sizeof(T) == 4 ? 4 : 8;
    if(k == 3 && v == V)
        return FwdNhwcK<3, V>(a, l, x, y, index);
    if(k == 2 && v == V)
        return FwdNhwcK<2, V>(a, l, x, y, index);
    FwdNhwc<int32_t>(a, l, x, y, index);
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
