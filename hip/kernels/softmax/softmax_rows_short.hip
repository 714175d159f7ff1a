// softmax_fwd_rows_short / softmax_bwd_rows_short: the rows engine of softmax.hip for short
// contiguous rows (kShortMinLen <= len <= kShortMaxLen, unit stride in every operand: N x 1000
// CHANNEL mode, INSTANCE mode of small images). The generic rows kernel reads x three times
// (max, sum, write) with a dependent load chain per pass; here each of the block's kShortThreads
// threads loads its kShortPerThread elements (i = tid + k * blockDim) into registers at once, so
// x (y and dy) leave DRAM once and every load of a row is in flight together; exp is computed
// once. Same formulas as softmax.hip; the block folds by the same fixed tree (deterministic).
// Templates on the storage type T: loads widen to fp32, one rounding per output.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kPer = kSoftmaxShortPerThread;
static_assert(kSoftmaxShortThreads * kSoftmaxShortPerThread == kSoftmaxShortMaxLen,
              "a block's registers hold the longest row");

template <class T, int Algo, bool ReadY>
__global__ void __launch_bounds__(kSoftmaxShortThreads)
    SoftmaxShortRowsFwd(SoftmaxArgs<2> a, const T* x, T* y)
{
    __shared__ float shared[kMaxWarpsPerBlock];
    constexpr bool kFast = Algo == MIOPEN_SOFTMAX_FAST;
    constexpr bool kLog  = Algo == MIOPEN_SOFTMAX_LOG;
    const int len        = static_cast<int>(a.inner.numel);
    for(int64_t g = blockIdx.x; g < a.outer.numel; g += gridDim.x)
    {
        int64_t goff[2];
        Offsets(a.outer, g, goff);
        const T* xg = x + goff[0];
        T* yg       = y + goff[1];
        float v[kPer];
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            const int i = static_cast<int>(threadIdx.x) + k * kSoftmaxShortThreads;
            v[k]        = i < len ? LoadFloat(xg + i) : 0.0f;
        }
        float m = 0.0f;
        if(!kFast)
        {
            float t = -INFINITY;
#pragma unroll
            for(int k = 0; k < kPer; ++k)
                if(static_cast<int>(threadIdx.x) + k * kSoftmaxShortThreads < len)
                    t = MaxNanOp{}(t, v[k]);
            m = BlockReduce(t, MaxNanOp{}, shared);
        }
        float e[kPer];
        float t = 0.0f;
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            e[k] = expf(v[k] - m);
            if(static_cast<int>(threadIdx.x) + k * kSoftmaxShortThreads < len)
                t += e[k];
        }
        const float sum   = BlockReduce(t, SumOp<float>{}, shared);
        const float scale = a.alpha / sum;
        const float shift = -a.alpha * (m + logf(sum));
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            const int i = static_cast<int>(threadIdx.x) + k * kSoftmaxShortThreads;
            if(i < len)
            {
                const float r = kLog ? a.alpha * v[k] + shift : scale * e[k];
                StoreFloat(yg + i, ReadY ? r + a.beta * LoadFloat(yg + i) : r);
            }
        }
    }
}

template <class T, bool Log, bool ReadDx>
__global__ void __launch_bounds__(kSoftmaxShortThreads)
    SoftmaxShortRowsBwd(SoftmaxArgs<3> a, const T* y, const T* dy, T* dx)
{
    __shared__ float shared[kMaxWarpsPerBlock];
    const int len = static_cast<int>(a.inner.numel);
    for(int64_t g = blockIdx.x; g < a.outer.numel; g += gridDim.x)
    {
        int64_t goff[3];
        Offsets(a.outer, g, goff);
        const T* yg  = y + goff[0];
        const T* dyg = dy + goff[1];
        T* dxg       = dx + goff[2];
        float yv[kPer], dv[kPer];
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            const int i = static_cast<int>(threadIdx.x) + k * kSoftmaxShortThreads;
            yv[k]       = i < len ? LoadFloat(yg + i) : 0.0f;
            dv[k]       = i < len ? LoadFloat(dyg + i) : 0.0f;
        }
        float t = 0.0f;
#pragma unroll
        for(int k = 0; k < kPer; ++k)
            t += Log ? dv[k] : yv[k] * dv[k];
        const float r = BlockReduce(t, SumOp<float>{}, shared);
#pragma unroll
        for(int k = 0; k < kPer; ++k)
        {
            const int i = static_cast<int>(threadIdx.x) + k * kSoftmaxShortThreads;
            if(i < len)
            {
                const float o = Log ? a.alpha * (dv[k] - expf(yv[k]) * r)
                                    : a.alpha * yv[k] * (dv[k] - r);
                StoreFloat(dxg + i, ReadDx ? o + a.beta * LoadFloat(dxg + i) : o);
            }
        }
    }
}

template <class T, int Algo>
void Fwd(const SoftmaxArgs<2>& a, const Launch& l, const T* x, T* y)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((SoftmaxShortRowsFwd<T, Algo, true>), l, 0, a, x, y);
    else
        MIOPEN_CY_LAUNCH((SoftmaxShortRowsFwd<T, Algo, false>), l, 0, a, x, y);
}

template <class T, bool Log>
void Bwd(const SoftmaxArgs<3>& a, const Launch& l, const T* y, const T* dy, T* dx)
{
    if(a.beta != 0.0f)
        MIOPEN_CY_LAUNCH((SoftmaxShortRowsBwd<T, Log, true>), l, 0, a, y, dy, dx);
    else
        MIOPEN_CY_LAUNCH((SoftmaxShortRowsBwd<T, Log, false>), l, 0, a, y, dy, dx);
}

} // namespace

template <class T>
void LaunchSoftmaxShortFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, const T* x,
                           T* y)
{
    switch(algorithm)
    {
    case MIOPEN_SOFTMAX_FAST: return Fwd<T, MIOPEN_SOFTMAX_FAST>(a, l, x, y);
    case MIOPEN_SOFTMAX_LOG: return Fwd<T, MIOPEN_SOFTMAX_LOG>(a, l, x, y);
    default: return Fwd<T, MIOPEN_SOFTMAX_ACCURATE>(a, l, x, y);
    }
}

template <class T>
void LaunchSoftmaxShortBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, const T* y,
                           const T* dy, T* dx)
{
    if(algorithm == MIOPEN_SOFTMAX_LOG)
        Bwd<T, true>(a, l, y, dy, dx);
    else
        Bwd<T, false>(a, l, y, dy, dx);
}

#define MIOPEN_CY_SOFTMAX_INSTANCE(T)                                                              \
    template void LaunchSoftmaxShortFwd<T>(const SoftmaxArgs<2>&, const Launch&, int, const T*, T*); \
    template void LaunchSoftmaxShortBwd<T>(const SoftmaxArgs<3>&, const Launch&, int, const T*,     \
                                           const T*, T*);
MIOPEN_CY_SOFTMAX_INSTANCE(float)
MIOPEN_CY_SOFTMAX_INSTANCE(Half)
MIOPEN_CY_SOFTMAX_INSTANCE(BFloat16)
#undef MIOPEN_CY_SOFTMAX_INSTANCE

} // namespace miopen::gpu
