// Softmax: the entry points of the CPU kernels (cpu/softmax.cpp) and of the GPU launchers
// (kernels/softmax/), templates on the storage type T (float, Half, BFloat16; arithmetic in fp32,
// one rounding to T per output), instantiated for the three types beside their definitions.
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

namespace miopen {

namespace cpu {
/// y = alpha * softmax(x) + beta * y (FAST / ACCURATE) or alpha * log_softmax(x) + beta * y (LOG),
/// over C per (n, h, w) (CHANNEL) or over C*H*W per n (INSTANCE). Never reads y when beta == 0.
template <class T>
void SoftmaxForward(miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode, float alpha,
                    const TensorDescriptor& xDesc, const T* x, float beta,
                    const TensorDescriptor& yDesc, T* y);
/// dx = alpha * y * (dy - sum(y * dy)) + beta * dx (FAST / ACCURATE) or
/// dx = alpha * (dy - exp(y) * sum(dy)) + beta * dx (LOG), the sums over the softmax's extent.
template <class T>
void SoftmaxBackward(miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode, float alpha,
                     const TensorDescriptor& yDesc, const T* y,
                     const TensorDescriptor& dyDesc, const T* dy, float beta,
                     const TensorDescriptor& dxDesc, T* dx);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/softmax/softmax.hip), queued on its stream.
template <class T>
void SoftmaxForward(const Handle& h, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode,
                    float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
                    const TensorDescriptor& yDesc, T* y);
template <class T>
void SoftmaxBackward(const Handle& h, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode,
                     float alpha, const TensorDescriptor& yDesc, const T* y,
                     const TensorDescriptor& dyDesc, const T* dy, float beta,
                     const TensorDescriptor& dxDesc, T* dx);
} // namespace gpu

} // namespace miopen
