// The storage types in device code, for both vendors: loading fp16/bf16 (or fp32) as fp32 and
// rounding fp32 once to the storage type, one element or four at a time. The types are the
// host's (core/storage.hpp: Half and BFloat16 hold the 16 stored bits), so a launcher passes its
// pointers straight through. Conversions give the host's bits: fp16 by the hardware's
// round-to-nearest-even conversion (CUDA's __float2half_rn, clang's _Float16 on AMD), bf16 by
// the same integer rounding as the CPU (a NaN stays a NaN; its payload may differ by vendor).
//
//   template <class T> __global__ void K(const T* x, T* y) {
//       const float v = LoadFloat(x + i);  StoreFloat(y + i, f(v));
//   }
#pragma once

#include "core/storage.hpp"
#include "gpu/compat.hpp"

#include <cstdint>

#if defined(MIOPEN_CY_HAVE_CUDA)
#include <cuda_fp16.h>
#endif

namespace miopen::gpu {

// ---- one element ----------------------------------------------------------------------------

__device__ inline float DeviceToFloat(float v) { return v; }
__device__ inline float DeviceToFloat(BFloat16 v) { return __uint_as_float(uint32_t{v.bits} << 16); }
__device__ inline float DeviceToFloat(Half v)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    return __half2float(__ushort_as_half(v.bits));
#else
    _Float16 h;
    __builtin_memcpy(&h, &v.bits, 2);
    return static_cast<float>(h);
#endif
}

template <class T>
__device__ inline T DeviceFloatTo(float f);

template <>
__device__ inline float DeviceFloatTo<float>(float f)
{
    return f;
}

template <>
__device__ inline BFloat16 DeviceFloatTo<BFloat16>(float f)
{
    const uint32_t u = __float_as_uint(f);
    if((u & 0x7fffffffu) > 0x7f800000u)
        return {static_cast<uint16_t>((u >> 16) | 0x40u)};
    return {static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16)};
}

template <>
__device__ inline Half DeviceFloatTo<Half>(float f)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    return {__half_as_ushort(__float2half_rn(f))};
#else
    const _Float16 h = static_cast<_Float16>(f);
    Half r;
    __builtin_memcpy(&r.bits, &h, 2);
    return r;
#endif
}

template <class T>
__device__ inline float LoadFloat(const T* p)
{
    return DeviceToFloat(*p);
}

template <class T>
__device__ inline void StoreFloat(T* p, float v)
{
    *p = DeviceFloatTo<T>(v);
}

// ---- four consecutive elements (p aligned to 4 elements) ------------------------------------

/// The storage of four elements: a float4 for fp32, 8 bytes for the 16-bit types.
template <class T>
struct Quad
{
    using type = uint2;
};
template <>
struct Quad<float>
{
    using type = float4;
};

__device__ inline float4 QuadToFloat4(float4 q) { return q; }

template <class T>
__device__ inline float4 QuadToFloat4(uint2 q)
{
    const T e[4] = {{static_cast<uint16_t>(q.x & 0xffffu)}, {static_cast<uint16_t>(q.x >> 16)},
                    {static_cast<uint16_t>(q.y & 0xffffu)}, {static_cast<uint16_t>(q.y >> 16)}};
    return make_float4(DeviceToFloat(e[0]), DeviceToFloat(e[1]), DeviceToFloat(e[2]),
                       DeviceToFloat(e[3]));
}

/// Four elements at p (aligned to 4 elements) as fp32.
template <class T>
__device__ inline float4 Load4(const T* p)
{
    if constexpr(sizeof(T) == 4)
        return *reinterpret_cast<const float4*>(p);
    else
        return QuadToFloat4<T>(*reinterpret_cast<const uint2*>(p));
}

/// Rounds four fp32 values into the four elements at p (aligned to 4 elements).
template <class T>
__device__ inline void Store4(T* p, float4 v)
{
    if constexpr(sizeof(T) == 4)
        *reinterpret_cast<float4*>(p) = v;
    else
    {
        const uint32_t a = DeviceFloatTo<T>(v.x).bits | (uint32_t{DeviceFloatTo<T>(v.y).bits} << 16);
        const uint32_t b = DeviceFloatTo<T>(v.z).bits | (uint32_t{DeviceFloatTo<T>(v.w).bits} << 16);
        *reinterpret_cast<uint2*>(p) = make_uint2(a, b);
    }
}

} // namespace miopen::gpu
