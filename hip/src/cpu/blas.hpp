// The one door to the BLAS (OpenBLAS from scipy-openblas32): row-major single-precision GEMM,
// C = alpha * op(A) * op(B) + beta * C, with op(A) m x k and op(B) k x n.
#pragma once

namespace miopen::cpu {

void Sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc);

/// Called from inside one of our parallel loops, a GEMM runs on the calling thread alone: OpenBLAS
/// hands its parallel work to our OpenMP callback, and a nested OpenMP region runs serially.

} // namespace miopen::cpu
