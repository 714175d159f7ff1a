// extern "C" shims for batch normalization: descriptor lookups, then the front doors of
// batchnorm/batchnorm.hpp.
#include "batchnorm/batchnorm.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

using miopen::DerefTensor;

namespace {

/// The bn_mode argument, checked.
miopenBatchNormMode_t BnMode(const miopenBatchNormMode_t& bn_mode)
{
    return miopen::CheckedEnum(bn_mode, "bn_mode", "miopenBatchNormMode_t", {0, 1});
}

} // namespace

extern "C" miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                         const miopenTensorDescriptor_t xDesc,
                                                         miopenBatchNormMode_t bn_mode)
{
    MIOPEN_LOG_FUNCTION(derivedBnDesc, xDesc, bn_mode);
    return MIOPEN_TRY({
        auto& derived = miopen::Deref<miopen::TensorDescriptor>(derivedBnDesc, "derivedBnDesc");
        miopen::DeriveBNTensorDescriptor(derived, DerefTensor(xDesc, "xDesc"), BnMode(bn_mode));
    });
}

extern "C" miopenStatus_t
miopenBatchNormalizationForwardTraining(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
                                        void* alpha, void* beta,
                                        const miopenTensorDescriptor_t xDesc, const void* x,
                                        const miopenTensorDescriptor_t yDesc, void* y,
                                        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                        void* bnScale, void* bnBias, double expAvgFactor,
                                        void* resultRunningMean, void* resultRunningVariance,
                                        double epsilon, void* resultSaveMean,
                                        void* resultSaveInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc,
                        bnScale, bnBias, expAvgFactor, resultRunningMean, resultRunningVariance,
                        epsilon, resultSaveMean, resultSaveInvVariance);
    return MIOPEN_TRY({
        miopen::BatchNormForwardTraining(
            miopen::DerefHandle(handle), BnMode(bn_mode), alpha, beta, DerefTensor(xDesc, "xDesc"),
            x, DerefTensor(yDesc, "yDesc"), y,
            DerefTensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc"), bnScale, bnBias,
            expAvgFactor, resultRunningMean, resultRunningVariance, epsilon, resultSaveMean,
            resultSaveInvVariance);
    });
}

extern "C" miopenStatus_t
miopenBatchNormalizationForwardInference(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
                                         void* alpha, void* beta,
                                         const miopenTensorDescriptor_t xDesc, const void* x,
                                         const miopenTensorDescriptor_t yDesc, void* y,
                                         const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                         void* bnScale, void* bnBias, void* estimatedMean,
                                         void* estimatedVariance, double epsilon)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc,
                        bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
    return MIOPEN_TRY({
        miopen::BatchNormForwardInference(
            miopen::DerefHandle(handle), BnMode(bn_mode), alpha, beta, DerefTensor(xDesc, "xDesc"),
            x, DerefTensor(yDesc, "yDesc"), y,
            DerefTensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc"), bnScale, bnBias,
            estimatedMean, estimatedVariance, epsilon);
    });
}

extern "C" miopenStatus_t
miopenBatchNormalizationBackward(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
                                 const void* alphaDataDiff, const void* betaDataDiff,
                                 const void* alphaParamDiff, const void* betaParamDiff,
                                 const miopenTensorDescriptor_t xDesc, const void* x,
                                 const miopenTensorDescriptor_t dyDesc, const void* dy,
                                 const miopenTensorDescriptor_t dxDesc, void* dx,
                                 const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
                                 const void* bnScale, void* resultBnScaleDiff,
                                 void* resultBnBiasDiff, double epsilon, const void* savedMean,
                                 const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                        betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, bnScaleBiasDiffDesc,
                        bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean,
                        savedInvVariance);
    return MIOPEN_TRY({
        miopen::BatchNormBackward(
            miopen::DerefHandle(handle), BnMode(bn_mode), alphaDataDiff, betaDataDiff,
            alphaParamDiff, betaParamDiff, DerefTensor(xDesc, "xDesc"), x,
            DerefTensor(dyDesc, "dyDesc"), dy, DerefTensor(dxDesc, "dxDesc"), dx,
            DerefTensor(bnScaleBiasDiffDesc, "bnScaleBiasDiffDesc"), bnScale, resultBnScaleDiff,
            resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
    });
}
