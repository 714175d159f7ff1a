// The CPU RNN's per-step products (cpu/rnn.cpp): C (m x n) = A (m x k) * B (k x n) [+ C] with a
// small m (a step's batch) and B row-major in memory as it is: the step's weights transposed once
// a call (forward) or W_hid itself (backward data). OpenBLAS packs B again on every call, which
// for a step is the whole weight matrix: 16 x 1024 x 256 ran at about 35 GFLOP/s on one core.
// Here B is read in place (it stays in L2 between steps), register tiles of MR rows x NR columns
// (AVX-512F 8 x 32, AVX2 + FMA 6 x 16, capped by MIOPEN_CY_DEBUG_CPU_ISA), threads over column
// blocks. Each element is one fused multiply-add chain over k in order: the same bits whatever
// the ISA, the tile or the number of threads.
// B is prepared once a layer and direction (StepB): copied into panels, each column block of the
// tile's width with its k rows contiguous, so that a tile streams its block from L1. Read in
// place, rows ldb apart (4 KB for the forward's 1024 columns) all fall in one L1 set, and every
// pass of a tile over k refetched its block from L2: the LSTM's steps ran at about 30 GFLOP/s on
// an AVX2 core.
#pragma once

#include <vector>

namespace miopen::cpu {

/// The B of a layer-direction's step products: k x n, row-major (row stride ldb), and its panels
/// (nr columns each, rows contiguous; empty where the vector tiles do not run or n is not a
/// multiple of their width: the tiles then read b itself).
struct StepB
{
    const float* b = nullptr;
    int ldb = 0, n = 0, k = 0;
    int nr  = 0; // the panels' width (0: none)
    std::vector<float> panels;
};

/// Fills `out` for B (k x n, row stride ldb, kept by pointer: it must outlive out's use).
void StepBPrepare(int n, int k, const float* B, int ldb, StepB& out);

/// C = A * B (accumulate: C += A * B; otherwise C is not read). A m x k (row stride lda), C m x n
/// (row stride ldc), all row-major fp32.
void StepGemm(int m, const StepB& B, const float* A, int lda, bool accumulate, float* C, int ldc);

} // namespace miopen::cpu
