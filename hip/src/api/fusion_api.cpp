// extern "C" shims of the fusion API: plans, operators, operator arguments, compile, execute and
// miopenConvolutionBiasActivationForward.
#include "activation/activation.hpp"
#include "conv/conv_descriptor.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "fusion/fusion.hpp"

#include <algorithm>
#include <cstring>

using miopen::DerefFusionOp;
using miopen::DerefFusionPlan;
using miopen::DerefOperatorArgs;
using miopen::DerefTensor;
using miopen::FusionOp;
using miopen::FusionOpArgs;
using miopen::FusionOpKind;
using miopen::Out;

namespace {

/// Scalars of miopenSetOpArgs*: host floats (null: alpha 1, beta 0, as nothing was given).
double ScalarOr(const void* p, double fallback)
{
    return p == nullptr ? fallback : static_cast<double>(*static_cast<const float*>(p));
}

template <class F>
void CreateOp(miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t* out,
              const char* out_name, FusionOpKind kind, F&& configure)
{
    auto& plan = DerefFusionPlan(fusePlanDesc, "fusePlanDesc");
    Out(out, out_name);
    FusionOp& op = plan.Add(kind, configure);
    *out         = &op;
}

void Set(miopenOperatorArgs_t args, miopenFusionOpDescriptor_t op, const char* op_name,
         FusionOpKind kind, FusionOpArgs v, const void* alpha, const void* beta)
{
    auto& a         = DerefOperatorArgs(args, "args");
    const auto& fop = DerefFusionOp(op, op_name);
    v.alpha         = ScalarOr(alpha, 1.0);
    v.beta          = ScalarOr(beta, 0.0);
    miopen::SetOpArgs(a, fop, kind, op_name, v);
}

} // namespace

extern "C" miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                 const miopenFusionDirection_t fuseDirection,
                                                 const miopenTensorDescriptor_t inputDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, miopen::EnumValue(fuseDirection), inputDesc);
    return MIOPEN_TRY({
        Out(fusePlanDesc, "fusePlanDesc");
        const auto& in = DerefTensor(inputDesc, "inputDesc");
        auto* plan     = new miopen::FusionPlan(
            static_cast<miopenFusionDirection_t>(miopen::EnumValue(fuseDirection)), in);
        miopen::registry::Add(static_cast<miopenFusionPlanDescriptor*>(plan),
                              typeid(miopen::FusionPlan));
        *fusePlanDesc = plan;
    });
}

extern "C" miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc);
    return MIOPEN_TRY(
        { miopen::DestroyObject<miopen::FusionPlan>(fusePlanDesc, "fusePlanDesc"); });
}

extern "C" miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                  miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        DerefFusionPlan(fusePlanDesc, "fusePlanDesc").Compile(h);
    });
}

extern "C" miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                const int op_idx, miopenFusionOpDescriptor_t* op)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, op_idx, op);
    return MIOPEN_TRY({
        auto& plan = DerefFusionPlan(fusePlanDesc, "fusePlanDesc");
        Out(op, "op");
        *op = &plan.GetOp(op_idx);
    });
}

extern "C" miopenStatus_t miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                                           miopenFusionPlanDescriptor_t fusePlanDesc,
                                                           size_t* workSpaceSize,
                                                           miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, workSpaceSize, miopen::EnumValue(algo));
    return MIOPEN_TRY({
        auto& h    = miopen::DerefHandle(handle);
        auto& plan = DerefFusionPlan(fusePlanDesc, "fusePlanDesc");
        Out(workSpaceSize, "workSpaceSize");
        const auto a = miopen::CheckedEnum(algo, "algo", "miopenConvFwdAlgorithm_t", {0, 1, 2, 3, 5});
        *workSpaceSize = plan.WorkspaceSize(h, a);
    });
}

extern "C" miopenStatus_t miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                             const int requestAlgoCount,
                                                             int* returnedAlgoCount,
                                                             miopenConvFwdAlgorithm_t* returnedAlgos)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, requestAlgoCount, returnedAlgoCount, returnedAlgos);
    return MIOPEN_TRY({
        auto& plan = DerefFusionPlan(fusePlanDesc, "fusePlanDesc");
        Out(returnedAlgoCount, "returnedAlgoCount");
        if(requestAlgoCount < 0)
            miopen::ThrowBadParm("requestAlgoCount = ", requestAlgoCount, "; must be >= 0");
        if(requestAlgoCount > 0)
            Out(returnedAlgos, "returnedAlgos");
        const auto algos = plan.ConvAlgos();
        const int n = std::min(requestAlgoCount, static_cast<int>(algos.size()));
        for(int i = 0; i < n; ++i)
            returnedAlgos[i] = algos[static_cast<size_t>(i)];
        *returnedAlgoCount = n;
    });
}

extern "C" miopenStatus_t miopenFusionPlanConvolutionSetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                             miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, miopen::EnumValue(algo));
    return MIOPEN_TRY({
        auto& plan   = DerefFusionPlan(fusePlanDesc, "fusePlanDesc");
        const auto a = miopen::CheckedEnum(algo, "algo", "miopenConvFwdAlgorithm_t", {0, 1, 2, 3, 5});
        plan.SetConvAlgo(a);
    });
}

extern "C" miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* convOp,
                                                    miopenConvolutionDescriptor_t convDesc,
                                                    const miopenTensorDescriptor_t wDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, convOp, convDesc, wDesc);
    return MIOPEN_TRY({
        const auto& conv = miopen::DerefConv(convDesc, "convDesc");
        const auto& w    = DerefTensor(wDesc, "wDesc");
        CreateOp(fusePlanDesc, convOp, "convOp", FusionOpKind::ConvForward,
                 [&](FusionOp& op) { miopen::ConfigureConvOp(op, conv, w); });
    });
}

extern "C" miopenStatus_t miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                          miopenFusionOpDescriptor_t* activFwdOp,
                                                          miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activFwdOp, miopen::EnumValue(mode));
    return MIOPEN_TRY({
        CreateOp(fusePlanDesc, activFwdOp, "activFwdOp", FusionOpKind::ActivForward,
                 [&](FusionOp& op) { miopen::ConfigureActivOp(op, miopen::EnumValue(mode)); });
    });
}

extern "C" miopenStatus_t miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                           miopenFusionOpDescriptor_t* activBwdOp,
                                                           miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activBwdOp, miopen::EnumValue(mode));
    return MIOPEN_TRY({
        CreateOp(fusePlanDesc, activBwdOp, "activBwdOp", FusionOpKind::ActivBackward,
                 [&](FusionOp& op) { miopen::ConfigureActivOp(op, miopen::EnumValue(mode)); });
    });
}

extern "C" miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* biasOp,
                                                    const miopenTensorDescriptor_t bDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, biasOp, bDesc);
    return MIOPEN_TRY({
        const auto& b = DerefTensor(bDesc, "bDesc");
        CreateOp(fusePlanDesc, biasOp, "biasOp", FusionOpKind::BiasForward,
                 [&](FusionOp& op) { miopen::ConfigureBiasOp(op, b, "bDesc"); });
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                           miopenFusionOpDescriptor_t* bnOp,
                                                           const miopenBatchNormMode_t bn_mode,
                                                           const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnOp, miopen::EnumValue(bn_mode), bnScaleBiasMeanVarDesc);
    return MIOPEN_TRY({
        const auto& d = DerefTensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc");
        CreateOp(fusePlanDesc, bnOp, "bnOp", FusionOpKind::BatchNormInference, [&](FusionOp& op) {
            miopen::ConfigureBnOp(op, miopen::EnumValue(bn_mode), &d, "bnScaleBiasMeanVarDesc");
        });
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                         miopenFusionOpDescriptor_t* bnFwdOp,
                                                         const miopenBatchNormMode_t bn_mode,
                                                         bool runningMeanVariance)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnFwdOp, miopen::EnumValue(bn_mode), runningMeanVariance);
    return MIOPEN_TRY({
        CreateOp(fusePlanDesc, bnFwdOp, "bnFwdOp", FusionOpKind::BatchNormFwdTrain, [&](FusionOp& op) {
            miopen::ConfigureBnOp(op, miopen::EnumValue(bn_mode), nullptr, "bn_mode");
            op.running_mean_variance = runningMeanVariance;
        });
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                          miopenFusionOpDescriptor_t* bnBwdOp,
                                                          const miopenBatchNormMode_t bn_mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnBwdOp, miopen::EnumValue(bn_mode));
    return MIOPEN_TRY({
        CreateOp(fusePlanDesc, bnBwdOp, "bnBwdOp", FusionOpKind::BatchNormBwdTrain, [&](FusionOp& op) {
            miopen::ConfigureBnOp(op, miopen::EnumValue(bn_mode), nullptr, "bn_mode");
        });
    });
}

extern "C" miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args)
{
    MIOPEN_LOG_FUNCTION(args);
    return MIOPEN_TRY({ miopen::CreateObject<miopen::OperatorArgs>(args, "args"); });
}

extern "C" miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(args);
    return MIOPEN_TRY({ miopen::DestroyObject<miopen::OperatorArgs>(args, "args"); });
}

extern "C" miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t convOp,
                                                     const void* alpha, const void* beta,
                                                     const void* w)
{
    MIOPEN_LOG_FUNCTION(args, convOp, alpha, beta, w);
    return MIOPEN_TRY({
        FusionOpArgs v;
        v.w = w;
        Set(args, convOp, "convOp", FusionOpKind::ConvForward, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                                      const miopenFusionOpDescriptor_t activFwdOp,
                                                      const void* alpha, const void* beta,
                                                      double activAlpha, double activBeta,
                                                      double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activFwdOp, alpha, beta, activAlpha, activBeta, activGamma);
    return MIOPEN_TRY({
        FusionOpArgs v;
        v.activ_alpha = activAlpha;
        v.activ_beta  = activBeta;
        v.activ_gamma = activGamma;
        Set(args, activFwdOp, "activFwdOp", FusionOpKind::ActivForward, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                                                       const miopenFusionOpDescriptor_t activBwdOp,
                                                       const void* alpha, const void* beta,
                                                       const void* y, const void* reserved,
                                                       double activAlpha, double activBeta,
                                                       double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activBwdOp, alpha, beta, y, reserved, activAlpha, activBeta,
                        activGamma);
    return MIOPEN_TRY({
        if(reserved != nullptr)
            miopen::ThrowBadParm("reserved must be a null pointer");
        FusionOpArgs v;
        v.y           = y;
        v.activ_alpha = activAlpha;
        v.activ_beta  = activBeta;
        v.activ_gamma = activGamma;
        Set(args, activBwdOp, "activBwdOp", FusionOpKind::ActivBackward, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                                            const miopenFusionOpDescriptor_t bnOp,
                                                            const void* alpha, const void* beta,
                                                            const void* bnScale, const void* bnBias,
                                                            const void* estimatedMean,
                                                            const void* estimatedVariance,
                                                            double epsilon)
{
    MIOPEN_LOG_FUNCTION(args, bnOp, alpha, beta, bnScale, bnBias, estimatedMean, estimatedVariance,
                        epsilon);
    return MIOPEN_TRY({
        FusionOpArgs v;
        v.scale   = bnScale;
        v.bias    = bnBias;
        v.mean    = estimatedMean;
        v.var     = estimatedVariance;
        v.epsilon = epsilon;
        Set(args, bnOp, "bnOp", FusionOpKind::BatchNormInference, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormForward(miopenOperatorArgs_t args,
                                                          const miopenFusionOpDescriptor_t bnOp,
                                                          const void* alpha, const void* beta,
                                                          const void* bnScale, const void* bnBias,
                                                          void* savedMean, void* savedInvVariance,
                                                          void* runningMean, void* runningVariance,
                                                          double expAvgFactor, double epsilon)
{
    MIOPEN_LOG_FUNCTION(args, bnOp, alpha, beta, bnScale, bnBias, savedMean, savedInvVariance,
                        runningMean, runningVariance, expAvgFactor, epsilon);
    return MIOPEN_TRY({
        FusionOpArgs v;
        v.scale          = bnScale;
        v.bias           = bnBias;
        v.saved_mean     = savedMean;
        v.saved_inv_var  = savedInvVariance;
        v.running_mean   = runningMean;
        v.running_var    = runningVariance;
        v.exp_avg_factor = expAvgFactor;
        v.epsilon        = epsilon;
        Set(args, bnOp, "bnOp", FusionOpKind::BatchNormFwdTrain, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                           const miopenFusionOpDescriptor_t bnOp,
                                                           const void* alpha, const void* beta,
                                                           const void* x, const void* bnScale,
                                                           const void* bnBias,
                                                           void* resultBnScaleDiff,
                                                           void* resultBnBiasDiff,
                                                           const void* savedMean,
                                                           const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(args, bnOp, alpha, beta, x, bnScale, bnBias, resultBnScaleDiff,
                        resultBnBiasDiff, savedMean, savedInvVariance);
    return MIOPEN_TRY({
        FusionOpArgs v;
        v.x      = x;
        v.scale  = bnScale;
        v.bias   = bnBias;
        v.dscale = resultBnScaleDiff;
        v.dbias  = resultBnBiasDiff;
        v.mean   = savedMean;
        v.var    = savedInvVariance;
        Set(args, bnOp, "bnOp", FusionOpKind::BatchNormBwdTrain, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t biasOp,
                                                     const void* alpha, const void* beta,
                                                     const void* bias)
{
    MIOPEN_LOG_FUNCTION(args, biasOp, alpha, beta, bias);
    return MIOPEN_TRY({
        FusionOpArgs v;
        v.bias = bias;
        Set(args, biasOp, "biasOp", FusionOpKind::BiasForward, v, alpha, beta);
    });
}

extern "C" miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                                  const miopenFusionPlanDescriptor_t fusePlanDesc,
                                                  const miopenTensorDescriptor_t inputDesc,
                                                  const void* input,
                                                  const miopenTensorDescriptor_t outputDesc,
                                                  void* output, miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, inputDesc, input, outputDesc, output, args);
    return MIOPEN_TRY({
        auto& h          = miopen::DerefHandle(handle);
        const auto& plan = DerefFusionPlan(fusePlanDesc, "fusePlanDesc");
        const auto& in   = DerefTensor(inputDesc, "inputDesc");
        const auto& out  = DerefTensor(outputDesc, "outputDesc");
        const auto& a    = DerefOperatorArgs(args, "args");
        plan.Execute(h, in, input, out, output, a);
    });
}

extern "C" miopenStatus_t miopenConvolutionBiasActivationForward(
    miopenHandle_t handle, const void* alpha1, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, void* workspace,
    size_t workspaceSizeInBytes, const void* alpha2, const miopenTensorDescriptor_t zDesc,
    const void* z, const miopenTensorDescriptor_t biasDesc, const void* bias,
    const miopenActivationDescriptor_t activationDesc, const miopenTensorDescriptor_t yDesc,
    void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha1, xDesc, x, wDesc, w, convDesc, miopen::EnumValue(algo), workspace,
                        workspaceSizeInBytes, alpha2, zDesc, z, biasDesc, bias, activationDesc,
                        yDesc, y);
    return MIOPEN_TRY({
        auto& h          = miopen::DerefHandle(handle);
        const auto& xd   = DerefTensor(xDesc, "xDesc");
        const auto& wd   = DerefTensor(wDesc, "wDesc");
        const auto& conv = miopen::DerefConv(convDesc, "convDesc");
        const auto a = miopen::CheckedEnum(algo, "algo", "miopenConvFwdAlgorithm_t", {0, 1, 2, 3, 5});
        const miopen::TensorDescriptor* zd =
            (z != nullptr || zDesc != nullptr) ? &DerefTensor(zDesc, "zDesc") : nullptr;
        const auto& bd  = DerefTensor(biasDesc, "biasDesc");
        const auto& ad  = miopen::DerefSetActivation(activationDesc, "activationDesc");
        const auto& yd  = DerefTensor(yDesc, "yDesc");
        if(bias == nullptr)
            miopen::ThrowBadParm("bias is a null pointer");
        if(zd != nullptr && z == nullptr)
            miopen::ThrowBadParm("zDesc is given but z is a null pointer");
        miopen::ConvolutionBiasActivationForward(h, alpha1, xd, x, wd, w, conv, a, workspace,
                                                 workspaceSizeInBytes, alpha2, zd, z, bd, bias,
                                                 ad.Mode(), ad.Alpha(), ad.Beta(), ad.Gamma(), yd,
                                                 y);
    });
}
