// The blocked direct-convolution kernels for AVX-512F (16 floats a vector), compiled with
// -mavx512f whatever the rest of the library is compiled for (hip/CMakeLists.txt), and called
// only where the CPU has AVX-512F (conv_direct_blocked.cpp).
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
#include "cpu/conv_direct_blocked_kernel.hpp"
#else
#include "cpu/conv_direct_blocked_args.hpp"
bool miopen::cpu::dblk::RunAvx512(const KernelArgs&) { return false; }   // not an x86 CPU
bool miopen::cpu::dblk::RunWrwAvx512(const WrwArgs&) { return false; }
#endif
