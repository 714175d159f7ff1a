// Batch-norm front doors: every check runs before any kernel, so a rejected call writes nothing.
// MIOpen itself accepts only alpha = 1, beta = 0 and packed tensors; we implement the blend and
// any strides (DESIGN.md), and otherwise follow its semantics: a half-given optional pair
// (running, saved or estimated statistics) counts as absent, and inference without estimated
// statistics normalises with the batch statistics, as MIOpen's call to its training kernel does.
#include "batchnorm/batchnorm.hpp"
#include "core/op_call.hpp"

#include <cmath>
#include <sstream>

namespace miopen {
namespace {

const char* ModeName(miopenBatchNormMode_t mode)
{
    return mode == miopenBNSpatial ? "miopenBNSpatial" : "miopenBNPerActivation";
}

std::string LensString(const std::vector<size_t>& lens)
{
    std::ostringstream out;
    out << "(";
    for(size_t i = 0; i < lens.size(); ++i)
        out << (i ? ", " : "") << lens[i];
    out << ")";
    return out.str();
}

/// x and the tensor that has its shape (y, dy, dx): 4-d or 5-d, same lengths and type, fp32.
void CheckDataTensors(const TensorDescriptor& xDesc, const char* x_name,
                      const TensorDescriptor& other, const char* other_name)
{
    CheckNumDims(xDesc, x_name, 4, 5);
    CheckSameLens(xDesc, x_name, other, other_name);
    CheckSameType(xDesc, x_name, other, other_name);
    CheckComputeType(xDesc, x_name);
}

/// The parameter descriptor: exactly the lengths miopenDeriveBNTensorDescriptor gives, fp32.
void CheckParamDesc(const TensorDescriptor& bnDesc, const char* name, const TensorDescriptor& xDesc,
                    miopenBatchNormMode_t mode)
{
    const auto expect = DeriveBNLengths(xDesc, mode);
    if(bnDesc.Lens() != expect)
        ThrowBadParm(name, " has lengths ", LensString(bnDesc.Lens()), "; expected ",
                     LensString(expect), " for ", ModeName(mode), " and xDesc ",
                     xDesc.ToString());
    CheckComputeType(bnDesc, name);
}

void CheckEpsilon(double epsilon)
{
    // cuDNN's CUDNN_BN_MIN_EPSILON is 0 since cuDNN 7.5 and MIOpen checks nothing; a negative or
    // non-finite epsilon can only produce NaNs, so it is refused.
    if(!std::isfinite(epsilon) || epsilon < 0.0)
        ThrowBadParm("epsilon = ", epsilon, "; must be finite and >= 0");
}

float Scalar(const void* p, const char* name)
{
    return static_cast<float>(ReadScalar(p, miopenFloat, name));
}

/// The checks both forward passes share (each checks epsilon and its own arguments next).
void CheckForward(const Handle& handle, miopenBatchNormMode_t mode, const TensorDescriptor& xDesc, const void* x,
                  const TensorDescriptor& yDesc, const void* y, const TensorDescriptor& bnDesc,
                  const void* bnScale, const void* bnBias)
{
    CheckBatchNormMode(mode, "bn_mode");
    CheckDataTensors(xDesc, "xDesc", yDesc, "yDesc");
    CheckParamDesc(bnDesc, "bnScaleBiasMeanVarDesc", xDesc, mode);
    CheckDataPointers(handle, {{x, "x"}, {y, "y"}, {bnScale, "bnScale"}, {bnBias, "bnBias"}});
}

/// The arguments both forward passes share.
BnForwardArgs ForwardArgs(miopenBatchNormMode_t mode, const void* alpha, const void* beta,
                          const TensorDescriptor& xDesc, const void* x,
                          const TensorDescriptor& yDesc, void* y, const TensorDescriptor& bnDesc,
                          const void* bnScale, const void* bnBias, double epsilon)
{
    BnForwardArgs a;
    a.mode    = mode;
    a.alpha   = Scalar(alpha, "alpha");
    a.beta    = Scalar(beta, "beta");
    a.xDesc   = &xDesc;
    a.x       = static_cast<const float*>(x);
    a.yDesc   = &yDesc;
    a.y       = static_cast<float*>(y);
    a.pDesc   = &bnDesc;
    a.scale   = static_cast<const float*>(bnScale);
    a.bias    = static_cast<const float*>(bnBias);
    a.epsilon = epsilon;
    return a;
}

} // namespace

void CheckBatchNormMode(int mode, const char* name)
{
    if(mode != miopenBNPerActivation && mode != miopenBNSpatial)
        ThrowBadParm(name, " = ", mode, " is not a miopenBatchNormMode_t value");
}

std::vector<size_t> DeriveBNLengths(const TensorDescriptor& xDesc, miopenBatchNormMode_t mode)
{
    CheckNumDims(xDesc, "xDesc", 4, 5);
    std::vector<size_t> lens = xDesc.Lens();
    lens[0] = 1;
    if(mode == miopenBNSpatial)
        for(size_t d = 2; d < lens.size(); ++d)
            lens[d] = 1;
    return lens;
}

void DeriveBNTensorDescriptor(TensorDescriptor& derived,
                              const TensorDescriptor& xDesc,
                              miopenBatchNormMode_t mode)
{
    CheckBatchNormMode(mode, "bn_mode");
    derived.Set(miopenFloat, DeriveBNLengths(xDesc, mode), {});
}

void BatchNormForwardTraining(Handle& handle, miopenBatchNormMode_t mode, const void* alpha,
                              const void* beta, const TensorDescriptor& xDesc, const void* x,
                              const TensorDescriptor& yDesc, void* y,
                              const TensorDescriptor& bnDesc, const void* bnScale,
                              const void* bnBias, double expAvgFactor, void* resultRunningMean,
                              void* resultRunningVariance, double epsilon, void* resultSaveMean,
                              void* resultSaveInvVariance)
{
    CheckForward(handle, mode, xDesc, x, yDesc, y, bnDesc, bnScale, bnBias);
    CheckDataPointers(handle, {}, {{resultRunningMean, "resultRunningMean"},
                                   {resultRunningVariance, "resultRunningVariance"},
                                   {resultSaveMean, "resultSaveMean"},
                                   {resultSaveInvVariance, "resultSaveInvVariance"}});
    if(!(expAvgFactor >= 0.0 && expAvgFactor <= 1.0))
        ThrowBadParm("expAvgFactor = ", expAvgFactor, "; must be in [0, 1]");
    CheckEpsilon(epsilon);

    BnForwardArgs a = ForwardArgs(mode, alpha, beta, xDesc, x, yDesc, y, bnDesc, bnScale, bnBias,
                                  epsilon);
    a.exp_avg_factor = expAvgFactor;
    if(resultRunningMean != nullptr && resultRunningVariance != nullptr)
    {
        a.running_mean     = static_cast<float*>(resultRunningMean);
        a.running_variance = static_cast<float*>(resultRunningVariance);
    }
    if(resultSaveMean != nullptr && resultSaveInvVariance != nullptr)
    {
        a.save_mean    = static_cast<float*>(resultSaveMean);
        a.save_inv_std = static_cast<float*>(resultSaveInvVariance);
    }
    RunOp(
        handle, [&] { cpu::BatchNormForwardTraining(a); },
        [&](auto& h) { gpu::BatchNormForwardTraining(h, a); });
}

void BatchNormForwardInference(Handle& handle, miopenBatchNormMode_t mode, const void* alpha,
                               const void* beta, const TensorDescriptor& xDesc, const void* x,
                               const TensorDescriptor& yDesc, void* y,
                               const TensorDescriptor& bnDesc, const void* bnScale,
                               const void* bnBias, const void* estimatedMean,
                               const void* estimatedVariance, double epsilon)
{
    CheckForward(handle, mode, xDesc, x, yDesc, y, bnDesc, bnScale, bnBias);
    CheckDataPointers(handle, {}, {{estimatedMean, "estimatedMean"},
                                   {estimatedVariance, "estimatedVariance"}});
    CheckEpsilon(epsilon);

    BnForwardArgs a = ForwardArgs(mode, alpha, beta, xDesc, x, yDesc, y, bnDesc, bnScale, bnBias,
                                  epsilon);
    if(estimatedMean != nullptr && estimatedVariance != nullptr)
    {
        a.est_mean     = static_cast<const float*>(estimatedMean);
        a.est_variance = static_cast<const float*>(estimatedVariance);
        return RunOp(
            handle, [&] { cpu::BatchNormForwardInference(a); },
            [&](auto& h) { gpu::BatchNormForwardInference(h, a); });
    }
    // MIOpen runs its training kernel here: batch statistics, nothing updated or saved.
    RunOp(
        handle, [&] { cpu::BatchNormForwardTraining(a); },
        [&](auto& h) { gpu::BatchNormForwardTraining(h, a); });
}

void BatchNormBackward(Handle& handle, miopenBatchNormMode_t mode, const void* alphaDataDiff,
                       const void* betaDataDiff, const void* alphaParamDiff,
                       const void* betaParamDiff, const TensorDescriptor& xDesc, const void* x,
                       const TensorDescriptor& dyDesc, const void* dy,
                       const TensorDescriptor& dxDesc, void* dx, const TensorDescriptor& bnDesc,
                       const void* bnScale, void* resultBnScaleDiff, void* resultBnBiasDiff,
                       double epsilon, const void* savedMean, const void* savedInvVariance)
{
    CheckBatchNormMode(mode, "bn_mode");
    CheckDataTensors(xDesc, "xDesc", dyDesc, "dyDesc");
    CheckDataTensors(xDesc, "xDesc", dxDesc, "dxDesc");
    CheckParamDesc(bnDesc, "bnScaleBiasDiffDesc", xDesc, mode);
    CheckDataPointers(handle, {{x, "x"}, {dy, "dy"}, {dx, "dx"}, {bnScale, "bnScale"},
                               {resultBnScaleDiff, "resultBnScaleDiff"},
                               {resultBnBiasDiff, "resultBnBiasDiff"}},
                      {{savedMean, "savedMean"}, {savedInvVariance, "savedInvVariance"}});
    CheckEpsilon(epsilon);

    BnBackwardArgs a;
    a.mode        = mode;
    a.alpha_data  = Scalar(alphaDataDiff, "alphaDataDiff");
    a.beta_data   = Scalar(betaDataDiff, "betaDataDiff");
    a.alpha_param = Scalar(alphaParamDiff, "alphaParamDiff");
    a.beta_param  = Scalar(betaParamDiff, "betaParamDiff");
    a.xDesc       = &xDesc;
    a.x           = static_cast<const float*>(x);
    a.dyDesc      = &dyDesc;
    a.dy          = static_cast<const float*>(dy);
    a.dxDesc      = &dxDesc;
    a.dx          = static_cast<float*>(dx);
    a.pDesc       = &bnDesc;
    a.scale       = static_cast<const float*>(bnScale);
    a.dscale      = static_cast<float*>(resultBnScaleDiff);
    a.dbias       = static_cast<float*>(resultBnBiasDiff);
    a.epsilon     = epsilon;
    if(savedMean != nullptr && savedInvVariance != nullptr)
    {
        a.saved_mean    = static_cast<const float*>(savedMean);
        a.saved_inv_std = static_cast<const float*>(savedInvVariance);
    }
    RunOp(
        handle, [&] { cpu::BatchNormBackward(a); }, [&](auto& h) { gpu::BatchNormBackward(h, a); });
}

} // namespace miopen
