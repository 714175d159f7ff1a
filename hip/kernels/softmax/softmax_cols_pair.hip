// softmax_fwd_cols_pair / softmax_bwd_cols_pair: softmax.hip's columns engine (CHANNEL mode on
// NCHW: a thread per position looping over the channels, all of them in registers) for fp16 and
// bf16 with a thread per two neighbouring positions: one 4-byte load per channel brings both
// values, where the generic kernel moves 2 bytes a load. Taken by the launcher where the positions
// are unit-stride in every operand, their count, the channel and image strides are even and the
// pointers 4-byte aligned, with C <= 64. A thread keeps each channel's 4-byte word as loaded (both
// positions' stored values: 64 registers per operand at C = 64) and widens it where it is used.
// Per position the same arithmetic in the same order as softmax.hip's register path (max, then
// the sum of exp(x - m) in channel order), one rounding per output.
//   forward   y = alpha / sum * exp(x - m) (+ beta y)        LOG: y = alpha * (x - m - log sum)
//   backward  dx = alpha * y * (dy - sum y dy) (+ beta dx)    LOG: dx = alpha * (dy - exp(y) sum dy)
// The launcher passes the positions halved (the inner space counts pairs, stride 2).
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

/// The 4-byte word at p (4-byte aligned): the stored values of two neighbouring positions.
template <class T>
__device__ inline uint32_t Word(const T* p)
{
    return *reinterpret_cast<const uint32_t*>(p);
}

/// The two stored values of word u as fp32 (position 0 in the low half).
template <class T>
__device__ inline void Widen(uint32_t u, float (&v)[2])
{
    v[0] = DeviceToFloat(T{static_cast<uint16_t>(u & 0xffffu)});
    v[1] = DeviceToFloat(T{static_cast<uint16_t>(u >> 16)});
}

/// The two 16-bit values at p (4-byte aligned) as fp32.
template <class T>
__device__ inline void Load2(const T* p, float (&v)[2])
{
    Widen<T>(Word(p), v);
}

/// Rounds two fp32 values into the two 16-bit values at p (4-byte aligned).
template <class T>
__device__ inline void Store2(T* p, const float (&v)[2])
{
    *reinterpret_cast<uint32_t*>(p) =
        DeviceFloatTo<T>(v[0]).bits | (uint32_t{DeviceFloatTo<T>(v[1]).bits} << 16);
}

/// Offsets of the first position of pair t (image n, pair q) in each operand.
template <int K>
__device__ inline void PairOffsets(const SoftmaxArgs<K>& a, int64_t t, int64_t (&off)[K])
{
    const int64_t pairs = a.inner.numel;
    int64_t n;
    if(a.outer.numel * pairs <= INT32_MAX) // 32-bit division is several times cheaper
        n = static_cast<uint32_t>(t) / static_cast<uint32_t>(pairs);
    else
        n = t / pairs;
    const int64_t q = t - n * pairs;
    int64_t no[K];
    Offsets(a.outer, n, no);
#pragma unroll
    for(int k = 0; k < K; ++k)
        off[k] = no[k] + q * a.inner.strides[k][0];
}

__device__ inline int64_t Clamped(int c, int64_t C) { return c < C ? c : C - 1; }

template <class T, int RegC>
__global__ void __launch_bounds__(256)
    SoftmaxColsPairFwd(SoftmaxArgs<2> a, int algorithm, const T* x, T* y)
{
    const bool fast       = algorithm == MIOPEN_SOFTMAX_FAST;
    const bool log        = algorithm == MIOPEN_SOFTMAX_LOG;
    const bool read_y     = a.beta != 0.0f;
    const int64_t columns = a.outer.numel * a.inner.numel;
    const int64_t C       = a.c;
    const int64_t xc = a.c_stride[0], yc = a.c_stride[1];
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < columns;
        t += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t off[2];
        PairOffsets(a, t, off);
        const T* xt = x + off[0];
        T* yt       = y + off[1];
        uint32_t w[RegC];
#pragma unroll
        for(int c = 0; c < RegC; ++c)
            w[c] = Word(xt + Clamped(c, C) * xc);
        float m[2] = {0.0f, 0.0f}, sum[2] = {0.0f, 0.0f};
        if(!fast)
        {
            m[0] = m[1] = -INFINITY;
#pragma unroll
            for(int c = 0; c < RegC; ++c)
                if(c < C)
                {
                    float v[2];
                    Widen<T>(w[c], v);
                    m[0] = MaxNanOp{}(m[0], v[0]);
                    m[1] = MaxNanOp{}(m[1], v[1]);
                }
        }
#pragma unroll
        for(int c = 0; c < RegC; ++c)
            if(c < C)
            {
                float v[2];
                Widen<T>(w[c], v);
                sum[0] += expf(v[0] - m[0]);
                sum[1] += expf(v[1] - m[1]);
            }
        float scale[2], shift[2];
#pragma unroll
        for(int p = 0; p < 2; ++p)
        {
            scale[p] = a.alpha / sum[p];
            shift[p] = -a.alpha * (m[p] + logf(sum[p]));
        }
#pragma unroll
        for(int c = 0; c < RegC; ++c)
        {
            if(c >= C)
                continue;
            float v[2], r[2];
            Widen<T>(w[c], v);
#pragma unroll
            for(int p = 0; p < 2; ++p)
                r[p] = log ? a.alpha * v[p] + shift[p] : scale[p] * expf(v[p] - m[p]);
            if(read_y)
            {
                float o[2];
                Load2(yt + c * yc, o);
                r[0] += a.beta * o[0];
                r[1] += a.beta * o[1];
            }
            Store2(yt + c * yc, r);
        }
    }
}

template <class T, int RegC>
__global__ void __launch_bounds__(256)
    SoftmaxColsPairBwd(SoftmaxArgs<3> a, int algorithm, const T* y, const T* dy, T* dx)
{
    const bool log        = algorithm == MIOPEN_SOFTMAX_LOG;
    const bool read_dx    = a.beta != 0.0f;
    const int64_t columns = a.outer.numel * a.inner.numel;
    const int64_t C       = a.c;
    const int64_t ycs = a.c_stride[0], dyc = a.c_stride[1], dxc = a.c_stride[2];
    for(int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < columns;
        t += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t off[3];
        PairOffsets(a, t, off);
        const T* yt  = y + off[0];
        const T* dyt = dy + off[1];
        T* dxt       = dx + off[2];
        uint32_t yw[RegC], dw[RegC];
#pragma unroll
        for(int c = 0; c < RegC; ++c)
        {
            const int64_t cc = Clamped(c, C);
            dw[c] = Word(dyt + cc * dyc);
            yw[c] = Word(yt + cc * ycs);
        }
        float r[2] = {0.0f, 0.0f};
#pragma unroll
        for(int c = 0; c < RegC; ++c)
            if(c < C)
            {
                float yv[2], dv[2];
                Widen<T>(yw[c], yv);
                Widen<T>(dw[c], dv);
                r[0] += log ? dv[0] : yv[0] * dv[0];
                r[1] += log ? dv[1] : yv[1] * dv[1];
            }
#pragma unroll
        for(int c = 0; c < RegC; ++c)
        {
            if(c >= C)
                continue;
            float yv[2], dv[2], o[2];
            Widen<T>(yw[c], yv);
            Widen<T>(dw[c], dv);
#pragma unroll
            for(int p = 0; p < 2; ++p)
                o[p] = log ? a.alpha * (dv[p] - expf(yv[p]) * r[p]) : a.alpha * yv[p] * (dv[p] - r[p]);
            if(read_dx)
            {
                float old[2];
                Load2(dxt + c * dxc, old);
                o[0] += a.beta * old[0];
                o[1] += a.beta * old[1];
            }
            Store2(dxt + c * dxc, o);
        }
    }
}

} // namespace

template <class T>
void LaunchSoftmaxColsPairFwd(const SoftmaxArgs<2>& a, const Launch& l, int algorithm, const T* x,
                              T* y)
{
    if(a.c <= 8)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairFwd<T, 8>), l, 0, a, algorithm, x, y);
    else if(a.c <= 16)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairFwd<T, 16>), l, 0, a, algorithm, x, y);
    else if(a.c <= 24)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairFwd<T, 24>), l, 0, a, algorithm, x, y);
    else if(a.c <= 32)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairFwd<T, 32>), l, 0, a, algorithm, x, y);
    else
        MIOPEN_CY_LAUNCH((SoftmaxColsPairFwd<T, 64>), l, 0, a, algorithm, x, y);
}

template <class T>
void LaunchSoftmaxColsPairBwd(const SoftmaxArgs<3>& a, const Launch& l, int algorithm, const T* y,
                              const T* dy, T* dx)
{
    if(a.c <= 8)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairBwd<T, 8>), l, 0, a, algorithm, y, dy, dx);
    else if(a.c <= 16)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairBwd<T, 16>), l, 0, a, algorithm, y, dy, dx);
    else if(a.c <= 24)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairBwd<T, 24>), l, 0, a, algorithm, y, dy, dx);
    else if(a.c <= 32)
        MIOPEN_CY_LAUNCH((SoftmaxColsPairBwd<T, 32>), l, 0, a, algorithm, y, dy, dx);
    else
        MIOPEN_CY_LAUNCH((SoftmaxColsPairBwd<T, 64>), l, 0, a, algorithm, y, dy, dx);
}

#define MIOPEN_CY_SOFTMAX_INSTANCE(T)                                                              \
    template void LaunchSoftmaxColsPairFwd<T>(const SoftmaxArgs<2>&, const Launch&, int, const T*, \
                                              T*);                                                 \
    template void LaunchSoftmaxColsPairBwd<T>(const SoftmaxArgs<3>&, const Launch&, int, const T*, \
                                              const T*, T*);
MIOPEN_CY_SOFTMAX_INSTANCE(Half)
MIOPEN_CY_SOFTMAX_INSTANCE(BFloat16)
#undef MIOPEN_CY_SOFTMAX_INSTANCE

} // namespace miopen::gpu
