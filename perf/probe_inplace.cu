// probe_inplace: is an in-place read-modify-write (y = y + b[c], miopenConvolutionForwardBias)
// slower than the same map out of place on this GPU, and do cache hints change it?
// Standalone: nvcc -O3 -arch=sm_90 perf/probe_inplace.cu -o /tmp/probe && /tmp/probe
// Shape (64, 64, 112, 112) fp32 (205 MB); median of 20 timed runs per variant (CUDA events).
#include "probe_timing.cuh"

#include <cstdio>

constexpr long N = 64, C = 64, HW = 112 * 112, NUMEL = N * C * HW, NQ = NUMEL / 4;

enum Hint { kPlain, kCs, kLu, kNcCs, kCg };

template <int U, Hint H>
__global__ void __launch_bounds__(256) Bias(const float4* x, float4* y, const float* b)
{
    const long q0 = long(blockIdx.x) * 256 * U + threadIdx.x;
    float4 v[U];
#pragma unroll
    for(int u = 0; u < U; ++u)
    {
        const long q = q0 + u * 256;
        if(q >= NQ) continue;
        if(H == kCs) v[u] = __ldcs(x + q);
        else if(H == kLu) v[u] = __ldlu(x + q);
        else if(H == kNcCs) v[u] = __ldg(x + q);
        else if(H == kCg) v[u] = __ldcg(x + q);
        else v[u] = x[q];
    }
#pragma unroll
    for(int u = 0; u < U; ++u)
    {
        const long q = q0 + u * 256;
        if(q >= NQ) continue;
        const float bc = b[(q * 4 / HW) % C];
        float4 r = make_float4(v[u].x + bc, v[u].y + bc, v[u].z + bc, v[u].w + bc);
        if(H == kCs || H == kNcCs || H == kLu) __stcs(y + q, r);
        else if(H == kCg) __stcg(y + q, r);
        else y[q] = r;
    }
}

template <int U, Hint H>
float Time(const float4* x, float4* y, const float* b)
{
    const unsigned grid = unsigned((NQ + 256L * U - 1) / (256L * U));
    return MedianMs([&] { Bias<U, H><<<grid, 256>>>(x, y, b); });
}

int main()
{
    float *x, *y, *b;
    cudaMalloc(&x, NUMEL * 4), cudaMalloc(&y, NUMEL * 4), cudaMalloc(&b, C * 4);
    cudaMemset(x, 0, NUMEL * 4), cudaMemset(y, 0, NUMEL * 4), cudaMemset(b, 0, C * 4);
    auto X = reinterpret_cast<float4*>(x), Y = reinterpret_cast<float4*>(y);
    const double gb = 8.0 * NUMEL / 1e9;
    const float tc = MedianMs([&] { cudaMemcpyAsync(y, x, NUMEL * 4, cudaMemcpyDeviceToDevice); });
    const double copy = gb / (tc * 1e-3);
    std::printf("cudaMemcpy D2D: %.4f ms %.0f GB/s\n", tc, copy);
#define ROW(U, H, name)                                                                             \
    {                                                                                              \
        float o = Time<U, H>(X, Y, b), i = Time<U, H>(X, X, b);                                    \
        std::printf("U=%d %-6s out-of-place %.4f ms (%.2f of copy)  in-place %.4f ms (%.2f)\n", U, \
                    name, o, gb / (o * 1e-3) / copy, i, gb / (i * 1e-3) / copy);                   \
    }
    ROW(1, kPlain, "plain") ROW(2, kPlain, "plain") ROW(4, kPlain, "plain") ROW(8, kPlain, "plain")
    ROW(4, kCs, "cs") ROW(4, kLu, "lu") ROW(4, kNcCs, "ldg+cs") ROW(4, kCg, "cg")
    ROW(1, kCs, "cs") ROW(8, kCs, "cs") ROW(2, kNcCs, "ldg+cs")
    std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
