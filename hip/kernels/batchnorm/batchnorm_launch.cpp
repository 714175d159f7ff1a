// Launchers of batch norm: the group plan (spatial: C; per activation: C, [D,] H, W), the pieces
// of the handle's scratch (partial sums, per-group statistics and coefficients), the kernels of
// batchnorm.hip in stream order, each launch checked; templated on the data's storage type T.
// Parameters that are not fp32 at one set of strides are staged (WithDeviceParams) into packed
// fp32 in device memory of their own, and the written ones rounded back after the kernels.
#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/bn_train_args.hpp"
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/batchnorm/bn_infer_packed.hpp"
#include "kernels/common/group_plan.hpp"

#include <initializer_list>
#include <type_traits>

namespace miopen::gpu {

/// bn_train_nchw4_launch.cpp: the quad path of spatial training on packed NCHW; false
/// (nothing queued) where it does not apply.
template <class T>
bool BatchNormForwardTrainingNchw4(Handle& h, const BnForwardArgs& args);
/// bn_train_nhwc4_launch.cpp: its channels-last partner (packed N[D]HWC, C % 4 == 0).
template <class T>
bool BatchNormForwardTrainingNhwc4(Handle& h, const BnForwardArgs& args);
/// The spatial backward on the same two layouts (bn_train_nchw4 / _nhwc4 _launch.cpp).
template <class T>
bool BatchNormBackwardNchw4(Handle& h, const BnBackwardArgs& args);
template <class T>
bool BatchNormBackwardNhwc4(Handle& h, const BnBackwardArgs& args);

namespace {

/// run(args') with the parameters in place, or staged through device memory of their own (the
/// handle's scratch serves the kernels' partial sums): gathered into packed fp32 before, the
/// written ones rounded back after, the memory freed once the stream has run them.
template <class Args, class Run>
void WithDeviceParams(Handle& h, const Args& args, Run&& run)
{
    if(!args.staging.on)
        return run(args);
    const TensorDescriptor& packed = args.staging.packed;
    const size_t n                 = packed.ElementSize();
    float* buf                     = static_cast<float*>(
        Malloc(BnParamStaging::kSlots * n * sizeof(float), "batch-norm parameter staging"));
    const auto space = [&](const TensorDescriptor& d) {
        return Collapse<2>(d.NumDims(), d.Lens().data(), {StridesOf(d), StridesOf(packed)});
    };
    const Launch l = PerItem(h, static_cast<int64_t>(n));
    try
    {
        WithStagedParams(
            args, buf,
            [&](const TensorDescriptor& d, const void* user, float* dst) {
                DispatchFloating(d.Type(), "bnDesc", [&](auto tag) {
                    using P = typename decltype(tag)::type;
                    LaunchBnParamGather<P>(space(d), l, static_cast<const P*>(user), dst);
                });
                CheckLaunch("batch-norm parameter staging");
            },
            [&](const float* src, const TensorDescriptor& d, void* user) {
                DispatchFloating(d.Type(), "bnDesc", [&](auto tag) {
                    using P = typename decltype(tag)::type;
                    LaunchBnParamScatter<P>(space(d), l, src, static_cast<P*>(user));
                });
                CheckLaunch("batch-norm parameter staging");
            },
            run);
    }
    catch(...)
    {
        StreamSynchronize(h.Stream());
        Free(buf);
        throw;
    }
    StreamSynchronize(h.Stream());
    Free(buf);
}

auto GroupDims(miopenBatchNormMode_t mode)
{
    return [mode](int d) { return d == 1 || (mode == miopenBNPerActivation && d >= 2); };
}

/// The element-wise apply over x's logical dims: data operands with their strides, per-group
/// arrays through the group steps.
template <int NIn>
MapArgs<NIn> PlanApply(const Handle& h, const TensorDescriptor& x,
                       const std::array<const size_t*, NIn + 1>& strides, float beta, Launch& l)
{
    return PlanMap<NIn>(h, Collapse<NIn + 1>(x.NumDims(), x.Lens().data(), strides), beta, l);
}

/// The forward's last step: y = (x - m) * a + c (+ beta * y) with the per-group coefficients
/// (then the fused activation, args.act, on the strided kernel).
template <class T>
void ApplyCoef(const Handle& h, const BnForwardArgs& args, const GroupPlan<1>& plan,
               const BnCoef& coef, const char* api)
{
    const TensorDescriptor& x = *args.xDesc;
    const size_t* gs          = plan.group_stride.data();
    if(!std::is_same_v<T, float> || args.act.mode != miopenActivationPASTHRU)
    {
        const auto s = Collapse<3>(x.NumDims(), x.Lens().data(),
                                   {StridesOf(x), gs, StridesOf(*args.yDesc)});
        LaunchBnApplyStrided<T>(s, PerItem(h, s.numel), static_cast<const T*>(args.x),
                                static_cast<T*>(args.y), coef, args.beta, ActOf(args.act));
        CheckLaunch(api);
        return;
    }
    Launch l;
    auto a  = PlanApply<4>(h, x, {StridesOf(x), gs, gs, gs, StridesOf(*args.yDesc)}, args.beta, l);
    a.in[0] = static_cast<const float*>(args.x);
    a.in[1] = coef.m;
    a.in[2] = coef.a;
    a.in[3] = coef.c;
    a.out   = static_cast<float*>(args.y);
    LaunchBnApply(a, l, args.beta != 0.0f);
    CheckLaunch(api);
}

/// Whether the one-kernel per-activation paths take x (packed, as every descriptor in `others`,
/// n <= kBnPeractTrainMaxN): n and the groups (C[D]HW) when they do.
bool PeractPacked(miopenBatchNormMode_t mode, const TensorDescriptor& x,
                  std::initializer_list<const TensorDescriptor*> others, int64_t& n,
                  int64_t& groups)
{
    if(mode != miopenBNPerActivation || !x.IsPacked())
        return false;
    for(const TensorDescriptor* d : others)
        if(!d->IsPacked())
            return false;
    n      = static_cast<int64_t>(x.Lens()[0]);
    groups = static_cast<int64_t>(x.ElementSize()) / (n > 0 ? n : 1);
    return n >= 1 && n <= kBnPeractTrainMaxN && groups >= 1 &&
           CeilDiv(groups, kBnPeractThreads) <= INT32_MAX;
}

Launch PeractLaunch(const Handle& h, int64_t groups)
{
    return On(h, D1(CeilDiv(groups, kBnPeractThreads)), D1(kBnPeractThreads));
}

/// Per-activation training on packed x and y (same strides), n <= kBnPeractTrainMaxN and packed
/// parameters: bn_peract_train, x read once. False: nothing queued.
template <class T>
bool PeractTrainPacked(Handle& h, const BnForwardArgs& args)
{
    int64_t n = 0, groups = 0;
    if(!PeractPacked(args.mode, *args.xDesc, {args.yDesc, args.pDesc}, n, groups))
        return false;
    LaunchBnPeractTrain<T>(PeractLaunch(h, groups), n, groups, static_cast<const T*>(args.x),
                           static_cast<T*>(args.y), TrainArgsOf(args), args.beta,
                           ActOf(args.act));
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    return true;
}

template <class T>
void ForwardTraining(Handle& h, const BnForwardArgs& args)
{
    if(BatchNormForwardTrainingNchw4<T>(h, args) || BatchNormForwardTrainingNhwc4<T>(h, args) ||
       PeractTrainPacked<T>(h, args))
        return;
    const T* x      = static_cast<const T*>(args.x);
    const auto plan = PlanGroups<1>(h, {args.xDesc, args.pDesc}, GroupDims(args.mode));
    const auto s    = CarveBnScratch(h, plan.args.groups, plan.args.chunks);
    LaunchBnStats<T>(plan.args, plan.launch, x, s.partial);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    const BnTrainArgs t = TrainArgsOf(args);
    LaunchBnTrainFinish<T>(plan.args, PerItem(h, plan.args.groups), x, s.partial, t, s.coef);
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    ApplyCoef<T>(h, args, plan, s.coef, "miopenBatchNormalizationForwardTraining");
}

template <class T>
void ForwardInference(Handle& h, const BnForwardArgs& args)
{
    if(BatchNormInferencePacked<T>(h, args)) // packed, aligned x and y: bn_infer_packed.hip
        return;
    const auto plan = PlanGroups<1>(h, {args.xDesc, args.pDesc}, GroupDims(args.mode));
    const auto s    = CarveBnScratch(h, plan.args.groups, 1);
    LaunchBnInferCoef(plan.args, PerItem(h, plan.args.groups), args.scale, args.bias,
                      args.est_mean, args.est_variance, args.alpha,
                      static_cast<float>(args.epsilon), s.coef);
    CheckLaunch("miopenBatchNormalizationForwardInference");
    ApplyCoef<T>(h, args, plan, s.coef, "miopenBatchNormalizationForwardInference");
}

/// Per-activation backward on packed x, dy and dx, n <= kBnPeractTrainMaxN, packed parameters:
/// bn_peract_bwd, x and dy read once. False: nothing queued.
template <class T>
bool PeractBwdPacked(Handle& h, const BnBackwardArgs& args)
{
    int64_t n = 0, groups = 0;
    if(!PeractPacked(args.mode, *args.xDesc, {args.dyDesc, args.dxDesc, args.pDesc}, n, groups))
        return false;
    BnPeractBwdArgs b;
    b.scale         = args.scale;
    b.dscale        = args.dscale;
    b.dbias         = args.dbias;
    b.saved_mean    = args.saved_mean;
    b.saved_inv_std = args.saved_inv_std;
    b.alpha_data    = args.alpha_data;
    b.beta_data     = args.beta_data;
    b.alpha_param   = args.alpha_param;
    b.beta_param    = args.beta_param;
    b.epsilon       = static_cast<float>(args.epsilon);
    b.bias          = args.bias;
    b.act           = ActOf(args.act);
    LaunchBnPeractBwd<T>(PeractLaunch(h, groups), n, groups, static_cast<const T*>(args.x),
                         static_cast<const T*>(args.dy), static_cast<T*>(args.dx), b);
    CheckLaunch("miopenBatchNormalizationBackward");
    return true;
}

template <class T>
void Backward(Handle& h, const BnBackwardArgs& args)
{
    if(PeractBwdPacked<T>(h, args) || BatchNormBackwardNchw4<T>(h, args) ||
       BatchNormBackwardNhwc4<T>(h, args))
        return;
    const TensorDescriptor& x = *args.xDesc;
    const T* px               = static_cast<const T*>(args.x);
    const T* pdy              = static_cast<const T*>(args.dy);
    const auto stats = PlanGroups<1>(h, {args.xDesc, args.pDesc}, GroupDims(args.mode));
    const auto grads = PlanGroups<2>(h, {args.xDesc, args.dyDesc, args.pDesc}, GroupDims(args.mode));
    const auto s = CarveBnScratch(h, stats.args.groups,
                                  std::max(stats.args.chunks, grads.args.chunks));
    const bool saved = args.saved_mean != nullptr;
    if(!saved)
    {
        LaunchBnStats<T>(stats.args, stats.launch, px, s.partial);
        CheckLaunch("miopenBatchNormalizationBackward");
    }
    LaunchBnBwdPrepare<T>(stats.args, PerItem(h, stats.args.groups), px, s.partial,
                       saved ? args.saved_mean : nullptr, saved ? args.saved_inv_std : nullptr,
                       static_cast<float>(args.epsilon), s.mean, s.inv_std, args.scale,
                       args.bias, FusedUe(args, s.coef), FusedUf(args, s.coef));
    CheckLaunch("miopenBatchNormalizationBackward");
    LaunchBnGradSums<T>(grads.args, grads.launch, px, pdy, s.mean, s.partial,
                        FusedUe(args, s.coef), FusedUf(args, s.coef), ActOf(args.act));
    CheckLaunch("miopenBatchNormalizationBackward");
    // The finish reads the grads' partials: same groups, the grads' chunk count.
    GroupArgs<1> fin = stats.args;
    fin.chunks       = grads.args.chunks;
    LaunchBnBwdFinish(fin, PerItem(h, stats.args.groups), s.partial, s.mean, s.inv_std,
                      args.scale, args.dscale, args.dbias, args.alpha_data, args.alpha_param,
                      args.beta_param, s.coef);
    CheckLaunch("miopenBatchNormalizationBackward");

    const size_t* gs = stats.group_stride.data();
    if(!std::is_same_v<T, float> || args.Fused())
    {
        const auto sp = Collapse<4>(x.NumDims(), x.Lens().data(),
                                    {StridesOf(*args.dyDesc), StridesOf(x), gs,
                                     StridesOf(*args.dxDesc)});
        LaunchBnBwdApplyStrided<T>(sp, PerItem(h, sp.numel), pdy, px, static_cast<T*>(args.dx),
                                   s.coef, args.beta_data, ActOf(args.act));
        CheckLaunch("miopenBatchNormalizationBackward");
        return;
    }
    Launch l;
    auto a = PlanApply<6>(h, x,
                          {StridesOf(*args.dyDesc), StridesOf(x), gs, gs, gs, gs,
                           StridesOf(*args.dxDesc)},
                          args.beta_data, l);
    a.in[0] = static_cast<const float*>(args.dy);
    a.in[1] = static_cast<const float*>(args.x);
    a.in[2] = s.coef.m;
    a.in[3] = s.coef.a;
    a.in[4] = s.coef.c;
    a.in[5] = s.coef.d;
    a.out   = static_cast<float*>(args.dx);
    LaunchBnBwdApply(a, l, args.beta_data != 0.0f);
    CheckLaunch("miopenBatchNormalizationBackward");
}

} // namespace

template <class T>
void BatchNormForwardTraining(Handle& h, const BnForwardArgs& args)
{
    WithDeviceParams(h, args, [&](const BnForwardArgs& a) { ForwardTraining<T>(h, a); });
}

template <class T>
void BatchNormForwardInference(Handle& h, const BnForwardArgs& args)
{
    WithDeviceParams(h, args, [&](const BnForwardArgs& a) { ForwardInference<T>(h, a); });
}

template <class T>
void BatchNormBackward(Handle& h, const BnBackwardArgs& args)
{
    WithDeviceParams(h, args, [&](const BnBackwardArgs& a) { Backward<T>(h, a); });
}

#define MIOPEN_CY_BN_ENTRY(T)                                                        \
    template void BatchNormForwardTraining<T>(Handle&, const BnForwardArgs&);  \
    template void BatchNormForwardInference<T>(Handle&, const BnForwardArgs&); \
    template void BatchNormBackward<T>(Handle&, const BnBackwardArgs&);
MIOPEN_CY_BN_ENTRY(float)
MIOPEN_CY_BN_ENTRY(Half)
MIOPEN_CY_BN_ENTRY(BFloat16)
#undef MIOPEN_CY_BN_ENTRY

} // namespace miopen::gpu
