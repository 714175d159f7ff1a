// probe_bn_peract: per-activation batch-norm inference y = (x - m) * a + c with (m, a, c) from
// four parameter arrays of C*H*W elements (a = scale / sqrt(var + eps), c = bias), on x of
// (64, 64, 112, 112) fp32: which thread mapping gets closest to the copy bandwidth?
// Standalone: nvcc -O3 -arch=sm_90 perf/probe_bn_peract.cu -o /tmp/probe_bn && /tmp/probe_bn
// Median of 20 timed runs per variant (CUDA events); fraction of copy counts x, y and the
// parameters once (8 * numel + 16 * plane bytes) against cudaMemcpy's 8 * numel.
#include "probe_timing.cuh"

#include <cstdio>

constexpr long N = 64, PLANE = 64L * 112 * 112, PQ = PLANE / 4;

struct Params { const float4 *sc, *bi, *mn, *vr; };

__device__ inline void Coef(const Params& p, long q, float4& m, float4& a, float4& c)
{
    const float4 sc = p.sc[q], bi = p.bi[q], vr = p.vr[q];
    m = p.mn[q];
    a = make_float4(sc.x / sqrtf(vr.x + 1e-5f), sc.y / sqrtf(vr.y + 1e-5f), sc.z / sqrtf(vr.z + 1e-5f),
                    sc.w / sqrtf(vr.w + 1e-5f));
    c = bi;
}

__device__ inline float4 Apply(float4 v, float4 m, float4 a, float4 c)
{
    return make_float4(fmaf(v.x - m.x, a.x, c.x), fmaf(v.y - m.y, a.y, c.y), fmaf(v.z - m.z, a.z, c.z),
                       fmaf(v.w - m.w, a.w, c.w));
}

// NB images a thread, U loads in flight, T threads a block, groups fastest in the grid.
template <int NB, int U, int T>
__global__ void __launch_bounds__(T) Fused(const float4* x, float4* y, Params p)
{
    constexpr long G = N / NB;
    const long g = blockIdx.x % G, q = (blockIdx.x / G) * T + threadIdx.x;
    if(q >= PQ) return;
    float4 m, a, c;
    Coef(p, q, m, a, c);
    for(long i0 = g * NB; i0 < g * NB + NB; i0 += U)
    {
        float4 v[U];
#pragma unroll
        for(int u = 0; u < U; ++u) v[u] = x[(i0 + u) * PQ + q];
#pragma unroll
        for(int u = 0; u < U; ++u) y[(i0 + u) * PQ + q] = Apply(v[u], m, a, c);
    }
}

// As Fused, two adjacent float4s a thread (a block covers 2 * T float4s of the run).
template <int NB, int T>
__global__ void __launch_bounds__(T) Fused2(const float4* x, float4* y, Params p)
{
    constexpr long G = N / NB;
    const long g = blockIdx.x % G, q0 = (blockIdx.x / G) * 2 * T + threadIdx.x;
    float4 m[2], a[2], c[2];
#pragma unroll
    for(int k = 0; k < 2; ++k) if(q0 + k * T < PQ) Coef(p, q0 + k * T, m[k], a[k], c[k]);
    for(long i = g * NB; i < g * NB + NB; ++i)
    {
        float4 v[2];
#pragma unroll
        for(int k = 0; k < 2; ++k) if(q0 + k * T < PQ) v[k] = x[i * PQ + q0 + k * T];
#pragma unroll
        for(int k = 0; k < 2; ++k) if(q0 + k * T < PQ) y[i * PQ + q0 + k * T] = Apply(v[k], m[k], a[k], c[k]);
    }
}

// One float4 a thread, the parameters read per image (from L2 after the first image).
__global__ void __launch_bounds__(256) Plain(const float4* x, float4* y, Params p)
{
    const long i = long(blockIdx.x) * 256 + threadIdx.x;
    if(i >= N * PQ) return;
    const long q = i % PQ;
    float4 m, a, c;
    const float4 v = x[i];
    Coef(p, q, m, a, c);
    y[i] = Apply(v, m, a, c);
}

int main()
{
    float4 *x, *y, *prm;
    cudaMalloc(&x, N * PLANE * 4), cudaMalloc(&y, N * PLANE * 4), cudaMalloc(&prm, 4 * PLANE * 4);
    cudaMemset(x, 0, N * PLANE * 4), cudaMemset(prm, 0, 4 * PLANE * 4);
    Params p{prm, prm + PQ, prm + 2 * PQ, prm + 3 * PQ};
    const double bytes = 8.0 * N * PLANE, pbytes = bytes + 16.0 * PLANE;
    const float tc = MedianMs([&] { cudaMemcpyAsync(y, x, N * PLANE * 4, cudaMemcpyDeviceToDevice); });
    const double copy = bytes / (tc * 1e-3);
    std::printf("cudaMemcpy D2D: %.4f ms %.0f GB/s\n", tc, copy / 1e9);
    auto row = [&](const char* name, float t) {
        std::printf("%-28s %.4f ms  %.3f of copy (x, y and parameters)\n", name, t, pbytes / (t * 1e-3) / copy);
    };
#define FUSED(NB, U, T)                                                                            \
    row("fused nb=" #NB " U=" #U " T=" #T, MedianMs([&] {                                              \
            Fused<NB, U, T><<<unsigned((PQ + T - 1) / T * (N / NB)), T>>>(x, y, p);               \
        }));
    FUSED(8, 4, 256) FUSED(8, 8, 256) FUSED(8, 4, 128) FUSED(8, 8, 128) FUSED(4, 4, 256)
    FUSED(16, 8, 256) FUSED(16, 4, 128) FUSED(2, 2, 256) FUSED(64, 8, 128) FUSED(32, 8, 64)
#define FUSED2(NB, T)                                                                              \
    row("fused2 nb=" #NB " T=" #T, MedianMs([&] {                                                      \
            Fused2<NB, T><<<unsigned((PQ + 2 * T - 1) / (2 * T) * (N / NB)), T>>>(x, y, p);        \
        }));
    FUSED2(8, 256) FUSED2(4, 256) FUSED2(16, 128)
    row("plain (params per image)", MedianMs([&] { Plain<<<unsigned(N * PQ / 256), 256>>>(x, y, p); }));
    std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
