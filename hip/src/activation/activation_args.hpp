// Activation: the descriptor's parameters as the kernels use them, and the entry points of the
// CPU kernels (cpu/activation.cpp) and of the GPU launchers (kernels/activation/), templates on
// the storage type T (float, Half, BFloat16), instantiated in both.
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

namespace miopen {

/// The descriptor's parameters as the fp32 kernels use them.
struct ActivationParams
{
    miopenActivationMode_t mode;
    float alpha;
    float beta;
    float gamma;
};

namespace cpu {
/// y = alpha·f(x) + beta·y (y not read when beta == 0); x == y allowed with the same strides.
template <class T>
void ActivationForward(const ActivationParams& p, float alpha, const TensorDescriptor& xDesc,
                       const T* x, float beta, const TensorDescriptor& yDesc, T* y);
/// dx = alpha·f'(x)·dy + beta·dx (dx not read when beta == 0); dx may alias dy or x with the same
/// strides.
template <class T>
void ActivationBackward(const ActivationParams& p, float alpha, const TensorDescriptor& dyDesc,
                        const T* dy, const TensorDescriptor& xDesc, const T* x, float beta,
                        const TensorDescriptor& dxDesc, T* dx);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/activation/activation.hip), queued on its stream.
template <class T>
void ActivationForward(const Handle& h, const ActivationParams& p, float alpha,
                       const TensorDescriptor& xDesc, const T* x, float beta,
                       const TensorDescriptor& yDesc, T* y);
template <class T>
void ActivationBackward(const Handle& h, const ActivationParams& p, float alpha,
                        const TensorDescriptor& dyDesc, const T* dy,
                        const TensorDescriptor& xDesc, const T* x, float beta,
                        const TensorDescriptor& dxDesc, T* dx);
} // namespace gpu

} // namespace miopen
