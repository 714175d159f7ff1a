// tensor_op: the whole-tensor ops (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
// miopenTransformTensor) as functors on the element-wise engine (common/elementwise.hpp): any
// strides, B broadcast through stride 0, float4 rows on packed tensors. Semantics are the CPU
// kernels' (cpu/tensor_ops.cpp): min/max as std::min/std::max, C not read when beta == 0.
#include "kernels/common/elementwise.hpp"
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

struct FillF
{
    float value;
    __device__ float operator()(const float*) const { return value; }
};

} // namespace

void LaunchOpTensor(const MapArgs<2>& a, const Launch& l, int op, float alpha1, float alpha2,
                    bool read_out)
{
    switch(op)
    {
    case miopenTensorOpAdd:
        return LaunchMap(a, l, read_out, OpTensorF<miopenTensorOpAdd>{alpha1, alpha2});
    case miopenTensorOpMul:
        return LaunchMap(a, l, read_out, OpTensorF<miopenTensorOpMul>{alpha1, alpha2});
    case miopenTensorOpMin:
        return LaunchMap(a, l, read_out, OpTensorF<miopenTensorOpMin>{alpha1, alpha2});
    default: return LaunchMap(a, l, read_out, OpTensorF<miopenTensorOpMax>{alpha1, alpha2});
    }
}

void LaunchAxpby(const MapArgs<1>& a, const Launch& l, float alpha, bool read_out)
{
    LaunchMap(a, l, read_out, AxpbyF{alpha});
}

void LaunchFill(const MapArgs<0>& a, const Launch& l, float value)
{
    LaunchMap(a, l, false, FillF{value});
}

} // namespace miopen::gpu
