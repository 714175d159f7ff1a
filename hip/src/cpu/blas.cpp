// OpenBLAS runs its parallel work on our OpenMP threads (its threads callback, OpenBLAS >= 0.3.27),
// so the GEMM and our own kernels share one pool instead of two pools fighting over the cores.
#include "cpu/blas.hpp"

#include <cblas.h>

#include <mutex>

#include <omp.h>

namespace miopen::cpu {
namespace {

void OmpThreads(int /*sync*/, openblas_dojob_callback dojob, int numjobs, size_t jobdata_elsize,
                void* jobdata, int dojob_data)
{
#pragma omp parallel for schedule(static, 1)
    for(int i = 0; i < numjobs; ++i)
        dojob(i, static_cast<char*>(jobdata) + static_cast<size_t>(i) * jobdata_elsize, dojob_data);
}

void Init()
{
    static std::once_flag once;
    std::call_once(once, [] {
        scipy_openblas_set_threads_callback_function(OmpThreads);
        scipy_openblas_set_num_threads(omp_get_max_threads());
    });
}

} // namespace

void Sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc)
{
    Init();
    scipy_cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                      trans_b ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

} // namespace miopen::cpu
