// A GEMM on tensor cores (gemm_mma.hip: NVIDIA mma.sync, AMD MFMA through
// kernels/common/mma.hpp) with fp16 / bf16 operands and an fp32 result, for the kernels whose
// products are not convolutions (the RNN's input, recurrent and weight-gradient products in
// fp16 / bf16). Plain C++: the launcher (gemm_mma_launch.cpp) checks the arguments and picks the
// split; the kernels run on GPUs with the matrix instructions only (MmaArchWhyNot in
// gpu/runtime.hpp says where not).
#pragma once

#include <cstddef>
#include <cstdint>

namespace miopen::gpu {

/// Row-major C[m][n] = sum over k of opA(A)[m][k] * opB(B)[k][n], C fp32 (overwritten), A and B
/// 16-bit (bf16 ? BFloat16 : Half), the products accumulated in fp32. As SgemmArgs:
/// opA: trans_a ? A[k * lda + m] : A[m * lda + k];  opB: trans_b ? B[n * ldb + k] : B[k * ldb + n].
/// Any sizes, leading dimensions and alignment: an operand whose rows are 16-byte aligned and
/// whose contiguous extent is a multiple of 8 is copied in 16-byte chunks, any other one element
/// by element (the same values, the same sums).
struct GemmMmaArgs
{
    bool trans_a = false, trans_b = false, bf16 = false;
    int m = 0, n = 0, k = 0;
    const void* a = nullptr;
    int64_t lda   = 0;
    const void* b = nullptr;
    int64_t ldb   = 0;
    float* c      = nullptr;
    int64_t ldc   = 0;
};

/// The parts that a split into `splits` makes: k's 32-wide steps cut into equal runs (the last
/// may be shorter), none empty; 1 for no split.
int GemmMmaParts(const GemmMmaArgs& g, int splits);

/// The split (1: none) that a time model of a GPU with `sms` multiprocessors picks for a product
/// whose output tiles alone would leave most of them idle, at most max_parts parts. The test hook
/// MIOPEN_CY_DEBUG_GEMM_MMA_SPLIT=S forces S parts (capped by max_parts and k's steps).
int GemmMmaChooseSplits(const GemmMmaArgs& g, int sms, int max_parts);

/// Runs the product on `stream` (null: the current device's default stream). Unsplit, C is
/// written directly. With room for parts in `workspace` (workspace_floats floats; null / 0: no
/// split) it may split k (GemmMmaChooseSplits): each part's m x n product goes to workspace + z *
/// m * n (row stride n), and then reduce: a second kernel adds them in part order into C
/// (deterministic); !reduce: they are left there for the caller's own reduction (C untouched).
/// Returns the parts (1: C written directly, whatever reduce). Throws miopen::Error (BadParm)
/// naming the field at fault for negative sizes, null pointers or leading dimensions too small;
/// nothing runs for m or n 0; k == 0 writes zeros.
int LaunchGemmMma(const GemmMmaArgs& g, float* workspace, size_t workspace_floats, bool reduce,
                  void* stream);

/// The kernels (gemm_mma.hip), no checks: `parts` parts (GemmMmaParts), written to C directly
/// when 1, else to `part` and, when reduce, added into C.
void LaunchGemmMmaKernels(const GemmMmaArgs& g, int parts, float* part, bool reduce, void* stream);

} // namespace miopen::gpu
