// Batch-norm front doors: every check runs before any kernel, so a rejected call writes nothing.
// MIOpen itself accepts only alpha = 1, beta = 0 and packed tensors; we implement the blend and
// any strides (DESIGN.md), and otherwise follow its semantics: a half-given optional pair
// (running, saved or estimated statistics) counts as absent, and inference without estimated
// statistics normalises with the batch statistics, as MIOpen's call to its training kernel does.
#include "batchnorm/batchnorm.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <cmath>
#include <sstream>
#include <type_traits>

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

/// x and the tensor that has its shape (y, dy, dx): 4-d or 5-d, same lengths and type.
void CheckDataTensors(const TensorDescriptor& xDesc, const char* x_name,
                      const TensorDescriptor& other, const char* other_name)
{
    CheckNumDims(xDesc, x_name, 4, 5);
    CheckSameLens(xDesc, x_name, other, other_name);
    CheckSameType(xDesc, x_name, other, other_name);
}

/// One parameter descriptor: exactly the lengths miopenDeriveBNTensorDescriptor gives, and
/// miopenFloat or the data's type (MIOpen's mixed mode, or parameters of the data's type).
void CheckParamDesc(const TensorDescriptor& bnDesc, const char* name, const TensorDescriptor& xDesc,
                    miopenBatchNormMode_t mode)
{
    const auto expect = DeriveBNLengths(xDesc, mode);
    if(bnDesc.Lens() != expect)
        ThrowBadParm(name, " has lengths ", LensString(bnDesc.Lens()), "; expected ",
                     LensString(expect), " for ", ModeName(mode), " and xDesc ",
                     xDesc.ToString());
    if(bnDesc.Type() != miopenFloat && bnDesc.Type() != xDesc.Type())
        ThrowBadParm(name, " has data type ", DataTypeName(bnDesc.Type()), "; for xDesc of ",
                     DataTypeName(xDesc.Type()), " the parameters are miopenFloat or ",
                     DataTypeName(xDesc.Type()));
}

/// The data type (float, half, bf16: else BadParm naming xDesc) and every parameter descriptor.
void CheckTypes(miopenBatchNormMode_t mode, const TensorDescriptor& xDesc, const BnParamDescs& pd)
{
    DispatchFloating(xDesc.Type(), "xDesc", [](auto) {});
    const TensorDescriptor* descs[4] = {pd.scale, pd.bias, pd.mean, pd.var};
    for(int i = 0; i < 4; ++i)
        CheckParamDesc(*descs[i], pd.names[i], xDesc, mode);
    if(pd.mean->Type() != pd.var->Type())
        ThrowBadParm(pd.names[3], " has data type ", DataTypeName(pd.var->Type()), "; ",
                     pd.names[2], " has ", DataTypeName(pd.mean->Type()),
                     " (the mean and the variance share a type)");
}

/// Whether the parameters can be used in place: all fp32 with one set of strides.
bool ParamsInPlace(const BnParamDescs& pd)
{
    for(const TensorDescriptor* d : {pd.scale, pd.bias, pd.mean, pd.var})
        if(d->Type() != miopenFloat || d->Strides() != pd.scale->Strides())
            return false;
    return true;
}

/// Fills args' parameter fields with the caller's buffers, or its staging with their
/// descriptors; `slots` gives each field's buffer, descriptor and use, in ForEachParam order.
struct ParamUse
{
    void* user;
    const TensorDescriptor* desc;
    bool read, write;
};

template <class Args, size_t N>
void BindParams(Args& a, const BnParamDescs& pd, const std::array<ParamUse, N>& uses)
{
    a.pDesc = pd.scale;
    if(ParamsInPlace(pd))
    {
        a.ForEachParam([&](auto& field, int i) {
            using P = std::remove_reference_t<decltype(field)>;
            field   = static_cast<P>(uses[i].user);
        });
        return;
    }
    a.staging.on = true;
    a.staging.packed.Set(miopenFloat, pd.scale->Lens(), {});
    for(size_t i = 0; i < N; ++i)
        a.staging.slots[i] = {uses[i].desc, uses[i].user, uses[i].read, uses[i].write};
}

float Scalar(const void* p, const char* name)
{
    return static_cast<float>(ReadScalar(p, miopenFloat, name));
}

void CheckEpsilon(double epsilon)
{
    // cuDNN's CUDNN_BN_MIN_EPSILON is 0 since cuDNN 7.5 and MIOpen checks nothing; a negative or
    // non-finite epsilon can only produce NaNs, so it is refused.
    if(!std::isfinite(epsilon) || epsilon < 0.0)
        ThrowBadParm("epsilon = ", epsilon, "; must be finite and >= 0");
}

/// The checks both forward passes share (each checks epsilon and its own arguments next).
void CheckForward(const Handle& handle, miopenBatchNormMode_t mode, const TensorDescriptor& xDesc,
                  const void* x, const TensorDescriptor& yDesc, const void* y, const BnParamDescs& pd,
                  const void* bnScale, const void* bnBias)
{
    CheckBatchNormMode(mode, "bn_mode");
    CheckDataTensors(xDesc, "xDesc", yDesc, "yDesc");
    CheckTypes(mode, xDesc, pd);
    CheckDataPointers(handle, {{x, "x"}, {y, "y"}, {bnScale, "bnScale"}, {bnBias, "bnBias"}});
}

/// The arguments both forward passes share (parameters bound by the caller).
BnForwardArgs ForwardArgs(miopenBatchNormMode_t mode, const void* alpha, const void* beta,
                          const TensorDescriptor& xDesc, const void* x,
                          const TensorDescriptor& yDesc, void* y, double epsilon)
{
    BnForwardArgs a;
    a.mode    = mode;
    a.alpha   = Scalar(alpha, "alpha");
    a.beta    = Scalar(beta, "beta");
    a.xDesc   = &xDesc;
    a.x       = x;
    a.yDesc   = &yDesc;
    a.y       = y;
    a.epsilon = epsilon;
    return a;
}

/// Runs the training forward (batch statistics) on the handle's device for x's type.
void RunForwardTraining(Handle& handle, const BnForwardArgs& a)
{
    DispatchFloating(a.xDesc->Type(), "xDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunOp(
            handle, [&] { cpu::BatchNormForwardTraining<T>(a); },
            [&](auto& h) { gpu::BatchNormForwardTraining<T>(h, a); });
    });
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
                              const TensorDescriptor& yDesc, void* y, const BnParamDescs& pd,
                              const void* bnScale, const void* bnBias, double expAvgFactor,
                              void* resultRunningMean, void* resultRunningVariance,
                              double epsilon, void* resultSaveMean, void* resultSaveInvVariance,
                              const ActivationParams* act)
{
    CheckForward(handle, mode, xDesc, x, yDesc, y, pd, bnScale, bnBias);
    CheckDataPointers(handle, {}, {{resultRunningMean, "resultRunningMean"},
                                   {resultRunningVariance, "resultRunningVariance"},
                                   {resultSaveMean, "resultSaveMean"},
                                   {resultSaveInvVariance, "resultSaveInvVariance"}});
    if(!(expAvgFactor >= 0.0 && expAvgFactor <= 1.0))
        ThrowBadParm("expAvgFactor = ", expAvgFactor, "; must be in [0, 1]");
    CheckEpsilon(epsilon);

    BnForwardArgs a  = ForwardArgs(mode, alpha, beta, xDesc, x, yDesc, y, epsilon);
    a.exp_avg_factor = expAvgFactor;
    if(act != nullptr)
        a.act = *act;
    if(resultRunningMean == nullptr || resultRunningVariance == nullptr)
        resultRunningMean = resultRunningVariance = nullptr;
    if(resultSaveMean == nullptr || resultSaveInvVariance == nullptr)
        resultSaveMean = resultSaveInvVariance = nullptr;
    BindParams(a, pd,
               std::array<ParamUse, 8>{{{const_cast<void*>(bnScale), pd.scale, true, false},
                                        {const_cast<void*>(bnBias), pd.bias, true, false},
                                        {resultRunningMean, pd.mean, true, true},
                                        {resultRunningVariance, pd.var, true, true},
                                        {resultSaveMean, pd.mean, false, true},
                                        {resultSaveInvVariance, pd.var, false, true},
                                        {nullptr, pd.mean, false, false},
                                        {nullptr, pd.var, false, false}}});
    RunForwardTraining(handle, a);
}

void BatchNormForwardInference(Handle& handle, miopenBatchNormMode_t mode, const void* alpha,
                               const void* beta, const TensorDescriptor& xDesc, const void* x,
                               const TensorDescriptor& yDesc, void* y, const BnParamDescs& pd,
                               const void* bnScale, const void* bnBias,
                               const void* estimatedMean, const void* estimatedVariance,
                               double epsilon)
{
    CheckForward(handle, mode, xDesc, x, yDesc, y, pd, bnScale, bnBias);
    CheckDataPointers(handle, {}, {{estimatedMean, "estimatedMean"},
                                   {estimatedVariance, "estimatedVariance"}});
    CheckEpsilon(epsilon);

    BnForwardArgs a = ForwardArgs(mode, alpha, beta, xDesc, x, yDesc, y, epsilon);
    const bool est  = estimatedMean != nullptr && estimatedVariance != nullptr;
    BindParams(a, pd,
               std::array<ParamUse, 8>{
                   {{const_cast<void*>(bnScale), pd.scale, true, false},
                    {const_cast<void*>(bnBias), pd.bias, true, false},
                    {nullptr, pd.mean, false, false},
                    {nullptr, pd.var, false, false},
                    {nullptr, pd.mean, false, false},
                    {nullptr, pd.var, false, false},
                    {est ? const_cast<void*>(estimatedMean) : nullptr, pd.mean, true, false},
                    {est ? const_cast<void*>(estimatedVariance) : nullptr, pd.var, true,
                     false}}});
    if(!est)
    {
        // MIOpen runs its training kernel here: batch statistics, nothing updated or saved.
        return RunForwardTraining(handle, a);
    }
    DispatchFloating(xDesc.Type(), "xDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunOp(
            handle, [&] { cpu::BatchNormForwardInference<T>(a); },
            [&](auto& h) { gpu::BatchNormForwardInference<T>(h, a); });
    });
}

void BatchNormBackward(Handle& handle, miopenBatchNormMode_t mode, const void* alphaDataDiff,
                       const void* betaDataDiff, const void* alphaParamDiff,
                       const void* betaParamDiff, const TensorDescriptor& xDesc, const void* x,
                       const TensorDescriptor& dyDesc, const void* dy,
                       const TensorDescriptor& dxDesc, void* dx, const BnParamDescs& pd,
                       const void* bnScale, void* resultBnScaleDiff, void* resultBnBiasDiff,
                       double epsilon, const void* savedMean, const void* savedInvVariance,
                       const ActivationParams* act, const void* bnBias)
{
    CheckBatchNormMode(mode, "bn_mode");
    CheckDataTensors(xDesc, "xDesc", dyDesc, "dyDesc");
    CheckDataTensors(xDesc, "xDesc", dxDesc, "dxDesc");
    CheckTypes(mode, xDesc, pd);
    CheckDataPointers(handle, {{x, "x"}, {dy, "dy"}, {dx, "dx"}, {bnScale, "bnScale"},
                               {resultBnScaleDiff, "resultBnScaleDiff"},
                               {resultBnBiasDiff, "resultBnBiasDiff"}},
                      {{savedMean, "savedMean"}, {savedInvVariance, "savedInvVariance"}});
    CheckEpsilon(epsilon);
    const bool fused = act != nullptr && act->mode != miopenActivationPASTHRU;
    if(fused)
        CheckDataPointers(handle, {{bnBias, "bnBias"}});

    BnBackwardArgs a;
    if(fused)
        a.act = *act;
    a.mode        = mode;
    a.alpha_data  = Scalar(alphaDataDiff, "alphaDataDiff");
    a.beta_data   = Scalar(betaDataDiff, "betaDataDiff");
    a.alpha_param = Scalar(alphaParamDiff, "alphaParamDiff");
    a.beta_param  = Scalar(betaParamDiff, "betaParamDiff");
    a.xDesc       = &xDesc;
    a.x           = x;
    a.dyDesc      = &dyDesc;
    a.dy          = dy;
    a.dxDesc      = &dxDesc;
    a.dx          = dx;
    a.epsilon     = epsilon;
    const bool saved = savedMean != nullptr && savedInvVariance != nullptr;
    // dscale and dbias are read only when betaParamDiff blends them in.
    const bool blend = a.beta_param != 0.0f;
    BindParams(a, pd,
               std::array<ParamUse, 6>{
                   {{const_cast<void*>(bnScale), pd.scale, true, false},
                    {resultBnScaleDiff, pd.scale, blend, true},
                    {resultBnBiasDiff, pd.bias, blend, true},
                    {saved ? const_cast<void*>(savedMean) : nullptr, pd.mean, true, false},
                    {saved ? const_cast<void*>(savedInvVariance) : nullptr, pd.var, true, false},
                    {fused ? const_cast<void*>(bnBias) : nullptr, pd.bias, true, false}}});
    DispatchFloating(xDesc.Type(), "xDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunOp(
            handle, [&] { cpu::BatchNormBackward<T>(a); },
            [&](auto& h) { gpu::BatchNormBackward<T>(h, a); });
    });
}

} // namespace miopen
