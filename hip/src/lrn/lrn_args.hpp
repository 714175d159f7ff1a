// LRN: the descriptor's values as the kernels use them, and the entry points of the CPU kernels
// (cpu/lrn.cpp) and of the GPU launchers (kernels/lrn/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

namespace miopen {

/// An LRN descriptor's values (LRNDescriptor::Params()).
struct LrnParams
{
    miopenLRNMode_t mode = miopenLRNCrossChannel;
    unsigned int n       = 0;
    double alpha         = 0.0;
    double beta          = 0.0;
    double k             = 0.0;
};

namespace cpu {
/// y = alpha * lrn(x) + beta * y; writes the scale (packed NCHW) to `scale` when not null.
void LRNForward(const LrnParams& lrn, float alpha, const TensorDescriptor& xDesc,
                const float* x, float beta, const TensorDescriptor& yDesc, float* y, float* scale);
/// dx = alpha * dL/dx + beta * dx, with the scale from `scale` (packed NCHW) or, when null,
/// recomputed from x.
void LRNBackward(const LrnParams& lrn, float alpha, const TensorDescriptor& yDesc,
                 const float* y, const TensorDescriptor& dyDesc, const float* dy,
                 const TensorDescriptor& xDesc, const float* x, float beta,
                 const TensorDescriptor& dxDesc, float* dx, const float* scale);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/lrn/lrn.hip), queued on its stream.
/// An output that is also an input is read from a copy in the handle's scratch.
void LRNForward(Handle& h, const LrnParams& lrn, float alpha,
                const TensorDescriptor& xDesc, const float* x, float beta,
                const TensorDescriptor& yDesc, float* y, float* scale);
void LRNBackward(Handle& h, const LrnParams& lrn, float alpha,
                 const TensorDescriptor& yDesc, const float* y, const TensorDescriptor& dyDesc,
                 const float* dy, const TensorDescriptor& xDesc, const float* x, float beta,
                 const TensorDescriptor& dxDesc, float* dx, const float* scale);
} // namespace gpu

} // namespace miopen
