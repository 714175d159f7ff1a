// extern "C" shim of miopenCySgemm (a miopen_cy extension): the GPU SGEMM kernel
// (hip/kernels/gemm/sgemm.hip) on a GPU handle, the CPU BLAS on a CPU handle, for tests and
// benchmarks of the kernel behind the GEMM convolution solvers.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "cpu/blas.hpp"
#include "gemm/sgemm_args.hpp"
#include "gpu/runtime.hpp"

#include <climits>
#include <cstdint>
#include <cstring>

namespace {

void CheckSgemm(bool transA, bool transB, bool sumBatch, int m, int n, int k, int batch, const float* A,
                int64_t lda, int64_t strideA, const float* B, int64_t ldb, int64_t strideB, const float* C,
                int64_t ldc, int64_t strideC)
{
    using miopen::ThrowBadParm;
    if(m < 0)
        ThrowBadParm("m is ", m, "; expected >= 0");
    if(n < 0)
        ThrowBadParm("n is ", n, "; expected >= 0");
    if(k < 0)
        ThrowBadParm("k is ", k, "; expected >= 0");
    if(batch < 0)
        ThrowBadParm("batch is ", batch, "; expected >= 0");
    if(m == 0 || n == 0 || batch == 0)
        return;
    miopen::CheckData(C, "C");
    if(ldc < n)
        ThrowBadParm("ldc is ", ldc, "; expected >= n = ", n);
    if(!sumBatch && batch > 1 && strideC < int64_t{m} * ldc)
        ThrowBadParm("strideC is ", strideC, "; expected >= m * ldc = ", int64_t{m} * ldc,
                     " (the batch's C matrices must not overlap)");
    if(k == 0)
        return;
    miopen::CheckData(A, "A");
    miopen::CheckData(B, "B");
    if(lda < (transA ? m : k))
        ThrowBadParm("lda is ", lda, "; expected >= ", transA ? "m = " : "k = ", transA ? m : k);
    if(ldb < (transB ? k : n))
        ThrowBadParm("ldb is ", ldb, "; expected >= ", transB ? "k = " : "n = ", transB ? k : n);
    if(strideA < 0)
        ThrowBadParm("strideA is ", strideA, "; expected >= 0");
    if(strideB < 0)
        ThrowBadParm("strideB is ", strideB, "; expected >= 0");
}

} // namespace

extern "C" miopenStatus_t miopenCySgemm(miopenHandle_t handle, bool transA, bool transB, bool sumBatch,
                                        int m, int n, int k, int batch, const float* A, int64_t lda,
                                        int64_t strideA, const float* B, int64_t ldb, int64_t strideB,
                                        float* C, int64_t ldc, int64_t strideC)
{
    MIOPEN_LOG_FUNCTION(handle, transA, transB, sumBatch, m, n, k, batch, A, lda, strideA, B, ldb,
                        strideB, C, ldc, strideC);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        CheckSgemm(transA, transB, sumBatch, m, n, k, batch, A, lda, strideA, B, ldb, strideB, C, ldc,
                   strideC);
        if(m == 0 || n == 0 || batch == 0)
            return;
        miopen::CheckDevicePointer(h, C, "C");
        if(k > 0)
        {
            miopen::CheckDevicePointer(h, A, "A");
            miopen::CheckDevicePointer(h, B, "B");
        }
        if(h.IsGpu())
        {
#if MIOPEN_CY_HAVE_GPU
            miopen::gpu::DeviceScope scope(h.Ordinal());
            miopen::gpu::SgemmArgs g;
            g.trans_a = transA; g.trans_b = transB; g.sum_batch = sumBatch;
            g.m = m; g.n = n; g.k = k; g.batch = batch;
            g.a = A; g.lda = lda; g.stride_a = strideA;
            g.b = B; g.ldb = ldb; g.stride_b = strideB;
            g.c = C; g.ldc = ldc; g.stride_c = strideC;
            miopen::gpu::LaunchSgemm(g, h.Stream());
            return;
#endif
        }
        // The CPU: the BLAS, one product at a time (its indices are 32-bit).
        if(lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
            miopen::ThrowBadParm("a leading dimension exceeds INT_MAX (the CPU BLAS's indices)");
        const int outs = sumBatch ? 1 : batch;
        if(k == 0)
        {
            for(int b = 0; b < outs; ++b)
                for(int i = 0; i < m; ++i)
                    std::memset(C + b * strideC + int64_t{i} * ldc, 0, sizeof(float) * size_t(n));
            return;
        }
        for(int b = 0; b < batch; ++b)
            miopen::cpu::SgemmParallel(transA, transB, m, n, k, 1.0f, A + b * strideA, int(lda),
                                       B + b * strideB, int(ldb), sumBatch && b > 0 ? 1.0f : 0.0f,
                                       C + (sumBatch ? 0 : b * strideC), int(ldc));
    });
}
