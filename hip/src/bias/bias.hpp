// Convolution bias: miopenConvolutionForwardBias (y = alpha * y + alpha * b + beta * y, MIOpen's
// OpTensor Add with y as both A and C) and miopenConvolutionBackwardBias (db = alpha * sum of dy
// over N and the spatial dims + beta * db). b and db are 1xCx1x1 (1xCx1x1x1 for 5-d y).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "bias/bias_args.hpp"

namespace miopen {

void ConvolutionForwardBias(Handle& handle, const void* alpha, const TensorDescriptor& bDesc,
                            const void* b, const void* beta, const TensorDescriptor& yDesc,
                            void* y);

void ConvolutionBackwardBias(Handle& handle, const void* alpha, const TensorDescriptor& dyDesc,
                             const void* dy, const void* beta, const TensorDescriptor& dbDesc,
                             void* db);

} // namespace miopen
