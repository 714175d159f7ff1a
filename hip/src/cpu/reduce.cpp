// CPU kernels of miopenReduceTensor (reduce/reduce_args.hpp has the plan and the arithmetic).
// Work items are (outputs, chunk) pairs of the plan's split, run in parallel; each item's fold
// order is fixed: a row plan (the reduced elements innermost in memory) folds each unit-stride
// run into lanes by position within the chunk (32 for sums and products, 8 for MIN / MAX /
// AMAX), then the lanes by a fixed tree; a column plan
// (kept dims innermost) folds a tile of up to 64 neighbouring outputs element by element in
// reduced order. Chunks are folded in order. The result never depends on the thread count.
// Unit-stride runs of fp16 / bf16 are converted to fp32 a block at a time (the bulk F16C / AVX2
// conversions, ToFloat's bits) and every lane loop is a SIMD loop; MIN / MAX / AMAX without
// indices fold values only (ReduceFoldValue, the value ReduceFold keeps), so they vectorise too.
#include "reduce/reduce_args.hpp"
#include "core/storage.hpp"
#include "cpu/storage_convert.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace miopen::cpu {
namespace {

template <class Acc, class T>
inline Acc LoadAcc(T v)
{
    if constexpr(std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
        return static_cast<Acc>(ToFloat(v));
    else
        return static_cast<Acc>(v);
}

template <class T, class Acc>
inline T StoreAs(Acc v)
{
    if constexpr(std::is_same_v<T, double> || std::is_same_v<T, float>)
        return static_cast<T>(v);
    else if constexpr(std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
        return FloatTo<T>(static_cast<float>(v));
    else
    {
        // integers: NaN -> 0, saturated, rounded to nearest even
        if(v != v)
            return T(0);
        const double lo = static_cast<double>(std::numeric_limits<T>::min());
        const double hi = static_cast<double>(std::numeric_limits<T>::max());
        const double d  = std::nearbyint(std::min(std::max(static_cast<double>(v), lo), hi));
        return static_cast<T>(d);
    }
}

inline int64_t DimOffset(int ndim, const int64_t* lens, const int64_t* strides, int64_t n)
{
    int64_t off = 0;
    for(int d = ndim - 1; d >= 0; --d)
    {
        const int64_t q = n / lens[d];
        off += (n - q * lens[d]) * strides[d];
        n = q;
    }
    return off;
}

/// The storage types converted a block at a time (the others are read element by element).
template <class T>
constexpr bool kBlockTyped = std::is_same_v<T, float> || std::is_same_v<T, Half> ||
                             std::is_same_v<T, BFloat16>;

/// Elements a converted block holds.
constexpr int64_t kBlock = 512;

/// Outputs a column plan folds with their accumulators in registers (fp32: 8 AVX2 vectors).
constexpr int kColBlock = 64;

template <class Acc>
struct State
{
    Acc v;
    int i;
};

template <class T, class Acc, int OP>
struct Reducer
{
    const ReducePlan& p;
    double alpha, beta;
    const T* a;
    T* c;
    int32_t* indices;

    State<Acc> Init() const { return {ReduceInit<OP, Acc>(), kReduceNoIndex}; }

    void Fold(State<Acc>& s, Acc v, int i) const { ReduceFold<OP>(s.v, s.i, v, i, p.nan_propagate); }
    void Fold(State<Acc>& s, const State<Acc>& t) const
    {
        ReduceFold<OP>(s.v, s.i, t.v, t.i, p.nan_propagate);
    }

    void Finish(int64_t n, State<Acc> s) const
    {
        Acc v = s.v;
        if constexpr(OP == MIOPEN_REDUCE_TENSOR_AVG)
            v = v / static_cast<Acc>(p.len);
        else if constexpr(OP == MIOPEN_REDUCE_TENSOR_NORM2)
            v = std::sqrt(v);
        const int64_t off = DimOffset(p.ndim_o, p.o_lens, p.o_out, n);
        Acc r             = static_cast<Acc>(alpha) * v;
        if(beta != 0.0)
            r += static_cast<Acc>(beta) * LoadAcc<Acc>(c[off]);
        c[off] = StoreAs<T>(r);
        if(indices != nullptr)
            indices[n] = s.i == kReduceNoIndex ? 0 : s.i;
    }

    /// Row plan, MIN / MAX / AMAX without indices: values only, in the indexed fold's 8 lanes by
    /// position (one SIMD vector of AVX2), each folding in index order, then the lanes by the same
    /// tree. The value is the indexed fold's (of a +0 / -0 tie or of two NaNs it may keep the
    /// other one).
    State<Acc> RowValues(int64_t base, int64_t ilen, int64_t st, int64_t begin, int64_t end) const
    {
        constexpr int kV = 8;
        Acc val[kV];
        for(int l = 0; l < kV; ++l)
            val[l] = ReduceInit<OP, Acc>();
        const int nanp = p.nan_propagate;
        float buf[kBlock];
        for(int64_t r = begin; r < end;)
        {
            const int64_t i   = r % ilen;
            const int64_t seg = std::min(end - r, ilen - i);
            const T* q        = a + base + DimOffset(p.ndim_r, p.r_lens, p.r_strides, r);
            int64_t j         = 0;
            for(; j < seg && ((r - begin + j) % kV) != 0; ++j)
                ReduceFoldValue<OP>(val[(r - begin + j) % kV], ReducePre<OP>(LoadAcc<Acc>(q[j * st])),
                                    nanp);
            if(st == 1)
                while(j + kV <= seg)
                {
                    const int64_t nb = std::min<int64_t>((seg - j) / kV * kV, kBlock);
                    const float* f   = Load(q + j, buf, static_cast<size_t>(nb));
                    for(int64_t b = 0; b < nb; b += kV)
                    {
#pragma omp simd
                        for(int l = 0; l < kV; ++l)
                            ReduceFoldValue<OP>(val[l], ReducePre<OP>(static_cast<Acc>(f[b + l])), nanp);
                    }
                    j += nb;
                }
            for(; j < seg; ++j)
                ReduceFoldValue<OP>(val[(r - begin + j) % kV], ReducePre<OP>(LoadAcc<Acc>(q[j * st])),
                                    nanp);
            r += seg;
        }
        for(int w = 1; w < kV; w *= 2)
            for(int l = 0; l + w < kV; l += 2 * w)
                ReduceFoldValue<OP>(val[l], val[l + w], nanp);
        return {val[0], kReduceNoIndex};
    }

    /// Row plan: output n, reduced elements [begin, end). Sums and products fold unit-stride
    /// runs into kLanes lanes (several independent vector chains), MIN / MAX / AMAX into 8
    /// lanes with their indices; lane = position within the chunk modulo the lane count.
    static constexpr int kLanes = 32;
    State<Acc> Row(int64_t n, int64_t begin, int64_t end) const
    {
        const int64_t base = DimOffset(p.ndim_o, p.o_lens, p.o_in, n);
        const int last     = p.ndim_r - 1;
        const int64_t ilen = last >= 0 ? p.r_lens[last] : 1;
        const int64_t st   = last >= 0 ? p.r_strides[last] : 0;
        if constexpr(!kReduceIsExtreme<OP>)
        {
            Acc sum[kLanes];
            for(int l = 0; l < kLanes; ++l)
                sum[l] = ReduceInit<OP, Acc>();
            int none = 0;
            for(int64_t r = begin; r < end;)
            {
                const int64_t i   = r % ilen;
                const int64_t seg = std::min(end - r, ilen - i);
                const T* q        = a + base + DimOffset(p.ndim_r, p.r_lens, p.r_strides, r);
                int64_t j         = 0;
                for(; j < seg && ((r - begin + j) % kLanes) != 0; ++j)
                    ReduceFold<OP>(sum[(r - begin + j) % kLanes], none,
                                   ReducePre<OP>(LoadAcc<Acc>(q[j * st])), 0, 0);
                if(st == 1)
                {
                    if constexpr(kBlockTyped<T>)
                    {
                        float buf[kBlock];
                        while(j + kLanes <= seg)
                        {
                            const int64_t nb = std::min<int64_t>((seg - j) / kLanes * kLanes, kBlock);
                            const float* f   = Load(q + j, buf, static_cast<size_t>(nb));
                            for(int64_t b = 0; b < nb; b += kLanes)
                            {
#pragma omp simd
                                for(int l = 0; l < kLanes; ++l)
                                {
                                    const Acc v = ReducePre<OP>(static_cast<Acc>(f[b + l]));
                                    if constexpr(OP == MIOPEN_REDUCE_TENSOR_MUL)
                                        sum[l] *= v;
                                    else
                                        sum[l] += v;
                                }
                            }
                            j += nb;
                        }
                    }
                    else
                        for(; j + kLanes <= seg; j += kLanes)
                        {
#pragma omp simd
                            for(int l = 0; l < kLanes; ++l)
                            {
                                const Acc v = ReducePre<OP>(LoadAcc<Acc>(q[j + l]));
                                if constexpr(OP == MIOPEN_REDUCE_TENSOR_MUL)
                                    sum[l] *= v;
                                else
                                    sum[l] += v;
                            }
                        }
                }
                for(; j < seg; ++j)
                    ReduceFold<OP>(sum[(r - begin + j) % kLanes], none,
                                   ReducePre<OP>(LoadAcc<Acc>(q[j * st])), 0, 0);
                r += seg;
            }
            for(int w = 1; w < kLanes; w *= 2)
                for(int l = 0; l + w < kLanes; l += 2 * w)
                    ReduceFold<OP>(sum[l], none, sum[l + w], 0, 0);
            return {sum[0], kReduceNoIndex};
        }
        else
        {
            if constexpr(kBlockTyped<T>)
                if(indices == nullptr)
                    return RowValues(base, ilen, st, begin, end);
            State<Acc> lane[8];
            for(int l = 0; l < 8; ++l)
                lane[l] = Init();
            for(int64_t r = begin; r < end;)
            {
                const int64_t i   = r % ilen;
                const int64_t seg = std::min(end - r, ilen - i);
                const T* q        = a + base + DimOffset(p.ndim_r, p.r_lens, p.r_strides, r);
                for(int64_t j = 0; j < seg; ++j)
                    Fold(lane[(r - begin + j) & 7], ReducePre<OP>(LoadAcc<Acc>(q[j * st])),
                         static_cast<int>(r + j));
                r += seg;
            }
            for(int w = 1; w < 8; w *= 2)
                for(int l = 0; l + w < 8; l += 2 * w)
                    Fold(lane[l], lane[l + w]);
            return lane[0];
        }
    }

    /// Column plan: outputs n0 .. n0 + cnt - 1 (neighbours in the innermost kept dim),
    /// reduced elements [begin, end), into s[0 .. cnt).
    void Columns(int64_t n0, int64_t cnt, int64_t begin, int64_t end, State<Acc>* s) const
    {
        const int64_t base = DimOffset(p.ndim_o, p.o_lens, p.o_in, n0);
        const int64_t st   = p.o_in[p.ndim_o - 1];
        for(int64_t k = 0; k < cnt; ++k)
            s[k] = Init();
        Acc sum[64];
        for(int64_t k = 0; k < cnt; ++k)
            sum[k] = s[k].v;
        // values only (sums; MIN / MAX / AMAX without indices) over contiguous outputs: each
        // reduced element's cnt values converted at once, folded in a SIMD loop
        const bool values = !kReduceIsExtreme<OP> || indices == nullptr;
        const int nanp    = p.nan_propagate;
        float buf[64];
        // one reduced dim: the next element a stride on (DimOffset's 64-bit division per reduced
        // element cost more than folding its 64 values)
        const bool one_dim = p.ndim_r == 1;
        const int64_t rst  = one_dim ? p.r_strides[0] : 0;
        if constexpr(std::is_same_v<T, float> && std::is_same_v<Acc, float>)
            if(values && st == 1 && one_dim && cnt % kColBlock == 0)
            {
                // fp32, one reduced dim: kColBlock outputs at a time with their accumulators in
                // registers (a runtime-length array stays in memory: a load and a store a value),
                // each output folding its reduced elements in order as below
                for(int64_t k0 = 0; k0 < cnt; k0 += kColBlock)
                {
                    Acc acc[kColBlock];
#pragma omp simd
                    for(int l = 0; l < kColBlock; ++l)
                        acc[l] = sum[k0 + l];
                    const float* q = a + base + k0 + begin * rst;
                    for(int64_t r = begin; r < end; ++r, q += rst)
                    {
#pragma omp simd
                        for(int l = 0; l < kColBlock; ++l)
                            ReduceFoldValue<OP>(acc[l], ReducePre<OP>(q[l]), nanp);
                    }
#pragma omp simd
                    for(int l = 0; l < kColBlock; ++l)
                        sum[k0 + l] = acc[l];
                }
                for(int64_t k = 0; k < cnt; ++k)
                    s[k].v = sum[k];
                return;
            }
        for(int64_t r = begin; r < end; ++r)
        {
            const T* q = a + base + (one_dim ? r * rst : DimOffset(p.ndim_r, p.r_lens, p.r_strides, r));
            if constexpr(kBlockTyped<T>)
                if(values && st == 1)
                {
                    const float* f = Load(q, buf, static_cast<size_t>(cnt));
#pragma omp simd
                    for(int64_t k = 0; k < cnt; ++k)
                        ReduceFoldValue<OP>(sum[k], ReducePre<OP>(static_cast<Acc>(f[k])), nanp);
                    continue;
                }
            if(values)
            {
                for(int64_t k = 0; k < cnt; ++k)
                    ReduceFoldValue<OP>(sum[k], ReducePre<OP>(LoadAcc<Acc>(q[k * st])), nanp);
            }
            else
            {
                for(int64_t k = 0; k < cnt; ++k)
                    Fold(s[k], ReducePre<OP>(LoadAcc<Acc>(q[k * st])), static_cast<int>(r));
            }
        }
        if(values)
            for(int64_t k = 0; k < cnt; ++k)
                s[k].v = sum[k];
    }

    void Run() const
    {
        const int64_t tile     = p.column ? p.cpu_tile : 1;
        const int64_t inner    = p.column ? p.o_lens[p.ndim_o - 1] : 1;
        const int64_t tiles_in = (inner + tile - 1) / tile;
        const int64_t items_o  = p.column ? p.outputs / inner * tiles_in : p.outputs;
        const int64_t items    = items_o * p.chunks;
        std::vector<State<Acc>> part(p.chunks > 1 ? static_cast<size_t>(p.outputs * p.chunks)
                                                  : 0);
        const bool parallel = items > 1 && p.outputs * p.len >= 32768;
#pragma omp parallel for schedule(dynamic, 1) if(parallel)
        for(int64_t item = 0; item < items; ++item)
        {
            const int64_t io    = item / p.chunks;
            const int64_t pc    = item % p.chunks;
            const int64_t begin = pc * p.chunk;
            const int64_t end   = std::min(begin + p.chunk, p.len);
            State<Acc> s[64];
            int64_t n0 = io, cnt = 1;
            if(p.column)
            {
                const int64_t t = io % tiles_in;
                n0              = io / tiles_in * inner + t * tile;
                cnt             = std::min(tile, inner - t * tile);
                Columns(n0, cnt, begin, end, s);
            }
            else
                s[0] = Row(n0, begin, end);
            for(int64_t k = 0; k < cnt; ++k)
            {
                if(p.chunks == 1)
                    Finish(n0 + k, s[k]);
                else
                    part[static_cast<size_t>((n0 + k) * p.chunks + pc)] = s[k];
            }
        }
        if(p.chunks == 1)
            return;
#pragma omp parallel for schedule(static) if(parallel && p.outputs > 1)
        for(int64_t n = 0; n < p.outputs; ++n)
        {
            State<Acc> s = part[static_cast<size_t>(n * p.chunks)];
            for(int pc = 1; pc < p.chunks; ++pc)
                Fold(s, part[static_cast<size_t>(n * p.chunks + pc)]);
            Finish(n, s);
        }
    }
};

} // namespace

template <class T, class Acc>
void ReduceTensor(const ReducePlan& p, double alpha, const T* a, double beta, T* c,
                  int32_t* indices)
{
    switch(p.op)
    {
#define MIOPEN_REDUCE_CASE(OP)                                                                \
    case OP: Reducer<T, Acc, OP>{p, alpha, beta, a, c, p.want_indices ? indices : nullptr}.Run(); \
        return;
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_ADD)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_MUL)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_MIN)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_MAX)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_AMAX)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_AVG)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_NORM1)
        MIOPEN_REDUCE_CASE(MIOPEN_REDUCE_TENSOR_NORM2)
#undef MIOPEN_REDUCE_CASE
    default: break;
    }
}

template void ReduceTensor<float, float>(const ReducePlan&, double, const float*, double, float*,
                                         int32_t*);
template void ReduceTensor<float, double>(const ReducePlan&, double, const float*, double,
                                          float*, int32_t*);
template void ReduceTensor<Half, float>(const ReducePlan&, double, const Half*, double, Half*,
                                        int32_t*);
template void ReduceTensor<Half, double>(const ReducePlan&, double, const Half*, double, Half*,
                                         int32_t*);
template void ReduceTensor<BFloat16, float>(const ReducePlan&, double, const BFloat16*, double,
                                            BFloat16*, int32_t*);
template void ReduceTensor<BFloat16, double>(const ReducePlan&, double, const BFloat16*, double,
                                             BFloat16*, int32_t*);
template void ReduceTensor<double, double>(const ReducePlan&, double, const double*, double,
                                           double*, int32_t*);
template void ReduceTensor<int8_t, double>(const ReducePlan&, double, const int8_t*, double,
                                           int8_t*, int32_t*);
template void ReduceTensor<int32_t, double>(const ReducePlan&, double, const int32_t*, double,
                                            int32_t*, int32_t*);

} // namespace miopen::cpu
