// extern "C" shims for the convolution bias ops.
#include "bias/bias.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

using miopen::DerefTensor;

extern "C" miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void* alpha,
                                                       const miopenTensorDescriptor_t bDesc,
                                                       const void* b, const void* beta,
                                                       const miopenTensorDescriptor_t yDesc,
                                                       void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, bDesc, b, beta, yDesc, y);
    return MIOPEN_TRY({
        miopen::ConvolutionForwardBias(miopen::DerefHandle(handle), alpha,
                                       DerefTensor(bDesc, "bDesc"), b, beta,
                                       DerefTensor(yDesc, "yDesc"), y);
    });
}

extern "C" miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle, const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy, const void* beta,
                                                        const miopenTensorDescriptor_t dbDesc,
                                                        void* db)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, beta, dbDesc, db);
    return MIOPEN_TRY({
        miopen::ConvolutionBackwardBias(miopen::DerefHandle(handle), alpha,
                                        DerefTensor(dyDesc, "dyDesc"), dy, beta,
                                        DerefTensor(dbDesc, "dbDesc"), db);
    });
}
