// The storage types of the compute calls and the one dispatch from a descriptor's data type to
// them. Half and BFloat16 are the 16 bits as stored (no arithmetic on them): kernels load them
// into fp32, compute in fp32, and round once to the storage type at the end (FloatTo). The scalar
// conversions here are exact bit-level definitions shared by host code and the CPU kernels; the
// CPU's bulk conversions (F16C, AVX-512 BF16) are in cpu/storage_convert.hpp and the GPU's in
// kernels/common/storage_types.hpp, and all three give the same bits:
//   fp16 -> fp32 and bf16 -> fp32 are exact; fp32 -> fp16 and fp32 -> bf16 round to nearest even,
//   keep denormals, turn overflow into ±Inf, and keep NaN a NaN (quieted, sign kept).
//
//   DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
//       using T = typename decltype(tag)::type;      // float, Half or BFloat16
//       cpu::Op<T>(..., static_cast<const T*>(x), ...);
//   });
#pragma once

#include "core/errors.hpp"
#include "core/tensor.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace miopen {

/// IEEE binary16, as stored.
struct Half
{
    uint16_t bits;
};
/// bfloat16 (the upper half of an fp32), as stored.
struct BFloat16
{
    uint16_t bits;
};

template <class T>
struct TypeTag
{
    using type = T;
};

template <class T>
constexpr miopenDataType_t kDataTypeOf = std::is_same_v<T, float>  ? miopenFloat
                                         : std::is_same_v<T, Half> ? miopenHalf
                                         : std::is_same_v<T, BFloat16> ? miopenBFloat16
                                         : std::is_same_v<T, int8_t>   ? miopenInt8
                                         : std::is_same_v<T, int32_t>  ? miopenInt32
                                                                       : miopenDouble;

// ---- scalar conversions (the definitions; bulk paths must give the same bits) ----------------

inline uint32_t FloatBits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

inline float BitsFloat(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline float ToFloat(float v) { return v; }
inline float ToFloat(BFloat16 v) { return BitsFloat(uint32_t{v.bits} << 16); }
inline float ToFloat(Half v)
{
    const uint32_t sign = uint32_t{v.bits & 0x8000u} << 16;
    const uint32_t exp  = (v.bits >> 10) & 0x1fu;
    uint32_t man        = v.bits & 0x3ffu;
    if(exp == 0x1f) // Inf, or NaN (quieted, payload kept, as F16C does)
        return BitsFloat(sign | 0x7f800000u | (man << 13) | (man != 0 ? 0x400000u : 0u));
    if(exp != 0)
        return BitsFloat(sign | ((exp + 112) << 23) | (man << 13));
    if(man == 0)
        return BitsFloat(sign);
    // denormal: normalise
    int e = 113;
    while((man & 0x400u) == 0)
    {
        man <<= 1;
        --e;
    }
    return BitsFloat(sign | (static_cast<uint32_t>(e) << 23) | ((man & 0x3ffu) << 13));
}

inline BFloat16 FloatToBFloat16(float f)
{
    const uint32_t u = FloatBits(f);
    if((u & 0x7fffffffu) > 0x7f800000u) // NaN: quiet it, keep the sign and the top payload
        return {static_cast<uint16_t>((u >> 16) | 0x40u)};
    const uint32_t rounded = u + 0x7fffu + ((u >> 16) & 1u);
    return {static_cast<uint16_t>(rounded >> 16)};
}

inline Half FloatToHalf(float f)
{
    const uint32_t u    = FloatBits(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t a    = u & 0x7fffffffu;
    if(a > 0x7f800000u) // NaN
        return {static_cast<uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x3ffu))};
    if(a >= 0x477ff000u) // rounds to >= 65536 (and Inf)
        return {static_cast<uint16_t>(sign | 0x7c00u)};
    if(a >= 0x38800000u) // normal half: rebias and round to nearest even on the 13 dropped bits
    {
        const uint32_t r = a - (112u << 23);
        const uint32_t h = (r + 0xfffu + ((r >> 13) & 1u)) >> 13;
        return {static_cast<uint16_t>(sign | h)};
    }
    if(a < 0x33000000u) // below half the smallest denormal (2^-25): zero (2^-25 itself ties to 0)
        return {static_cast<uint16_t>(sign)};
    // denormal half: value = a_man * 2^(e-150); the result counts units of 2^-24
    const uint32_t e     = a >> 23;
    const uint32_t man   = (a & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - e; // 14 (e = 112) .. 24 (e = 102)
    const uint32_t q     = man >> shift;
    const uint32_t rem   = man & ((1u << shift) - 1u);
    const uint32_t half  = 1u << (shift - 1);
    const uint32_t h     = q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
    return {static_cast<uint16_t>(sign | h)};
}

/// The one rounding from fp32 to the storage type T.
template <class T>
inline T FloatTo(float f)
{
    if constexpr(std::is_same_v<T, float>)
        return f;
    else if constexpr(std::is_same_v<T, Half>)
        return FloatToHalf(f);
    else
    {
        static_assert(std::is_same_v<T, BFloat16>, "FloatTo: float, Half or BFloat16");
        return FloatToBFloat16(f);
    }
}

// ---- dispatch from a descriptor's data type -----------------------------------------------

/// Calls f(TypeTag<T>{}) with T the storage type of `type` among fp32, fp16 and bf16 (the types
/// of MIOpen's floating-point compute calls); any other type is a BadParm naming `name`.
template <class F>
decltype(auto) DispatchFloating(miopenDataType_t type, const char* name, F&& f)
{
    switch(type)
    {
    case miopenFloat: return f(TypeTag<float>{});
    case miopenHalf: return f(TypeTag<Half>{});
    case miopenBFloat16: return f(TypeTag<BFloat16>{});
    default: break;
    }
    ThrowBadParm(name, " has data type ", DataTypeName(type),
                 "; this call takes miopenFloat, miopenHalf or miopenBFloat16");
}

} // namespace miopen
