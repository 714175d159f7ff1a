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
/// One column block [j, j + NR) of every row, its B at Bj: tiles of up to MR rows (MR, then the
/// rest).
template <int MR, class TileFn>
void Block(int m, const float* A, int lda, const float* Bj, float* C, int ldc, int j, TileFn tile)
{
    int i = 0;
    for(; i + MR <= m; i += MR)
        tile(std::integral_constant<int, MR>{}, A + long(i) * lda, Bj, C + long(i) * ldc + j);
    const int rest = m - i;
    // the last rows one tile of their own size
    auto tail = [&](auto r) { tile(r, A + long(i) * lda, Bj, C + long(i) * ldc + j); };
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
/// calling thread; a block's B from the panels where there are some, else from B itself.
void Columns(int m, int n, int k, const float* A, int lda, const StepB& SB, bool accumulate,
             float* C, int ldc, int b0, int b1, int nr, int isa)
{
    const float* B = SB.b;
    const int ldb  = SB.ldb;
    int j1 = std::min(n, b1 * nr);
#if MIOPEN_CY_RNN_X86
    const bool panels = SB.nr == nr && !SB.panels.empty();
    const int tld     = panels ? nr : ldb; // the tiles' B row stride
    auto block_b      = [&](int blk) {
        return panels ? SB.panels.data() + long(blk) * k * nr : B + long(blk) * nr;
    };
    if(isa == 2)
    {
        auto tile = [&](auto mr, const float* a, const float* b, float* c) {
            avx512::Tile<decltype(mr)::value>(k, a, lda, b, tld, accumulate, c, ldc);
        };
        for(int blk = b0; blk < b1; ++blk)
            if((blk + 1) * nr <= n)
                Block<8>(m, A, lda, block_b(blk), C, ldc, blk * nr, tile);
    }
    else if(isa == 1)
    {
        auto tile = [&](auto mr, const float* a, const float* b, float* c) {
            avx2::Tile<decltype(mr)::value>(k, a, lda, b, tld, accumulate, c, ldc);
        };
        for(int blk = b0; blk < b1; ++blk)
            if((blk + 1) * nr <= n)
                Block<6>(m, A, lda, block_b(blk), C, ldc, blk * nr, tile);
    }
#endif
    // the partial last block (any ISA), or every column without vector tiles
    const int vec_end = isa == 0 ? b0 * nr : std::min(j1, n / nr * nr);
    if(vec_end < j1)
        Scalar(0, m, std::max(vec_end, b0 * nr), j1, k, A, lda, B, ldb, accumulate, C, ldc);
}

/// The vector tiles this CPU runs (2 AVX-512F, 1 AVX2 + FMA, 0 none), capped by the switch.
int TileIsa()
{
#if MIOPEN_CY_RNN_X86
    const dblk::Isa best = dblk::BestIsa();
    return best == dblk::Isa::Avx512 ? 2 : best == dblk::Isa::Avx2 ? 1 : 0;
#else
    return 0;
#endif
}

/// Columns a vector tile (scalar: a block's width).
int TileWidth(int isa) { return isa == 2 ? 32 : 16; }

} // namespace

void StepBPrepare(int n, int k, const float* B, int ldb, StepB& out)
{
    out.b   = B;
    out.ldb = ldb;
    out.n   = n;
    out.k   = k;
    out.nr  = 0;
    const int isa = TileIsa();
    const int nr  = TileWidth(isa);
    if(isa == 0 || n <= 0 || k <= 0 || n % nr != 0)
    {
        out.panels.clear();
        return;
    }
    out.nr = nr;
    out.panels.resize(size_t(n) * k);
    const int blocks = n / nr;
#pragma omp parallel for schedule(static) if(long(n) * k >= 65536)
    for(int blk = 0; blk < blocks; ++blk)
        for(int kk = 0; kk < k; ++kk)
            std::copy_n(B + long(kk) * ldb + long(blk) * nr, nr,
                        out.panels.data() + (long(blk) * k + kk) * nr);
}

void StepGemm(int m, const StepB& SB, const float* A, int lda, bool accumulate, float* C, int ldc)
{
    const int n = SB.n, k = SB.k;
    if(m <= 0 || n <= 0)
        return;
    const int isa    = TileIsa();
    const int nr     = TileWidth(isa);
    const int blocks = (n + nr - 1) / nr;
    const long work  = long(m) * n * std::max(k, 1);
    if(work < kParallelWork || omp_get_max_threads() == 1 || omp_in_parallel())
    {
        Columns(m, n, k, A, lda, SB, accumulate, C, ldc, 0, blocks, nr, isa);
        return;
    }
#pragma omp parallel
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int per = (blocks + nt - 1) / nt;
        const int b0 = std::min(blocks, t * per), b1 = std::min(blocks, b0 + per);
        if(b0 < b1)
            Columns(m, n, k, A, lda, SB, accumulate, C, ldc, b0, b1, nr, isa);
    }
}

} // namespace miopen::cpu
