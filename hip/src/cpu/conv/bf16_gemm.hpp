// A bf16 GEMM with fp32 accumulation on AVX-512 BF16 (vdpbf16ps, _mm512_dpbf16_ps) for the CPU
// convolutions in bf16: C (m x n, fp32) = A (m x k) * B (k x n), A and B bf16, both packed
// K-interleaved in pairs (element k and k+1 of a row or column side by side in one 32-bit lane),
// so that one vdpbf16ps multiplies 16 columns by two k values of one row and adds both products
// into fp32:
//   A: panels of MR rows, panel p holds rows [p*MR, p*MR+MR) as kp pairs x MR lanes (pair-major);
//   B: panels of NR columns, panel q holds columns [q*NR, q*NR+NR) as kp pairs x NR lanes.
// kp = ceil(k / 2); missing rows, columns and the odd k's partner are zero. The micro-kernel
// keeps an MR x NR tile of C in 24 zmm accumulators.
// Used only where Available() (the CPU has AVX-512 BF16 and MIOPEN_CY_DEBUG_CPU_ISA does not cap
// it below avx512); the callers fall back to fp32 panels and OpenBLAS's sgemm otherwise.
#pragma once

#include "core/storage.hpp"

#include <cstddef>
#include <cstdint>

namespace miopen::cpu::bf16gemm {

inline constexpr long MR = 12;
inline constexpr long NR = 32;
/// Pairs of k a pass of the micro-kernel takes (a B panel's block of KC x NR pairs stays in L1).
inline constexpr long KC = 128;

/// The CPU has AVX-512 BF16 and the cap (MIOPEN_CY_DEBUG_CPU_ISA, read at each call) allows it.
bool Available();

inline long Pairs(long k) { return (k + 1) / 2; }
/// Sizes of the packed matrices, in 32-bit pairs.
inline size_t PackedASize(long m, long k) { return static_cast<size_t>((m + MR - 1) / MR * MR * Pairs(k)); }
inline size_t PackedBSize(long k, long n) { return static_cast<size_t>((n + NR - 1) / NR * NR * Pairs(k)); }

/// Packs A (m x k, element (i, kk) at a[i * lda + kk]).
void PackA(const BFloat16* a, long lda, long m, long k, uint32_t* ap);
/// Packs A given transposed (A^T is k x m, element (i, kk) of A at at[kk * ldat + i]).
void PackAT(const BFloat16* at, long ldat, long m, long k, uint32_t* ap);
/// Packs B (k x n, element (kk, j) at b[kk * ldb + j]): the row-major column matrix.
void PackB(const BFloat16* b, long ldb, long k, long n, uint32_t* bp);

/// Packs B given transposed (B^T is n x k, element (kk, j) of B at bt[j * ldbt + kk]).
void PackBT(const BFloat16* bt, long ldbt, long k, long n, uint32_t* bp);

/// C (m x n, row stride ldc) = A * B, or += when accumulate.
void Gemm(long m, long n, long k, const uint32_t* ap, const uint32_t* bp, float* c, long ldc,
          bool accumulate = false);

} // namespace miopen::cpu::bf16gemm
