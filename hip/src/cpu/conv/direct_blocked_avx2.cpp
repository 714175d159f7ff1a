// The blocked direct-convolution kernels for AVX2 + FMA (8 floats a vector), compiled with -mavx2
// -mfma whatever the rest of the library is compiled for (hip/CMakeLists.txt), and called only
// where the CPU has both (direct_blocked.cpp).
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define DBLK_V 8
#define DBLK_VEC __m256
#define DBLK_ZERO() _mm256_setzero_ps()
#define DBLK_LOAD(p) _mm256_loadu_ps(p)
#define DBLK_BCAST(p) _mm256_broadcast_ss(p)
#define DBLK_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define DBLK_STORE(p, v) _mm256_storeu_ps(p, v)
#define DBLK_ENTRY RunAvx2
#define DBLK_TILES DBLK_TILES_AVX2
#define DBLK_WRW_ENTRY RunWrwAvx2
#define DBLK_WRW_TILES DBLK_WRW_TILES_AVX2
#define DBLK_WRWPOS_ENTRY RunWrwPosAvx2
#define DBLK_WRWPOS_TILES DBLK_WRWPOS_TILES_AVX2
static inline float DblkHsum8(const float* p)
{
    const __m128 s = _mm_add_ps(_mm_loadu_ps(p), _mm_loadu_ps(p + 4));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}
#define DBLK_PIN(v) __asm__("" : "+x"(v))
#define DBLK_FLAT_CCH 64   // the flat kernel's input channels a chunk (measured: 64 ahead of 128-256)
#define DBLK_WCHUNK_BYTES 8192   // the direct kernel's weights a chunk of channel blocks
#define DBLK_FLAT_UNROLL 4
#define DBLK_HSUM(p) DblkHsum8(p)
#include "cpu/conv/direct_blocked_kernel.hpp"

bool miopen::cpu::dblk::PackWGatherAvx2(const float* w, long wk, long wc, float* dst, long vc, long kt)
{
    const __m256i idx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                           _mm256_set1_epi32(static_cast<int>(wk)));
    for(long k0 = 0; k0 < kt; k0 += 8)
    {
        const float* src = w + k0 * wk;
        for(long c = 0; c < vc; ++c)
            _mm256_storeu_ps(dst + c * kt + k0, _mm256_i32gather_ps(src + c * wc, idx, 4));
    }
    return true;
}

bool miopen::cpu::dblk::PackWTransposeAvx2(const float* w, long wk, long ncols, const long* map, float* dst, long kt)
{
    for(long k0 = 0; k0 < kt; k0 += 8)
        for(long j0 = 0; j0 < ncols; j0 += 8)
        {
            // A partial last block: masked loads (nothing past the columns is read) and stores.
            const long nj = ncols - j0 < 8 ? ncols - j0 : 8;
            const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(nj)),
                                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            __m256 r[8], t[8];
            for(int i = 0; i < 8; ++i)
                r[i] = _mm256_maskload_ps(w + (k0 + i) * wk + j0, mask);
            for(int i = 0; i < 4; ++i)
            {
                t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
                t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
            }
            // r[4i + m], 128-bit lane q: rows 4i..4i+3 of column 4q + m.
            for(int i = 0; i < 2; ++i)
            {
                r[4 * i] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
                r[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
                r[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
                r[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
            }
            for(int m = 0; m < 4; ++m)
            {
                const __m256 col[2] = {_mm256_permute2f128_ps(r[m], r[4 + m], 0x20),
                                       _mm256_permute2f128_ps(r[m], r[4 + m], 0x31)};
                for(int q = 0; q < 2; ++q)
                    if(4 * q + m < nj)
                        _mm256_storeu_ps(dst + map[j0 + 4 * q + m] + k0, col[q]);
            }
        }
    return true;
}
#else
#include "cpu/conv/direct_blocked_args.hpp"
bool miopen::cpu::dblk::RunAvx2(const KernelArgs&) { return false; }   // not an x86 CPU
bool miopen::cpu::dblk::RunWrwAvx2(const WrwArgs&) { return false; }
bool miopen::cpu::dblk::RunWrwPosAvx2(const WrwPosArgs&) { return false; }
bool miopen::cpu::dblk::PackWGatherAvx2(const float*, long, long, float*, long, long) { return false; }
bool miopen::cpu::dblk::PackWTransposeAvx2(const float*, long, long, const long*, float*, long) { return false; }
#endif
