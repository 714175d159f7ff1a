// Batch normalization: miopenDeriveBNTensorDescriptor and the front doors of forward training,
// forward inference and backward (validation, then the kernels of the handle's device, whose
// entry points are in batchnorm_args.hpp). Batch norm has no descriptor object of its own: the
// parameter tensors share one tensor descriptor (1xCx1x1[x1] or 1xCxHxW / 1xCxDxHxW).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "batchnorm/batchnorm_args.hpp"

#include <array>
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

/// The parameter descriptors of a call: the _V2 entry points take four, the others one for all
/// (MIOpen passes it four times). Each is miopenFloat or the data's type; mean and variance share
/// a type. `names` name them in messages.
struct BnParamDescs
{
    const TensorDescriptor* scale = nullptr;
    const TensorDescriptor* bias  = nullptr;
    const TensorDescriptor* mean  = nullptr;
    const TensorDescriptor* var   = nullptr;
    std::array<const char*, 4> names{};

    static BnParamDescs One(const TensorDescriptor& d, const char* name)
    {
        return {&d, &d, &d, &d, {name, name, name, name}};
    }
};

void BatchNormForwardTraining(Handle& handle, miopenBatchNormMode_t mode, const void* alpha,
                              const void* beta, const TensorDescriptor& xDesc, const void* x,
                              const TensorDescriptor& yDesc, void* y, const BnParamDescs& pd,
                              const void* bnScale, const void* bnBias, double expAvgFactor,
                              void* resultRunningMean, void* resultRunningVariance,
                              double epsilon, void* resultSaveMean, void* resultSaveInvVariance,
                              const ActivationParams* act = nullptr);
// `act`: the fusion plan's BatchNormFwdTrain + ActivForward, y = act(batch norm), one pass.

void BatchNormForwardInference(Handle& handle, miopenBatchNormMode_t mode, const void* alpha,
                               const void* beta, const TensorDescriptor& xDesc, const void* x,
                               const TensorDescriptor& yDesc, void* y, const BnParamDescs& pd,
                               const void* bnScale, const void* bnBias,
                               const void* estimatedMean, const void* estimatedVariance,
                               double epsilon);

/// pd.scale describes bnScale and resultBnScaleDiff, pd.bias resultBnBiasDiff (and bnBias).
/// With `act` (the fusion plan's BatchNormBwdTrain + ActivBackward), dy is the gradient of
/// act(bnScale * (x - mean) * invStd + bnBias): bnBias is then required.
void BatchNormBackward(Handle& handle, miopenBatchNormMode_t mode, const void* alphaDataDiff,
                       const void* betaDataDiff, const void* alphaParamDiff,
                       const void* betaParamDiff, const TensorDescriptor& xDesc, const void* x,
                       const TensorDescriptor& dyDesc, const void* dy,
                       const TensorDescriptor& dxDesc, void* dx, const BnParamDescs& pd,
                       const void* bnScale, void* resultBnScaleDiff, void* resultBnBiasDiff,
                       double epsilon, const void* savedMean, const void* savedInvVariance,
                       const ActivationParams* act = nullptr, const void* bnBias = nullptr);

} // namespace miopen
