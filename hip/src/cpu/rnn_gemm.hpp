// The CPU RNN's per-step products (cpu/rnn.cpp): C (m x n) = A (m x k) * B (k x n) [+ C] with a
// small m (a step's batch) and B row-major in memory as it is: the step's weights transposed once
// a call (forward) or W_hid itself (backward data). OpenBLAS packs B again on every call, which
// for a step is the whole weight matrix: 16 x 1024 x 256 ran at about 35 GFLOP/s on one core.
// Here B is read in place (it stays in L2 between steps), register tiles of MR rows x NR columns
// (AVX-512F 8 x 32, AVX2 + FMA 6 x 16, capped by MIOPEN_CY_DEBUG_CPU_ISA), threads over column
// blocks. Each element is one fused multiply-add chain over k in order: the same bits whatever
// the ISA, the tile or the number of threads.
#pragma once

namespace miopen::cpu {

/// C = A * B (accumulate: C += A * B; otherwise C is not read). A m x k (row stride lda), B
/// k x n (row stride ldb), C m x n (row stride ldc), all row-major fp32.
void StepGemm(int m, int n, int k, const float* A, int lda, const float* B, int ldb,
              bool accumulate, float* C, int ldc);

} // namespace miopen::cpu
