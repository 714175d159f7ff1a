// The blocked direct-convolution kernels for AVX-512F (16 floats a vector), compiled with
// -mavx512f whatever the rest of the library is compiled for (hip/CMakeLists.txt), and called
// only where the CPU has AVX-512F (direct_blocked.cpp).
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define DBLK_V 16
#define DBLK_VEC __m512
#define DBLK_ZERO() _mm512_setzero_ps()
#define DBLK_LOAD(p) _mm512_loadu_ps(p)
#define DBLK_BCAST(p) _mm512_set1_ps(*(p))
#define DBLK_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define DBLK_STORE(p, v) _mm512_storeu_ps(p, v)
#define DBLK_ENTRY RunAvx512
#define DBLK_TILES DBLK_TILES_AVX512
#define DBLK_WRW_ENTRY RunWrwAvx512
#define DBLK_WRW_TILES DBLK_WRW_TILES_AVX512
#define DBLK_WRWPOS_ENTRY RunWrwPosAvx512
#define DBLK_WRWPOS_TILES DBLK_WRWPOS_TILES_AVX512
#define DBLK_PIN(v) __asm__("" : "+v"(v))
#define DBLK_FLAT_CCH (1L << 30)   // the flat kernel's input channels a chunk (all: as measured before)
#define DBLK_WCHUNK_BYTES (1L << 40)   // the direct kernel's weights a chunk of channel blocks (all: as measured before)
#define DBLK_FLAT_UNROLL 1
#define DBLK_HSUM(p) _mm512_reduce_add_ps(_mm512_loadu_ps(p))
#include "cpu/conv/direct_blocked_kernel.hpp"

bool miopen::cpu::dblk::PackWGatherAvx512(const float* w, long wk, long wc, float* dst, long vc, long kt)
{
    const __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                           _mm512_set1_epi32(static_cast<int>(wk)));
    for(long k0 = 0; k0 < kt; k0 += 16)
    {
        const float* src = w + k0 * wk;
        for(long c = 0; c < vc; ++c)
            // The masked form: the plain one trips GCC 12's -Wmaybe-uninitialized inside its header.
            _mm512_storeu_ps(dst + c * kt + k0,
                             _mm512_mask_i32gather_ps(_mm512_setzero_ps(), 0xFFFF, idx, src + c * wc, 4));
    }
    return true;
}

bool miopen::cpu::dblk::PackWTransposeAvx512(const float* w, long wk, long ncols, const long* map, float* dst, long kt)
{
    for(long k0 = 0; k0 < kt; k0 += 16)
        for(long j0 = 0; j0 < ncols; j0 += 16)
        {
            // A partial last block: masked loads (nothing past the columns is read) and stores.
            const long nj = ncols - j0 < 16 ? ncols - j0 : 16;
            const __mmask16 mask = static_cast<__mmask16>((1u << nj) - 1u);
            __m512 r[16], t[16];
            for(int i = 0; i < 16; ++i)
                r[i] = _mm512_maskz_loadu_ps(mask, w + (k0 + i) * wk + j0);
            for(int i = 0; i < 8; ++i)
            {
                t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
                t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
            }
            // r[4i + m], 128-bit lane q: rows 4i..4i+3 of column 4q + m.
            for(int i = 0; i < 4; ++i)
            {
                const __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 2]);
                const __m512d c = _mm512_castps_pd(t[4 * i + 1]), d = _mm512_castps_pd(t[4 * i + 3]);
                r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
                r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
                r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
                r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
            }
            for(int m = 0; m < 4; ++m)
            {
                const __m512 xlo = _mm512_shuffle_f32x4(r[m], r[4 + m], 0x44);
                const __m512 xhi = _mm512_shuffle_f32x4(r[m], r[4 + m], 0xEE);
                const __m512 ylo = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x44);
                const __m512 yhi = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xEE);
                const __m512 col[4] = {_mm512_shuffle_f32x4(xlo, ylo, 0x88), _mm512_shuffle_f32x4(xlo, ylo, 0xDD),
                                       _mm512_shuffle_f32x4(xhi, yhi, 0x88), _mm512_shuffle_f32x4(xhi, yhi, 0xDD)};
                for(int q = 0; q < 4; ++q)
                    if(4 * q + m < nj)
                        _mm512_storeu_ps(dst + map[j0 + 4 * q + m] + k0, col[q]);
            }
        }
    return true;
}
#else
#include "cpu/conv/direct_blocked_args.hpp"
bool miopen::cpu::dblk::RunAvx512(const KernelArgs&) { return false; }   // not an x86 CPU
bool miopen::cpu::dblk::RunWrwAvx512(const WrwArgs&) { return false; }
bool miopen::cpu::dblk::RunWrwPosAvx512(const WrwPosArgs&) { return false; }
bool miopen::cpu::dblk::PackWGatherAvx512(const float*, long, long, float*, long, long) { return false; }
bool miopen::cpu::dblk::PackWTransposeAvx512(const float*, long, long, const long*, float*, long) { return false; }
#endif
