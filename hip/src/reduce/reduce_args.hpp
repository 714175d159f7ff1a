// Tensor reduction (miopenReduceTensor): the plan both backends run (the reduced and the kept
// dimensions, merged, and the split of the reduction into chunks), the operations' arithmetic
// shared by the CPU kernels (cpu/reduce.cpp) and the GPU kernels (kernels/reduce/reduce.hip),
// and the entry points of both. Device-neutral.
//
// Semantics (MIOpen's reference, driver/miopen_Reduction.hpp): each output is
//   alpha * post(fold(pre(a) over the reduced elements)) + beta * c
// with pre = |a| (NORM1, AMAX), a^2 (NORM2), a (others); fold = +, * or min/max; post = / K
// (AVG), sqrt (NORM2). MIN / MAX / AMAX keep the first element that wins (strict comparison) and
// skip NaNs, unless NaN propagation is on: then a NaN wins, and of several the last. Index: the
// row-major index of the chosen element within the reduced dimensions. Accumulation is fp64 or
// fp32 (ReduceAccDouble); every fold order is fixed by the shape alone.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MIOPEN_CY_REDUCE_HD __host__ __device__
#else
#define MIOPEN_CY_REDUCE_HD
#endif

namespace miopen {

constexpr int kReduceMaxDims   = 6;   // MIOpen's limit
constexpr int kReduceThreads   = 256; // GPU block; gx * ry
constexpr int kReduceNoIndex   = 0x7fffffff;

/// One reduction, as both backends run it. Kept ("o") and reduced ("r") dimensions in the
/// input's order, length-1 dimensions dropped and dimensions contiguous in every operand merged
/// (ndim may be 0: one output, or nothing reduced). Output n (row-major over the kept dims) reads
/// input offset OOffset(n, o_in) + ROffset(r) for r in [0, K) and writes OOffset(n, o_out);
/// indices are packed: indices[n].
struct ReducePlan
{
    int op            = 0; // miopenReduceTensorOp_t
    int nan_propagate = 0;
    int want_indices  = 0; // MIN / MAX / AMAX with FLATTENED_INDICES
    int ndim_o        = 0;
    int64_t o_lens[kReduceMaxDims]    = {};
    int64_t o_in[kReduceMaxDims]      = {}; // the kept dims' strides in A
    int64_t o_out[kReduceMaxDims]     = {}; // and in C
    int ndim_r        = 0;
    int64_t r_lens[kReduceMaxDims]    = {};
    int64_t r_strides[kReduceMaxDims] = {};
    int64_t outputs = 1; // O
    int64_t len     = 1; // K
    // The split, by the shape alone: chunks of `chunk` reduced elements (one chunk: no
    // workspace). GPU blocks of kReduceThreads = gx outputs x ry lanes each; column: the gx
    // outputs are the fast thread index (kept dims innermost in memory), else the ry lanes.
    int column  = 0;
    int gx      = 1;
    int ry      = kReduceThreads;
    int chunks  = 1;
    int64_t chunk = 1; // a multiple of group
    // Reduced elements a GPU lane folds as one group (one 16-byte load): ReduceGroup(element
    // size) on row plans with fp32 accumulation whose innermost reduced dim is contiguous and
    // whose groups never straddle two rows or leave 16-byte alignment; else 1.
    int group = 1;
    // The CPU's tile of outputs per work item (column plans: consecutive outputs of the
    // innermost kept dim).
    int64_t cpu_tile = 1;
};

/// The GPU's group of reduced elements for one element size: 16 bytes of them.
MIOPEN_CY_REDUCE_HD constexpr int ReduceGroup(size_t element_size)
{
    return static_cast<int>(16 / element_size);
}

/// Lanes of the GPU's finishing kernel per output of a split plan (a power of two; the block's
/// kReduceThreads hold kReduceThreads / lanes outputs).
MIOPEN_CY_REDUCE_HD inline int ReduceFinishLanes(int chunks)
{
    int l = 1;
    while(l < chunks && l < kReduceThreads)
        l *= 2;
    return l;
}

/// Bytes of the partial results of a split plan: outputs * chunks values of the accumulation
/// type, then (indices) as many int32, 64-byte aligned; 0 when not split.
inline size_t ReducePartialBytes(const ReducePlan& p, size_t acc_size, size_t* index_offset)
{
    if(p.chunks <= 1)
    {
        if(index_offset != nullptr)
            *index_offset = 0;
        return 0;
    }
    const size_t n   = static_cast<size_t>(p.outputs) * static_cast<size_t>(p.chunks);
    const size_t off = (n * acc_size + 63) / 64 * 64;
    if(index_offset != nullptr)
        *index_offset = off;
    return off + (p.want_indices ? n * sizeof(int32_t) : 0);
}

// ---- the operations' arithmetic (host and device) -------------------------------------------

template <class Acc>
MIOPEN_CY_REDUCE_HD inline bool ReduceIsNan(Acc v)
{
    return v != v;
}

template <int OP, class Acc>
MIOPEN_CY_REDUCE_HD inline Acc ReduceInit()
{
    if constexpr(OP == MIOPEN_REDUCE_TENSOR_MUL)
        return Acc(1);
    else if constexpr(OP == MIOPEN_REDUCE_TENSOR_MIN)
        return static_cast<Acc>(INFINITY); // +inf (MIOpen: the type's max; differs only if all are +inf)
    else if constexpr(OP == MIOPEN_REDUCE_TENSOR_MAX)
        return static_cast<Acc>(-INFINITY);
    else
        return Acc(0);
}

template <int OP, class Acc>
MIOPEN_CY_REDUCE_HD inline Acc ReducePre(Acc v)
{
    if constexpr(OP == MIOPEN_REDUCE_TENSOR_NORM1 || OP == MIOPEN_REDUCE_TENSOR_AMAX)
        return v < Acc(0) ? -v : (v == Acc(0) ? Acc(0) : v); // |v|, NaN kept
    else if constexpr(OP == MIOPEN_REDUCE_TENSOR_NORM2)
        return v * v;
    else
        return v;
}

template <int OP>
constexpr bool kReduceIsExtreme = OP == MIOPEN_REDUCE_TENSOR_MIN ||
                                  OP == MIOPEN_REDUCE_TENSOR_MAX ||
                                  OP == MIOPEN_REDUCE_TENSOR_AMAX;

/// Whether (b, ib) replaces (a, ia) for MIN / MAX / AMAX, in any order of folding: the better
/// value wins, ties go to the smaller index; with NaN propagation a NaN wins, and of two NaNs the
/// larger index (MIOpen's sequential reference keeps overwriting with each NaN).
template <int OP, class Acc>
MIOPEN_CY_REDUCE_HD inline bool ReduceReplaces(Acc b, int ib, Acc a, int ia, int nan_propagate)
{
    if(nan_propagate)
    {
        if(ReduceIsNan(b))
            return !ReduceIsNan(a) || ib > ia;
        if(ReduceIsNan(a))
            return false;
    }
    if constexpr(OP == MIOPEN_REDUCE_TENSOR_MIN)
        return b < a || (b == a && ib < ia);
    else
        return b > a || (b == a && ib < ia);
}

/// Folds (b, ib) into (a, ia).
template <int OP, class Acc>
MIOPEN_CY_REDUCE_HD inline void ReduceFold(Acc& a, int& ia, Acc b, int ib, int nan_propagate)
{
    if constexpr(kReduceIsExtreme<OP>)
    {
        if(ReduceReplaces<OP>(b, ib, a, ia, nan_propagate))
        {
            a  = b;
            ia = ib;
        }
    }
    else if constexpr(OP == MIOPEN_REDUCE_TENSOR_MUL)
        a *= b;
    else
        a += b;
}

/// Folds value b into a when no index is wanted: the value ReduceFold would keep (MIN / MAX /
/// AMAX: strictly better wins, NaN as ReduceReplaces; a NaN's payload may be another NaN's).
template <int OP, class Acc>
MIOPEN_CY_REDUCE_HD inline void ReduceFoldValue(Acc& a, Acc b, int nan_propagate)
{
    if constexpr(kReduceIsExtreme<OP>)
    {
        // a select, not a conditional store: SIMD loops over arrays of accumulators vectorise
        const bool better = OP == MIOPEN_REDUCE_TENSOR_MIN ? b < a : b > a;
        a = (nan_propagate ? (ReduceIsNan(b) || (!ReduceIsNan(a) && better)) : better) ? b : a;
    }
    else if constexpr(OP == MIOPEN_REDUCE_TENSOR_MUL)
        a *= b;
    else
        a += b;
}

namespace cpu {
/// C = alpha * reduce(A) + beta * C (never reads C when beta == 0), indices (int32) when
/// p.want_indices; workspace unused. T the storage type, Acc float or double.
template <class T, class Acc>
void ReduceTensor(const ReducePlan& p, double alpha, const T* a, double beta, T* c,
                  int32_t* indices);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/reduce/reduce.hip); workspace holds
/// ReducePartialBytes(p, sizeof(Acc)) bytes when p.chunks > 1.
template <class T, class Acc>
void ReduceTensor(const Handle& h, const ReducePlan& p, double alpha, const T* a, double beta,
                  T* c, int32_t* indices, void* workspace);
} // namespace gpu

} // namespace miopen
