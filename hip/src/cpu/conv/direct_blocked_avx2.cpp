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
#define DBLK_FLAT_UNROLL 4
#define DBLK_HSUM(p) DblkHsum8(p)
#include "cpu/conv/direct_blocked_kernel.hpp"
#else
#include "cpu/conv/direct_blocked_args.hpp"
bool miopen::cpu::dblk::RunAvx2(const KernelArgs&) { return false; }   // not an x86 CPU
bool miopen::cpu::dblk::RunWrwAvx2(const WrwArgs&) { return false; }
bool miopen::cpu::dblk::RunWrwPosAvx2(const WrwPosArgs&) { return false; }
#endif
