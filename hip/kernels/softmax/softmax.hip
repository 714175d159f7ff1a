// softmax_fwd / softmax_bwd: every algorithm (FAST: no max subtraction, ACCURATE, LOG) and mode
// (INSTANCE over C*H*W, CHANNEL over C), any strides, the formulas of the CPU kernels
// (cpu/softmax.cpp):
//   forward   y = alpha / sum * exp(x - m) (+ beta y)        LOG: y = alpha * (x - m - log sum)
//   backward  dx = alpha * y * (dy - sum y dy) (+ beta dx)    LOG: dx = alpha * (dy - exp(y) sum dy)
// Two engines. Rows: one block per softmax; each thread walks elements tid, tid + blockDim, ...
// and the block folds max and sums by a fixed tree (deterministic). Columns (CHANNEL mode with C
// not the unit-stride dim, NCHW): one thread per (image, position), looping over the channels,
// so a warp reads 32 neighbouring positions of a channel at once; up to kRegC channels are kept
// in registers (x read once), more are read again per pass. The register path is instantiated
// for RegC = 8, 16, 24, 32 (the smallest that holds C) and loads all RegC channels before any
// use, channels past C clamped to C - 1 (a re-read of a line already in flight): loads under an
// `if(c < C)` would be issued one channel at a time, each waiting for the last (backward read
// 2 loads per round trip, 0.34 of the copy bandwidth on an H200). The sums keep their order.
// The backward also keeps up to kRegCBwd channels (bucket 64: y and dy read once; at C = 64 the
// two passes over them re-read the data past L2, 0.41 of copy for fp16 on an H200).
// Every kernel is a template on the storage type T (float, Half, BFloat16): loads widen to fp32,
// the arithmetic is fp32, and each output is rounded once to T (StoreFloat).
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kRegC    = 32;
constexpr int kRegCBwd = 64;

template <int K>
__device__ inline int64_t InnerOffset(const StridedSpace<K>& s, int64_t i, int k)
{
    if(s.ndim == 1)
        return i * s.strides[k][0];
    int64_t off[K];
    Offsets(s, i, off);
    return off[k];
}

// ---- rows -----------------------------------------------------------------------------------

template <class T, int Algo, bool ReadY>
__global__ void SoftmaxRowsFwd(SoftmaxArgs<2> a, const T* x, T* y)
{
    __shared__ float shared[kMaxWarpsPerBlock];
    constexpr bool kFast = Algo == MIOPEN_SOFTMAX_FAST;
    constexpr bool kLog  = Algo == MIOPEN_SOFTMAX_LOG;
    const int64_t len    = a.inner.numel;
    for(int64_t g = blockIdx.x; g < a.outer.numel; g += gridDim.x)
    {
        int64_t goff[2];
        Offsets(a.outer, g, goff);
        const T* xg = x + goff[0];
        T* yg       = y + goff[1];
        float m     = 0.0f;
        if(!kFast)
        {
            float t = -INFINITY;
            for(int64_t i = threadIdx.x; i < len; i += blockDim.x)
                t = MaxNanOp{}(t, LoadFloat(xg + InnerOffset(a.inner, i, 0)));
            m = BlockReduce(t, MaxNanOp{}, shared);
        }
        float t = 0.0f;
        for(int64_t i = threadIdx.x; i < len; i += blockDim.x)
            t += expf(LoadFloat(xg + InnerOffset(a.inner, i, 0)) - m);
        const float sum = BlockReduce(t, SumOp<float>{}, shared);
        const float scale = a.alpha / sum;
        const float shift = -a.alpha * (m + logf(sum));
        for(int64_t i = threadIdx.x; i < len; i += blockDim.x)
        {
            const float v = LoadFloat(xg + InnerOffset(a.inner, i, 0));
            T* o          = yg + InnerOffset(a.inner, i, 1);
            const float r = kLog ? a.alpha * v + shift : scale * expf(v - m);
            StoreFloat(o, ReadY ? r + a.beta * LoadFloat(o) : r);
        }
    }
}

template <class T, bool Log, bool ReadDx>
__global__ void SoftmaxRowsBwd(SoftmaxArgs<3> a, const T* y, const T* dy, T* dx)
{
    __shared__ float shared[kMaxWarpsPerBlock];
    const int64_t len = a.inner.numel;
    for(int64_t g = blockIdx.x; g < a.outer.numel; g += gridDim.x)
    {
        int64_t goff[3];
        Offsets(a.outer, g, goff);
        const T* yg  = y + goff[0];
        const T* dyg = dy + goff[1];
        T* dxg       = dx + goff[2];
        float t      = 0.0f;
        for(int64_t i = threadIdx.x; i < len; i += blockDim.x)
        {
            const float d = LoadFloat(dyg + InnerOffset(a.inner, i, 1));
            t += Log ? d : LoadFloat(yg + InnerOffset(a.inner, i, 0)) * d;
        }
        const float r = BlockReduce(t, SumOp<float>{}, shared);
        for(int64_t i = threadIdx.x; i < len; i += blockDim.x)
        {
            const float yv = LoadFloat(yg + InnerOffset(a.inner, i, 0));
            const float d  = LoadFloat(dyg + InnerOffset(a.inner, i, 1));
            T* o           = dxg + InnerOffset(a.inner, i, 2);
            const float v  = Log ? a.alpha * (d - expf(yv) * r) : a.alpha * yv * (d - r);
            StoreFloat(o, ReadDx ? v + a.beta * LoadFloat(o) : v);
        }
    }
}

// ---- columns --------------------------------------------------------------------------------

/// Offsets of column t (image n, position q) in each operand.
template <int K>
__device__ inline void ColumnOffsets(const SoftmaxArgs<K>& a, int64_t t, int64_t (&off)[K])
{
    const int64_t positions = a.inner.numel;
    int64_t n, q;
    if(a.outer.numel * positions <= INT32_MAX)
    {
        // 32-bit division is several times cheaper than 64-bit.
        const uint32_t n32 = static_cast<uint32_t>(t) / static_cast<uint32_t>(positions);
        n                  = n32;
        q                  = t - n * positions;
    }
    else
    {
        n = t / positions;
        q = t - n * positions;
    }
    int64_t no[K], qo[K];
    Offsets(a.outer, n, no);
    Offsets(a.inner, q, qo);
#pragma unroll
    for(int k = 0; k < K; ++k)
        off[k] = no[k] + qo[k];
}

/// Channel c of RegC clamped into [0, C): the register paths load every one of their RegC
/// channels unconditionally, so that all loads are in flight before the first use.
__device__ inline int64_t Clamped(int c, int64_t C) { return c < C ? c : C - 1; }

/// RegC > 0: x held in RegC registers (C <= RegC); 0: x read again per pass.
template <class T, int Algo, bool ReadY, int RegC>
__global__ void __launch_bounds__(256) SoftmaxColsFwd(SoftmaxArgs<2> a, const T* x, T* y)
{
    constexpr bool kFast  = Algo == MIOPEN_SOFTMAX_FAST;
    constexpr bool kLog   = Algo == MIOPEN_SOFTMAX_LOG;
    constexpr bool InRegs = RegC > 0;
    const int64_t columns = a.outer.numel * a.inner.numel;
    const int64_t C       = a.c;
    const int64_t xc = a.c_stride[0], yc = a.c_stride[1];
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < columns;
        t += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t off[2];
        ColumnOffsets(a, t, off);
        const T* xt = x + off[0];
        T* yt       = y + off[1];
        float v[InRegs ? RegC : 1];
        if(InRegs)
        {
#pragma unroll
            for(int c = 0; c < RegC; ++c)
                v[c] = LoadFloat(xt + Clamped(c, C) * xc);
        }
        float m = 0.0f;
        if(!kFast)
        {
            m = -INFINITY;
            if(InRegs)
            {
#pragma unroll
                for(int c = 0; c < RegC; ++c)
                    if(c < C)
                        m = MaxNanOp{}(m, v[c]);
            }
            else
                for(int64_t c = 0; c < C; ++c)
                    m = MaxNanOp{}(m, LoadFloat(xt + c * xc));
        }
        float sum = 0.0f;
        if(InRegs)
        {
#pragma unroll
            for(int c = 0; c < RegC; ++c)
                if(c < C)
                    sum += expf(v[c] - m);
        }
        else
            for(int64_t c = 0; c < C; ++c)
                sum += expf(LoadFloat(xt + c * xc) - m);
        const float scale = a.alpha / sum;
        const float shift = -a.alpha * (m + logf(sum));
        auto write = [&](int64_t c, float xv) {
            T* o          = yt + c * yc;
            const float r = kLog ? a.alpha * xv + shift : scale * expf(xv - m);
            StoreFloat(o, ReadY ? r + a.beta * LoadFloat(o) : r);
        };
        if(InRegs)
        {
#pragma unroll
            for(int c = 0; c < RegC; ++c)
                if(c < C)
                    write(c, v[c]);
        }
        else
            for(int64_t c = 0; c < C; ++c)
                write(c, LoadFloat(xt + c * xc));
    }
}

template <class T, bool Log, bool ReadDx, int RegC>
__global__ void __launch_bounds__(256)
    SoftmaxColsBwd(SoftmaxArgs<3> a, const T* y, const T* dy, T* dx)
{
    constexpr bool InRegs = RegC > 0;
    const int64_t columns = a.outer.numel * a.inner.numel;
    const int64_t C       = a.c;
    const int64_t ycs = a.c_stride[0], dyc = a.c_stride[1], dxc = a.c_stride[2];
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < columns;
        t += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t off[3];
        ColumnOffsets(a, t, off);
        const T* yt  = y + off[0];
        const T* dyt = dy + off[1];
        T* dxt       = dx + off[2];
        float yv[InRegs ? RegC : 1], dv[InRegs ? RegC : 1];
        float r = 0.0f;
        if(InRegs)
        {
#pragma unroll
            for(int c = 0; c < RegC; ++c)
            {
                const int64_t cc = Clamped(c, C);
                dv[c]            = LoadFloat(dyt + cc * dyc);
                yv[c]            = LoadFloat(yt + cc * ycs);
            }
#pragma unroll
            for(int c = 0; c < RegC; ++c)
                if(c < C)
                    r += Log ? dv[c] : yv[c] * dv[c];
        }
        else
            for(int64_t c = 0; c < C; ++c)
                r += Log ? LoadFloat(dyt + c * dyc)
                         : LoadFloat(yt + c * ycs) * LoadFloat(dyt + c * dyc);
        auto write = [&](int64_t c, float yvc, float d) {
            T* o          = dxt + c * dxc;
            const float v = Log ? a.alpha * (d - expf(yvc) * r) : a.alpha * yvc * (d - r);
            StoreFloat(o, ReadDx ? v + a.beta * LoadFloat(o) : v);
        };
        if(InRegs)
        {
#pragma unroll
            for(int c = 0; c < RegC; ++c)
                if(c < C)
                    write(c, yv[c], dv[c]);
        }
        else
            for(int64_t c = 0; c < C; ++c)
                write(c, LoadFloat(yt + c * ycs), LoadFloat(dyt + c * dyc));
    }
}

/// The register bucket of C channels: 8, 16, 24 or 32, 0 past kRegC; the backward's adds 64.
inline int RegBucket(int64_t c) { return c <= 8 ? 8 : c <= 16 ? 16 : c <= 24 ? 24 : c <= kRegC ? 32 : 0; }
inline int RegBucketBwd(int64_t c) { return c <= kRegC ? RegBucket(c) : c <= kRegCBwd ? 64 : 0; }

template <class T, int Algo, bool ReadY>
void ColsFwd(const SoftmaxArgs<2>& a, const Launch& l, const T* x, T* y)
{
    switch(RegBucket(a.c))
    {
    case 8: MIOPEN_CY_LAUNCH((SoftmaxColsFwd<T, Algo, ReadY, 8>), l, 0, a, x, y); break;
    case 16: MIOPEN_CY_LAUNCH((SoftmaxColsFwd<T, Algo, ReadY, 16>), l, 0, a, x, y); break;
    case 24: MIOPEN_CY_LAUNCH((SoftmaxColsFwd<T, Algo, ReadY, 24>), l, 0, a, x, y); break;
    case 32: MIOPEN_CY_LAUNCH((SoftmaxColsFwd<T, Algo, ReadY, 32>), l, 0, a, x, y); break;
    default: MIOPEN_CY_LAUNCH((SoftmaxColsFwd<T, Algo, ReadY, 0>), l, 0, a, x, y); break;
    }
}

template <class T, bool Log, bool ReadDx>
void ColsBwd(const SoftmaxArgs<3>& a, const Launch& l, const T* y, const T* dy, T* dx)
{
    switch(RegBucketBwd(a.c))
    {
    case 8: MIOPEN_CY_LAUNCH((SoftmaxColsBwd<T, Log, ReadDx, 8>), l, 0, a, y, dy, dx); break;
    case 16: MIOPEN_CY_LAUNCH((SoftmaxColsBwd<T, Log, ReadDx, 16>), l, 0, a, y, dy, dx); break;
    case 24: MIOPEN_CY_LAUNCH((SoftmaxColsBwd<T, Log, ReadDx, 24>), l, 0, a, y, dy, dx); break;
    case 32: MIOPEN_CY_LAUNCH((SoftmaxColsBwd<T, Log, ReadDx, 32>), l, 0, a, y, dy, dx); break;
    case 64: MIOPEN_CY_LAUNCH((SoftmaxColsBwd<T, Log, ReadDx, 64>), l, 0, a, y, dy, dx); break;
    default: MIOPEN_CY_LAUNCH((SoftmaxColsBwd<T, Log, ReadDx, 0>), l, 0, a, y, dy, dx); break;
    }
}

template <class T, int Algo>
void Forward(const SoftmaxArgs<2>& a, const Launch& l, bool rows, const T* x, T* y)
{
    const bool read = a.beta != 0.0f;
    if(rows)
    {
        if(read)
            MIOPEN_CY_LAUNCH((SoftmaxRowsFwd<T, Algo, true>), l, 0, a, x, y);
        else
            MIOPEN_CY_LAUNCH((SoftmaxRowsFwd<T, Algo, false>), l, 0, a, x, y);
    }
    else if(read)
        ColsFwd<T, Algo, true>(a, l, x, y);
    else
        ColsFwd<T, Algo, false>(a, l, x, y);
}

template <class T, bool Log>
void Backward(const SoftmaxArgs<3>& a, const Launch& l, bool rows, const T* y, const T* dy,
              T* dx)
{
    const bool read = a.beta != 0.0f;
    if(rows)
    {
        if(read)
            MIOPEN_CY_LAUNCH((SoftmaxRowsBwd<T, Log, true>), l, 0, a, y, dy, dx);
        else
            MIOPEN_CY_LAUNCH((SoftmaxRowsBwd<T, Log, false>), l, 0, a, y, dy, dx);
    }
    else if(read)
        ColsBwd<T, Log, true>(a, l, y, dy, dx);
    else
        ColsBwd<T, Log, false>(a, l, y, dy, dx);
}

} // namespace

template <class T>
void LaunchSoftmaxFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, bool rows,
                      const T* x, T* y)
{
    switch(algorithm)
    {
    case MIOPEN_SOFTMAX_FAST: return Forward<T, MIOPEN_SOFTMAX_FAST>(a, l, rows, x, y);
    case MIOPEN_SOFTMAX_LOG: return Forward<T, MIOPEN_SOFTMAX_LOG>(a, l, rows, x, y);
    default: return Forward<T, MIOPEN_SOFTMAX_ACCURATE>(a, l, rows, x, y);
    }
}

template <class T>
void LaunchSoftmaxBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, bool rows,
                      const T* y, const T* dy, T* dx)
{
    if(algorithm == MIOPEN_SOFTMAX_LOG)
        Backward<T, true>(a, l, rows, y, dy, dx);
    else
        Backward<T, false>(a, l, rows, y, dy, dx);
}

#define MIOPEN_CY_SOFTMAX_INSTANCE(T)                                                              \
    template void LaunchSoftmaxFwd<T>(const SoftmaxArgs<2>&, const Launch&, int, bool, const T*,    \
                                      T*);                                                         \
    template void LaunchSoftmaxBwd<T>(const SoftmaxArgs<3>&, const Launch&, int, bool, const T*,    \
                                      const T*, T*);
MIOPEN_CY_SOFTMAX_INSTANCE(float)
MIOPEN_CY_SOFTMAX_INSTANCE(Half)
MIOPEN_CY_SOFTMAX_INSTANCE(BFloat16)
#undef MIOPEN_CY_SOFTMAX_INSTANCE

} // namespace miopen::gpu
