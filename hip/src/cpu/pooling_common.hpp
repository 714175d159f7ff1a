// CPU kernels of pooling, the part both directions share: NCDHW with any strides (2-d pooling is depth 1).
//
// Forward, one output row (n, c, od, oh) per work item: a vertical pass folds the window's
// (kd, kh) input rows into one row buffer (unit stride, vectorised), then a horizontal pass
// reduces window_w neighbours of that buffer at stride s for each output. Outputs whose window is
// clipped by the padding take a checked path; the interior has no bounds checks, and the common
// (window, stride) pairs are compiled with constant trip counts so the compiler vectorises them.
// Max propagates NaN (NaN counts as larger than every number) and records the first maximum in
// window scan order (d, h, w).
//
// Backward, one dx row or band of rows per work item: every window that covers the row adds its
// share to a row accumulator (max: the dy of the windows whose index names the element), then dx
// is written once (dx = alpha * grad + beta * dx). Each dx element is owned by one item and gets
// its terms in output order, so the result depends neither on the thread count nor the layout.
//
// Storage types: the kernels compute in fp32. For fp16/bf16 the forward converts each window row
// once into a unit-stride fp32 row buffer (then runs the fp32 code on it) and the backward
// converts each dy row; outputs are rounded once to the storage type as a row is written
// (cpu/storage_convert.hpp). fp32 reads and writes the tensors in place as before.
#pragma once

#include "cpu/storage_convert.hpp"
#include "pooling/pooling_args.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <omp.h>

// Shared by cpu/pooling_forward.cpp and cpu/pooling_backward.cpp.
namespace miopen::cpu::pool {


/// [lo, hi) of output positions whose window lies inside [0, in) (no padding touched).
struct Range
{
    int64_t lo = 0, hi = 0;
};

inline Range Interior(int64_t in, int64_t out, int64_t window, int64_t stride, int64_t pad)
{
    Range r;
    r.lo = std::min<int64_t>((pad + stride - 1) / stride, out);
    r.hi = in + pad - window >= 0 ? std::min<int64_t>((in + pad - window) / stride + 1, out) : 0;
    r.hi = std::max(r.hi, r.lo);
    return r;
}

/// Number of in-bounds positions of window `o` along one dim.
inline int64_t Count(int64_t o, int64_t in, int64_t window, int64_t stride, int64_t pad)
{
    const int64_t start = o * stride - pad;
    return std::min(start + window, in) - std::max<int64_t>(start, 0);
}

/// NaN is larger than every number: the max propagates NaN, like PyTorch.
inline bool Greater(float a, float b) { return a > b || (a != a && b == b); }
inline float MaxNan(float m, float v) { return (v > m || v != v) ? v : m; }

inline void Store(float* y, float v, float alpha, float beta)
{
    *y = beta == 0.0f ? alpha * v : alpha * v + beta * *y;
}

template <class T>
inline void Store(T* y, float v, float alpha, float beta)
{
    *y = FloatTo<T>(beta == 0.0f ? alpha * v : alpha * v + beta * ToFloat(*y));
}

/// Writes n values value(i) blended into out[i * stride] (out = alpha * value + beta * out,
/// out not read when beta == 0); tmp holds n floats (used for the 16-bit types).
template <class T, class V>
void WriteBlended(T* out, int64_t stride, int64_t n, float alpha, float beta, float* tmp,
                  V&& value)
{
    if constexpr(std::is_same_v<T, float>)
    {
        (void)tmp;
        if(stride == 1 && beta == 0.0f)
        {
#pragma omp simd
            for(int64_t i = 0; i < n; ++i)
                out[i] = alpha * value(i);
        }
        else
        {
            for(int64_t i = 0; i < n; ++i)
                Store(out + i * stride, value(i), alpha, beta);
        }
    }
    else
    {
        if(stride != 1)
        {
            for(int64_t i = 0; i < n; ++i)
                Store(out + i * stride, value(i), alpha, beta);
            return;
        }
        if(beta == 0.0f)
        {
#pragma omp simd
            for(int64_t i = 0; i < n; ++i)
                tmp[i] = alpha * value(i);
        }
        else
        {
            ConvertToFloat(out, tmp, static_cast<size_t>(n));
            for(int64_t i = 0; i < n; ++i)
                tmp[i] = alpha * value(i) + beta * tmp[i];
        }
        ConvertFromFloat(tmp, out, static_cast<size_t>(n));
    }
}

/// n values at p (element stride `stride`) as fp32 in unit stride: p itself for unit-stride
/// float, else converted or gathered into tmp.
template <class T>
const float* LoadRow(const T* p, int64_t stride, int64_t n, float* tmp)
{
    if(stride == 1)
        return Load(p, tmp, static_cast<size_t>(n));
    for(int64_t i = 0; i < n; ++i)
        tmp[i] = ToFloat(p[i * stride]);
    return tmp;
}

template <class F>
void WithIndexType(miopenIndexType_t type, F&& f)
{
    switch(type)
    {
    case miopenIndexUint8: return f(uint8_t{});
    case miopenIndexUint16: return f(uint16_t{});
    case miopenIndexUint32: return f(uint32_t{});
    case miopenIndexUint64: return f(uint64_t{});
    }
}

template <class T>
constexpr bool kIsFloat = std::is_same_v<T, float>;

inline bool Parallel(int64_t work) { return work >= 32768; }

/// Items per dynamic chunk: about 32 chunks per thread. Dynamic scheduling keeps the other
/// threads busy when one is descheduled on a shared machine; every item writes only its own
/// outputs, so which thread runs it does not change the result.
inline int Chunk(int64_t items)
{
    const int64_t threads = omp_get_max_threads();
    return static_cast<int>(std::max<int64_t>(1, items / (32 * threads)));
}

} // namespace miopen::cpu::pool
