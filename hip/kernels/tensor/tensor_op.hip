// tensor_op: the whole-tensor ops (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
// miopenTransformTensor) as functors on the element-wise engine (common/elementwise.hpp), for
// fp32, fp16 and bf16: any strides, B broadcast through stride 0, 16-byte rows on packed tensors.
// Semantics are the CPU kernels' (cpu/tensor_ops.cpp): min/max as std::min/std::max, C not read
// when beta == 0. SetTensor is FillBits: the value's bits, for every storage type.
#include "kernels/common/elementwise.hpp"
#include "kernels/common/packed_map.hpp"
#include "kernels/tensor/tensor_op_kernels.hpp"

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
void LaunchAxpby(const MapArgs<1, T>& a, const Launch& l, float alpha, bool read_out)
{
    LaunchTensorMap(a, l, read_out, AxpbyF{alpha});
}

template <class T>
void LaunchFill(const StridedSpace<1>& s, const Launch& l, T* y, T value)
{
    MIOPEN_CY_LAUNCH(FillBits<T>, l, 0, s, y, value);
}

#define MIOPEN_CY_TENSOR_KERNELS(T)                                                               \
    template void LaunchOpTensor<T>(const MapArgs<2, T>&, const Launch&, int, float, float, bool); \
    template void LaunchAxpby<T>(const MapArgs<1, T>&, const Launch&, float, bool);
MIOPEN_CY_TENSOR_KERNELS(float)
MIOPEN_CY_TENSOR_KERNELS(Half)
MIOPEN_CY_TENSOR_KERNELS(BFloat16)
#undef MIOPEN_CY_TENSOR_KERNELS
template void LaunchFill<float>(const StridedSpace<1>&, const Launch&, float*, float);
template void LaunchFill<Half>(const StridedSpace<1>&, const Launch&, Half*, Half);
template void LaunchFill<BFloat16>(const StridedSpace<1>&, const Launch&, BFloat16*, BFloat16);
template void LaunchFill<int8_t>(const StridedSpace<1>&, const Launch&, int8_t*, int8_t);
template void LaunchFill<int32_t>(const StridedSpace<1>&, const Launch&, int32_t*, int32_t);

} // namespace miopen::gpu
