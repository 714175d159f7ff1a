// Launcher of bn_train_nchw4.hip (and of its backward kernels, BatchNormBackwardNchw4):
// whether the fast path applies (spatial mode, x and y packed
// NCHW / NCDHW with the same strides, H*W a multiple of 4, both 16-byte aligned, counts in 31
// bits: PackedNcs4), its chunking (PlanChannelChunks), the scratch, and the three launches
// (stats, batchnorm.hip's finish, apply) in stream order.
#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/bn_train_args.hpp"
#include "kernels/batchnorm/bn_train_nchw4_kernels.hpp"
#include "kernels/common/group_plan.hpp"

#include <cstdint>

namespace miopen::gpu {
namespace {

bool Aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

} // namespace

template <class T>
bool BatchNormForwardTrainingNchw4(Handle& h, const BnForwardArgs& args)
{
    int64_t n = 0, c = 0, s = 0;
    if(args.mode != miopenBNSpatial || !PackedNcs4(*args.xDesc, args.x, n, c, s) ||
       !args.yDesc->IsPacked() || !Aligned16(args.y))
        return false;

    BnNchw4Args a;
    a.n    = static_cast<uint32_t>(n);
    a.c    = static_cast<uint32_t>(c);
    a.hw4  = static_cast<uint32_t>(s / 4);
    a.beta = args.beta;
    const ChannelChunks ch = PlanChannelChunks(n, c, s / 4, kBnNchw4Threads);
    a.chunk4 = static_cast<uint32_t>(ch.chunk4);
    a.chunks = static_cast<uint32_t>(ch.chunks);

    // The finish kernel's view: groups = channels, m = N * S, our chunk count.
    auto plan       = PlanGroups<1>(h, {args.xDesc, args.pDesc},
                              [](int d) { return d == 1; });
    plan.args.chunks = static_cast<int>(a.chunks);

    const BnScratch sc = CarveBnScratch(h, c, a.chunks);
    Partial2* partial  = sc.partial;
    const BnCoef coef  = sc.coef;

    const T* x = static_cast<const T*>(args.x);
    LaunchBnStatsNchw4<T>(a, On(h, D2(a.chunks, a.c), D1(kBnNchw4Threads)), x, partial);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    const BnTrainArgs t = TrainArgsOf(args);
    LaunchBnTrainFinish<T>(plan.args, PerItem(h, c), x, partial, t, coef);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    const int64_t total4 = n * c * (s / 4);
    LaunchBnApplyNchw4<T>(a, On(h, D1(CeilDiv(total4, kBnApplyPerBlock)), D1(kBnNchw4Threads)),
                          x, static_cast<T*>(args.y), coef, ActOf(args.act));
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    return true;
}

/// Spatial backward on packed NCHW / NCDHW x, dy and dx (the forward's conditions): statistics
/// (unless saved) and gradient sums by quads, batchnorm.hip's prepare and finish, a quad apply.
template <class T>
bool BatchNormBackwardNchw4(Handle& h, const BnBackwardArgs& args)
{
    int64_t n = 0, c = 0, s = 0;
    if(args.mode != miopenBNSpatial || !PackedNcs4(*args.xDesc, args.x, n, c, s) ||
       !args.dyDesc->IsPacked() || !args.dxDesc->IsPacked() || !Aligned16(args.dy) ||
       !Aligned16(args.dx))
        return false;

    BnNchw4Args a;
    a.n    = static_cast<uint32_t>(n);
    a.c    = static_cast<uint32_t>(c);
    a.hw4  = static_cast<uint32_t>(s / 4);
    a.beta = args.beta_data;
    const ChannelChunks ch = PlanChannelChunks(n, c, s / 4, kBnNchw4Threads);
    a.chunk4 = static_cast<uint32_t>(ch.chunk4);
    a.chunks = static_cast<uint32_t>(ch.chunks);

    auto plan        = PlanGroups<1>(h, {args.xDesc, args.pDesc}, [](int d) { return d == 1; });
    plan.args.chunks = static_cast<int>(a.chunks);

    const BnScratch sc = CarveBnScratch(h, c, a.chunks);
    Partial2* partial  = sc.partial;
    double* mean       = sc.mean;
    double* inv        = sc.inv_std;
    const BnCoef coef  = sc.coef;

    const char* api = "miopenBatchNormalizationBackward";
    const T* x      = static_cast<const T*>(args.x);
    const T* dy     = static_cast<const T*>(args.dy);
    const Launch grid = On(h, D2(a.chunks, a.c), D1(kBnNchw4Threads));
    const bool saved  = args.saved_mean != nullptr;
    if(!saved)
    {
        LaunchBnStatsNchw4<T>(a, grid, x, partial);
        CheckLaunch(api);
    }
    LaunchBnBwdPrepare<T>(plan.args, PerItem(h, c), x, partial,
                          saved ? args.saved_mean : nullptr, saved ? args.saved_inv_std : nullptr,
                          static_cast<float>(args.epsilon), mean, inv, args.scale, args.bias,
                          FusedUe(args, coef), FusedUf(args, coef));
    CheckLaunch(api);
    LaunchBnGradSumsNchw4<T>(a, grid, x, dy, mean, partial, FusedUe(args, coef),
                             FusedUf(args, coef), ActOf(args.act));
    CheckLaunch(api);
    LaunchBnBwdFinish(plan.args, PerItem(h, c), partial, mean, inv, args.scale, args.dscale,
                      args.dbias, args.alpha_data, args.alpha_param, args.beta_param, coef);
    CheckLaunch(api);
    const int64_t total4 = n * c * (s / 4);
    LaunchBnBwdApplyNchw4<T>(a, On(h, D1(CeilDiv(total4, kBnApplyPerBlock)), D1(kBnNchw4Threads)),
                             dy, x, static_cast<T*>(args.dx), coef, ActOf(args.act));
    CheckLaunch(api);
    return true;
}

template bool BatchNormBackwardNchw4<float>(Handle&, const BnBackwardArgs&);
template bool BatchNormBackwardNchw4<Half>(Handle&, const BnBackwardArgs&);
template bool BatchNormBackwardNchw4<BFloat16>(Handle&, const BnBackwardArgs&);

template bool BatchNormForwardTrainingNchw4<float>(Handle&, const BnForwardArgs&);
template bool BatchNormForwardTrainingNchw4<Half>(Handle&, const BnForwardArgs&);
template bool BatchNormForwardTrainingNchw4<BFloat16>(Handle&, const BnForwardArgs&);

} // namespace miopen::gpu
