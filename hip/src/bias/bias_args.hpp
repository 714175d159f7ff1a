// Convolution bias: the entry points of the CPU kernel (cpu/bias.cpp) and of the GPU launchers
// (kernels/bias/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

namespace miopen {

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
