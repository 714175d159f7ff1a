// The CPU RNN's per-step products (rnn_gemm.hpp): register tiles over B read in place.
#include "cpu/rnn_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <omp.h>

#if defined(__x86_64__)
#include "cpu/conv/direct_blocked.hpp" // dblk::BestIsa: the CPU's vector ISA, capped by the switch
#include <immintrin.h>
#define MIOPEN_CY_RNN_X86 1
#else
#define MIOPEN_CY_RNN_X86 0
#endif

namespace miopen::cpu {
namespace {

/// Work (m * n * k) below which a product stays on the calling thread.
constexpr long kParallelWork = 1L << 21;

/// Columns [j0, j1) of rows [i0, i1) one element at a time: the vector tiles' arithmetic (one
/// fused multiply-add chain over k from 0, then + C when accumulating).
void Scalar(int i0, int i1, int j0, int j1, int k, const float* A, int lda, const float* B, int ldb,
            bool accumulate, float* C, int ldc)
{
    for(int i = i0; i < i1; ++i)
        for(int j = j0; j < j1; ++j)
        {
            float acc = 0.0f;
            for(int kk = 0; kk < k; ++kk)
                acc = std::fma(A[long(i) * lda + kk], B[long(kk) * ldb + j], acc);
            float* c = C + long(i) * ldc + j;
            *c       = accumulate ? *c + acc : acc;
        }
}

} // namespace
} // namespace miopen::cpu

#if MIOPEN_CY_RNN_X86
#pragma GCC push_options
#pragma GCC target("avx512f,fma")
#define RG_NS avx512
#define RG_VEC __m512
#define RG_W 16
#define RG_ZERO() _mm512_setzero_ps()
#define RG_LOAD(p) _mm512_loadu_ps(p)
#define RG_BCAST(p) _mm512_set1_ps(*(p))
#define RG_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define RG_ADD(a, b) _mm512_add_ps(a, b)
#define RG_STORE(p, v) _mm512_storeu_ps(p, v)
#include "cpu/rnn_gemm_tile.hpp"
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define RG_NS avx2
#define RG_VEC __m256
#define RG_W 8
#define RG_ZERO() _mm256_setzero_ps()
#define RG_LOAD(p) _mm256_loadu_ps(p)
#define RG_BCAST(p) _mm256_broadcast_ss(p)
#define RG_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define RG_ADD(a, b) _mm256_add_ps(a, b)
#define RG_STORE(p, v) _mm256_storeu_ps(p, v)
#include "cpu/rnn_gemm_tile.hpp"
#pragma GCC pop_options
#endif // MIOPEN_CY_RNN_X86

namespace miopen::cpu {
namespace {

#if MIOPEN_CY_RNN_X86
/// One column block [j, j + NR) of every row: tiles of up to MR rows (MR, then the rest).
template <int MR, class TileFn>
void Block(int m, const float* A, int lda, const float* B, float* C, int ldc, int j, TileFn tile)
{
    int i = 0;
    for(; i + MR <= m; i += MR)
        tile(std::integral_constant<int, MR>{}, A + long(i) * lda, B + j, C + long(i) * ldc + j);
    const int rest = m - i;
    // the last rows one tile of their own size
    auto tail = [&](auto r) { tile(r, A + long(i) * lda, B + j, C + long(i) * ldc + j); };
    switch(rest)
    {
    case 0: break;
    case 1: tail(std::integral_constant<int, 1>{}); break;
    case 2: tail(std::integral_constant<int, 2>{}); break;
    case 3: tail(std::integral_constant<int, 3>{}); break;
    case 4: tail(std::integral_constant<int, 4>{}); break;
    case 5: tail(std::integral_constant<int, 5>{}); break;
    case 6: tail(std::integral_constant<int, 6>{}); break;
    default: tail(std::integral_constant<int, 7>{}); break;
    }
}
#endif

/// Column blocks [b0, b1) of nr columns (whole blocks, then the rest element by element) on the
/// calling thread.
void Columns(int m, int n, int k, const float* A, int lda, const float* B, int ldb,
             bool accumulate, float* C, int ldc, int b0, int b1, int nr, int isa)
{
    int j1 = std::min(n, b1 * nr);
#if MIOPEN_CY_RNN_X86
    if(isa == 2)
    {
        auto tile = [&](auto mr, const float* a, const float* b, float* c) {
            avx512::Tile<decltype(mr)::value>(k, a, lda, b, ldb, accumulate, c, ldc);
        };
        for(int blk = b0; blk < b1; ++blk)
            if((blk + 1) * nr <= n)
                Block<8>(m, A, lda, B, C, ldc, blk * nr, tile);
    }
    else if(isa == 1)
    {
        auto tile = [&](auto mr, const float* a, const float* b, float* c) {
            avx2::Tile<decltype(mr)::value>(k, a, lda, b, ldb, accumulate, c, ldc);
        };
        for(int blk = b0; blk < b1; ++blk)
            if((blk + 1) * nr <= n)
                Block<6>(m, A, lda, B, C, ldc, blk * nr, tile);
    }
#endif
    // the partial last block (any ISA), or every column without vector tiles
    const int vec_end = isa == 0 ? b0 * nr : std::min(j1, n / nr * nr);
    if(vec_end < j1)
        Scalar(0, m, std::max(vec_end, b0 * nr), j1, k, A, lda, B, ldb, accumulate, C, ldc);
}

} // namespace

void StepGemm(int m, int n, int k, const float* A, int lda, const float* B, int ldb,
              bool accumulate, float* C, int ldc)
{
    if(m <= 0 || n <= 0)
        return;
    int isa = 0;
#if MIOPEN_CY_RNN_X86
    const dblk::Isa best = dblk::BestIsa();
    isa = best == dblk::Isa::Avx512 ? 2 : best == dblk::Isa::Avx2 ? 1 : 0;
#endif
    const int nr     = isa == 2 ? 32 : 16; // columns a vector tile (scalar: a block's width)
    const int blocks = (n + nr - 1) / nr;
    const long work  = long(m) * n * std::max(k, 1);
    if(work < kParallelWork || omp_get_max_threads() == 1 || omp_in_parallel())
    {
        Columns(m, n, k, A, lda, B, ldb, accumulate, C, ldc, 0, blocks, nr, isa);
        return;
    }
#pragma omp parallel
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int per = (blocks + nt - 1) / nt;
        const int b0 = std::min(blocks, t * per), b1 = std::min(blocks, b0 + per);
        if(b0 < b1)
            Columns(m, n, k, A, lda, B, ldb, accumulate, C, ldc, b0, b1, nr, isa);
    }
}

} // namespace miopen::cpu
