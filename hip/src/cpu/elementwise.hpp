// Strided iteration shared by the CPU kernels of element-wise ops (tensor ops, activation, bias,
// batch-norm inference). Operands share one index space; a stride of 0 broadcasts. Dims of
// length 1 are dropped and dims that are contiguous in every operand are merged, so a packed
// tensor becomes one long row whatever its rank, and the functor's inner loop vectorises.
#pragma once

#include "core/tensor.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include <omp.h>

namespace miopen::cpu {

template <int N>
struct Loop
{
    int ndim = 0;                                       // after collapsing, innermost last
    std::array<size_t, kMaxTensorDims> lens{};
    std::array<std::array<size_t, kMaxTensorDims>, N> strides{};
};

/// lens: the index space; strides[k][d]: operand k's stride along d (0 to broadcast).
template <int N>
Loop<N> MakeLoop(int ndim,
                 const size_t* lens,
                 const std::array<const size_t*, N>& strides)
{
    Loop<N> l;
    for(int d = 0; d < ndim; ++d)
    {
        if(lens[d] == 1)
            continue;
        bool merge = l.ndim > 0;
        for(int k = 0; k < N && merge; ++k)
            merge = strides[k][d] * lens[d] == l.strides[k][l.ndim - 1];
        if(merge)
        {
            l.lens[l.ndim - 1] *= lens[d];
            for(int k = 0; k < N; ++k)
                l.strides[k][l.ndim - 1] = strides[k][d];
            continue;
        }
        l.lens[l.ndim] = lens[d];
        for(int k = 0; k < N; ++k)
            l.strides[k][l.ndim] = strides[k][d];
        ++l.ndim;
    }
    if(l.ndim == 0)
    {
        l.ndim    = 1;
        l.lens[0] = 1;
        for(int k = 0; k < N; ++k)
            l.strides[k][0] = 1;
    }
    return l;
}

/// Calls row(offsets, len, inner_strides) for every innermost row (or chunk of a row), in
/// parallel. offsets[k] is operand k's element offset of the row's first element.
template <int N, class Row>
void ForEachRow(const Loop<N>& l, Row&& row)
{
    const int inner = l.ndim - 1;
    const size_t len = l.lens[inner];
    size_t rows = 1;
    for(int d = 0; d < inner; ++d)
        rows *= l.lens[d];
    std::array<size_t, N> inner_strides;
    for(int k = 0; k < N; ++k)
        inner_strides[k] = l.strides[k][inner];

    // Split long rows into chunks so that few rows still use every thread; chunks stay large
    // enough (>= 4096 elements) to amortise the scheduling.
    const size_t threads = static_cast<size_t>(omp_get_max_threads());
    size_t chunk = len;
    if(rows < 4 * threads && len > 8192)
        chunk = std::max<size_t>(4096, (len * rows + 4 * threads - 1) / (4 * threads));
    chunk = (chunk + 15) / 16 * 16;
    const size_t chunks_per_row = (len + chunk - 1) / chunk;
    const long long items = static_cast<long long>(rows * chunks_per_row);
    const bool parallel = rows * len >= 32768;

#pragma omp parallel for schedule(static) if(parallel)
    for(long long item = 0; item < items; ++item)
    {
        size_t r = static_cast<size_t>(item) / chunks_per_row;
        const size_t c = static_cast<size_t>(item) % chunks_per_row;
        std::array<size_t, N> off{};
        for(int d = inner - 1; d >= 0; --d)
        {
            const size_t i = r % l.lens[d];
            r /= l.lens[d];
            for(int k = 0; k < N; ++k)
                off[k] += i * l.strides[k][d];
        }
        const size_t begin = c * chunk;
        for(int k = 0; k < N; ++k)
            off[k] += begin * inner_strides[k];
        row(off, std::min(chunk, len - begin), inner_strides);
    }
}

/// Strides of `d` as a pointer for MakeLoop, for operands whose lengths equal the index space.
inline const size_t* StridesOf(const TensorDescriptor& d) { return d.Strides().data(); }

/// y = alpha * v + beta * y, never reading y when beta == 0 (so NaNs in y do not leak).
template <class T>
inline void Blend(T& y, float v, float alpha, float beta)
{
    y = beta == 0.0f ? static_cast<T>(alpha * v) : static_cast<T>(alpha * v + beta * y);
}

} // namespace miopen::cpu
