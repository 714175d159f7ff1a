// Whole-tensor ops (OpTensor, axpby, fill): the entry points of the CPU kernels
// (cpu/tensor_ops.cpp) and of the GPU launchers (kernels/tensor/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

namespace miopen {

namespace cpu {
/// C = op(alpha1 * A, alpha2 * B) + beta * C; bStrides has 0 where B broadcasts.
void OpTensor(miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc, const float* A,
              float alpha2, const size_t* bStrides, const float* B, float beta,
              const TensorDescriptor& cDesc, float* C);
/// y = alpha * x + beta * y (SetTensor: x null, alpha the value; ScaleTensor: x == y, beta 0).
void Axpby(float alpha, const TensorDescriptor& xDesc, const float* x, float beta,
           const TensorDescriptor& yDesc, float* y);
void Fill(const TensorDescriptor& yDesc, float* y, float value);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/tensor/tensor_op.hip), queued on its stream.
void OpTensor(const Handle& h, miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc,
              const float* A, float alpha2, const size_t* bStrides, const float* B, float beta,
              const TensorDescriptor& cDesc, float* C);
/// `api` names the call in a launch error.
void Axpby(const Handle& h, float alpha, const TensorDescriptor& xDesc, const float* x, float beta,
           const TensorDescriptor& yDesc, float* y, const char* api);
void Fill(const Handle& h, const TensorDescriptor& yDesc, float* y, float value);
} // namespace gpu

} // namespace miopen
