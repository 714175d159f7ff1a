// tensor_op: the whole-tensor ops (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
// miopenTransformTensor) as functors on the element-wise engine (common/elementwise.hpp), for
// fp32, fp16 and bf16: any strides, B broadcast through stride 0, 16-byte rows on packed tensors;
// OpTensorChannel for a per-channel B over packed 16-bit A and C. int8 and int32: OpTensorIntK and
// AxpbyIntK, MIOpen's wrapping integer arithmetic (tensor/int_arith.hpp), one element a thread.
// Semantics are the CPU kernels' (cpu/tensor_ops.cpp): min/max as std::min/std::max, C not read
// when beta == 0. SetTensor is FillBits: the value's bits, for every storage type.
#include "kernels/common/elementwise.hpp"
#include "kernels/common/packed_map.hpp"
#include "kernels/tensor/tensor_op_kernels.hpp"
#include "tensor/int_arith.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

template <int Op>
struct OpTensorF
{
    float alpha1, alpha2;
    __device__ float operator()(const float* v) const
    {
        const float a = alpha1 * v[0];
        const float b = alpha2 * v[1];
        if(Op == miopenTensorOpAdd)
            return a + b;
        if(Op == miopenTensorOpMul)
            return a * b;
        if(Op == miopenTensorOpMin)
            return b < a ? b : a; // std::min(a, b)
        return a < b ? b : a;     // std::max(a, b)
    }
};

struct AxpbyF
{
    float alpha;
    __device__ float operator()(const float* v) const { return alpha * v[0]; }
};

/// fp32 keeps the rows engine it was measured with; the 16-bit types take MapPacked where the
/// operands are packed (16 bytes a thread per operand, fewer registers), else the same engine.
template <int NIn, class T, class F>
void LaunchTensorMap(const MapArgs<NIn, T>& a, const Launch& l, bool read_out, F f)
{
    if constexpr(sizeof(T) == 4)
        LaunchMap(a, l, read_out, f);
    else
        LaunchMapPackedOr(a, l, read_out, f);
}

template <class T, bool ReadOut, class F>
__global__ void __launch_bounds__(kOpChannelThreads) OpTensorChannel(OpTensorChannelArgs<T> p, F f)
{
    constexpr int W     = kVecOf<T>;
    const int64_t plane = blockIdx.x / p.chunks; // n * C + c
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q;
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    const T* a          = p.a + plane * p.plane_q * W;
    T* c                = p.c + plane * p.plane_q * W;
    const float b       = LoadFloat(p.b + (plane % p.channels) * p.b_stride);
    for(int64_t q0 = begin + threadIdx.x; q0 < end;
        q0 += int64_t{kOpChannelThreads} * kOpChannelUnroll)
    {
        float v[kOpChannelUnroll][W];
        float o[kOpChannelUnroll][W];
#pragma unroll
        for(int u = 0; u < kOpChannelUnroll; ++u)
        {
            const int64_t q = q0 + u * kOpChannelThreads;
            if(q >= end)
                continue;
            LoadVec<T, W>(a + q * W, v[u]);
            if(ReadOut)
                LoadVec<T, W>(c + q * W, o[u]);
        }
#pragma unroll
        for(int u = 0; u < kOpChannelUnroll; ++u)
        {
            const int64_t q = q0 + u * kOpChannelThreads;
            if(q >= end)
                continue;
            float r[W];
#pragma unroll
            for(int j = 0; j < W; ++j)
            {
                const float x[2] = {v[u][j], b};
                r[j]             = f(x);
                if(ReadOut)
                    r[j] += p.beta * o[u][j]; // MapVec's blend
            }
            StoreVec<T, W>(c + q * W, r);
        }
    }
}

template <class T, class F>
void LaunchChannel(const OpTensorChannelArgs<T>& p, const Launch& l, F f)
{
    if(p.beta != 0.0f)
        MIOPEN_CY_LAUNCH((OpTensorChannel<T, true, F>), l, 0, p, f);
    else
        MIOPEN_CY_LAUNCH((OpTensorChannel<T, false, F>), l, 0, p, f);
}

template <class T>
__global__ void __launch_bounds__(kMapThreads)
    OpTensorIntK(StridedSpace<3> s, int op, int64_t alpha1, const T* A, int64_t alpha2, const T* B,
                 int64_t beta, T* C)
{
    const int64_t step = int64_t{gridDim.x} * blockDim.x;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < s.numel; i += step)
    {
        int64_t off[3];
        Offsets(s, i, off);
        const T r = OpInt<T>(op, ScaleInt(alpha1, A[off[0]]), ScaleInt(alpha2, B[off[1]]));
        C[off[2]] = beta == 0 ? r : BlendInt(r, beta, C[off[2]]);
    }
}

template <class T>
__global__ void __launch_bounds__(kMapThreads)
    AxpbyIntK(StridedSpace<2> s, int64_t alpha, const T* x, int64_t beta, T* y)
{
    const int64_t step = int64_t{gridDim.x} * blockDim.x;
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < s.numel; i += step)
    {
        int64_t off[2];
        Offsets(s, i, off);
        const T r = ScaleInt(alpha, x[off[0]]);
        y[off[1]] = beta == 0 ? r : BlendInt(r, beta, y[off[1]]);
    }
}

template <class T>
__global__ void __launch_bounds__(kMapThreads) FillBits(StridedSpace<1> s, T* y, T value)
{
    const int64_t step = int64_t{gridDim.x} * blockDim.x;
    const int64_t t0   = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if(s.ndim == 1 && s.strides[0][0] == 1 && (reinterpret_cast<uintptr_t>(y) & 15) == 0)
    {
        constexpr int W = static_cast<int>(16 / sizeof(T));
        union
        {
            T e[W];
            uint4 q;
        } u;
#pragma unroll
        for(int j = 0; j < W; ++j)
            u.e[j] = value;
        const int64_t nq = s.numel / W;
        for(int64_t i = t0; i < nq; i += step)
            reinterpret_cast<uint4*>(y)[i] = u.q;
        for(int64_t i = nq * W + t0; i < s.numel; i += step)
            y[i] = value;
        return;
    }
    for(int64_t i = t0; i < s.numel; i += step)
    {
        int64_t off[1];
        Offsets(s, i, off);
        y[off[0]] = value;
    }
}

} // namespace

template <class T>
void LaunchOpTensor(const MapArgs<2, T>& a, const Launch& l, int op, float alpha1, float alpha2,
                    bool read_out)
{
    switch(op)
    {
    case miopenTensorOpAdd:
        return LaunchTensorMap(a, l, read_out, OpTensorF<miopenTensorOpAdd>{alpha1, alpha2});
    case miopenTensorOpMul:
        return LaunchTensorMap(a, l, read_out, OpTensorF<miopenTensorOpMul>{alpha1, alpha2});
    case miopenTensorOpMin:
        return LaunchTensorMap(a, l, read_out, OpTensorF<miopenTensorOpMin>{alpha1, alpha2});
    default:
        return LaunchTensorMap(a, l, read_out, OpTensorF<miopenTensorOpMax>{alpha1, alpha2});
    }
}

template <class T>
void LaunchOpTensorChannel(const OpTensorChannelArgs<T>& p, const Launch& l, int op, float alpha1,
                           float alpha2)
{
    switch(op)
    {
    case miopenTensorOpAdd:
        return LaunchChannel(p, l, OpTensorF<miopenTensorOpAdd>{alpha1, alpha2});
    case miopenTensorOpMul:
        return LaunchChannel(p, l, OpTensorF<miopenTensorOpMul>{alpha1, alpha2});
    case miopenTensorOpMin:
        return LaunchChannel(p, l, OpTensorF<miopenTensorOpMin>{alpha1, alpha2});
    default: return LaunchChannel(p, l, OpTensorF<miopenTensorOpMax>{alpha1, alpha2});
    }
}

template <class T>
void LaunchAxpby(const MapArgs<1, T>& a, const Launch& l, float alpha, bool read_out)
{
    LaunchTensorMap(a, l, read_out, AxpbyF{alpha});
}

template <class T>
void LaunchOpTensorInt(const StridedSpace<3>& s, const Launch& l, int op, int64_t alpha1,
                       const T* A, int64_t alpha2, const T* B, int64_t beta, T* C)
{
    MIOPEN_CY_LAUNCH(OpTensorIntK<T>, l, 0, s, op, alpha1, A, alpha2, B, beta, C);
}

template <class T>
void LaunchAxpbyInt(const StridedSpace<2>& s, const Launch& l, int64_t alpha, const T* x,
                    int64_t beta, T* y)
{
    MIOPEN_CY_LAUNCH(AxpbyIntK<T>, l, 0, s, alpha, x, beta, y);
}

template <class T>
void LaunchFill(const StridedSpace<1>& s, const Launch& l, T* y, T value)
{
    MIOPEN_CY_LAUNCH(FillBits<T>, l, 0, s, y, value);
}

#define MIOPEN_CY_TENSOR_KERNELS(T)                                                               \
    template void LaunchOpTensor<T>(const MapArgs<2, T>&, const Launch&, int, float, float, bool); \
    template void LaunchAxpby<T>(const MapArgs<1, T>&, const Launch&, float, bool);               \
    template void LaunchOpTensorChannel<T>(const OpTensorChannelArgs<T>&, const Launch&, int,     \
                                           float, float);
MIOPEN_CY_TENSOR_KERNELS(float)
MIOPEN_CY_TENSOR_KERNELS(Half)
MIOPEN_CY_TENSOR_KERNELS(BFloat16)
#undef MIOPEN_CY_TENSOR_KERNELS
#define MIOPEN_CY_TENSOR_INT_KERNELS(T)                                                           \
    template void LaunchOpTensorInt<T>(const StridedSpace<3>&, const Launch&, int, int64_t,       \
                                       const T*, int64_t, const T*, int64_t, T*);                 \
    template void LaunchAxpbyInt<T>(const StridedSpace<2>&, const Launch&, int64_t, const T*,     \
                                    int64_t, T*);
MIOPEN_CY_TENSOR_INT_KERNELS(int8_t)
MIOPEN_CY_TENSOR_INT_KERNELS(int32_t)
#undef MIOPEN_CY_TENSOR_INT_KERNELS
template void LaunchFill<float>(const StridedSpace<1>&, const Launch&, float*, float);
template void LaunchFill<Half>(const StridedSpace<1>&, const Launch&, Half*, Half);
template void LaunchFill<BFloat16>(const StridedSpace<1>&, const Launch&, BFloat16*, BFloat16);
template void LaunchFill<int8_t>(const StridedSpace<1>&, const Launch&, int8_t*, int8_t);
template void LaunchFill<int32_t>(const StridedSpace<1>&, const Launch&, int32_t*, int32_t);

} // namespace miopen::gpu
