// Bulk conversions between the storage types and fp32 for the CPU kernels (the scalar
// definitions are in core/storage.hpp; these give the same bits). Chosen at run time by what the
// CPU has, whatever the library was compiled for: F16C (vcvtph2ps / vcvtps2ph) for fp16, AVX-512
// BF16 (vcvtneps2bf16) for bf16 with the denormal lanes redone in integers (the instruction
// flushes them to zero), AVX-512F or AVX2 integer rounding otherwise, and a portable loop where
// the CPU has none of these (or MIOPEN_CY_DEBUG_CPU_ISA=none).
//
// The kernels work on rows of fp32: Load gives a row's values as fp32 (the input itself when T is
// float, else converted into `tmp`), Store rounds a row of fp32 once into T.
#pragma once

#include "core/storage.hpp"
#include "cpu/bf16_round_simd.hpp"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace miopen::cpu {

void ConvertToFloat(const Half* in, float* out, size_t n);
void ConvertToFloat(const BFloat16* in, float* out, size_t n);
void ConvertFromFloat(const float* in, Half* out, size_t n);
void ConvertFromFloat(const float* in, BFloat16* out, size_t n);

/// Whether LoadBlock / StoreBlock may run: the CPU has AVX2 and F16C and MIOPEN_CY_DEBUG_CPU_ISA
/// does not send the conversions to the portable path. Their bits are ConvertToFloat's and
/// ConvertFromFloat's.
bool ConvertsInRegisters();

/// Which conversion paths this CPU uses ("f16c", "avx512bf16", ...), for show_config and tests.
const char* ConvertIsaName(bool half);

/// The n values at `in` as fp32: `in` itself for float, else converted into tmp (n floats).
template <class T>
inline const float* Load(const T* in, float* tmp, size_t n)
{
    if constexpr(std::is_same_v<T, float>)
    {
        (void)tmp;
        (void)n;
        return in;
    }
    else
    {
        ConvertToFloat(in, tmp, n);
        return tmp;
    }
}

/// Rounds the n fp32 values at `in` once into `out` (a copy for float; in == out allowed then).
template <class T>
inline void Store(const float* in, T* out, size_t n)
{
    if constexpr(std::is_same_v<T, float>)
    {
        if(in != out)
            std::memcpy(out, in, n * sizeof(float));
    }
    else
        ConvertFromFloat(in, out, n);
}

// The inline conversions are compiled for AVX2 + F16C whatever the build's target (a function
// attribute, as the bulk paths have), so that the portable wheels have them too; they run only
// where ConvertsInRegisters(), which asks the CPU. Their callers carry the same attribute.
#if defined(__x86_64__) && defined(__GNUC__)
#define MIOPEN_CY_CONVERT_IN_REGISTERS 1
#define MIOPEN_CY_REGISTER_TARGET __attribute__((target("avx2,f16c")))
#else
#define MIOPEN_CY_CONVERT_IN_REGISTERS 0
#define MIOPEN_CY_REGISTER_TARGET
#endif

/// Whether this build has LoadBlock / StoreBlock for T (float needs none).
template <class T>
constexpr bool kHasBlockConvert = MIOPEN_CY_CONVERT_IN_REGISTERS && !std::is_same_v<T, float>;

#if MIOPEN_CY_CONVERT_IN_REGISTERS
/// The M (a multiple of 8) 16-bit elements at `in` as fp32, converted inline, so that the
/// compiler keeps a small block in registers between the conversion and the op; the bulk AVX2
/// path (storage_convert.cpp) runs on these too. Only where ConvertsInRegisters().
template <size_t M, class T>
MIOPEN_CY_REGISTER_TARGET inline void LoadBlock(const T* in, float* out)
{
    static_assert(M % 8 == 0, "LoadBlock: whole groups of 8");
    for(size_t i = 0; i < M; i += 8)
    {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        if constexpr(std::is_same_v<T, Half>)
            _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
        else
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                                _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    }
}

/// Rounds the M fp32 values at `in` once into `out`, inline (LoadBlock's twin; M a multiple of
/// 8 for fp16, of 16 for bf16, which packs two vectors at a time).
template <size_t M, class T>
MIOPEN_CY_REGISTER_TARGET inline void StoreBlock(const float* in, T* out)
{
    static_assert(M % (std::is_same_v<T, Half> ? 8 : 16) == 0, "StoreBlock: whole groups");
    if constexpr(std::is_same_v<T, Half>)
    {
        for(size_t i = 0; i < M; i += 8)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                             _mm256_cvtps_ph(_mm256_loadu_ps(in + i),
                                             _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    else
    {
        for(size_t i = 0; i < M; i += 16)
        {
            const __m256i a =
                RoundBf16Avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i)));
            const __m256i b =
                RoundBf16Avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + 8)));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                                _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8));
        }
    }
}
#endif

} // namespace miopen::cpu
