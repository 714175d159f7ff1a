// Activation: the descriptor's parameters as the kernels use them, and the entry points of the
// CPU kernels (cpu/activation.cpp) and of the GPU launchers (kernels/activation/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
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
void ActivationForward(const ActivationParams& p, float alpha, const TensorDescriptor& xDesc,
                       const float* x, float beta, const TensorDescriptor& yDesc, float* y);
/// dx = alpha·f'(x)·dy + beta·dx (dx not read when beta == 0); dx may alias dy or x with the same
/// strides.
void ActivationBackward(const ActivationParams& p, float alpha, const TensorDescriptor& dyDesc,
                        const float* dy, const TensorDescriptor& xDesc, const float* x, float beta,
                        const TensorDescriptor& dxDesc, float* dx);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/activation/activation.hip), queued on its stream.
void ActivationForward(const Handle& h, const ActivationParams& p, float alpha,
                       const TensorDescriptor& xDesc, const float* x, float beta,
                       const TensorDescriptor& yDesc, float* y);
void ActivationBackward(const Handle& h, const ActivationParams& p, float alpha,
                        const TensorDescriptor& dyDesc, const float* dy,
                        const TensorDescriptor& xDesc, const float* x, float beta,
                        const TensorDescriptor& dxDesc, float* dx);
} // namespace gpu

} // namespace miopen
