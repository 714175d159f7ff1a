// Whole-tensor ops (OpTensor, axpby, fill): the entry points of the CPU kernels
// (cpu/tensor_ops.cpp) and of the GPU launchers (kernels/tensor/), templates on the storage type
// T, explicitly instantiated for float, Half and BFloat16 (Fill also for int8_t and int32_t: it
// copies the value's bits); the integer forms (OpTensorInt, AxpbyInt) for int8_t and int32_t,
// with MIOpen's wrapping integer arithmetic (tensor/int_arith.hpp) and integer scaling factors.
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <cstdint>

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
/// OpTensor on int8_t / int32_t: C = op(alpha1 * A, alpha2 * B) + beta * C, wrapping.
template <class T>
void OpTensorInt(miopenTensorOp_t op, int64_t alpha1, const TensorDescriptor& aDesc, const T* A,
                 int64_t alpha2, const size_t* bStrides, const T* B, int64_t beta,
                 const TensorDescriptor& cDesc, T* C);
/// y = alpha * x + beta * y on int8_t / int32_t, wrapping; y not read when beta == 0.
template <class T>
void AxpbyInt(int64_t alpha, const TensorDescriptor& xDesc, const T* x, int64_t beta,
              const TensorDescriptor& yDesc, T* y);
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
template <class T>
void OpTensorInt(const Handle& h, miopenTensorOp_t op, int64_t alpha1,
                 const TensorDescriptor& aDesc, const T* A, int64_t alpha2,
                 const size_t* bStrides, const T* B, int64_t beta, const TensorDescriptor& cDesc,
                 T* C);
template <class T>
void AxpbyInt(const Handle& h, int64_t alpha, const TensorDescriptor& xDesc, const T* x,
              int64_t beta, const TensorDescriptor& yDesc, T* y, const char* api);
} // namespace gpu

} // namespace miopen
