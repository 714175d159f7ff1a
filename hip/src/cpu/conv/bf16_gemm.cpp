// The AVX-512 BF16 GEMM (cpu/conv/bf16_gemm.hpp). The packers are portable; the micro-kernel is
// compiled with its own target attribute, so a library built for baseline x86-64 still uses it
// where the CPU has vdpbf16ps.
#include "cpu/conv/bf16_gemm.hpp"
#include "cpu/conv/direct_blocked.hpp"

#include <algorithm>
#include <array>
#include <utility>
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

inline uint32_t Pair(uint16_t lo, uint16_t hi) { return static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16); }

#if MIOPEN_CY_BF16_X86

// One Rows x NR tile of C over kp pairs: ap is the A panel (kp x MR; its first Rows rows are
// used), bp the B panel (kp x NR). Rows: the panel's rows inside C (a last panel of m % MR rows
// multiplies only those); cols: its columns inside C. Wide: all NR columns (two vectors);
// otherwise the first 16 only (a last panel of <= 16 columns: no multiplies on its empty half).
template <bool Wide, int Rows>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))) void
Kernel(long kp, const uint32_t* ap, const uint32_t* bp, float* c, long ldc, long cols, bool acc)
{
    __m512 c0[Rows], c1[Rows];
    for(long i = 0; i < Rows; ++i)
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
            for(long i = 0; i < Rows; ++i)
            {
                const __m512bh av = (__m512bh)_mm512_set1_epi32(static_cast<int>(a[i]));
                c0[i] = _mm512_dpbf16_ps(c0[i], av, b0);
                c1[i] = _mm512_dpbf16_ps(c1[i], av, b1);
            }
        }
        else
        {
#pragma GCC unroll 16
            for(long i = 0; i < Rows; ++i)
                c0[i] = _mm512_dpbf16_ps(c0[i], (__m512bh)_mm512_set1_epi32(static_cast<int>(a[i])), b0);
        }
    }
    const __mmask16 m0 = cols >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << cols) - 1);
    const __mmask16 m1 = cols >= 32 ? 0xFFFF : cols <= 16 ? 0 : static_cast<__mmask16>((1u << (cols - 16)) - 1);
    for(long i = 0; i < Rows; ++i)
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

using KernelFn = void (*)(long, const uint32_t*, const uint32_t*, float*, long, long, bool);

template <bool Wide, int... R>
constexpr auto KernelTable(std::integer_sequence<int, R...>)
{
    return std::array<KernelFn, sizeof...(R)>{&Kernel<Wide, R + 1>...};
}

/// The micro-kernel for a panel of `rows` (1..MR) rows, wide or not.
KernelFn PickKernel(bool wide, long rows)
{
    static constexpr auto wide_k = KernelTable<true>(std::make_integer_sequence<int, MR>());
    static constexpr auto half_k = KernelTable<false>(std::make_integer_sequence<int, MR>());
    return (wide ? wide_k : half_k)[rows - 1];
}

#endif

#if MIOPEN_CY_BF16_X86
/// Pairs (r0[j], r1[j]) for j < n (n <= 16; r1 null: a zero high half) into out[j] for j < lanes
/// (lanes <= 16; lanes past n get 0): one vpermt2w interleaves the two rows' 16-bit elements.
__attribute__((target("avx512f,avx512bw"))) inline void Interleave16(const uint16_t* r0, const uint16_t* r1, long n,
                                                                     long lanes, uint32_t* out)
{
    // Word 2j of the result is r0's element j, word 2j + 1 is r1's (index 32 + j: the second table).
    alignas(64) static constexpr uint16_t kIdx[32] = {0, 32, 1, 33, 2,  34, 3,  35, 4,  36, 5,  37, 6,  38, 7,  39,
                                                      8, 40, 9, 41, 10, 42, 11, 43, 12, 44, 13, 45, 14, 46, 15, 47};
    const __m512i idx = _mm512_load_si512(kIdx);
    const __mmask32 in = static_cast<__mmask32>((1ull << n) - 1);
    const __m512i a = _mm512_maskz_loadu_epi16(in, r0);
    const __m512i b = r1 ? _mm512_maskz_loadu_epi16(in, r1) : _mm512_setzero_si512();
    const __mmask16 st = lanes >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << lanes) - 1);
    _mm512_mask_storeu_epi32(out, st, _mm512_permutex2var_epi16(a, idx, b));
}
#endif

/// Panels of W columns of a row-major k x cols matrix (row stride ld), each k-pair of rows
/// interleaved into 32-bit pairs (row kk in the low half, kk + 1 in the high half, 0 past k);
/// columns past cols are 0. Serves A^T (W = MR) and B (W = NR). The callers run only where the
/// CPU has AVX-512 (Available()): 16 columns at a time through one vpermt2w.
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
#if MIOPEN_CY_BF16_X86
            for(long j = 0; j < W; j += 16)
                Interleave16(r0 + j, r1 ? r1 + j : nullptr, std::clamp<long>(w - j, 0, 16), std::min<long>(W - j, 16),
                             o + j);
#else
            for(long j = 0; j < W; ++j)
                o[j] = j < w ? Pair(r0[j], r1 ? r1[j] : 0) : 0;
#endif
        }
    }
}

#if MIOPEN_CY_BF16_X86
/// Transposes a 16 x 16 block of 32-bit elements held in r (row i in r[i]): afterwards r[q] holds
/// column q (element i of r[q] = the old r[i]'s element q).
__attribute__((target("avx512f"))) inline void Transpose16(__m512i r[16])
{
    __m512i t[16], u[16];
    for(int i = 0; i < 16; i += 2)
    {
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    // u[4g + c], lane L: rows 4g..4g+3 of column 4L + c.
    for(int g = 0; g < 16; g += 4)
    {
        u[g] = _mm512_unpacklo_epi64(t[g], t[g + 2]);
        u[g + 1] = _mm512_unpackhi_epi64(t[g], t[g + 2]);
        u[g + 2] = _mm512_unpacklo_epi64(t[g + 1], t[g + 3]);
        u[g + 3] = _mm512_unpackhi_epi64(t[g + 1], t[g + 3]);
    }
    for(int c = 0; c < 4; ++c)
    {
        const __m512i v0 = _mm512_shuffle_i32x4(u[c], u[4 + c], 0x88);
        const __m512i w0 = _mm512_shuffle_i32x4(u[c], u[4 + c], 0xDD);
        const __m512i v1 = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0x88);
        const __m512i w1 = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0xDD);
        r[c] = _mm512_shuffle_i32x4(v0, v1, 0x88);
        r[8 + c] = _mm512_shuffle_i32x4(v0, v1, 0xDD);
        r[4 + c] = _mm512_shuffle_i32x4(w0, w1, 0x88);
        r[12 + c] = _mm512_shuffle_i32x4(w0, w1, 0xDD);
    }
}

/// Pairs [p0, p0 + 16) of `n` rows (n <= 16; rows[i] points at row i's first element) into
/// out[(p - p0) * W + i] for i < n (a 16 x 16 transpose of 32-bit pairs; lanes past n untouched).
template <long W>
__attribute__((target("avx512f"))) void PackSlab16(const uint16_t* const* rows, long n, long p0, uint32_t* out)
{
    __m512i r[16];
    for(long i = 0; i < 16; ++i)
        r[i] = i < n ? _mm512_loadu_si512(rows[i] + 2 * p0) : _mm512_setzero_si512();
    Transpose16(r);
    const __mmask16 mask = n >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << n) - 1);
    for(long q = 0; q < 16; ++q)
        _mm512_mask_storeu_epi32(out + q * W, mask, r[q]);
}
#endif

/// Panels of W rows of a row-major m x k matrix whose k runs along the row (row stride ld): pair
/// p of row i0 + i (elements 2p, 2p + 1, one 32-bit load) at panel[p * W + i], 0 past k and past m.
/// Serves A (W = MR) and B^T (W = NR). Whole blocks of 16 pairs go through 16 x 16 transposes of
/// slabs of up to 16 rows (the callers run only where the CPU has AVX-512: Available()).
template <long W>
void PackRows(const BFloat16* src, long ld, long m, long k, uint32_t* out)
{
    const long kp = Pairs(k), full = k / 2;
    for(long i0 = 0; i0 < m; i0 += W)
    {
        uint32_t* panel = out + (i0 / W) * W * kp;
        const long w = std::min(W, m - i0);
        long vec = 0;   // pairs done by the transposes
#if MIOPEN_CY_BF16_X86
        vec = full / 16 * 16;
        for(long s = 0; s < w; s += 16)
        {
            const uint16_t* rows[16];
            const long n = std::min<long>(16, w - s);
            for(long i = 0; i < n; ++i)
                rows[i] = reinterpret_cast<const uint16_t*>(src + (i0 + s + i) * ld);
            for(long p0 = 0; p0 < vec; p0 += 16)
                PackSlab16<W>(rows, n, p0, panel + p0 * W + s);
        }
#endif
        for(long i = 0; i < W; ++i)
        {
            if(i >= w)
            {
                for(long p = 0; p < kp; ++p)
                    panel[p * W + i] = 0;
                continue;
            }
            const uint16_t* row = reinterpret_cast<const uint16_t*>(src + (i0 + i) * ld);
            for(long p = vec; p < full; ++p)
                std::memcpy(panel + p * W + i, row + 2 * p, sizeof(uint32_t));
            if(k % 2)
                panel[full * W + i] = Pair(row[k - 1], 0);
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

void PackA(const BFloat16* a, long lda, long m, long k, uint32_t* ap) { PackRows<MR>(a, lda, m, k, ap); }

void PackAT(const BFloat16* at, long ldat, long m, long k, uint32_t* ap)
{
    PackPairedRows<MR>(at, ldat, k, m, ap);
}

void PackB(const BFloat16* b, long ldb, long k, long n, uint32_t* bp)
{
    PackPairedRows<NR>(b, ldb, k, n, bp);
}

void PackBT(const BFloat16* bt, long ldbt, long k, long n, uint32_t* bp) { PackRows<NR>(bt, ldbt, n, k, bp); }

void Gemm(long m, long n, long k, const uint32_t* ap, const uint32_t* bp, float* c, long ldc, bool accumulate)
{
#if MIOPEN_CY_BF16_X86
    const long kp = Pairs(k);
    // B panel outer, then blocks of KC pairs: a B panel's block (KC x NR pairs, 16 KB) stays in
    // L1 while every A panel's block streams past it from L2; the C tile accumulates over the
    // blocks.
    for(long j0 = 0; j0 < n; j0 += NR)
    {
        const uint32_t* bpanel = bp + (j0 / NR) * NR * kp;
        const long cols = std::min(NR, n - j0);
        for(long p0 = 0; p0 < kp; p0 += KC)
        {
            const long kc = std::min(KC, kp - p0);
            const bool acc = accumulate || p0 > 0;
            for(long i0 = 0; i0 < m; i0 += MR)
            {
                const uint32_t* apanel = ap + (i0 / MR) * MR * kp + p0 * MR;
                float* ct = c + i0 * ldc + j0;
                PickKernel(cols > 16, std::min(MR, m - i0))(kc, apanel, bpanel + p0 * NR, ct, ldc, cols, acc);
            }
        }
    }
#else
    (void)m, (void)n, (void)k, (void)ap, (void)bp, (void)c, (void)ldc, (void)accumulate;
#endif
}

} // namespace miopen::cpu::bf16gemm
