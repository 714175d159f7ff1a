// OpenBLAS is kept single-threaded and every parallel GEMM splits its work over our own OpenMP
// threads: one thread pool in the process, and GEMMs may be called from inside our parallel loops.
#include "cpu/blas.hpp"

#include <cblas.h>

#include <algorithm>
#include <mutex>

#include <omp.h>

namespace miopen::cpu {
namespace {

void Init()
{
    static std::once_flag once;
    std::call_once(once, [] { scipy_openblas_set_num_threads(1); });
}

} // namespace

void Sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc)
{
    Init();
    scipy_cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                      trans_b ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void SgemmParallel(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                   const float* b, int ldb, float beta, float* c, int ldc)
{
    const int threads = omp_get_max_threads();
    const double flops = 2.0 * m * n * k;
    if(threads == 1 || flops < 4e6 || omp_in_parallel())
    {
        Sgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    // Split the columns of C (or its rows when C is narrow) into one block per thread; each
    // block is an independent GEMM, so the result does not depend on the split.
    const bool by_cols = n >= m || n >= 64 * threads;
    const int extent = by_cols ? n : m;
    const int block = (extent + threads - 1) / threads;
#pragma omp parallel for schedule(static) num_threads(threads)
    for(int t = 0; t < threads; ++t)
    {
        const int lo = t * block, hi = std::min(extent, lo + block);
        if(lo >= hi)
            continue;
        if(by_cols)
            Sgemm(trans_a, trans_b, m, hi - lo, k, alpha, a, lda,
                  trans_b ? b + static_cast<long>(lo) * ldb : b + lo, ldb, beta, c + lo, ldc);
        else
            Sgemm(trans_a, trans_b, hi - lo, n, k, alpha,
                  trans_a ? a + lo : a + static_cast<long>(lo) * lda, lda, b, ldb, beta,
                  c + static_cast<long>(lo) * ldc, ldc);
    }
}

void Cgemm(int m, int n, int k, const std::complex<float>* a, int lda, const std::complex<float>* b, int ldb,
           std::complex<float>* c, int ldc)
{
    Init();
    const std::complex<float> one(1.0f, 0.0f), zero(0.0f, 0.0f);
    scipy_cblas_cgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}

} // namespace miopen::cpu

namespace miopen::cpu {

const char* BlasConfig() { return scipy_openblas_get_config(); }
const char* BlasCoreName() { return scipy_openblas_get_corename(); }

} // namespace miopen::cpu
