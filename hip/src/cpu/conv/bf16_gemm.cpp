// The AVX-512 BF16 GEMM (cpu/conv/bf16_gemm.hpp). The packers are portable; the micro-kernel is
// compiled with its own target attribute, so a library built for baseline x86-64 still uses it
// where the CPU has vdpbf16ps.
#include "cpu/conv/bf16_gemm.hpp"
#include "cpu/conv/direct_blocked.hpp"

#include <algorithm>
#include <cstring>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "bf16 pairs are packed little-endian");

#if defined(__x86_64__)
#include <immintrin.h>
#define MIOPEN_CY_BF16_X86 1
#else
#define MIOPEN_CY_BF16_X86 0
#endif

namespace miopen::cpu::bf16gemm {
namespace {

inline uint16_t Bits(BFloat16 v)
{
    uint16_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

inline uint32_t Pair(uint16_t lo, uint16_t hi) { return static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16); }

#if MIOPEN_CY_BF16_X86

// One MR x NR tile of C over kp pairs: ap is the A panel (kp x MR), bp the B panel (kp x NR).
// rows / cols: how much of the tile is inside C.
// Wide: all NR columns (two vectors); otherwise the first 16 only (a last panel of <= 16
// columns: no multiplies on its empty half).
template <bool Wide>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))) void
Kernel(long kp, const uint32_t* ap, const uint32_t* bp, float* c, long ldc, long rows, long cols, bool acc)
{
    __m512 c0[MR], c1[MR];
    for(long i = 0; i < MR; ++i)
    {
        c0[i] = _mm512_setzero_ps();
        c1[i] = _mm512_setzero_ps();
    }
    for(long p = 0; p < kp; ++p)
    {
        const __m512bh b0 = (__m512bh)_mm512_loadu_si512(bp + p * NR);
        const uint32_t* a = ap + p * MR;
        if constexpr(Wide)
        {
            const __m512bh b1 = (__m512bh)_mm512_loadu_si512(bp + p * NR + 16);
#pragma GCC unroll 16
            for(long i = 0; i < MR; ++i)
            {
                const __m512bh av = (__m512bh)_mm512_set1_epi32(static_cast<int>(a[i]));
                c0[i] = _mm512_dpbf16_ps(c0[i], av, b0);
                c1[i] = _mm512_dpbf16_ps(c1[i], av, b1);
            }
        }
        else
        {
#pragma GCC unroll 16
            for(long i = 0; i < MR; ++i)
                c0[i] = _mm512_dpbf16_ps(c0[i], (__m512bh)_mm512_set1_epi32(static_cast<int>(a[i])), b0);
        }
    }
    const __mmask16 m0 = cols >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << cols) - 1);
    const __mmask16 m1 = cols >= 32 ? 0xFFFF : cols <= 16 ? 0 : static_cast<__mmask16>((1u << (cols - 16)) - 1);
    for(long i = 0; i < rows; ++i)
    {
        float* ci = c + i * ldc;
        __m512 v0 = c0[i], v1 = c1[i];
        if(acc)
        {
            v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(m0, ci));
            v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(m1, ci + 16));
        }
        _mm512_mask_storeu_ps(ci, m0, v0);
        _mm512_mask_storeu_ps(ci + 16, m1, v1);
    }
}

#endif

/// Panels of W columns of a row-major k x cols matrix (row stride ld), each k-pair of rows
/// interleaved into 32-bit pairs (row kk in the low half, kk + 1 in the high half, 0 past k);
/// columns past cols are 0. Serves A^T (W = MR) and B (W = NR).
template <long W>
void PackPairedRows(const BFloat16* src, long ld, long k, long cols, uint32_t* out)
{
    const long kp = Pairs(k);
    for(long c0 = 0; c0 < cols; c0 += W)
    {
        uint32_t* panel = out + (c0 / W) * W * kp;
        const long w = std::min(W, cols - c0);
        for(long p = 0; p < kp; ++p)
        {
            const long kk = 2 * p;
            const uint16_t* r0 = reinterpret_cast<const uint16_t*>(src + kk * ld + c0);
            const uint16_t* r1 = kk + 1 < k ? reinterpret_cast<const uint16_t*>(src + (kk + 1) * ld + c0) : nullptr;
            uint32_t* o = panel + p * W;
            long j = 0;
            if(r1)
                for(; j < w; ++j)
                    o[j] = Pair(r0[j], r1[j]);
            else
                for(; j < w; ++j)
                    o[j] = Pair(r0[j], 0);
            for(; j < W; ++j)
                o[j] = 0;
        }
    }
}

} // namespace

bool Available()
{
#if MIOPEN_CY_BF16_X86
    static const bool cpu = __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl");
    return cpu && dblk::BestIsa() == dblk::Isa::Avx512;
#else
    return false;
#endif
}

void PackA(const BFloat16* a, long lda, long m, long k, uint32_t* ap)
{
    const long kp = Pairs(k);
    for(long i0 = 0; i0 < m; i0 += MR)
    {
        uint32_t* panel = ap + (i0 / MR) * MR * kp;
        for(long i = 0; i < MR; ++i)
        {
            const long row = i0 + i;
            if(row >= m)
            {
                for(long p = 0; p < kp; ++p)
                    panel[p * MR + i] = 0;
                continue;
            }
            // A pair is two adjacent elements: one 32-bit load (little-endian: k in the low half).
            const BFloat16* src = a + row * lda;
            const long full = k / 2;
            for(long p = 0; p < full; ++p)
                std::memcpy(panel + p * MR + i, src + 2 * p, sizeof(uint32_t));
            if(k % 2)
                panel[full * MR + i] = Pair(Bits(src[k - 1]), 0);
        }
    }
}

void PackAT(const BFloat16* at, long ldat, long m, long k, uint32_t* ap)
{
    PackPairedRows<MR>(at, ldat, k, m, ap);
}

void PackB(const BFloat16* b, long ldb, long k, long n, uint32_t* bp)
{
    PackPairedRows<NR>(b, ldb, k, n, bp);
}

void PackBT(const BFloat16* bt, long ldbt, long k, long n, uint32_t* bp)
{
    const long kp = Pairs(k);
    for(long j0 = 0; j0 < n; j0 += NR)
    {
        uint32_t* panel = bp + (j0 / NR) * NR * kp;
        const long w = std::min(NR, n - j0);
        for(long j = 0; j < NR; ++j)
        {
            if(j >= w)
            {
                for(long p = 0; p < kp; ++p)
                    panel[p * NR + j] = 0;
                continue;
            }
            const uint16_t* src = reinterpret_cast<const uint16_t*>(bt + (j0 + j) * ldbt);
            const long full = k / 2;
            for(long p = 0; p < full; ++p)
                std::memcpy(panel + p * NR + j, src + 2 * p, sizeof(uint32_t));
            if(k % 2)
                panel[full * NR + j] = Pair(src[k - 1], 0);
        }
    }
}

void Gemm(long m, long n, long k, const uint32_t* ap, const uint32_t* bp, float* c, long ldc, bool accumulate)
{
#if MIOPEN_CY_BF16_X86
    const long kp = Pairs(k);
    // B panel outer (it stays in L2 while every A panel streams past it).
    for(long j0 = 0; j0 < n; j0 += NR)
    {
        const uint32_t* bpanel = bp + (j0 / NR) * NR * kp;
        const long cols = std::min(NR, n - j0);
        for(long i0 = 0; i0 < m; i0 += MR)
        {
            if(cols > 16)
                Kernel<true>(kp, ap + (i0 / MR) * MR * kp, bpanel, c + i0 * ldc + j0, ldc, std::min(MR, m - i0), cols,
                             accumulate);
            else
                Kernel<false>(kp, ap + (i0 / MR) * MR * kp, bpanel, c + i0 * ldc + j0, ldc, std::min(MR, m - i0),
                              cols, accumulate);
        }
    }
#else
    (void)m, (void)n, (void)k, (void)ap, (void)bp, (void)c, (void)ldc, (void)accumulate;
#endif
}

} // namespace miopen::cpu::bf16gemm
