// cpu/strided.hpp's Load and Store for any storage type (float, Half, BFloat16): a range of a
// collapsed strided space read as fp32 (the tensor itself for unit-stride float, else converted
// or gathered into scratch), and a range written from fp32 values with the alpha/beta blend in
// fp32 and one rounding to the storage type per element. The float paths are strided.hpp's own,
// so fp32 kernels run exactly as before.
#pragma once

#include "cpu/storage_convert.hpp"
#include "cpu/strided.hpp"

#include <cstdint>
#include <type_traits>
#include <vector>

namespace miopen::cpu {

/// Whether kernels may read operand k of `l` in place as floats (unit-stride fp32).
template <class T, int N>
bool ReadsInPlace(const Loop<N>& l, int k)
{
    return std::is_same_v<T, float> && IsUnit(l, k);
}

/// A thread's buffer of n storage-type elements: strided 16-bit elements are gathered into it
/// (or scattered from it), so that they are converted in bulk (ConvertToFloat /
/// ConvertFromFloat, the same bits as ToFloat / FloatTo element by element, several times
/// faster).
template <class T>
T* GatherScratch(size_t n)
{
    thread_local std::vector<T> buf;
    if(buf.size() < n)
        buf.resize(n);
    return buf.data();
}

/// Elements [begin, begin + n) of operand k as fp32: in place for unit-stride float, else
/// converted (gathered) into buf (n floats).
template <class T, int N>
const float* LoadAs(const T* base, const Loop<N>& l, int k, size_t begin, size_t n, float* buf)
{
    if constexpr(std::is_same_v<T, float>)
        return Load(base, l, k, begin, n, buf);
    else
    {
        if(IsUnit(l, k))
        {
            ConvertToFloat(base + begin, buf, n);
            return buf;
        }
        ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
            const T* src   = base + off[k];
            const size_t s = l.strides[k][l.ndim - 1];
            float* dst     = buf + pos;
            if(s == 1)
                ConvertToFloat(src, dst, len);
            else
            {
                T* g = GatherScratch<T>(len);
                for(size_t i = 0; i < len; ++i)
                    g[i] = src[i * s];
                ConvertToFloat(g, dst, len);
            }
        });
        return buf;
    }
}

/// Elements [begin, begin + n) of output operand k: out = value(i) + beta * out in fp32, rounded
/// once to T; out is not read when beta == 0. Uses scratch slot 5 for 16-bit types.
template <class T, int N, class V>
void StoreAs(T* base, const Loop<N>& l, int k, size_t begin, size_t n, float beta, V&& value)
{
    if constexpr(std::is_same_v<T, float>)
        Store(base, l, k, begin, n, beta, value);
    else
    {
        ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
            T* out          = base + off[k];
            const size_t st = l.strides[k][l.ndim - 1];
            if(st == 1)
            {
                float* tmp = Scratch(5, len);
                if(beta == 0.0f)
                {
#pragma omp simd
                    for(size_t j = 0; j < len; ++j)
                        tmp[j] = value(pos + j);
                }
                else
                {
                    ConvertToFloat(out, tmp, len);
#pragma omp simd
                    for(size_t j = 0; j < len; ++j)
                        tmp[j] = value(pos + j) + beta * tmp[j];
                }
                ConvertFromFloat(tmp, out, len);
            }
            else
            {
                float* tmp = Scratch(5, len);
                T* g       = GatherScratch<T>(len);
                if(beta == 0.0f)
                {
                    for(size_t j = 0; j < len; ++j)
                        tmp[j] = value(pos + j);
                }
                else
                {
                    for(size_t j = 0; j < len; ++j)
                        g[j] = out[j * st];
                    ConvertToFloat(g, tmp, len);
                    for(size_t j = 0; j < len; ++j)
                        tmp[j] = value(pos + j) + beta * tmp[j];
                }
                ConvertFromFloat(tmp, g, len);
                for(size_t j = 0; j < len; ++j)
                    out[j * st] = g[j];
            }
        });
    }
}

} // namespace miopen::cpu
