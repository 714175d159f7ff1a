// extern "C" shims for batch normalization: descriptor lookups, then the front doors of
// batchnorm/batchnorm.hpp.
#include "batchnorm/batchnorm.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

using miopen::BnParamDescs;
using miopen::DerefTensor;

namespace {

/// The bn_mode argument, checked.
miopenBatchNormMode_t BnMode(const miopenBatchNormMode_t& bn_mode)
{
    return miopen::CheckedEnum(bn_mode, "bn_mode", "miopenBatchNormMode_t", {0, 1});
}

/// The four parameter descriptors of a _V2 call, dereferenced and named.
BnParamDescs V2Descs(miopenTensorDescriptor_t scale, const char* scale_name,
                     miopenTensorDescriptor_t bias, const char* bias_name,
                     miopenTensorDescriptor_t mean, const char* mean_name,
                     miopenTensorDescriptor_t var, const char* var_name)
{
    return {&DerefTensor(scale, scale_name), &DerefTensor(bias, bias_name),
            &DerefTensor(mean, mean_name), &DerefTensor(var, var_name),
            {scale_name, bias_name, mean_name, var_name}};
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
            BnParamDescs::One(DerefTensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc"),
                              "bnScaleBiasMeanVarDesc"), bnScale, bnBias,
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
            BnParamDescs::One(DerefTensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc"),
                              "bnScaleBiasMeanVarDesc"), bnScale, bnBias,
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
            BnParamDescs::One(DerefTensor(bnScaleBiasDiffDesc, "bnScaleBiasDiffDesc"),
                              "bnScaleBiasDiffDesc"), bnScale, resultBnScaleDiff,
            resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
    });
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardTraining_V2(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc,
    void* y, const miopenTensorDescriptor_t scaleDesc, const miopenTensorDescriptor_t biasVarDesc,
    const miopenTensorDescriptor_t savedMeanDesc, const miopenTensorDescriptor_t savedVarDesc,
    void* bnScale, void* bnBias, double expAvgFactor, void* resultRunningMean,
    void* resultRunningVariance, double epsilon, void* resultSaveMean,
    void* resultSaveInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasVarDesc,
                        savedMeanDesc, savedVarDesc, bnScale, bnBias, expAvgFactor,
                        resultRunningMean, resultRunningVariance, epsilon, resultSaveMean,
                        resultSaveInvVariance);
    return MIOPEN_TRY({
        miopen::BatchNormForwardTraining(
            miopen::DerefHandle(handle), BnMode(bn_mode), alpha, beta, DerefTensor(xDesc, "xDesc"),
            x, DerefTensor(yDesc, "yDesc"), y,
            V2Descs(scaleDesc, "scaleDesc", biasVarDesc, "biasVarDesc", savedMeanDesc,
                    "savedMeanDesc", savedVarDesc, "savedVarDesc"),
            bnScale, bnBias, expAvgFactor, resultRunningMean, resultRunningVariance, epsilon,
            resultSaveMean, resultSaveInvVariance);
    });
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardInference_V2(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc,
    void* y, const miopenTensorDescriptor_t scaleDesc, const miopenTensorDescriptor_t biasDesc,
    const miopenTensorDescriptor_t estMeanDesc, const miopenTensorDescriptor_t estVarianceDesc,
    void* bnScale, void* bnBias, void* estimatedMean, void* estimatedVariance, double epsilon)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                        estMeanDesc, estVarianceDesc, bnScale, bnBias, estimatedMean,
                        estimatedVariance, epsilon);
    return MIOPEN_TRY({
        miopen::BatchNormForwardInference(
            miopen::DerefHandle(handle), BnMode(bn_mode), alpha, beta, DerefTensor(xDesc, "xDesc"),
            x, DerefTensor(yDesc, "yDesc"), y,
            V2Descs(scaleDesc, "scaleDesc", biasDesc, "biasDesc", estMeanDesc, "estMeanDesc",
                    estVarianceDesc, "estVarianceDesc"),
            bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
    });
}

extern "C" miopenStatus_t miopenBatchNormalizationBackward_V2(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void* alphaDataDiff,
    const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc,
    const void* dy, const miopenTensorDescriptor_t dxDesc, void* dx,
    const miopenTensorDescriptor_t scaleDesc, const miopenTensorDescriptor_t biasDesc,
    const miopenTensorDescriptor_t savedMeanDesc, const miopenTensorDescriptor_t savedVarDesc,
    const void* bnScale, void* resultBnScaleDiff, void* resultBnBiasDiff, double epsilon,
    const void* savedMean, const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                        betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, scaleDesc, biasDesc,
                        savedMeanDesc, savedVarDesc, bnScale, resultBnScaleDiff, resultBnBiasDiff,
                        epsilon, savedMean, savedInvVariance);
    return MIOPEN_TRY({
        miopen::BatchNormBackward(
            miopen::DerefHandle(handle), BnMode(bn_mode), alphaDataDiff, betaDataDiff,
            alphaParamDiff, betaParamDiff, DerefTensor(xDesc, "xDesc"), x,
            DerefTensor(dyDesc, "dyDesc"), dy, DerefTensor(dxDesc, "dxDesc"), dx,
            V2Descs(scaleDesc, "scaleDesc", biasDesc, "biasDesc", savedMeanDesc, "savedMeanDesc",
                    savedVarDesc, "savedVarDesc"),
            bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
    });
}
