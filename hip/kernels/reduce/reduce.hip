// Tensor reduction (miopenReduceTensor), one source for every storage type T (fp32, fp16, bf16,
// fp64, int8, int32) and accumulation type Acc (fp32, fp64), the operation a template inside
// each kernel. The plan (reduce/reduce_args.hpp) sets the shape of a block of kReduceThreads: gx
// outputs x ry lanes. Row plans (the reduced elements innermost in memory): the ry lanes of an
// output are neighbouring threads, so a warp reads a contiguous run of one row. Column plans
// (kept dims innermost, like the column sum of an [N, C]): the gx outputs are neighbouring
// threads, each looping down its reduced elements, so a warp reads a contiguous run of a row of
// outputs. A lane folds its elements (r = its first, + ry, ...) in order, with 4 loads in flight
// (8 for the 8- and 16-bit types);
// the lanes fold by a fixed tree in shared memory. A split plan (few outputs, long reductions)
// runs chunks of the reduction as separate blocks into the workspace and a thread per output
// folds them in chunk order. No atomics: the bits depend on the shape alone.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/reduce/reduce_kernels.hpp"

#include <type_traits>

namespace miopen::gpu {
namespace {

template <class Acc, class T>
__device__ inline Acc LoadAcc(const T* p)
{
    if constexpr(std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
        return static_cast<Acc>(DeviceToFloat(*p));
    else
        return static_cast<Acc>(*p);
}

template <class T, class Acc>
__device__ inline void StoreAcc(T* p, Acc v)
{
    if constexpr(std::is_same_v<T, double> || std::is_same_v<T, float>)
        *p = static_cast<T>(v);
    else if constexpr(std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
        *p = DeviceFloatTo<T>(static_cast<float>(v));
    else
    {
        // integers: NaN -> 0, saturated, rounded to nearest even (as the CPU)
        const double lo = std::is_same_v<T, int8_t> ? -128.0 : -2147483648.0;
        const double hi = std::is_same_v<T, int8_t> ? 127.0 : 2147483647.0;
        const double d  = static_cast<double>(v);
        *p = d != d ? T(0) : static_cast<T>(rint(fmin(fmax(d, lo), hi)));
    }
}

__device__ inline int64_t DimOffset(int ndim, const int64_t* lens, const int64_t* strides,
                                    int64_t n)
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

template <class T, class Acc, int OP>
__device__ inline void FinishOne(const ReducePlan& p, int64_t n, Acc v, int vi, Acc alpha,
                                 Acc beta, T* c, int32_t* indices)
{
    if constexpr(OP == MIOPEN_REDUCE_TENSOR_AVG)
        v = v / static_cast<Acc>(p.len);
    else if constexpr(OP == MIOPEN_REDUCE_TENSOR_NORM2)
        v = sqrt(v);
    const int64_t off = DimOffset(p.ndim_o, p.o_lens, p.o_out, n);
    Acc r             = alpha * v;
    if(beta != Acc(0))
        r += beta * LoadAcc<Acc>(c + off);
    StoreAcc(c + off, r);
    if(indices != nullptr)
        indices[n] = vi == kReduceNoIndex ? 0 : vi;
}

/// Loads group [r, r + cnt) of a lane (cnt <= G elements, consecutive in memory at a + off) as
/// Acc, one 16-byte load when the group is full and `vec` (the plan's group is G and A is
/// 16-byte aligned), else element by element: the same values in the same order either way.
template <class T, class Acc, int G>
__device__ inline void LoadGroup(const T* a, int64_t off, int cnt, bool vec, Acc (&x)[G])
{
    if constexpr(G > 1)
    {
        if(vec && cnt == G)
        {
            static_assert(G * sizeof(T) == 16, "a group is one 16-byte vector");
            const uint4 v = *reinterpret_cast<const uint4*>(a + off);
            T e[G];
            __builtin_memcpy(e, &v, 16);
#pragma unroll
            for(int j = 0; j < G; ++j)
                x[j] = LoadAcc<Acc>(e + j);
            return;
        }
    }
#pragma unroll
    for(int j = 0; j < G; ++j)
        if(j < cnt)
            x[j] = LoadAcc<Acc>(a + off + j);
}

/// One block's share: output n = blockIdx.x * gx + ox, chunk blockIdx.y. A lane folds groups of
/// G consecutive reduced elements (G = p.group: 16 bytes of T on row plans whose innermost
/// reduced dim is contiguous, else 1), groups lane, lane + ry, ..., in order, kBatch groups in
/// flight; then the block's lanes fold by a fixed tree. Every order depends on the shape alone.
/// Folds x (the element of reduced index idx) into (v, vi); without indices (kIdx false) the
/// index is never tracked.
template <int OP, bool kIdx, class Acc>
__device__ inline void FoldOne(Acc& v, int& vi, Acc x, int64_t idx, int np)
{
    if constexpr(kIdx)
        ReduceFold<OP>(v, vi, ReducePre<OP>(x), static_cast<int>(idx), np);
    else
        ReduceFoldValue<OP>(v, ReducePre<OP>(x), np);
}

template <class T, class Acc, int OP, int G, bool kIdx>
__device__ inline void PartialBody(const ReducePlan& p, Acc alpha, Acc beta, const T* a, T* c,
                                   int32_t* indices, Acc* part_v, int32_t* part_i, bool vec,
                                   Acc* sv, int* si)
{
    const int tid  = static_cast<int>(threadIdx.x);
    const int lane = p.column ? tid / p.gx : tid % p.ry;
    const int ox   = p.column ? tid % p.gx : tid / p.ry;
    const int64_t n  = int64_t{blockIdx.x} * p.gx + ox;
    const int64_t pc = blockIdx.y;
    const int np     = p.nan_propagate;
    Acc v            = ReduceInit<OP, Acc>();
    int vi           = kReduceNoIndex;
    if(n < p.outputs)
    {
        const int64_t base  = DimOffset(p.ndim_o, p.o_lens, p.o_in, n);
        const int64_t begin = pc * p.chunk;
        const int64_t end   = begin + p.chunk < p.len ? begin + p.chunk : p.len;
        const int last      = p.ndim_r - 1;
        const int64_t ilen  = last >= 0 ? p.r_lens[last] : 1;
        const int64_t st    = last >= 0 ? p.r_strides[last] : 0;
        const int64_t step  = int64_t{p.ry} * G; // elements between a lane's groups
        int64_t r           = begin + int64_t{lane} * G;
        // groups in flight a lane: 4 (64 bytes) when G > 1 unless the loaded values would take
        // more than 64 registers; single elements 4 (8 of the 8- and 16-bit types), and twice
        // that on the pointer walk (a column plan's lane walks its rows one load each)
        constexpr int kVals  = static_cast<int>(256 / (G * sizeof(Acc)));
        constexpr int kBatch = G > 1 ? (kVals < 4 ? kVals : 4) : (sizeof(T) <= 2 ? 8 : 4);
        constexpr int kWalk  = G > 1 ? kBatch : 2 * kBatch;
        if(p.ndim_r <= 1 && r < end)
        {
            // One reduced dim (stride st): a pointer walk, full batches then the tail's groups.
            const T* q          = a + base + r * st;
            const int64_t qstep = step * st;
            for(; r + (kWalk - 1) * step + G <= end; r += kWalk * step, q += kWalk * qstep)
            {
                Acc x[kWalk][G];
#pragma unroll
                for(int u = 0; u < kWalk; ++u)
                    LoadGroup<T, Acc, G>(q + u * qstep, 0, G, vec, x[u]);
#pragma unroll
                for(int u = 0; u < kWalk; ++u)
#pragma unroll
                    for(int j = 0; j < G; ++j)
                        FoldOne<OP, kIdx>(v, vi, x[u][j], r + u * step + j, np);
            }
            for(; r < end; r += step, q += qstep)
            {
                const int cnt = end - r < G ? static_cast<int>(end - r) : G;
                Acc x[G];
                LoadGroup<T, Acc, G>(q, 0, cnt, vec, x);
#pragma unroll
                for(int j = 0; j < G; ++j)
                    if(j < cnt)
                        FoldOne<OP, kIdx>(v, vi, x[j], r + j, np);
            }
        }
        else if(r < end)
        {
            // (row, i): r's position as (row of the outer reduced dims, index in the innermost);
            // a group never straddles two rows (the plan's rule for G > 1).
            int64_t row  = r / ilen;
            int64_t i    = r - row * ilen;
            int64_t roff = DimOffset(last > 0 ? last : 0, p.r_lens, p.r_strides, row);
            while(r < end)
            {
                int64_t off[kBatch];
                int64_t rr[kBatch];
                int cnt[kBatch];
#pragma unroll
                for(int u = 0; u < kBatch; ++u)
                {
                    const int64_t left = end - r;
                    cnt[u] = left <= 0 ? 0 : (left < G ? static_cast<int>(left) : G);
                    off[u] = base + roff + i * st;
                    rr[u]  = r;
                    r += step;
                    i += step;
                    if(i >= ilen && r < end)
                    {
                        row += i / ilen;
                        i %= ilen;
                        roff = DimOffset(last > 0 ? last : 0, p.r_lens, p.r_strides, row);
                    }
                }
                Acc x[kBatch][G];
#pragma unroll
                for(int u = 0; u < kBatch; ++u)
                    LoadGroup<T, Acc, G>(a, off[u], cnt[u], vec, x[u]);
#pragma unroll
                for(int u = 0; u < kBatch; ++u)
#pragma unroll
                    for(int j = 0; j < G; ++j)
                        if(j < cnt[u])
                            FoldOne<OP, kIdx>(v, vi, x[u][j], rr[u] + j, np);
            }
        }
    }
    sv[tid] = v;
    si[tid] = vi;
    __syncthreads();
    const int tstep = p.column ? p.gx : 1;
    for(int s = p.ry / 2; s > 0; s /= 2)
    {
        if(lane < s)
        {
            const int j = tid + s * tstep;
            Acc av      = sv[tid];
            int ai      = si[tid];
            ReduceFold<OP>(av, ai, sv[j], si[j], np);
            sv[tid] = av;
            si[tid] = ai;
        }
        __syncthreads();
    }
    if(lane == 0 && n < p.outputs)
    {
        if(p.chunks == 1)
            FinishOne<T, Acc, OP>(p, n, sv[tid], si[tid], alpha, beta, c, indices);
        else
        {
            part_v[n * p.chunks + pc] = sv[tid];
            if(part_i != nullptr)
                part_i[n * p.chunks + pc] = si[tid];
        }
    }
}

/// Folds the chunks' partial results of a split plan: a block of kReduceThreads = fo outputs x
/// fl lanes (ReduceFinishLanes); lane l folds chunks l, l + fl, ... in order, then the lanes
/// fold by a fixed tree.
template <class T, class Acc, int OP>
__device__ inline void FinishBody(const ReducePlan& p, Acc alpha, Acc beta, T* c,
                                  int32_t* indices, const Acc* part_v, const int32_t* part_i,
                                  Acc* sv, int* si)
{
    const int fl    = ReduceFinishLanes(p.chunks);
    const int tid   = static_cast<int>(threadIdx.x);
    const int lane  = tid % fl;
    const int64_t n = int64_t{blockIdx.x} * (kReduceThreads / fl) + tid / fl;
    Acc v           = ReduceInit<OP, Acc>();
    int vi          = kReduceNoIndex;
    if(n < p.outputs)
    {
        const int64_t b = n * p.chunks;
        for(int pc = lane; pc < p.chunks; pc += fl)
            ReduceFold<OP>(v, vi, part_v[b + pc],
                           part_i != nullptr ? part_i[b + pc] : kReduceNoIndex, p.nan_propagate);
    }
    sv[tid] = v;
    si[tid] = vi;
    __syncthreads();
    for(int s = fl / 2; s > 0; s /= 2)
    {
        if(lane < s)
        {
            Acc av = sv[tid];
            int ai = si[tid];
            ReduceFold<OP>(av, ai, sv[tid + s], si[tid + s], p.nan_propagate);
            sv[tid] = av;
            si[tid] = ai;
        }
        __syncthreads();
    }
    if(lane == 0 && n < p.outputs)
        FinishOne<T, Acc, OP>(p, n, sv[tid], si[tid], alpha, beta, c, indices);
}

// The partial body's variants: 16-byte groups (fp32 accumulation only: the plan groups no other)
// with or without indices (only MIN / MAX / AMAX track them), or single elements.
template <class T, class Acc, int OP, class... Args>
__device__ inline void PartialBodyVec(Args&&... args)
{
    PartialBody<T, Acc, OP, ReduceGroup(sizeof(T)), false>(args...);
}

template <class T, class Acc, int OP, class... Args>
__device__ inline void PartialBodyVecIdx(Args&&... args)
{
    PartialBody<T, Acc, OP, ReduceGroup(sizeof(T)), kReduceIsExtreme<OP>>(args...);
}

// Single elements track the index of MIN / MAX / AMAX whether wanted or not (one variant fewer
// to compile; these plans are the less common ones).
template <class T, class Acc, int OP, class... Args>
__device__ inline void PartialBodyScalar(Args&&... args)
{
    PartialBody<T, Acc, OP, 1, kReduceIsExtreme<OP>>(args...);
}

#define MIOPEN_REDUCE_SWITCH(BODY, ...)                                                     \
    switch(p.op)                                                                            \
    {                                                                                       \
    case MIOPEN_REDUCE_TENSOR_ADD: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_ADD>(__VA_ARGS__); break; \
    case MIOPEN_REDUCE_TENSOR_MUL: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_MUL>(__VA_ARGS__); break; \
    case MIOPEN_REDUCE_TENSOR_MIN: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_MIN>(__VA_ARGS__); break; \
    case MIOPEN_REDUCE_TENSOR_MAX: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_MAX>(__VA_ARGS__); break; \
    case MIOPEN_REDUCE_TENSOR_AMAX: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_AMAX>(__VA_ARGS__); break; \
    case MIOPEN_REDUCE_TENSOR_AVG: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_AVG>(__VA_ARGS__); break; \
    case MIOPEN_REDUCE_TENSOR_NORM1: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_NORM1>(__VA_ARGS__); break; \
    default: BODY<T, Acc, MIOPEN_REDUCE_TENSOR_NORM2>(__VA_ARGS__); break;                 \
    }

template <class T, class Acc>
__global__ void __launch_bounds__(kReduceThreads)
    ReducePartial(ReducePlan p, Acc alpha, Acc beta, const T* a, T* c, int32_t* indices,
                  Acc* part_v, int32_t* part_i)
{
    __shared__ Acc sv[kReduceThreads];
    __shared__ int si[kReduceThreads];
    if constexpr(std::is_same_v<Acc, float>)
    {
        constexpr int G = ReduceGroup(sizeof(T));
        if(p.group == G)
        {
            const bool vec = (reinterpret_cast<uintptr_t>(a) & 15) == 0;
            if(p.want_indices != 0)
                MIOPEN_REDUCE_SWITCH(PartialBodyVecIdx, p, alpha, beta, a, c, indices, part_v,
                                     part_i, vec, sv, si)
            else
                MIOPEN_REDUCE_SWITCH(PartialBodyVec, p, alpha, beta, a, c, indices, part_v,
                                     part_i, vec, sv, si)
            return;
        }
    }
    MIOPEN_REDUCE_SWITCH(PartialBodyScalar, p, alpha, beta, a, c, indices, part_v, part_i, false,
                         sv, si)
}

template <class T, class Acc>
__global__ void __launch_bounds__(kReduceThreads)
    ReduceFinish(ReducePlan p, Acc alpha, Acc beta, T* c, int32_t* indices,
                             const Acc* part_v, const int32_t* part_i)
{
    __shared__ Acc sv[kReduceThreads];
    __shared__ int si[kReduceThreads];
    MIOPEN_REDUCE_SWITCH(FinishBody, p, alpha, beta, c, indices, part_v, part_i, sv, si)
}

#undef MIOPEN_REDUCE_SWITCH

} // namespace

template <class T, class Acc>
void LaunchReduce(const ReducePlan& p, const Launch& partial, const Launch& finish, double alpha,
                  const T* a, double beta, T* c, int32_t* indices, Acc* part_v, int32_t* part_i)
{
    const Acc al = static_cast<Acc>(alpha);
    const Acc be = static_cast<Acc>(beta);
    MIOPEN_CY_LAUNCH((ReducePartial<T, Acc>), partial, 0, p, al, be, a, c, indices, part_v,
                     part_i);
    if(p.chunks > 1)
        MIOPEN_CY_LAUNCH((ReduceFinish<T, Acc>), finish, 0, p, al, be, c, indices, part_v,
                         part_i);
}

#define MIOPEN_REDUCE_INSTANCE(T, Acc)                                                         \
    template void LaunchReduce<T, Acc>(const ReducePlan&, const Launch&, const Launch&, double, \
                                       const T*, double, T*, int32_t*, Acc*, int32_t*);
MIOPEN_REDUCE_INSTANCE(float, float)
MIOPEN_REDUCE_INSTANCE(float, double)
MIOPEN_REDUCE_INSTANCE(Half, float)
MIOPEN_REDUCE_INSTANCE(Half, double)
MIOPEN_REDUCE_INSTANCE(BFloat16, float)
MIOPEN_REDUCE_INSTANCE(BFloat16, double)
MIOPEN_REDUCE_INSTANCE(double, double)
MIOPEN_REDUCE_INSTANCE(int8_t, double)
MIOPEN_REDUCE_INSTANCE(int32_t, double)
#undef MIOPEN_REDUCE_INSTANCE

} // namespace miopen::gpu
