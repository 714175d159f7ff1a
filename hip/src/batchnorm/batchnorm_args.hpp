// Batch normalization: the validated arguments of forward and backward, and the entry points of
// the CPU kernels (cpu/batchnorm_*.cpp) and of the GPU launchers (kernels/batchnorm/), templated
// on the data's storage type T (float, Half, BFloat16). Device-neutral: the front door, the CPU
// kernels and the GPU launchers include it.
//
// Parameter tensors (scale, bias, means, variances and their gradients) reach the kernels as fp32
// at the strides of one descriptor, pDesc. The front door points them at the caller's buffers
// when all of them are fp32 with one set of strides (MIOpen's mixed mode and plain fp32: the
// usual case); otherwise (parameters of the data's type, or V2 descriptors with different
// strides) it fills `staging`, and the backend copies them into packed fp32 before the kernels
// and rounds the written ones back once after (WithStagedParams).
#pragma once

#include "activation/activation_args.hpp"
#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <array>

namespace miopen {

/// The caller's parameter tensors when they are not used in place.
struct BnParamStaging
{
    static constexpr int kSlots = 8;
    struct Slot
    {
        const TensorDescriptor* desc = nullptr; // the caller's descriptor (type, strides)
        void* user  = nullptr;                  // the caller's buffer; null: absent
        bool read   = false;                    // copied in before the kernels
        bool write  = false;                    // rounded back after them
    };
    bool on = false;
    TensorDescriptor packed; // miopenFloat, the derived lengths, packed
    std::array<Slot, kSlots> slots{};
};

/// Forward batch norm, validated. Parameter tensors all follow pDesc (fp32). Optional pairs are
/// both set or both null (the front door clears a half-given pair, as MIOpen ignores it).
struct BnForwardArgs
{
    miopenBatchNormMode_t mode = miopenBNSpatial;
    const TensorDescriptor* xDesc = nullptr;
    const void* x = nullptr; // T
    const TensorDescriptor* yDesc = nullptr;
    void* y = nullptr; // T
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
    // Training, fused (BnFwdTrgActivationFused): y = act(the blended value), applied where y is
    // stored; PASTHRU: the plain batch norm.
    ActivationParams act{miopenActivationPASTHRU, 0.0f, 0.0f, 0.0f};
    BnParamStaging staging;

    /// f(field, slot) for every parameter pointer, in staging-slot order.
    template <class F>
    void ForEachParam(F&& f)
    {
        f(scale, 0);
        f(bias, 1);
        f(running_mean, 2);
        f(running_variance, 3);
        f(save_mean, 4);
        f(save_inv_std, 5);
        f(est_mean, 6);
        f(est_variance, 7);
    }
};

struct BnBackwardArgs
{
    miopenBatchNormMode_t mode = miopenBNSpatial;
    const TensorDescriptor* xDesc = nullptr;
    const void* x = nullptr; // T
    const TensorDescriptor* dyDesc = nullptr;
    const void* dy = nullptr; // T
    const TensorDescriptor* dxDesc = nullptr;
    void* dx = nullptr; // T
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
    // Fused with the activation's backward (BnBwdTrgActivationFused): dy is the gradient of
    // act(u), u = scale * (x - mean) * inv_std + bias the forward's output, so the kernels use
    // act'(u) * dy in its place, computed on the fly (bias set, non-null); PASTHRU: plain.
    ActivationParams act{miopenActivationPASTHRU, 0.0f, 0.0f, 0.0f};
    const float* bias = nullptr;
    BnParamStaging staging;

    bool Fused() const { return act.mode != miopenActivationPASTHRU; }

    template <class F>
    void ForEachParam(F&& f)
    {
        f(scale, 0);
        f(dscale, 1);
        f(dbias, 2);
        f(saved_mean, 3);
        f(saved_inv_std, 4);
        f(bias, 5);
    }
};

/// Runs run(a) with a = args when its parameters are used in place, else with a copy whose
/// parameters point into `buf` (kSlots x numel packed floats): gather(desc, user, dst) copies a
/// read slot in as fp32 before, scatter(src, desc, user) rounds a written slot back after.
template <class Args, class Gather, class Scatter, class Run>
void WithStagedParams(const Args& args, float* buf, Gather&& gather, Scatter&& scatter, Run&& run)
{
    if(!args.staging.on)
        return run(args);
    Args a        = args;
    a.pDesc       = &args.staging.packed;
    const size_t n = args.staging.packed.ElementSize();
    a.ForEachParam([&](auto& field, int i) {
        const auto& s = args.staging.slots[i];
        if(s.user == nullptr)
        {
            field = nullptr;
            return;
        }
        float* p = buf + static_cast<size_t>(i) * n;
        if(s.read)
            gather(*s.desc, static_cast<const void*>(s.user), p);
        field = p;
    });
    run(a);
    for(int i = 0; i < BnParamStaging::kSlots; ++i)
    {
        const auto& s = args.staging.slots[i];
        if(s.user != nullptr && s.write)
            scatter(static_cast<const float*>(buf + static_cast<size_t>(i) * n), *s.desc, s.user);
    }
}

namespace cpu {
/// y = alpha * (scale * (x - mean) / sqrt(var + eps) + bias) + beta * y with the batch mean and
/// biased variance; updates the running statistics (unbiased variance) and saves mean and
/// 1/sqrt(var + eps) when those pointers are set.
template <class T>
void BatchNormForwardTraining(const BnForwardArgs& args);
/// The same with est_mean / est_variance in place of the batch statistics.
template <class T>
void BatchNormForwardInference(const BnForwardArgs& args);

/// dx, dscale and dbias of the training-mode forward, blended with the Data / Param factors.
template <class T>
void BatchNormBackward(const BnBackwardArgs& args);

} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/batchnorm/), queued on its stream; partial sums and
/// per-group coefficients live in the handle's scratch.
template <class T>
void BatchNormForwardTraining(Handle& h, const BnForwardArgs& args);
template <class T>
void BatchNormForwardInference(Handle& h, const BnForwardArgs& args);
template <class T>
void BatchNormBackward(Handle& h, const BnBackwardArgs& args);
} // namespace gpu

} // namespace miopen
