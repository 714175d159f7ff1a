// Winograd F(m x m, r x r) transforms on the GPU, the three passes around the per-tile-element
// GEMMs of the multi-pass Winograd solvers (layouts in conv_winograd.hpp). Tiles (m, r): (2, 3) and
// (4, 3) for 3x3 filters; (4, 5) and, for backward weights, (3, 5) for 5x5 filters. A tile has
// alpha x alpha elements, alpha = m + r - 1.
//   input transform   one thread per (input channel, tile): reads the alpha x alpha patch of the
//                     padded input (zeros outside), writes its alpha^2 transformed values to
//                     V[e][c][t] (consecutive threads: consecutive tiles, so the writes coalesce);
//   filter transform  one thread per (output channel, input channel of the group): U[e][k][c];
//   output transform  one thread per (output channel, tile): reads M[e][k][t], writes the m x m
//                     outputs (the part inside the image) to `out`;
//   backward weights  the input transform (with the tiles in parts), a dy transform (one thread
//                     per (output channel, tile)) and a weight transform (one thread per filter:
//                     adds the parts' products in order, then G^T . G).
// The 3x3 transforms are Lavin & Gray's (points 0, +-1, +-2 and infinity for m = 4; 0, +-1 and
// infinity for m = 2), written here by hand as the CPU solver's (cpu/conv/winograd.cpp), so both
// devices round alike; the larger ones are generated (conv_winograd_tiles.hpp). Deterministic: no
// atomics, every output written by one thread.
// Packed channels-last tensors (a.nhwc) have their own five kernels (*Nhwc): one thread per
// (tile, channel) with the channel fastest, so that a warp reads and writes runs of consecutive
// channels in the tensors and in the channels-last workspaces (conv_winograd.hpp).
#include "kernels/common/device.hpp"
#include "kernels/conv/conv_winograd.hpp"
#include "kernels/conv/conv_winograd_tiles.hpp"

namespace miopen::gpu {
namespace wino {

// The 1-d transforms of the 3x3 tiles on strided register arrays: In = B^T d (alpha -> alpha),
// Fil = G g (3 -> alpha), Out = A^T m (alpha -> m). Called with constant strides inside unrolled
// loops, so every index is a compile-time constant and the arrays stay in registers.
template <>
struct Tile<2, 3>
{
    __device__ static inline void In(const float* d, int ds, float* o, int os)
    {
        const float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
        o[0]      = d0 - d2;
        o[os]     = d1 + d2;
        o[2 * os] = d2 - d1;
        o[3 * os] = d1 - d3;
    }
    __device__ static inline void Fil(const float* g, int gs, float* o, int os)
    {
        const float g0 = g[0], g1 = g[gs], g2 = g[2 * gs];
        o[0]      = g0;
        o[os]     = 0.5f * (g0 + g1 + g2);
        o[2 * os] = 0.5f * (g0 - g1 + g2);
        o[3 * os] = g2;
    }
    __device__ static inline void Out(const float* m, int ms, float* o, int os)
    {
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms];
        o[0]  = m0 + m1 + m2;
        o[os] = m1 - m2 - m3;
    }
    // Backward weights: Dy = A dy (m -> alpha), Wt = G^T m (alpha -> 3).
    __device__ static inline void Dy(const float* d, int ds, float* o, int os)
    {
        const float d0 = d[0], d1 = d[ds];
        o[0]      = d0;
        o[os]     = d0 + d1;
        o[2 * os] = d0 - d1;
        o[3 * os] = -d1;
    }
    __device__ static inline void Wt(const float* m, int ms, float* o, int os)
    {
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms];
        o[0]      = m0 + 0.5f * (m1 + m2);
        o[os]     = 0.5f * (m1 - m2);
        o[2 * os] = 0.5f * (m1 + m2) + m3;
    }
};

template <>
struct Tile<4, 3>
{
    __device__ static inline void In(const float* d, int ds, float* o, int os)
    {
        const float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds], d4 = d[4 * ds], d5 = d[5 * ds];
        const float a = d4 - 4.0f * d2;
        const float b = d3 - 4.0f * d1;
        const float c = d4 - d2;
        const float e = 2.0f * (d3 - d1);
        o[0]      = 4.0f * d0 - 5.0f * d2 + d4;
        o[os]     = a + b;
        o[2 * os] = a - b;
        o[3 * os] = c + e;
        o[4 * os] = c - e;
        o[5 * os] = 4.0f * d1 - 5.0f * d3 + d5;
    }
    __device__ static inline void Fil(const float* g, int gs, float* o, int os)
    {
        constexpr float k6 = 1.0f / 6.0f, k12 = 1.0f / 12.0f, k24 = 1.0f / 24.0f;
        const float g0 = g[0], g1 = g[gs], g2 = g[2 * gs];
        o[0]      = 0.25f * g0;
        o[os]     = -k6 * (g0 + g1 + g2);
        o[2 * os] = -k6 * (g0 - g1 + g2);
        o[3 * os] = k24 * g0 + k12 * g1 + k6 * g2;
        o[4 * os] = k24 * g0 - k12 * g1 + k6 * g2;
        o[5 * os] = g2;
    }
    __device__ static inline void Out(const float* m, int ms, float* o, int os)
    {
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms], m4 = m[4 * ms], m5 = m[5 * ms];
        const float a = m1 + m2, b = m1 - m2;
        const float c = m3 + m4, d = m3 - m4;
        o[0]      = m0 + a + c;
        o[os]     = b + 2.0f * d;
        o[2 * os] = a + 4.0f * c;
        o[3 * os] = b + 8.0f * d + m5;
    }
    __device__ static inline void Dy(const float* d, int ds, float* o, int os)
    {
        const float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
        const float a = d0 + d2, b = d1 + d3;
        const float c = d0 + 4.0f * d2, e = 2.0f * d1 + 8.0f * d3;
        o[0]      = d0;
        o[os]     = a + b;
        o[2 * os] = a - b;
        o[3 * os] = c + e;
        o[4 * os] = c - e;
        o[5 * os] = d3;
    }
    __device__ static inline void Wt(const float* m, int ms, float* o, int os)
    {
        constexpr float k6 = 1.0f / 6.0f, k12 = 1.0f / 12.0f, k24 = 1.0f / 24.0f;
        const float m0 = m[0], m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms], m4 = m[4 * ms], m5 = m[5 * ms];
        const float a = m1 + m2, b = m3 + m4;
        o[0]      = 0.25f * m0 - k6 * a + k24 * b;
        o[os]     = k6 * (m2 - m1) + k12 * (m3 - m4);
        o[2 * os] = k6 * (b - a) + m5;
    }
};

} // namespace wino

namespace {

constexpr int kWinoThreads = 256;

template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoInput(WinogradKArgs a, const float* __restrict__ in, float* __restrict__ v)
{
    constexpr int A = M + R - 1;
    const int per_image = a.tiles_h * a.tiles_w;
    const int padded = a.splits * a.part;
    const int64_t plane = int64_t{a.ic} * padded;   // V's stride between tile elements
    for(int c = blockIdx.y; c < a.ic; c += gridDim.y)
    {
        for(int t = blockIdx.x * blockDim.x + threadIdx.x; t < padded; t += gridDim.x * blockDim.x)
        {
            // Tiles past T (the padding of the last part) are zero: they add nothing.
            const bool tile = t < a.tiles;
            const int n = t / per_image, r = t - n * per_image;
            const int th = r / a.tiles_w, tw = r - th * a.tiles_w;
            const int ih0 = th * M - a.pad_h, iw0 = tw * M - a.pad_w;
            const float* src = in + (int64_t{n} * a.ic + c) * a.h * a.w;
            float d[A * A];
#pragma unroll
            for(int i = 0; i < A; ++i)
            {
                const int ih = ih0 + i;
                const bool row_in = tile && ih >= 0 && ih < a.h;
#pragma unroll
                for(int j = 0; j < A; ++j)
                {
                    const int iw = iw0 + j;
                    d[i * A + j] = row_in && iw >= 0 && iw < a.w ? src[int64_t{ih} * a.w + iw] : 0.0f;
                }
            }
            float tmp[A * A], o[A * A];
#pragma unroll
            for(int j = 0; j < A; ++j)   // columns: B^T d
                wino::Tile<M, R>::In(d + j, A, tmp + j, A);
#pragma unroll
            for(int i = 0; i < A; ++i)   // rows: (B^T d) B
                wino::Tile<M, R>::In(tmp + i * A, 1, o + i * A, 1);
            const int s = t / a.part, tl = t - s * a.part;
            float* dst = v + (int64_t{s} * a.ic + c) * a.part + tl;
#pragma unroll
            for(int e = 0; e < A * A; ++e)
                dst[e * plane] = o[e];
        }
    }
}

template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoFilter(WinogradKArgs a, const float* __restrict__ w, float* __restrict__ u)
{
    constexpr int A = M + R - 1;
    const int total = a.oc * a.icpg;
    for(int f = blockIdx.x * blockDim.x + threadIdx.x; f < total; f += gridDim.x * blockDim.x)
    {
        float g[R * R];
        if(!a.flip)
        {
            const float* src = w + int64_t{f} * (R * R);
#pragma unroll
            for(int i = 0; i < R * R; ++i)
                g[i] = src[i];
        }
        else
        {
            // Backward data: output channel k' = f / icpg of group grp is the user's input channel
            // ocl = k' % ocpg; input channel icl is the user's output channel grp * icpg + icl.
            const int kk = f / a.icpg, icl = f - kk * a.icpg;
            const int grp = kk / a.ocpg, ocl = kk - grp * a.ocpg;
            const float* src = w + (int64_t{grp * a.icpg + icl} * a.ocpg + ocl) * (R * R);
#pragma unroll
            for(int i = 0; i < R * R; ++i)
                g[i] = src[R * R - 1 - i];   // flipped in both spatial dims
        }
        float tmp[A * R], o[A * A];
#pragma unroll
        for(int j = 0; j < R; ++j)   // columns: G g
            wino::Tile<M, R>::Fil(g + j, R, tmp + j, R);
#pragma unroll
        for(int i = 0; i < A; ++i)   // rows: (G g) G^T
            wino::Tile<M, R>::Fil(tmp + i * R, 1, o + i * A, 1);
        const int64_t plane = int64_t{a.oc} * a.icpg;
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            u[e * plane + f] = o[e];
    }
}

/// Stores M consecutive floats at a 4*M-byte aligned address as one vector (M = 2 or 4).
template <int M>
__device__ inline void StoreRun(float* p, const float* v)
{
    static_assert(M == 2 || M == 4, "a vector of 2 or 4 floats");
    if constexpr(M == 4)
        *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
    else
        *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
}

/// `vec`: rows of `out` are whole runs of M floats and `out` is 4*M-byte aligned, so every tile
/// row inside the image is one aligned vector.
template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoOutput(WinogradKArgs a, const float* __restrict__ mprod, float* __restrict__ out, bool vec)
{
    constexpr int A = M + R - 1;
    const int per_image = a.tiles_h * a.tiles_w;
    const int64_t plane = int64_t{a.oc} * a.tiles;   // M's stride between tile elements
    for(int k = blockIdx.y; k < a.oc; k += gridDim.y)
    {
        for(int t = blockIdx.x * blockDim.x + threadIdx.x; t < a.tiles; t += gridDim.x * blockDim.x)
        {
            const float* src = mprod + int64_t{k} * a.tiles + t;
            float mm[A * A];
#pragma unroll
            for(int e = 0; e < A * A; ++e)
                mm[e] = src[e * plane];
            float tmp[M * A], o[M * M];
#pragma unroll
            for(int j = 0; j < A; ++j)   // columns: A^T m
                wino::Tile<M, R>::Out(mm + j, A, tmp + j, A);
#pragma unroll
            for(int i = 0; i < M; ++i)   // rows: (A^T m) A
                wino::Tile<M, R>::Out(tmp + i * A, 1, o + i * M, 1);
            const int n = t / per_image, r = t - n * per_image;
            const int th = r / a.tiles_w, tw = r - th * a.tiles_w;
            const int oh0 = th * M, ow0 = tw * M;
            float* dst = out + (int64_t{n} * a.oc + k) * a.oh * a.ow;
#pragma unroll
            for(int i = 0; i < M; ++i)
            {
                if(oh0 + i >= a.oh)
                    break;
                float* row = dst + int64_t{oh0 + i} * a.ow + ow0;
                bool whole = false;
                if constexpr(M == 2 || M == 4)
                {
                    whole = vec && ow0 + M <= a.ow;
                    if(whole)   // a whole aligned run of M: one vector store
                        StoreRun<M>(row, o + i * M);
                }
                if(!whole)
                {
#pragma unroll
                    for(int j = 0; j < M; ++j)
                        if(ow0 + j < a.ow)
                            row[j] = o[i * M + j];
                }
            }
        }
    }
}

template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoDy(WinogradKArgs a, const float* __restrict__ dy, float* __restrict__ dd)
{
    constexpr int A = M + R - 1;
    const int per_image = a.tiles_h * a.tiles_w;
    const int padded = a.splits * a.part;
    const int64_t plane = int64_t{a.oc} * padded;   // D's stride between tile elements
    for(int k = blockIdx.y; k < a.oc; k += gridDim.y)
    {
        for(int t = blockIdx.x * blockDim.x + threadIdx.x; t < padded; t += gridDim.x * blockDim.x)
        {
            const bool tile = t < a.tiles;
            const int n = t / per_image, r = t - n * per_image;
            const int th = r / a.tiles_w, tw = r - th * a.tiles_w;
            const int oh0 = th * M, ow0 = tw * M;
            const float* src = dy + (int64_t{n} * a.oc + k) * a.oh * a.ow;
            float d[M * M];
#pragma unroll
            for(int i = 0; i < M; ++i)
            {
                const bool row_in = tile && oh0 + i < a.oh;
#pragma unroll
                for(int j = 0; j < M; ++j)
                    d[i * M + j] = row_in && ow0 + j < a.ow ? src[int64_t{oh0 + i} * a.ow + ow0 + j] : 0.0f;
            }
            float tmp[A * M], o[A * A];
#pragma unroll
            for(int j = 0; j < M; ++j)   // columns: A dy
                wino::Tile<M, R>::Dy(d + j, M, tmp + j, M);
#pragma unroll
            for(int i = 0; i < A; ++i)   // rows: (A dy) A^T
                wino::Tile<M, R>::Dy(tmp + i * M, 1, o + i * A, 1);
            const int s = t / a.part, tl = t - s * a.part;
            float* dst = dd + (int64_t{s} * a.oc + k) * a.part + tl;
#pragma unroll
            for(int e = 0; e < A * A; ++e)
                dst[e * plane] = o[e];
        }
    }
}

template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoWeight(WinogradKArgs a, const float* __restrict__ p, float* __restrict__ dw)
{
    constexpr int A = M + R - 1;
    const int total = a.oc * a.icpg;
    const int64_t plane = int64_t{a.oc} * a.icpg;   // P's stride between (element, part) pairs
    for(int f = blockIdx.x * blockDim.x + threadIdx.x; f < total; f += gridDim.x * blockDim.x)
    {
        // The parts in order (deterministic), each part's A*A loads issued together (the loop
        // over elements inside the loop over parts: no chain of dependent loads per thread).
        const float* src = p + f;
        const int64_t estride = int64_t{a.splits} * plane;
        float sum[A * A];
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            sum[e] = 0.0f + src[e * estride];
        for(int s = 1; s < a.splits; ++s)
        {
#pragma unroll
            for(int e = 0; e < A * A; ++e)
                sum[e] += src[e * estride + s * plane];
        }
        float tmp[R * A], o[R * R];
#pragma unroll
        for(int j = 0; j < A; ++j)   // columns: G^T s
            wino::Tile<M, R>::Wt(sum + j, A, tmp + j, A);
#pragma unroll
        for(int i = 0; i < R; ++i)   // rows: (G^T s) G
            wino::Tile<M, R>::Wt(tmp + i * A, 1, o + i * R, 1);
        float* dst = dw + int64_t{f} * (R * R);
#pragma unroll
        for(int i = 0; i < R * R; ++i)
            dst[i] = o[i];
    }
}

// ---- channels-last (a.nhwc): one thread per (tile, channel), the channel fastest ---------------

/// Blocks of a flattened grid-stride loop over `total` items.
unsigned FlatBlocks(int64_t total)
{
    const int64_t b = (total + kWinoThreads - 1) / kWinoThreads;
    return static_cast<unsigned>(b < (1 << 20) ? (b > 0 ? b : 1) : (1 << 20));
}

/// V[e][t][c] = B^T d B of the patch of tile t in channel c of `in` (n, h, w, ic).
template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoInputNhwc(WinogradKArgs a, const float* __restrict__ in, float* __restrict__ v)
{
    constexpr int A = M + R - 1;
    const int per_image = a.tiles_h * a.tiles_w;
    const int padded = a.splits * a.part;
    const int64_t plane = int64_t{a.ic} * padded;   // V's stride between tile elements
    const int total = padded * a.ic;                // < 2^31 (the solvers' 2^31-byte limit)
    for(int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += gridDim.x * blockDim.x)
    {
        const int t = idx / a.ic, c = idx - t * a.ic;
        const bool tile = t < a.tiles;   // tiles past T (the last part's padding) are zero
        const int n = t / per_image, r = t - n * per_image;
        const int th = r / a.tiles_w, tw = r - th * a.tiles_w;
        const int ih0 = th * M - a.pad_h, iw0 = tw * M - a.pad_w;
        const float* src = in + int64_t{n} * a.h * a.w * a.ic + c;
        float d[A * A];
#pragma unroll
        for(int i = 0; i < A; ++i)
        {
            const int ih = ih0 + i;
            const bool row_in = tile && ih >= 0 && ih < a.h;
#pragma unroll
            for(int j = 0; j < A; ++j)
            {
                const int iw = iw0 + j;
                d[i * A + j] = row_in && iw >= 0 && iw < a.w ? src[(int64_t{ih} * a.w + iw) * a.ic] : 0.0f;
            }
        }
        float tmp[A * A], o[A * A];
#pragma unroll
        for(int j = 0; j < A; ++j)
            wino::Tile<M, R>::In(d + j, A, tmp + j, A);
#pragma unroll
        for(int i = 0; i < A; ++i)
            wino::Tile<M, R>::In(tmp + i * A, 1, o + i * A, 1);
        float* dst = v + int64_t{t} * a.ic + c;
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            dst[e * plane] = o[e];
    }
}

/// U[e][icl][k] = G g G^T of the filter (output channel k, input channel icl of its group), from
/// filters (oc, r, r, icpg); flipped: the user's (K, r, r, C/g) read transposed and flipped.
template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoFilterNhwc(WinogradKArgs a, const float* __restrict__ w, float* __restrict__ u)
{
    constexpr int A = M + R - 1;
    const int total = a.oc * a.icpg;
    const int64_t plane = int64_t{a.oc} * a.icpg;
    for(int f = blockIdx.x * blockDim.x + threadIdx.x; f < total; f += gridDim.x * blockDim.x)
    {
        const int icl = f / a.oc, k = f - icl * a.oc;   // consecutive threads: consecutive k
        float g[R * R];
        if(!a.flip)
        {
            const float* src = w + int64_t{k} * (R * R) * a.icpg + icl;
#pragma unroll
            for(int i = 0; i < R * R; ++i)
                g[i] = src[int64_t{i} * a.icpg];
        }
        else
        {
            // As WinoFilter: k is the user's input channel ocl of group grp, icl its output
            // channel grp * icpg + icl; the user's filters are (K, r, r, ocpg).
            const int grp = k / a.ocpg, ocl = k - grp * a.ocpg;
            const float* src = w + int64_t{grp * a.icpg + icl} * (R * R) * a.ocpg + ocl;
#pragma unroll
            for(int i = 0; i < R * R; ++i)
                g[i] = src[int64_t{R * R - 1 - i} * a.ocpg];   // flipped in both spatial dims
        }
        float tmp[A * R], o[A * A];
#pragma unroll
        for(int j = 0; j < R; ++j)
            wino::Tile<M, R>::Fil(g + j, R, tmp + j, R);
#pragma unroll
        for(int i = 0; i < A; ++i)
            wino::Tile<M, R>::Fil(tmp + i * R, 1, o + i * A, 1);
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            u[e * plane + f] = o[e];
    }
}

/// out (n, oh, ow, oc) = A^T M A of tile t, channel k, from M[e][t][k]; the part past the edge dropped.
template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoOutputNhwc(WinogradKArgs a, const float* __restrict__ mprod, float* __restrict__ out)
{
    constexpr int A = M + R - 1;
    const int per_image = a.tiles_h * a.tiles_w;
    const int64_t plane = int64_t{a.oc} * a.tiles;   // M's stride between tile elements
    const int total = a.tiles * a.oc;
    for(int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += gridDim.x * blockDim.x)
    {
        const int t = idx / a.oc, k = idx - t * a.oc;
        const float* src = mprod + idx;   // M[e][t][k]
        float mm[A * A];
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            mm[e] = src[e * plane];
        float tmp[M * A], o[M * M];
#pragma unroll
        for(int j = 0; j < A; ++j)
            wino::Tile<M, R>::Out(mm + j, A, tmp + j, A);
#pragma unroll
        for(int i = 0; i < M; ++i)
            wino::Tile<M, R>::Out(tmp + i * A, 1, o + i * M, 1);
        const int n = t / per_image, r = t - n * per_image;
        const int th = r / a.tiles_w, tw = r - th * a.tiles_w;
        const int oh0 = th * M, ow0 = tw * M;
        float* dst = out + int64_t{n} * a.oh * a.ow * a.oc + k;
#pragma unroll
        for(int i = 0; i < M; ++i)
        {
            if(oh0 + i >= a.oh)
                break;
#pragma unroll
            for(int j = 0; j < M; ++j)
                if(ow0 + j < a.ow)
                    dst[(int64_t{oh0 + i} * a.ow + ow0 + j) * a.oc] = o[i * M + j];
        }
    }
}

/// Backward weights: D[e][t][k] = A dy A^T of tile t of dy (n, oh, ow, oc), channel k.
template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoDyNhwc(WinogradKArgs a, const float* __restrict__ dy, float* __restrict__ dd)
{
    constexpr int A = M + R - 1;
    const int per_image = a.tiles_h * a.tiles_w;
    const int padded = a.splits * a.part;
    const int64_t plane = int64_t{a.oc} * padded;   // D's stride between tile elements
    const int total = padded * a.oc;
    for(int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += gridDim.x * blockDim.x)
    {
        const int t = idx / a.oc, k = idx - t * a.oc;
        const bool tile = t < a.tiles;
        const int n = t / per_image, r = t - n * per_image;
        const int th = r / a.tiles_w, tw = r - th * a.tiles_w;
        const int oh0 = th * M, ow0 = tw * M;
        const float* src = dy + int64_t{n} * a.oh * a.ow * a.oc + k;
        float d[M * M];
#pragma unroll
        for(int i = 0; i < M; ++i)
        {
            const bool row_in = tile && oh0 + i < a.oh;
#pragma unroll
            for(int j = 0; j < M; ++j)
                d[i * M + j] = row_in && ow0 + j < a.ow ? src[(int64_t{oh0 + i} * a.ow + ow0 + j) * a.oc] : 0.0f;
        }
        float tmp[A * M], o[A * A];
#pragma unroll
        for(int j = 0; j < M; ++j)
            wino::Tile<M, R>::Dy(d + j, M, tmp + j, M);
#pragma unroll
        for(int i = 0; i < A; ++i)
            wino::Tile<M, R>::Dy(tmp + i * M, 1, o + i * A, 1);
        float* dst = dd + idx;   // D[e][t][k]
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            dst[e * plane] = o[e];
    }
}

/// Backward weights: dw (oc, r, r, icpg) = G^T (sum over the parts of P, in order) G.
template <int M, int R>
__global__ void __launch_bounds__(kWinoThreads)
WinoWeightNhwc(WinogradKArgs a, const float* __restrict__ p, float* __restrict__ dw)
{
    constexpr int A = M + R - 1;
    const int total = a.oc * a.icpg;
    const int64_t plane = int64_t{a.oc} * a.icpg;
    for(int f = blockIdx.x * blockDim.x + threadIdx.x; f < total; f += gridDim.x * blockDim.x)
    {
        const float* src = p + f;   // P[e][s][k][icl], f = k * icpg + icl
        const int64_t estride = int64_t{a.splits} * plane;
        float sum[A * A];
#pragma unroll
        for(int e = 0; e < A * A; ++e)
            sum[e] = 0.0f + src[e * estride];
        for(int s = 1; s < a.splits; ++s)
        {
#pragma unroll
            for(int e = 0; e < A * A; ++e)
                sum[e] += src[e * estride + s * plane];
        }
        float tmp[R * A], o[R * R];
#pragma unroll
        for(int j = 0; j < A; ++j)
            wino::Tile<M, R>::Wt(sum + j, A, tmp + j, A);
#pragma unroll
        for(int i = 0; i < R; ++i)
            wino::Tile<M, R>::Wt(tmp + i * A, 1, o + i * R, 1);
        const int k = f / a.icpg, icl = f - k * a.icpg;
        float* dst = dw + int64_t{k} * (R * R) * a.icpg + icl;
#pragma unroll
        for(int i = 0; i < R * R; ++i)
            dst[int64_t{i} * a.icpg] = o[i];
    }
}

dim3 TileGrid(int tiles, int channels)
{
    const unsigned x = static_cast<unsigned>((tiles + kWinoThreads - 1) / kWinoThreads);
    const unsigned y = static_cast<unsigned>(channels < 65535 ? channels : 65535);
    return dim3(x, y, 1);
}

/// Calls f(TileOf<m, r>{}) for the tile of `a` (the kernels' template arguments).
template <int M_, int R_>
struct TileOf
{
    static constexpr int M = M_, R = R_;
};

template <class F>
void WithTile(const WinogradKArgs& a, F&& f)
{
    if(a.r == 5)
    {
        if(a.m == 4)
            f(TileOf<4, 5>{});
        else
            f(TileOf<3, 5>{});
    }
    else if(a.m == 4)
        f(TileOf<4, 3>{});
    else
        f(TileOf<2, 3>{});
}

unsigned FilterBlocks(const WinogradKArgs& a)
{
    return static_cast<unsigned>((int64_t{a.oc} * a.icpg + kWinoThreads - 1) / kWinoThreads);
}

} // namespace

void LaunchWinogradInputTransform(const WinogradKArgs& a, void* stream, const float* in, float* v)
{
    WithTile(a, [&](auto t) {
        using T = decltype(t);
        if(a.nhwc)
            WinoInputNhwc<T::M, T::R><<<FlatBlocks(int64_t{a.splits} * a.part * a.ic), kWinoThreads, 0,
                                        ToStream(stream)>>>(a, in, v);
        else
            WinoInput<T::M, T::R><<<TileGrid(a.splits * a.part, a.ic), kWinoThreads, 0, ToStream(stream)>>>(a, in, v);
    });
}

void LaunchWinogradFilterTransform(const WinogradKArgs& a, void* stream, const float* w, float* u)
{
    WithTile(a, [&](auto t) {
        using T = decltype(t);
        if(a.nhwc)
            WinoFilterNhwc<T::M, T::R><<<FilterBlocks(a), kWinoThreads, 0, ToStream(stream)>>>(a, w, u);
        else
            WinoFilter<T::M, T::R><<<FilterBlocks(a), kWinoThreads, 0, ToStream(stream)>>>(a, w, u);
    });
}

void LaunchWinogradOutputTransform(const WinogradKArgs& a, void* stream, const float* mprod, float* out)
{
    const bool vec = (a.m == 2 || a.m == 4) && a.ow % a.m == 0 &&
                     reinterpret_cast<uintptr_t>(out) % (sizeof(float) * a.m) == 0;
    WithTile(a, [&](auto t) {
        using T = decltype(t);
        if(a.nhwc)
            WinoOutputNhwc<T::M, T::R><<<FlatBlocks(int64_t{a.tiles} * a.oc), kWinoThreads, 0, ToStream(stream)>>>(
                a, mprod, out);
        else
            WinoOutput<T::M, T::R><<<TileGrid(a.tiles, a.oc), kWinoThreads, 0, ToStream(stream)>>>(a, mprod, out, vec);
    });
}

void LaunchWinogradDyTransform(const WinogradKArgs& a, void* stream, const float* dy, float* d)
{
    WithTile(a, [&](auto t) {
        using T = decltype(t);
        if(a.nhwc)
            WinoDyNhwc<T::M, T::R><<<FlatBlocks(int64_t{a.splits} * a.part * a.oc), kWinoThreads, 0,
                                     ToStream(stream)>>>(a, dy, d);
        else
            WinoDy<T::M, T::R><<<TileGrid(a.splits * a.part, a.oc), kWinoThreads, 0, ToStream(stream)>>>(a, dy, d);
    });
}

void LaunchWinogradWeightTransform(const WinogradKArgs& a, void* stream, const float* p, float* dw)
{
    WithTile(a, [&](auto t) {
        using T = decltype(t);
        if(a.nhwc)
            WinoWeightNhwc<T::M, T::R><<<FilterBlocks(a), kWinoThreads, 0, ToStream(stream)>>>(a, p, dw);
        else
            WinoWeight<T::M, T::R><<<FilterBlocks(a), kWinoThreads, 0, ToStream(stream)>>>(a, p, dw);
    });
}

} // namespace miopen::gpu
