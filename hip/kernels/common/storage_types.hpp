// The storage types in device code, for both vendors: loading fp16/bf16 (or fp32) as fp32 and
// rounding fp32 once to the storage type, one element, two or four at a time. The types are the
// host's (core/storage.hpp: Half and BFloat16 hold the 16 stored bits), so a launcher passes its
// pointers straight through. Conversions give the host's bits: fp16 by the hardware's
// round-to-nearest-even conversion (CUDA's __float2half_rn, clang's _Float16 on AMD), bf16 by
// the hardware's round-to-nearest-even conversion where there is one (NVIDIA sm_80 and later:
// cvt.rn.bf16.f32, one instruction) and elsewhere by the same integer rounding as the CPU; both
// give the CPU's bits for every number, denormals included (a NaN stays a NaN; its payload and
// sign may differ by vendor). Pairs round through the two-wide conversions where the hardware
// has them (cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 on NVIDIA sm_80+: one instruction for two
// elements instead of the integer rounding's eight or so for one).
//
//   template <class T> __global__ void K(const T* x, T* y) {
//       const float v = LoadFloat(x + i);  StoreFloat(y + i, f(v));
//   }
#pragma once

#include "core/storage.hpp"
#include "gpu/compat.hpp"

#include <cstdint>
#include <type_traits>

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
#if defined(MIOPEN_CY_HAVE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return {static_cast<uint16_t>(h)};
#else
    const uint32_t u = __float_as_uint(f);
    if((u & 0x7fffffffu) > 0x7f800000u)
        return {static_cast<uint16_t>((u >> 16) | 0x40u)};
    return {static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16)};
#endif
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

/// a and b rounded into two elements of T, a in the low 16 bits: the bits of two
/// DeviceFloatTo<T> for every number (a NaN stays a NaN), through one two-wide conversion where
/// the hardware has it.
template <class T>
__device__ inline uint32_t Pack2(float a, float b)
{
#if defined(MIOPEN_CY_HAVE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    uint32_t r;
    // cvt.rn.{bf16x2,f16x2}.f32 d, hi, lo
    if constexpr(std::is_same_v<T, BFloat16>)
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(a));
    else
        asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(a));
    return r;
#else
    return uint32_t{DeviceFloatTo<T>(a).bits} | (uint32_t{DeviceFloatTo<T>(b).bits} << 16);
#endif
}

// ---- two consecutive elements (p aligned to 2 elements) --------------------------------------

/// Two elements at p (aligned to 2 elements) as fp32: a float2 for fp32, 4 bytes of fp16 / bf16.
template <class T>
__device__ inline float2 Load2(const T* p)
{
    if constexpr(sizeof(T) == 4)
        return *reinterpret_cast<const float2*>(p);
    else
    {
        const uint32_t q = *reinterpret_cast<const uint32_t*>(p);
        return make_float2(DeviceToFloat(T{static_cast<uint16_t>(q & 0xffffu)}),
                           DeviceToFloat(T{static_cast<uint16_t>(q >> 16)}));
    }
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
        *reinterpret_cast<uint2*>(p) = make_uint2(Pack2<T>(v.x, v.y), Pack2<T>(v.z, v.w));
    }
}

// ---- W consecutive elements in 16-byte accesses (p aligned to 16 bytes) ----------------------
// The element-wise engine moves 16 bytes of its data type a thread per access: 4 fp32 or 8
// fp16/bf16 values (W = kVecOf<T>). An fp32 operand of a map over 16-bit data (batch-norm
// coefficients) moves W = 8 as two float4s.

/// Elements of T in one 16-byte access.
template <class T>
constexpr int kVecOf = static_cast<int>(16 / sizeof(T));

template <class T>
__device__ inline void Unpack8(const uint4& q, float* v)
{
    const uint32_t w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for(int j = 0; j < 4; ++j)
    {
        v[2 * j]     = DeviceToFloat(T{static_cast<uint16_t>(w[j] & 0xffffu)});
        v[2 * j + 1] = DeviceToFloat(T{static_cast<uint16_t>(w[j] >> 16)});
    }
}

/// The W elements at p (16-byte aligned; W a multiple of 16 / sizeof(T)) as fp32.
template <class T, int W>
__device__ inline void LoadVec(const T* p, float (&v)[W])
{
    if constexpr(sizeof(T) == 4)
    {
        static_assert(W % 4 == 0, "LoadVec<float>: whole float4s");
#pragma unroll
        for(int j = 0; j < W; j += 4)
        {
            const float4 q = reinterpret_cast<const float4*>(p)[j / 4];
            v[j]           = q.x;
            v[j + 1]       = q.y;
            v[j + 2]       = q.z;
            v[j + 3]       = q.w;
        }
    }
    else
    {
        static_assert(sizeof(T) == 2 && W % 8 == 0, "LoadVec: 16-bit, whole 16-byte groups");
#pragma unroll
        for(int j = 0; j < W; j += 8)
            Unpack8<T>(reinterpret_cast<const uint4*>(p)[j / 8], v + j);
    }
}

/// Rounds W fp32 values once into the W elements at p (16-byte aligned).
template <class T, int W>
__device__ inline void StoreVec(T* p, const float (&v)[W])
{
    if constexpr(sizeof(T) == 4)
    {
        static_assert(W % 4 == 0, "StoreVec<float>: whole float4s");
#pragma unroll
        for(int j = 0; j < W; j += 4)
            reinterpret_cast<float4*>(p)[j / 4] = make_float4(v[j], v[j + 1], v[j + 2], v[j + 3]);
    }
    else
    {
        static_assert(sizeof(T) == 2 && W % 8 == 0, "StoreVec: 16-bit, whole 16-byte groups");
#pragma unroll
        for(int j = 0; j < W; j += 8)
            reinterpret_cast<uint4*>(p)[j / 8] =
                make_uint4(Pack2<T>(v[j], v[j + 1]), Pack2<T>(v[j + 2], v[j + 3]),
                           Pack2<T>(v[j + 4], v[j + 5]), Pack2<T>(v[j + 6], v[j + 7]));
    }
}

} // namespace miopen::gpu
