// fp32 lanes rounded to bf16 in vector registers: round to nearest even on the low 16 bits, NaN
// quieted (the scalar FloatToBFloat16, core/storage.hpp), the result in the low half of each
// 32-bit lane; 8 lanes (AVX2) and 16 lanes (AVX-512F). One copy for the bulk conversions
// (cpu/storage_convert.cpp) and the fused epilogue's 16-bit rows (cpu/fusion_epilogue.cpp); call
// them only from functions compiled for that ISA. x86-64 only.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

namespace miopen::cpu {

__attribute__((target("avx2"))) inline __m256i RoundBf16Avx2(__m256i u)
{
    const __m256i lsb     = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), lsb), 16);
    const __m256i quiet   = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
    const __m256i abs     = _mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff));
    const __m256i is_nan  = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f800000));
    return _mm256_blendv_epi8(rounded, quiet, is_nan);
}

__attribute__((target("avx512f"))) inline __m512i RoundBf16Avx512(__m512i u)
{
    const __m512i lsb     = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), lsb), 16);
    const __m512i quiet   = _mm512_or_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
    const __m512i abs     = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
    const __mmask16 nan   = _mm512_cmpgt_epi32_mask(abs, _mm512_set1_epi32(0x7f800000));
    return _mm512_mask_blend_epi32(nan, rounded, quiet);
}

} // namespace miopen::cpu
#endif
