// Strided iteration shared by the CPU kernels of element-wise ops (tensor ops, activation, bias,
// batch-norm inference). Operands share one index space; a stride of 0 broadcasts. Dims of
// length 1 are dropped and dims that are contiguous in every operand are merged, so a packed
// tensor becomes one long row whatever its rank, and the functor's inner loop vectorises.
//
// MapTyped is the engine for any storage type (float, Half, BFloat16): a row is cut into blocks
// of kMapBlock elements, each input block loaded as fp32 (converted, broadcast or gathered), the
// op's block function computes the fp32 results, the blend adds beta * out, and the block is
// rounded once into T on store. Unit-stride rows of 16-bit data go kMapRegBlock elements at a
// time through inline conversions that the compiler keeps in registers (MapRegBlocks). The fp32
// kernels keep their own loops (no copies at all).
#pragma once

#include "core/storage.hpp"
#include "core/tensor.hpp"
#include "cpu/storage_convert.hpp"

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

// ---- the typed engine ----------------------------------------------------------------------

/// Elements of a block of MapTyped: its fp32 buffers (inputs, result, output) stay in L1.
constexpr size_t kMapBlock = 512;

/// The m elements of a row at p with stride `stride` as fp32: p itself (float, unit stride), else
/// converted, broadcast (stride 0) or gathered into tmp.
template <class T>
inline const float* LoadRow(const T* p, size_t stride, float* tmp, size_t m)
{
    if(stride == 1)
        return Load(p, tmp, m);
    if(stride == 0)
    {
        const float v = ToFloat(p[0]);
        std::fill(tmp, tmp + m, v);
        return tmp;
    }
    for(size_t i = 0; i < m; ++i)
        tmp[i] = ToFloat(p[i * stride]);
    return tmp;
}

/// Rounds the m fp32 values r once into the row at p with stride `stride`.
template <class T>
inline void StoreRow(const float* r, T* p, size_t stride, size_t m)
{
    if(stride == 1)
    {
        Store(r, p, m);
        return;
    }
    for(size_t i = 0; i < m; ++i)
        p[i * stride] = FloatTo<T>(r[i]);
}

/// Elements of a block of MapTyped's register path: the inputs, the result and the output of a
/// block stay in vector registers between the inline conversions and the op (measured on a
/// Zen 3, fp16 a + b in L2: 0.08 ns an element in blocks of 16 to 64, 0.25 through memory in
/// blocks of 512 with the bulk conversions).
constexpr size_t kMapRegBlock = 32;

/// The register path of MapRowBlocks over elements [0, end) (end a multiple of kMapRegBlock):
/// unit-stride output, and inputs of unit stride or broadcast (bit k of Bcast: input k has
/// stride 0, its one value repeated). Compiled for AVX2 + F16C (block, inlined, with it).
template <unsigned Bcast, class T, int NIn, bool ReadOut, class Block>
MIOPEN_CY_REGISTER_TARGET void MapRegBlocks(const std::array<const T*, NIn>& in, T* out,
                                             size_t end, float beta, const Block& block)
{
#if MIOPEN_CY_CONVERT_IN_REGISTERS
    constexpr size_t M = kMapRegBlock;
    constexpr int NI   = NIn > 0 ? NIn : 1;
    alignas(32) float rep[NI][M]; // the broadcast inputs' values
    for(int k = 0; k < NIn; ++k)
        if(Bcast & (1u << k))
            std::fill(rep[k], rep[k] + M, ToFloat(in[k][0]));
    for(size_t start = 0; start < end; start += M)
    {
        alignas(32) float buf[NI][M];
        alignas(32) float res[M];
        const float* v[NI];
        for(int k = 0; k < NIn; ++k)
        {
            if(Bcast & (1u << k))
                v[k] = rep[k];
            else
            {
                LoadBlock<M>(in[k] + start, buf[k]);
                v[k] = buf[k];
            }
        }
        block(static_cast<const float* const*>(v), res, M, start);
        if(ReadOut)
        {
            alignas(32) float ob[M];
            LoadBlock<M>(out + start, ob);
            const float b = beta;
#pragma omp simd
            for(size_t i = 0; i < M; ++i)
                res[i] += b * ob[i];
        }
        StoreBlock<M>(res, out + start);
    }
#else
    (void)in, (void)out, (void)end, (void)beta, (void)block;
#endif
}

/// One row of MapTyped: out[i] = r[i] (+ beta * out[i]) with block(v, r, m, start) filling
/// r[0, m) from the inputs' fp32 values v[k][0, m) of the row's elements [start, start + m).
/// Rows of unit-stride output whose inputs have unit or zero stride take the register path for
/// their whole blocks where the CPU allows it; the rest (and every other row) is converted in
/// blocks of kMapBlock through memory.
template <class T, int NIn, bool ReadOut, class Block>
inline void MapRowBlocks(const std::array<const T*, NIn>& in, const std::array<size_t, NIn>& st,
                         T* out, size_t out_stride, size_t n, float beta, const Block& block)
{
    constexpr int NI = NIn > 0 ? NIn : 1;
    size_t begin     = 0;
    if constexpr(kHasBlockConvert<T> && NIn <= 2)
    {
        unsigned bcast = 0;
        bool fits      = out_stride == 1 && n >= kMapRegBlock && ConvertsInRegisters();
        for(int k = 0; k < NIn; ++k)
        {
            fits = fits && st[k] <= 1;
            bcast |= st[k] == 0 ? 1u << k : 0u;
        }
        if(fits)
        {
            begin = n / kMapRegBlock * kMapRegBlock;
            if(bcast == 0)
                MapRegBlocks<0, T, NIn, ReadOut>(in, out, begin, beta, block);
            else if(bcast == 1)
                MapRegBlocks<1, T, NIn, ReadOut>(in, out, begin, beta, block);
            else if constexpr(NIn == 2)
            {
                if(bcast == 2)
                    MapRegBlocks<2, T, NIn, ReadOut>(in, out, begin, beta, block);
                else
                    MapRegBlocks<3, T, NIn, ReadOut>(in, out, begin, beta, block);
            }
        }
    }
    alignas(64) float buf[NI][kMapBlock];
    alignas(64) float res[kMapBlock];
    alignas(64) float ob[kMapBlock];
    for(size_t start = begin; start < n; start += kMapBlock)
    {
        const size_t m = std::min(kMapBlock, n - start);
        const float* v[NI];
        for(int k = 0; k < NIn; ++k)
            v[k] = LoadRow(in[k] + start * st[k], st[k], buf[k], m);
        block(static_cast<const float* const*>(v), res, m, start);
        T* o = out + start * out_stride;
        if(ReadOut)
        {
            const float* ov = LoadRow(static_cast<const T*>(o), out_stride, ob, m);
            const float b   = beta;
#pragma omp simd
            for(size_t i = 0; i < m; ++i)
                res[i] += b * ov[i];
        }
        StoreRow(res, o, out_stride, m);
    }
}

/// MapRowBlocks with out read only when beta != 0 (ReadOut chosen from beta at run time).
template <class T, int NIn, class Block>
inline void MapRow(const std::array<const T*, NIn>& in, const std::array<size_t, NIn>& st, T* out,
                   size_t out_stride, size_t n, float beta, const Block& block)
{
    if(beta == 0.0f)
        MapRowBlocks<T, NIn, false>(in, st, out, out_stride, n, beta, block);
    else
        MapRowBlocks<T, NIn, true>(in, st, out, out_stride, n, beta, block);
}

/// out = f(in...) + beta * out over out's index space (out not read when beta == 0), every data
/// operand of storage type T; strides[k] the strides of operand k (input k < NIn, the output
/// last; 0 broadcasts). block(const float* const* v, float* r, size_t m, size_t start) computes
/// the fp32 results of m elements, the row's elements [start, start + m).
template <class T, int NIn, class Block>
void MapTyped(const TensorDescriptor& outDesc, const std::array<const size_t*, NIn + 1>& strides,
              const std::array<const T*, NIn>& in, T* out, float beta, const Block& block)
{
    const auto loop = MakeLoop<NIn + 1>(outDesc.NumDims(), outDesc.Lens().data(), strides);
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        std::array<const T*, NIn> p{};
        std::array<size_t, NIn> ps{};
        for(int k = 0; k < NIn; ++k)
        {
            p[k]  = in[k] + off[k];
            ps[k] = s[k];
        }
        MapRow<T, NIn>(p, ps, out + off[NIn], s[NIn], n, beta, block);
    });
}

} // namespace miopen::cpu
