// extern "C" shims for softmax. The V1 calls are V2 with MIOpen's fixed choice: ACCURATE, CHANNEL.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "softmax/softmax.hpp"

using miopen::DerefTensor;

extern "C" miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle, const void* alpha,
                                               const miopenTensorDescriptor_t xDesc, const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t yDesc, void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, beta, yDesc, y);
    return MIOPEN_TRY({
        miopen::SoftmaxForward(miopen::DerefHandle(handle), alpha, DerefTensor(xDesc, "xDesc"), x,
                               beta, DerefTensor(yDesc, "yDesc"), y, MIOPEN_SOFTMAX_ACCURATE,
                               MIOPEN_SOFTMAX_MODE_CHANNEL);
    });
}

extern "C" miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle, const void* alpha,
                                                const miopenTensorDescriptor_t yDesc, const void* y,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy, const void* beta,
                                                const miopenTensorDescriptor_t dxDesc, void* dx)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx);
    return MIOPEN_TRY({
        miopen::SoftmaxBackward(miopen::DerefHandle(handle), alpha, DerefTensor(yDesc, "yDesc"),
                                y, DerefTensor(dyDesc, "dyDesc"), dy, beta,
                                DerefTensor(dxDesc, "dxDesc"), dx, MIOPEN_SOFTMAX_ACCURATE,
                                MIOPEN_SOFTMAX_MODE_CHANNEL);
    });
}

extern "C" miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x, const void* beta,
                                                  const miopenTensorDescriptor_t yDesc, void* y,
                                                  miopenSoftmaxAlgorithm_t algorithm,
                                                  miopenSoftmaxMode_t mode)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, beta, yDesc, y,
                               miopen::CheckedEnum(algorithm, "algorithm", "miopenSoftmaxAlgorithm_t", {0, 1, 2}),
                               miopen::CheckedEnum(mode, "mode", "miopenSoftmaxMode_t", {0, 1}));
    return MIOPEN_TRY({
        miopen::SoftmaxForward(miopen::DerefHandle(handle), alpha, DerefTensor(xDesc, "xDesc"), x,
                               beta, DerefTensor(yDesc, "yDesc"), y,
                               miopen::CheckedEnum(algorithm, "algorithm", "miopenSoftmaxAlgorithm_t", {0, 1, 2}),
                               miopen::CheckedEnum(mode, "mode", "miopenSoftmaxMode_t", {0, 1}));
    });
}

extern "C" miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle, const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy, const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc, void* dx,
                                                   miopenSoftmaxAlgorithm_t algorithm,
                                                   miopenSoftmaxMode_t mode)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx,
                                miopen::CheckedEnum(algorithm, "algorithm", "miopenSoftmaxAlgorithm_t", {0, 1, 2}),
                                miopen::CheckedEnum(mode, "mode", "miopenSoftmaxMode_t", {0, 1}));
    return MIOPEN_TRY({
        miopen::SoftmaxBackward(miopen::DerefHandle(handle), alpha, DerefTensor(yDesc, "yDesc"),
                                y, DerefTensor(dyDesc, "dyDesc"), dy, beta,
                                DerefTensor(dxDesc, "dxDesc"), dx,
                                miopen::CheckedEnum(algorithm, "algorithm", "miopenSoftmaxAlgorithm_t", {0, 1, 2}),
                                miopen::CheckedEnum(mode, "mode", "miopenSoftmaxMode_t", {0, 1}));
    });
}
