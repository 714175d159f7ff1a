// Convolution bias: miopenConvolutionForwardBias (y = alpha * y + alpha * b + beta * y, MIOpen's
// OpTensor Add with y as both A and C) and miopenConvolutionBackwardBias (db = alpha * sum of dy
// over N and the spatial dims + beta * db). b and db are 1xCx1x1 (1xCx1x1x1 for 5-d y).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

namespace miopen {

void ConvolutionForwardBias(Handle& handle,
                            const void* alpha,
                            const TensorDescriptor& bDesc,
                            const void* b,
                            const void* beta,
                            const TensorDescriptor& yDesc,
                            void* y);

void ConvolutionBackwardBias(Handle& handle,
                             const void* alpha,
                             const TensorDescriptor& dyDesc,
                             const void* dy,
                             const void* beta,
                             const TensorDescriptor& dbDesc,
                             void* db);

namespace cpu {
/// db[c] = alpha * sum_{n, spatial} dy[n, c, ...] + beta * db[c], sums in double, in an order
/// fixed by the shape (so any thread count gives the same bits).
void ConvolutionBackwardBias(float alpha, const TensorDescriptor& dyDesc, const float* dy,
                             float beta, const TensorDescriptor& dbDesc, float* db);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/bias/): forward through OpTensor, backward a
/// deterministic per-channel reduction (its partial sums in the handle's scratch).
void ConvolutionForwardBias(Handle& h, float alpha, const TensorDescriptor& bDesc, const float* b,
                            float beta, const TensorDescriptor& yDesc, float* y);
void ConvolutionBackwardBias(Handle& h, float alpha, const TensorDescriptor& dyDesc,
                             const float* dy, float beta, const TensorDescriptor& dbDesc,
                             float* db);
} // namespace gpu

} // namespace miopen
