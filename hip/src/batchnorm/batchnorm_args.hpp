// Batch normalization: the validated arguments of forward and backward, and the entry points of
// the CPU kernels (cpu/batchnorm_*.cpp) and of the GPU launchers (kernels/batchnorm/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

namespace miopen {

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

namespace cpu {
/// y = alpha * (scale * (x - mean) / sqrt(var + eps) + bias) + beta * y with the batch mean and
/// biased variance; updates the running statistics (unbiased variance) and saves mean and
/// 1/sqrt(var + eps) when those pointers are set.
void BatchNormForwardTraining(const BnForwardArgs& args);
/// The same with est_mean / est_variance in place of the batch statistics.
void BatchNormForwardInference(const BnForwardArgs& args);

/// dx, dscale and dbias of the training-mode forward, blended with the Data / Param factors.
void BatchNormBackward(const BnBackwardArgs& args);

} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/batchnorm/), queued on its stream; partial sums and
/// per-group coefficients live in the handle's scratch.
void BatchNormForwardTraining(Handle& h, const BnForwardArgs& args);
void BatchNormForwardInference(Handle& h, const BnForwardArgs& args);
void BatchNormBackward(Handle& h, const BnBackwardArgs& args);
} // namespace gpu

} // namespace miopen
