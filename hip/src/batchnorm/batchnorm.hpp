// Batch normalization: miopenDeriveBNTensorDescriptor and the front doors of forward training,
// forward inference and backward (validation, then the kernels of the handle's device), plus
// the interface of the CPU kernels (cpu/batchnorm.cpp). Batch norm has no descriptor object of
// its own: the parameter tensors share one tensor descriptor (1xCx1x1[x1] or 1xCxHxW / 1xCxDxHxW).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <vector>

namespace miopen {

/// BadParm naming `name` unless `mode` is a miopenBatchNormMode_t value.
void CheckBatchNormMode(int mode, const char* name);

/// Lengths of the parameter tensors for x in `mode`: spatial 1xCx1x1[x1], per activation
/// 1xCxHxW / 1xCxDxHxW. x must be 4-d or 5-d.
std::vector<size_t> DeriveBNLengths(const TensorDescriptor& xDesc, miopenBatchNormMode_t mode);

/// Sets `derived` to the packed miopenFloat parameter descriptor of x (as MIOpen does, fp32
/// whatever x's type).
void DeriveBNTensorDescriptor(TensorDescriptor& derived,
                              const TensorDescriptor& xDesc,
                              miopenBatchNormMode_t mode);

void BatchNormForwardTraining(Handle& handle,
                              miopenBatchNormMode_t mode,
                              const void* alpha,
                              const void* beta,
                              const TensorDescriptor& xDesc,
                              const void* x,
                              const TensorDescriptor& yDesc,
                              void* y,
                              const TensorDescriptor& bnDesc,
                              const void* bnScale,
                              const void* bnBias,
                              double expAvgFactor,
                              void* resultRunningMean,
                              void* resultRunningVariance,
                              double epsilon,
                              void* resultSaveMean,
                              void* resultSaveInvVariance);

void BatchNormForwardInference(Handle& handle,
                               miopenBatchNormMode_t mode,
                               const void* alpha,
                               const void* beta,
                               const TensorDescriptor& xDesc,
                               const void* x,
                               const TensorDescriptor& yDesc,
                               void* y,
                               const TensorDescriptor& bnDesc,
                               const void* bnScale,
                               const void* bnBias,
                               const void* estimatedMean,
                               const void* estimatedVariance,
                               double epsilon);

void BatchNormBackward(Handle& handle,
                       miopenBatchNormMode_t mode,
                       const void* alphaDataDiff,
                       const void* betaDataDiff,
                       const void* alphaParamDiff,
                       const void* betaParamDiff,
                       const TensorDescriptor& xDesc,
                       const void* x,
                       const TensorDescriptor& dyDesc,
                       const void* dy,
                       const TensorDescriptor& dxDesc,
                       void* dx,
                       const TensorDescriptor& bnDesc,
                       const void* bnScale,
                       void* resultBnScaleDiff,
                       void* resultBnBiasDiff,
                       double epsilon,
                       const void* savedMean,
                       const void* savedInvVariance);

namespace cpu {

/// Forward batch norm, validated. Parameter tensors all follow pDesc. Optional pairs are both
/// set or both null (the front door clears a half-given pair, as MIOpen ignores it).
struct BnForwardArgs
{
    miopenBatchNormMode_t mode = miopenBNSpatial;
    const TensorDescriptor* xDesc = nullptr;
    const float* x = nullptr;
    const TensorDescriptor* yDesc = nullptr;
    float* y = nullptr;
    const TensorDescriptor* pDesc = nullptr;
    const float* scale = nullptr;
    const float* bias = nullptr;
    float alpha = 1.0f;
    float beta = 0.0f;
    double epsilon = 0.0;
    // Training: running statistics to update and batch statistics to save.
    double exp_avg_factor = 0.0;
    float* running_mean = nullptr;
    float* running_variance = nullptr;
    float* save_mean = nullptr;
    float* save_inv_std = nullptr;
    // Inference: the estimated statistics (both required by BatchNormForwardInference).
    const float* est_mean = nullptr;
    const float* est_variance = nullptr;
};

/// y = alpha * (scale * (x - mean) / sqrt(var + eps) + bias) + beta * y with the batch mean and
/// biased variance; updates the running statistics (unbiased variance) and saves mean and
/// 1/sqrt(var + eps) when those pointers are set.
void BatchNormForwardTraining(const BnForwardArgs& args);
/// The same with est_mean / est_variance in place of the batch statistics.
void BatchNormForwardInference(const BnForwardArgs& args);

struct BnBackwardArgs
{
    miopenBatchNormMode_t mode = miopenBNSpatial;
    const TensorDescriptor* xDesc = nullptr;
    const float* x = nullptr;
    const TensorDescriptor* dyDesc = nullptr;
    const float* dy = nullptr;
    const TensorDescriptor* dxDesc = nullptr;
    float* dx = nullptr;
    const TensorDescriptor* pDesc = nullptr;
    const float* scale = nullptr;
    float* dscale = nullptr;
    float* dbias = nullptr;
    float alpha_data = 1.0f;
    float beta_data = 0.0f;
    float alpha_param = 1.0f;
    float beta_param = 0.0f;
    double epsilon = 0.0;
    const float* saved_mean = nullptr;     // both set: use them; both null: recompute
    const float* saved_inv_std = nullptr;
};

/// dx, dscale and dbias of the training-mode forward, blended with the Data / Param factors.
void BatchNormBackward(const BnBackwardArgs& args);

} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/batchnorm/), queued on its stream; partial sums and
/// per-group coefficients live in the handle's scratch.
void BatchNormForwardTraining(Handle& h, const cpu::BnForwardArgs& args);
void BatchNormForwardInference(Handle& h, const cpu::BnForwardArgs& args);
void BatchNormBackward(Handle& h, const cpu::BnBackwardArgs& args);
} // namespace gpu

} // namespace miopen
