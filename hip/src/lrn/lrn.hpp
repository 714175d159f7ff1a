// LRNDescriptor (mode, N, alpha, beta, K) and the front door of LRN forward and backward:
// validation, then the backend of the handle's device.
//   cross-channel:  y = x * (K + alpha/N * sum x^2)^-beta over channels [c - (N-1)/2, c + N/2]
//                   (the window [c - (N-1)/2, c + N-1-(N-1)/2], clipped to [0, C));
//   within-channel: the same over an N x N spatial window centred the same way, zero padded,
//                   with alpha/(N*N) (MIOpen's alpha over area; the divisor is not clipped).
// Like MIOpen, LRN takes 4-d N, C, H, W tensors (any strides).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "lrn/lrn_args.hpp"

#include <string>

namespace miopen {

class LRNDescriptor : public miopenLRNDescriptor
{
public:
    LRNDescriptor() = default;

    /// Validates and sets; on error the descriptor is left unchanged.
    void Set(miopenLRNMode_t mode, unsigned int n, double alpha, double beta, double k);

    bool IsSet() const { return set_; }
    miopenLRNMode_t Mode() const { return mode_; }
    unsigned int N() const { return n_; }
    double Alpha() const { return alpha_; }
    double Beta() const { return beta_; }
    double K() const { return k_; }
    LrnParams Params() const { return {mode_, n_, alpha_, beta_, k_}; }
    std::string ToString() const; // "miopenLRNCrossChannel, lrnN=5, ..."

private:
    bool set_             = false;
    miopenLRNMode_t mode_ = miopenLRNCrossChannel;
    unsigned int n_       = 0;
    double alpha_         = 0.0;
    double beta_          = 0.0;
    double k_             = 0.0;
};

/// The live, set LRN descriptor behind a C pointer; BadParm naming the parameter otherwise.
const LRNDescriptor& DerefLRN(miopenLRNDescriptor_t desc, const char* name);

/// numel(y) * element size: the scale a forward with do_backward saves, packed in y's N, C, H, W
/// order whatever y's strides.
size_t LRNWorkSpaceSize(const TensorDescriptor& yDesc);

void LRNForward(Handle& handle, const LRNDescriptor& lrn, const void* alpha,
                const TensorDescriptor& xDesc, const void* x, const void* beta,
                const TensorDescriptor& yDesc, void* y, bool do_backward, void* workSpace);

/// workSpace may be null: the scale is then recomputed from x.
void LRNBackward(Handle& handle, const LRNDescriptor& lrn, const void* alpha,
                 const TensorDescriptor& yDesc, const void* y, const TensorDescriptor& dyDesc,
                 const void* dy, const TensorDescriptor& xDesc, const void* x, const void* beta,
                 const TensorDescriptor& dxDesc, void* dx, const void* workSpace);

} // namespace miopen
