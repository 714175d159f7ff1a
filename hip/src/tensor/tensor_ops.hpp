// Front door of the whole-tensor ops (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
// miopenTransformTensor): validation, then the backend of the handle's device.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "tensor/tensor_args.hpp"

namespace miopen {

void OpTensor(Handle& handle, miopenTensorOp_t op, const void* alpha1,
              const TensorDescriptor& aDesc, const void* A, const void* alpha2,
              const TensorDescriptor& bDesc, const void* B, const void* beta,
              const TensorDescriptor& cDesc, void* C);
void SetTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha);
void ScaleTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha);
void TransformTensor(Handle& handle, const void* alpha, const TensorDescriptor& xDesc,
                     const void* x, const void* beta, const TensorDescriptor& yDesc, void* y);

} // namespace miopen
