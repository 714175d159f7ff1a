// LRN: the descriptor's values as the kernels use them, and the entry points of the CPU kernels
// (cpu/lrn.cpp) and of the GPU launchers (kernels/lrn/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it. The entry
// points are templates on the storage type T (float, Half, BFloat16), explicitly instantiated
// beside their definitions; the workspace holds the scale in T (MIOpen sizes it by y's type).
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
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
/// y = alpha * lrn(x) + beta * y; writes the scale (packed NCHW, rounded to T) to `scale` when
/// not null.
template <class T>
void LRNForward(const LrnParams& lrn, float alpha, const TensorDescriptor& xDesc, const T* x,
                float beta, const TensorDescriptor& yDesc, T* y, T* scale);
/// dx = alpha * dL/dx + beta * dx, with the scale from `scale` (packed NCHW) or, when null,
/// recomputed from x.
template <class T>
void LRNBackward(const LrnParams& lrn, float alpha, const TensorDescriptor& yDesc, const T* y,
                 const TensorDescriptor& dyDesc, const T* dy, const TensorDescriptor& xDesc,
                 const T* x, float beta, const TensorDescriptor& dxDesc, T* dx, const T* scale);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/lrn/), queued on its stream.
/// An output that is also an input is read from a copy in the handle's scratch.
template <class T>
void LRNForward(Handle& h, const LrnParams& lrn, float alpha, const TensorDescriptor& xDesc,
                const T* x, float beta, const TensorDescriptor& yDesc, T* y, T* scale);
template <class T>
void LRNBackward(Handle& h, const LrnParams& lrn, float alpha, const TensorDescriptor& yDesc,
                 const T* y, const TensorDescriptor& dyDesc, const T* dy,
                 const TensorDescriptor& xDesc, const T* x, float beta,
                 const TensorDescriptor& dxDesc, T* dx, const T* scale);
} // namespace gpu

} // namespace miopen
