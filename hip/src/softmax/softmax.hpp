// Front door of softmax (miopenSoftmaxForward[_V2], miopenSoftmaxBackward[_V2]): validation, then
// the backend of the handle's device. MIOpen's softmax takes 4-d N, C, H, W tensors only (its
// solver ties exactly four lengths); so do we, with any strides on every tensor.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "softmax/softmax_args.hpp"

namespace miopen {

void SoftmaxForward(Handle& handle, const void* alpha, const TensorDescriptor& xDesc, const void* x,
                    const void* beta, const TensorDescriptor& yDesc, void* y,
                    miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode);

void SoftmaxBackward(Handle& handle, const void* alpha, const TensorDescriptor& yDesc,
                     const void* y, const TensorDescriptor& dyDesc, const void* dy,
                     const void* beta, const TensorDescriptor& dxDesc, void* dx,
                     miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode);

} // namespace miopen
