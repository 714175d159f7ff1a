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

template <class T, class Acc, int OP>
__device__ inline void PartialBody(const ReducePlan& p, Acc alpha, Acc beta, const T* a, T* c,
                                   int32_t* indices, Acc* part_v, int32_t* part_i, Acc* sv,
                                   int* si)
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
        int64_t r           = begin + lane;
        if(r < end)
        {
            int64_t row  = r / ilen;
            int64_t i    = r - row * ilen;
            int64_t roff = DimOffset(last > 0 ? last : 0, p.r_lens, p.r_strides, row);
            // loads in flight a lane: 16-32 bytes (8 of the 8/16-bit types, 4 of the others)
            constexpr int kBatch = sizeof(T) <= 2 ? 8 : 4;
            while(r < end)
            {
                int64_t off[kBatch];
                int rr[kBatch];
                int k = 0;
#pragma unroll
                for(int u = 0; u < kBatch; ++u)
                {
                    if(r < end)
                    {
                        off[u] = base + roff + i * st;
                        rr[u]  = static_cast<int>(r);
                        ++k;
                        r += p.ry;
                        i += p.ry;
                        if(i >= ilen && r < end)
                        {
                            row += i / ilen;
                            i %= ilen;
                            roff = DimOffset(last > 0 ? last : 0, p.r_lens, p.r_strides, row);
                        }
                    }
                }
                Acc x[kBatch];
#pragma unroll
                for(int u = 0; u < kBatch; ++u)
                    if(u < k)
                        x[u] = LoadAcc<Acc>(a + off[u]);
#pragma unroll
                for(int u = 0; u < kBatch; ++u)
                    if(u < k)
                        ReduceFold<OP>(v, vi, ReducePre<OP>(x[u]), rr[u], np);
            }
        }
    }
    sv[tid] = v;
    si[tid] = vi;
    __syncthreads();
    const int step = p.column ? p.gx : 1;
    for(int s = p.ry / 2; s > 0; s /= 2)
    {
        if(lane < s)
        {
            const int j = tid + s * step;
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

template <class T, class Acc, int OP>
__device__ inline void FinishBody(const ReducePlan& p, int64_t n, Acc alpha, Acc beta, T* c,
                                  int32_t* indices, const Acc* part_v, const int32_t* part_i)
{
    const int64_t b = n * p.chunks;
    Acc v           = part_v[b];
    int vi          = part_i != nullptr ? part_i[b] : kReduceNoIndex;
    for(int pc = 1; pc < p.chunks; ++pc)
        ReduceFold<OP>(v, vi, part_v[b + pc], part_i != nullptr ? part_i[b + pc] : kReduceNoIndex,
                       p.nan_propagate);
    FinishOne<T, Acc, OP>(p, n, v, vi, alpha, beta, c, indices);
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
    MIOPEN_REDUCE_SWITCH(PartialBody, p, alpha, beta, a, c, indices, part_v, part_i, sv, si)
}

template <class T, class Acc>
__global__ void ReduceFinish(ReducePlan p, Acc alpha, Acc beta, T* c, int32_t* indices,
                             const Acc* part_v, const int32_t* part_i)
{
    const int64_t n = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if(n >= p.outputs)
        return;
    MIOPEN_REDUCE_SWITCH(FinishBody, p, n, alpha, beta, c, indices, part_v, part_i)
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
