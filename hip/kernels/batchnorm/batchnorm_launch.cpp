// Launchers of batch norm: the group plan (spatial: C; per activation: C, [D,] H, W), the pieces
// of the handle's scratch (partial sums, per-group statistics and coefficients), the kernels of
// batchnorm.hip in stream order, each launch checked.
#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/bn_train_args.hpp"
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/batchnorm/bn_infer_packed.hpp"
#include "kernels/common/group_plan.hpp"

namespace miopen::gpu {

/// bn_fwd_train_nchw4_launch.cpp: the float4 path of spatial training on packed NCHW; false
/// (nothing queued) where it does not apply.
bool BatchNormForwardTrainingNchw4(Handle& h, const BnForwardArgs& args);

namespace {

auto GroupDims(miopenBatchNormMode_t mode)
{
    return [mode](int d) { return d == 1 || (mode == miopenBNPerActivation && d >= 2); };
}

/// Scratch for one call: partial sums, per-group mean and inv_std (backward) and coefficients.
struct BnScratch
{
    Partial2* partial;
    double* mean;
    double* inv_std;
    BnCoef coef;
};

BnScratch CarveScratch(Handle& h, int64_t groups, int64_t chunks)
{
    ScratchLayout layout;
    const size_t at_partial = layout.Add<Partial2>(groups * chunks);
    const size_t at_mean    = layout.Add<double>(groups);
    const size_t at_inv     = layout.Add<double>(groups);
    size_t at_coef[4];
    for(auto& at : at_coef)
        at = layout.Add<float>(groups);
    void* base = h.Scratch(layout.Bytes());
    BnScratch s;
    s.partial = At<Partial2>(base, at_partial);
    s.mean    = At<double>(base, at_mean);
    s.inv_std = At<double>(base, at_inv);
    s.coef    = {At<float>(base, at_coef[0]), At<float>(base, at_coef[1]),
              At<float>(base, at_coef[2]), At<float>(base, at_coef[3])};
    return s;
}

/// The element-wise apply over x's logical dims: data operands with their strides, per-group
/// arrays through the group steps.
template <int NIn>
MapArgs<NIn> PlanApply(const Handle& h, const TensorDescriptor& x,
                       const std::array<const size_t*, NIn + 1>& strides, float beta, Launch& l)
{
    return PlanMap<NIn>(h, Collapse<NIn + 1>(x.NumDims(), x.Lens().data(), strides), beta, l);
}

/// The forward's last step: y = (x - m) * a + c (+ beta * y) with the per-group coefficients.
void ApplyCoef(const Handle& h, const BnForwardArgs& args, const GroupPlan<1>& plan,
               const BnCoef& coef, const char* api)
{
    const TensorDescriptor& x = *args.xDesc;
    const size_t* gs          = plan.group_stride.data();
    Launch l;
    auto a  = PlanApply<4>(h, x, {StridesOf(x), gs, gs, gs, StridesOf(*args.yDesc)}, args.beta, l);
    a.in[0] = args.x;
    a.in[1] = coef.m;
    a.in[2] = coef.a;
    a.in[3] = coef.c;
    a.out   = args.y;
    LaunchBnApply(a, l, args.beta != 0.0f);
    CheckLaunch(api);
}

} // namespace

void BatchNormForwardTraining(Handle& h, const BnForwardArgs& args)
{
    if(BatchNormForwardTrainingNchw4(h, args))
        return;
    const auto plan = PlanGroups<1>(h, {args.xDesc, args.pDesc}, GroupDims(args.mode));
    const auto s    = CarveScratch(h, plan.args.groups, plan.args.chunks);
    LaunchBnStats(plan.args, plan.launch, args.x, s.partial);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    const BnTrainArgs t = TrainArgsOf(args);
    LaunchBnTrainFinish(plan.args, PerItem(h, plan.args.groups), args.x, s.partial, t, s.coef);
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    ApplyCoef(h, args, plan, s.coef, "miopenBatchNormalizationForwardTraining");
}

void BatchNormForwardInference(Handle& h, const BnForwardArgs& args)
{
    if(BatchNormInferencePacked(h, args)) // packed, aligned x and y: bn_infer_packed.hip
        return;
    const auto plan = PlanGroups<1>(h, {args.xDesc, args.pDesc}, GroupDims(args.mode));
    const auto s    = CarveScratch(h, plan.args.groups, 1);
    LaunchBnInferCoef(plan.args, PerItem(h, plan.args.groups), args.scale, args.bias,
                      args.est_mean, args.est_variance, args.alpha,
                      static_cast<float>(args.epsilon), s.coef);
    CheckLaunch("miopenBatchNormalizationForwardInference");
    ApplyCoef(h, args, plan, s.coef, "miopenBatchNormalizationForwardInference");
}

void BatchNormBackward(Handle& h, const BnBackwardArgs& args)
{
    const TensorDescriptor& x = *args.xDesc;
    const auto stats = PlanGroups<1>(h, {args.xDesc, args.pDesc}, GroupDims(args.mode));
    const auto grads = PlanGroups<2>(h, {args.xDesc, args.dyDesc, args.pDesc}, GroupDims(args.mode));
    const auto s = CarveScratch(h, stats.args.groups,
                                std::max(stats.args.chunks, grads.args.chunks));
    const bool saved = args.saved_mean != nullptr;
    if(!saved)
    {
        LaunchBnStats(stats.args, stats.launch, args.x, s.partial);
        CheckLaunch("miopenBatchNormalizationBackward");
    }
    LaunchBnBwdPrepare(stats.args, PerItem(h, stats.args.groups), args.x, s.partial,
                       saved ? args.saved_mean : nullptr, saved ? args.saved_inv_std : nullptr,
                       static_cast<float>(args.epsilon), s.mean, s.inv_std);
    CheckLaunch("miopenBatchNormalizationBackward");
    LaunchBnGradSums(grads.args, grads.launch, args.x, args.dy, s.mean, s.partial);
    CheckLaunch("miopenBatchNormalizationBackward");
    // The finish reads the grads' partials: same groups, the grads' chunk count.
    GroupArgs<1> fin = stats.args;
    fin.chunks       = grads.args.chunks;
    LaunchBnBwdFinish(fin, PerItem(h, stats.args.groups), s.partial, s.mean, s.inv_std,
                      args.scale, args.dscale, args.dbias, args.alpha_data, args.alpha_param,
                      args.beta_param, s.coef);
    CheckLaunch("miopenBatchNormalizationBackward");

    const size_t* gs = stats.group_stride.data();
    Launch l;
    auto a = PlanApply<6>(h, x,
                          {StridesOf(*args.dyDesc), StridesOf(x), gs, gs, gs, gs,
                           StridesOf(*args.dxDesc)},
                          args.beta_data, l);
    a.in[0] = args.dy;
    a.in[1] = args.x;
    a.in[2] = s.coef.m;
    a.in[3] = s.coef.a;
    a.in[4] = s.coef.c;
    a.in[5] = s.coef.d;
    a.out   = args.dx;
    LaunchBnBwdApply(a, l, args.beta_data != 0.0f);
    CheckLaunch("miopenBatchNormalizationBackward");
}

} // namespace miopen::gpu
