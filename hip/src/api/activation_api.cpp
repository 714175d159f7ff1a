// extern "C" shims for the activation descriptor and miopenActivationForward / Backward.
#include "activation/activation.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <cstring>

using miopen::ActivationDescriptor;
using miopen::DerefTensor;
using miopen::Out;

extern "C" miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc)
{
    MIOPEN_LOG_FUNCTION(activDesc);
    return MIOPEN_TRY({ miopen::CreateObject<ActivationDescriptor>(activDesc, "activDesc"); });
}

extern "C" miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                                        miopenActivationMode_t mode_arg,
                                                        double activAlpha, double activBeta,
                                                        double activGamma)
{
    // A C caller may pass any int; reading it as the enum would be undefined in C++ when it is
    // out of the enum's range, so the bits are read as an int and validated as such.
    int mode = 0;
    static_assert(sizeof(mode) == sizeof(mode_arg), "miopenActivationMode_t is int-sized");
    std::memcpy(&mode, &mode_arg, sizeof(mode));
    MIOPEN_LOG_FUNCTION(activDesc, mode, activAlpha, activBeta, activGamma);
    return MIOPEN_TRY({
        miopen::DerefActivation(activDesc, "activDesc").Set(mode, activAlpha, activBeta, activGamma);
    });
}

extern "C" miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                                        miopenActivationMode_t* mode,
                                                        double* activAlpha, double* activBeta,
                                                        double* activGamma)
{
    MIOPEN_LOG_FUNCTION(activDesc, mode, activAlpha, activBeta, activGamma);
    return MIOPEN_TRY({
        const auto& d = miopen::DerefSetActivation(activDesc, "activDesc");
        // Every output is checked before any is written.
        Out(mode, "mode");
        Out(activAlpha, "activAlpha");
        Out(activBeta, "activBeta");
        Out(activGamma, "activGamma");
        *mode       = d.Mode();
        *activAlpha = d.Alpha();
        *activBeta  = d.Beta();
        *activGamma = d.Gamma();
    });
}

extern "C" miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                  const miopenActivationDescriptor_t activDesc,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x, const void* beta,
                                                  const miopenTensorDescriptor_t yDesc, void* y)
{
    MIOPEN_LOG_FUNCTION(handle, activDesc, alpha, xDesc, x, beta, yDesc, y);
    return MIOPEN_TRY({
        miopen::ActivationForward(miopen::DerefHandle(handle),
                                  miopen::DerefSetActivation(activDesc, "activDesc"),
                                  alpha,
                                  DerefTensor(xDesc, "xDesc"),
                                  x,
                                  beta,
                                  DerefTensor(yDesc, "yDesc"),
                                  y);
    });
}

extern "C" miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                                   const miopenActivationDescriptor_t activDesc,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x, const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc, void* dx)
{
    MIOPEN_LOG_FUNCTION(handle, activDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx);
    return MIOPEN_TRY({
        miopen::ActivationBackward(miopen::DerefHandle(handle),
                                   miopen::DerefSetActivation(activDesc, "activDesc"),
                                   alpha,
                                   DerefTensor(yDesc, "yDesc"),
                                   y,
                                   DerefTensor(dyDesc, "dyDesc"),
                                   dy,
                                   DerefTensor(xDesc, "xDesc"),
                                   x,
                                   beta,
                                   DerefTensor(dxDesc, "dxDesc"),
                                   dx);
    });
}

extern "C" miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc)
{
    MIOPEN_LOG_FUNCTION(activDesc);
    return MIOPEN_TRY(
        { miopen::DestroyObject<ActivationDescriptor>(activDesc, "activDesc"); });
}
