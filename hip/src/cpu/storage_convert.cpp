// Bulk fp16/bf16 <-> fp32 conversions (cpu/storage_convert.hpp). Each direction has a portable
// loop (the scalar definitions of core/storage.hpp) and x86 variants compiled with their own
// target attribute, so a library built for a baseline x86-64 still uses F16C and AVX-512 where
// the CPU has them. The variant is chosen once per process from the CPU, capped by
// MIOPEN_CY_DEBUG_CPU_ISA (as the blocked convolution kernels are: cpu/conv/direct_blocked.cpp).
#include "cpu/storage_convert.hpp"
#include "cpu/bf16_round_simd.hpp"
#include "cpu/conv/direct_blocked.hpp"

#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#define MIOPEN_CY_X86 1
#else
#define MIOPEN_CY_X86 0
#endif

namespace miopen::cpu {
namespace {

enum class Path
{
    Portable,
    Avx2,       // F16C for fp16, AVX2 integers for bf16
    Avx512,     // F16C/AVX-512F for fp16, AVX-512F integers for bf16
    Avx512Bf16, // AVX-512 BF16 for fp32 -> bf16
};

Path Choose()
{
#if MIOPEN_CY_X86
    const dblk::Isa cap = dblk::BestIsa(); // the CPU's best, capped by MIOPEN_CY_DEBUG_CPU_ISA
    if(cap == dblk::Isa::None || !__builtin_cpu_supports("f16c"))
        return Path::Portable;
    if(cap == dblk::Isa::Avx2)
        return Path::Avx2;
    if(__builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
        return Path::Avx512Bf16;
    return __builtin_cpu_supports("avx512bw") ? Path::Avx512 : Path::Avx2;
#else
    return Path::Portable;
#endif
}

Path Chosen()
{
    static const Path path = Choose();
    return path;
}

// ---- portable ------------------------------------------------------------------------------

template <class T>
void ToFloatPortable(const T* in, float* out, size_t n)
{
    for(size_t i = 0; i < n; ++i)
        out[i] = ToFloat(in[i]);
}

void FromFloatPortable(const float* in, Half* out, size_t n)
{
    for(size_t i = 0; i < n; ++i)
        out[i] = FloatToHalf(in[i]);
}

void FromFloatPortable(const float* in, BFloat16* out, size_t n)
{
#pragma omp simd
    for(size_t i = 0; i < n; ++i)
        out[i] = FloatToBFloat16(in[i]);
}

#if MIOPEN_CY_X86

// ---- AVX2 + F16C: the inline blocks of storage_convert.hpp, then the scalar tail -----------------
// (The Avx2 path is chosen only where the CPU has F16C too, so bf16 may use the same target.)

template <class T>
MIOPEN_CY_REGISTER_TARGET void ToFloatAvx2(const T* in, float* out, size_t n)
{
    size_t i = 0;
    for(; i + 8 <= n; i += 8)
        LoadBlock<8>(in + i, out + i);
    for(; i < n; ++i)
        out[i] = ToFloat(in[i]);
}

template <class T>
MIOPEN_CY_REGISTER_TARGET void FromFloatAvx2(const float* in, T* out, size_t n)
{
    constexpr size_t kGroup = std::is_same_v<T, Half> ? 8 : 16; // StoreBlock's unit for T
    size_t i = 0;
    for(; i + kGroup <= n; i += kGroup)
        StoreBlock<kGroup>(in + i, out + i);
    for(; i < n; ++i)
        out[i] = FloatTo<T>(in[i]);
}

__attribute__((target("avx512f"))) void HalfToFloatAvx512(const Half* in, float* out, size_t n)
{
    size_t i = 0;
    for(; i + 16 <= n; i += 16)
        _mm512_storeu_ps(out + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i))));
    for(; i < n; ++i)
        out[i] = ToFloat(in[i]);
}

__attribute__((target("avx512f"))) void FloatToHalfAvx512(const float* in, Half* out, size_t n)
{
    size_t i = 0;
    for(; i + 16 <= n; i += 16)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                            _mm512_cvtps_ph(_mm512_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    for(; i < n; ++i)
        out[i] = FloatToHalf(in[i]);
}

// ---- bf16: integer rounding (AVX-512F) and AVX-512 BF16 ---------------------------------------

__attribute__((target("avx512f,avx512bw"))) void BFloat16ToFloatAvx512(const BFloat16* in, float* out, size_t n)
{
    size_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        const __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i)));
        _mm512_storeu_si512(out + i, _mm512_slli_epi32(w, 16));
    }
    for(; i < n; ++i)
        out[i] = ToFloat(in[i]);
}

__attribute__((target("avx512f,avx512bw"))) void FloatToBFloat16Avx512(const float* in, BFloat16* out, size_t n)
{
    size_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        const __m512i r = RoundBf16Avx512(_mm512_loadu_si512(in + i));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi32_epi16(r));
    }
    for(; i < n; ++i)
        out[i] = FloatToBFloat16(in[i]);
}

/// vcvtneps2bf16 rounds to nearest even and quiets NaNs as FloatToBFloat16 does, but treats
/// denormal inputs as zero: lanes whose exponent field is 0 and mantissa not are redone in
/// integers.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))) void FloatToBFloat16Bf16(const float* in, BFloat16* out, size_t n)
{
    size_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        const __m512 v     = _mm512_loadu_ps(in + i);
        __m256i r          = (__m256i)_mm512_cvtneps_pbh(v);
        const __m512i u    = _mm512_castps_si512(v);
        const __m512i abs  = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
        const __mmask16 dn = _mm512_cmplt_epi32_mask(abs, _mm512_set1_epi32(0x00800000)) &
                             _mm512_cmpneq_epi32_mask(abs, _mm512_setzero_si512());
        if(dn != 0)
            r = _mm256_mask_blend_epi16(dn, r, _mm512_cvtepi32_epi16(RoundBf16Avx512(u)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), r);
    }
    for(; i < n; ++i)
        out[i] = FloatToBFloat16(in[i]);
}

#endif // MIOPEN_CY_X86

} // namespace

void ConvertToFloat(const Half* in, float* out, size_t n)
{
#if MIOPEN_CY_X86
    switch(Chosen())
    {
    case Path::Avx512:
    case Path::Avx512Bf16: return HalfToFloatAvx512(in, out, n);
    case Path::Avx2: return ToFloatAvx2(in, out, n);
    case Path::Portable: break;
    }
#endif
    ToFloatPortable(in, out, n);
}

void ConvertToFloat(const BFloat16* in, float* out, size_t n)
{
#if MIOPEN_CY_X86
    switch(Chosen())
    {
    case Path::Avx512:
    case Path::Avx512Bf16: return BFloat16ToFloatAvx512(in, out, n);
    case Path::Avx2: return ToFloatAvx2(in, out, n);
    case Path::Portable: break;
    }
#endif
    ToFloatPortable(in, out, n);
}

void ConvertFromFloat(const float* in, Half* out, size_t n)
{
#if MIOPEN_CY_X86
    switch(Chosen())
    {
    case Path::Avx512:
    case Path::Avx512Bf16: return FloatToHalfAvx512(in, out, n);
    case Path::Avx2: return FromFloatAvx2(in, out, n);
    case Path::Portable: break;
    }
#endif
    FromFloatPortable(in, out, n);
}

void ConvertFromFloat(const float* in, BFloat16* out, size_t n)
{
#if MIOPEN_CY_X86
    switch(Chosen())
    {
    case Path::Avx512Bf16: return FloatToBFloat16Bf16(in, out, n);
    case Path::Avx512: return FloatToBFloat16Avx512(in, out, n);
    case Path::Avx2: return FromFloatAvx2(in, out, n);
    case Path::Portable: break;
    }
#endif
    FromFloatPortable(in, out, n);
}

bool ConvertsInRegisters()
{
    return MIOPEN_CY_CONVERT_IN_REGISTERS && Chosen() != Path::Portable;
}

const char* ConvertIsaName(bool half)
{
    switch(Chosen())
    {
    case Path::Avx512Bf16: return half ? "avx512f+f16c" : "avx512bf16";
    case Path::Avx512: return half ? "avx512f+f16c" : "avx512f";
    case Path::Avx2: return half ? "f16c" : "avx2";
    case Path::Portable: break;
    }
    return "portable";
}

} // namespace miopen::cpu
