// Runs over a collapsed strided index space (a Loop from cpu/elementwise.hpp), for kernels that
// work on a contiguous range of it at a time (a softmax row, an LRN tile): gather a range into
// unit-stride scratch (or read it in place when it is unit-stride already), write a range back
// through its strides with the alpha/beta blend. Plus the thread-local scratch those kernels use.
#pragma once

#include "cpu/elementwise.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace miopen::cpu {

/// Calls f(offsets, n, pos) for each innermost run of elements [begin, begin + count) of the
/// collapsed loop `l` (row-major order): offsets[k] is operand k's offset of the run's first
/// element, pos the run's position within [begin, begin + count).
template <int N, class F>
void ForRuns(const Loop<N>& l, size_t begin, size_t count, F&& f)
{
    const int inner = l.ndim - 1;
    std::array<size_t, kMaxTensorDims> idx{};
    size_t rest = begin;
    for(int d = inner; d >= 0; --d)
    {
        idx[d] = rest % l.lens[d];
        rest /= l.lens[d];
    }
    size_t pos = 0;
    while(pos < count)
    {
        std::array<size_t, N> off{};
        for(int d = 0; d <= inner; ++d)
            for(int k = 0; k < N; ++k)
                off[k] += idx[d] * l.strides[k][d];
        const size_t n = std::min(l.lens[inner] - idx[inner], count - pos);
        f(off, n, pos);
        pos += n;
        idx[inner] += n;
        for(int d = inner; d > 0 && idx[d] == l.lens[d]; --d)
        {
            idx[d] = 0;
            ++idx[d - 1];
        }
    }
}

/// Whether the collapsed loop is one unit-stride run for operand k.
template <int N>
bool IsUnit(const Loop<N>& l, int k)
{
    return l.ndim == 1 && l.strides[k][0] == 1;
}

/// Elements [begin, begin + n) of operand k (base: its element at index 0): a pointer into the
/// tensor when unit-stride, else gathered into buf.
template <int N>
const float* Load(const float* base, const Loop<N>& l, int k, size_t begin, size_t n, float* buf)
{
    if(IsUnit(l, k))
        return base + begin;
    ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
        const float* src = base + off[k];
        const size_t s   = l.strides[k][l.ndim - 1];
        float* dst       = buf + pos;
        for(size_t i = 0; i < len; ++i)
            dst[i] = src[i * s];
    });
    return buf;
}

/// The same, always copied into dst.
template <int N>
void LoadInto(const float* base, const Loop<N>& l, int k, size_t begin, size_t n, float* dst)
{
    const float* p = Load(base, l, k, begin, n, dst);
    if(p != dst)
        std::memcpy(dst, p, n * sizeof(float));
}

/// Elements [begin, begin + n) of output operand k: out = value(i) + beta * out, i counting from 0
/// at begin. out is not read when beta == 0, so NaN in an unwritten output cannot leak.
template <int N, class V>
void Store(float* base, const Loop<N>& l, int k, size_t begin, size_t n, float beta, V&& value)
{
    ForRuns(l, begin, n, [&](const auto& off, size_t len, size_t pos) {
        float* out      = base + off[k];
        const size_t st = l.strides[k][l.ndim - 1];
        if(st == 1 && beta == 0.0f)
        {
#pragma omp simd
            for(size_t j = 0; j < len; ++j)
                out[j] = value(pos + j);
        }
        else if(st == 1)
        {
#pragma omp simd
            for(size_t j = 0; j < len; ++j)
                out[j] = value(pos + j) + beta * out[j];
        }
        else
        {
            for(size_t j = 0; j < len; ++j)
                Blend(out[j * st], value(pos + j), 1.0f, beta);
        }
    });
}

/// This thread's scratch slot `slot` (0 to 5), at least n floats; the other slots' pointers stay
/// valid. Reused across calls, so a kernel allocates only when a call needs more than any before.
inline float* Scratch(int slot, size_t n)
{
    thread_local std::vector<float> buffers[6];
    auto& b = buffers[slot];
    if(b.size() < n)
        b.resize(n);
    return b.data();
}

} // namespace miopen::cpu
