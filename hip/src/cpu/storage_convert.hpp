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

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace miopen::cpu {

void ConvertToFloat(const Half* in, float* out, size_t n);
void ConvertToFloat(const BFloat16* in, float* out, size_t n);
void ConvertFromFloat(const float* in, Half* out, size_t n);
void ConvertFromFloat(const float* in, BFloat16* out, size_t n);

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

} // namespace miopen::cpu
