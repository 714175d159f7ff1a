// The one door to the BLAS (OpenBLAS from scipy-openblas32): row-major single-precision GEMM,
// C = alpha * op(A) * op(B) + beta * C, with op(A) m x k and op(B) k x n.
#pragma once

#include <complex>

namespace miopen::cpu {

/// On the calling thread alone (OpenBLAS is kept single-threaded): for use inside parallel loops.
void Sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc);

/// Split over our OpenMP threads by blocks of C's columns (or rows): for a lone large GEMM.
void SgemmParallel(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                   const float* b, int ldb, float beta, float* c, int ldc);

/// Complex single precision, row-major C = A * B (A m x k, B k x n), on the calling thread alone.
void Cgemm(int m, int n, int k, const std::complex<float>* a, int lda, const std::complex<float>* b, int ldb,
           std::complex<float>* c, int ldc);

} // namespace miopen::cpu

namespace miopen::cpu {

/// OpenBLAS's own description of its build ("OpenBLAS 0.3.28 DYNAMIC_ARCH NO_AFFINITY
/// Haswell MAX_THREADS=64"): version, options and the kernel set it chose for this CPU.
const char* BlasConfig();
/// The kernel set OpenBLAS chose for this CPU ("Haswell", "SkylakeX"); OPENBLAS_CORETYPE, read
/// when the library is loaded, overrides its choice.
const char* BlasCoreName();

} // namespace miopen::cpu
