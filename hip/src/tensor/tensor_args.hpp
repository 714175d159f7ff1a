// Whole-tensor ops (OpTensor, axpby, fill): the entry points of the CPU kernels
// (cpu/tensor_ops.cpp) and of the GPU launchers (kernels/tensor/), templates on the storage type
// T, explicitly instantiated for float, Half and BFloat16 (Fill also for int8_t and int32_t: it
// copies the value's bits). Device-neutral: the front door, the CPU kernels and the GPU launchers
// include it.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

namespace miopen {

namespace cpu {
/// C = op(alpha1 * A, alpha2 * B) + beta * C; bStrides has 0 where B broadcasts.
template <class T>
void OpTensor(miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc, const T* A,
              float alpha2, const size_t* bStrides, const T* B, float beta,
              const TensorDescriptor& cDesc, T* C);
/// y = alpha * x + beta * y (ScaleTensor: x == y, beta 0).
template <class T>
void Axpby(float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
           const TensorDescriptor& yDesc, T* y);
/// Every element of y = value (its bits).
template <class T>
void Fill(const TensorDescriptor& yDesc, T* y, T value);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/tensor/tensor_op.hip), queued on its stream.
template <class T>
void OpTensor(const Handle& h, miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc,
              const T* A, float alpha2, const size_t* bStrides, const T* B, float beta,
              const TensorDescriptor& cDesc, T* C);
/// `api` names the call in a launch error.
template <class T>
void Axpby(const Handle& h, float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
           const TensorDescriptor& yDesc, T* y, const char* api);
template <class T>
void Fill(const Handle& h, const TensorDescriptor& yDesc, T* y, T value);
} // namespace gpu

} // namespace miopen
