// Convolution bias: the entry points of the CPU kernel (cpu/bias.cpp) and of the GPU launchers
// (kernels/bias/), templates on the storage type T (float, Half, BFloat16).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

namespace miopen {

namespace cpu {
/// db[c] = alpha * sum_{n, spatial} dy[n, c, ...] + beta * db[c], sums in double, in an order
/// fixed by the shape (so any thread count gives the same bits).
template <class T>
void ConvolutionBackwardBias(float alpha, const TensorDescriptor& dyDesc, const T* dy,
                             float beta, const TensorDescriptor& dbDesc, T* db);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/bias/): forward through OpTensor, backward a
/// deterministic per-channel reduction (its partial sums in the handle's scratch).
template <class T>
void ConvolutionForwardBias(Handle& h, float alpha, const TensorDescriptor& bDesc, const T* b,
                            float beta, const TensorDescriptor& yDesc, T* y);
template <class T>
void ConvolutionBackwardBias(Handle& h, float alpha, const TensorDescriptor& dyDesc, const T* dy,
                             float beta, const TensorDescriptor& dbDesc, T* db);
} // namespace gpu

} // namespace miopen
