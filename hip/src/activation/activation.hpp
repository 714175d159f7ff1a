// ActivationDescriptor (mode, alpha, beta, gamma) and the front door of miopenActivationForward /
// miopenActivationBackward: validation, then the backend of the handle's device.
//
// Semantics (descriptor parameters α = activAlpha, β = activBeta, γ = activGamma):
//   PASTHRU x            LOGISTIC 1/(1+e^-x)       TANH β·tanh(α·x)       RELU max(0, x)
//   SOFTRELU log(1+e^x) (no overflow for large x, accurate for very negative x)
//   ABS |x|              POWER (α+β·x)^γ           CLIPPEDRELU min(α, max(0, x))
//   LEAKYRELU x>0 ? x : α·x                         ELU x>0 ? x : α·(e^x−1)
// POWER follows MIOpen's kernel for a non-positive base b = α+β·x: b == 0 gives 0 (whatever γ,
// so 0^γ is 0 even for γ <= 0); b < 0 gives pow(b, γ): signed for an integer γ, NaN otherwise.
// Backward is dx = alpha·f'(x)·dy + beta·dx with the true derivative, computed from x (y is
// validated but not read). At the kinks we follow MIOpen's kernels: RELU'(0) = 0,
// LEAKYRELU'(0) = α, CLIPPEDRELU' = 1 only for 0 < x < α, ABS'(0) = 1, ELU'(0) = 1; POWER' at
// b == 0 is β for γ == 1 and 0 otherwise (forward defines the value 0 there).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "activation/activation_args.hpp"

#include <string>

namespace miopen {

/// The name of a mode ("miopenActivationTANH"), or "unknown".
const char* ActivationModeName(miopenActivationMode_t mode);

class ActivationDescriptor : public miopenActivationDescriptor
{
public:
    ActivationDescriptor() = default;

    /// Validates and sets: mode must be a miopenActivationMode_t value and the parameters finite.
    /// On error the descriptor is left unchanged.
    void Set(int mode, double alpha, double beta, double gamma);

    bool IsSet() const { return set_; }
    miopenActivationMode_t Mode() const { return mode_; }
    double Alpha() const { return alpha_; }
    double Beta() const { return beta_; }
    double Gamma() const { return gamma_; }
    std::string ToString() const; // "miopenActivationTANH, activAlpha=.., activBeta=.., activGamma=.."

private:
    bool set_                     = false;
    miopenActivationMode_t mode_  = miopenActivationPASTHRU;
    double alpha_                 = 0.0;
    double beta_                  = 0.0;
    double gamma_                 = 0.0;
};

/// The live activation descriptor behind a C pointer; BadParm naming the parameter otherwise.
ActivationDescriptor& DerefActivation(miopenActivationDescriptor_t desc, const char* name);
/// The same, and BadParm unless it has been set.
const ActivationDescriptor& DerefSetActivation(miopenActivationDescriptor_t desc, const char* name);

void ActivationForward(Handle& handle, const ActivationDescriptor& activDesc, const void* alpha,
                       const TensorDescriptor& xDesc, const void* x, const void* beta,
                       const TensorDescriptor& yDesc, void* y);

void ActivationBackward(Handle& handle, const ActivationDescriptor& activDesc, const void* alpha,
                        const TensorDescriptor& yDesc, const void* y,
                        const TensorDescriptor& dyDesc, const void* dy,
                        const TensorDescriptor& xDesc, const void* x, const void* beta,
                        const TensorDescriptor& dxDesc, void* dx);

} // namespace miopen
