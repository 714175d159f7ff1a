// Launcher of bn_train_nhwc4.hip: whether the channels-last fast path applies (spatial mode,
// x and y (dy, dx) packed N[D]HWC, C a multiple of 4, 16-byte aligned), its chunking, the
// scratch, and the launches in stream order: forward stats, collapse, batchnorm.hip's finish,
// apply; backward stats and collapse (unless saved), prepare, gradient sums, collapse, finish,
// apply. The collapse adds each channel's ~1024 chunk partials into one (a block a channel), so
// the finish kernels (a thread a channel) see one chunk.
#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/bn_train_nhwc4_kernels.hpp"
#include "kernels/batchnorm/bn_layout.hpp"
#include "kernels/batchnorm/bn_train_args.hpp"
#include "kernels/common/group_plan.hpp"

#include <algorithm>
#include <cstdint>

namespace miopen::gpu {
namespace {

/// The block shape and chunking of x (spatial, packed channels-last, C % 4 == 0, aligned, checked
/// by the caller): cp pairs of channels a block (a power of 2 <= 128), chunks of positions so that
/// the grid has about kGroupTargetBlocks blocks, each lane at least 8 positions, a chunk of at
/// most 2^31 elements (the reductions index within a chunk in 32 bits). gy: blocks along the
/// channels.
BnNhwc4Args PlanNhwc4(const TensorDescriptor& x, float beta, int64_t& gy)
{
    const int64_t c = static_cast<int64_t>(x.Lens()[1]);
    BnNhwc4Args a;
    a.c4   = c / 4;
    a.m    = static_cast<int64_t>(x.ElementSize()) / c;
    a.beta = beta;
    int cp = 1;
    while(cp * 2 <= c / 2 && cp < 128)
        cp *= 2;
    a.cp                     = cp;
    const int lanes          = kBnNhwc4Threads / cp;
    gy                       = (c / 2 + cp - 1) / cp;
    const int64_t max_chunk  = (int64_t{1} << 31) / c;
    int64_t chunks           = std::max<int64_t>(1, (kGroupTargetBlocks + gy - 1) / gy);
    chunks = std::min<int64_t>(chunks, std::max<int64_t>(1, a.m / (int64_t{lanes} * 8)));
    chunks = std::max<int64_t>(chunks, (a.m + max_chunk - 1) / max_chunk);
    chunks = std::min<int64_t>(chunks, 65535);
    a.chunk         = (a.m + chunks - 1) / chunks;
    a.chunks        = static_cast<int>((a.m + a.chunk - 1) / a.chunk);
    return a;
}

/// Whether x is spatial-mode data the channels-last kernels take.
bool Nhwc4Applies(miopenBatchNormMode_t mode, const TensorDescriptor& x, const void* px)
{
    if(mode != miopenBNSpatial || x.IsPacked() || !PackedChannelsLast(x) || !Aligned16(px))
        return false;
    const int64_t c = static_cast<int64_t>(x.Lens()[1]);
    return c % 4 == 0 && c / 4 <= int64_t{65535} * 64;
}

} // namespace

template <class T>
bool BatchNormForwardTrainingNhwc4(Handle& h, const BnForwardArgs& args)
{
    const TensorDescriptor& x = *args.xDesc;
    if(!Nhwc4Applies(args.mode, x, args.x) || x.Strides() != args.yDesc->Strides() ||
       !Aligned16(args.y))
        return false;
    const int64_t c = static_cast<int64_t>(x.Lens()[1]);
    int64_t gy      = 1;
    const BnNhwc4Args a = PlanNhwc4(x, args.beta, gy);

    // The finish kernel's view: groups = channels, m = N * S, one (collapsed) chunk.
    auto plan        = PlanGroups<1>(h, {args.xDesc, args.pDesc}, [](int d) { return d == 1; });
    plan.args.chunks = 1;

    const BnScratch sc       = CarveBnScratch(h, c, a.chunks, true);
    Partial2* partial        = sc.partial;
    Partial2* total          = sc.total;
    const BnCoef coef        = sc.coef;
    const Launch per_channel = On(h, D1(static_cast<unsigned>(c)), D1(kBnNhwc4Threads));

    const T* px = static_cast<const T*>(args.x);
    LaunchBnStatsNhwc4<T>(a, On(h, D2(static_cast<unsigned>(a.chunks), static_cast<unsigned>(gy)),
                                D1(kBnNhwc4Threads)),
                          px, partial);
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    LaunchBnCollapsePartials(per_channel, partial, a.chunks, total);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    const BnTrainArgs t = TrainArgsOf(args);
    LaunchBnTrainFinish<T>(plan.args, PerItem(h, c), px, total, t, coef);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    LaunchBnApplyNhwc4<T>(a, On(h, D1(GridStrideBlocks(h, a.m * a.c4, kBnNhwc4Threads)),
                                D1(kBnNhwc4Threads)),
                          px, static_cast<T*>(args.y), coef, ActOf(args.act));
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    return true;
}

template <class T>
bool BatchNormBackwardNhwc4(Handle& h, const BnBackwardArgs& args)
{
    const TensorDescriptor& x = *args.xDesc;
    if(!Nhwc4Applies(args.mode, x, args.x) || x.Strides() != args.dyDesc->Strides() ||
       x.Strides() != args.dxDesc->Strides() || !Aligned16(args.dy) || !Aligned16(args.dx))
        return false;
    const int64_t c     = static_cast<int64_t>(x.Lens()[1]);
    int64_t gy          = 1;
    const BnNhwc4Args a = PlanNhwc4(x, args.beta_data, gy);

    auto plan        = PlanGroups<1>(h, {args.xDesc, args.pDesc}, [](int d) { return d == 1; });
    plan.args.chunks = 1; // prepare and finish read the collapsed partials

    const BnScratch sc = CarveBnScratch(h, c, a.chunks, true);
    Partial2* partial  = sc.partial;
    Partial2* total    = sc.total;
    double* mean       = sc.mean;
    double* inv        = sc.inv_std;
    const BnCoef coef  = sc.coef;

    const char* api   = "miopenBatchNormalizationBackward";
    const T* px       = static_cast<const T*>(args.x);
    const T* pdy      = static_cast<const T*>(args.dy);
    const Launch grid = On(h, D2(static_cast<unsigned>(a.chunks), static_cast<unsigned>(gy)),
                           D1(kBnNhwc4Threads));
    const Launch per_channel = On(h, D1(static_cast<unsigned>(c)), D1(kBnNhwc4Threads));
    const bool saved  = args.saved_mean != nullptr;
    if(!saved)
    {
        LaunchBnStatsNhwc4<T>(a, grid, px, partial);
        CheckLaunch(api);
        LaunchBnCollapsePartials(per_channel, partial, a.chunks, total);
        CheckLaunch(api);
    }
    LaunchBnBwdPrepare<T>(plan.args, PerItem(h, c), px, total,
                          saved ? args.saved_mean : nullptr, saved ? args.saved_inv_std : nullptr,
                          static_cast<float>(args.epsilon), mean, inv, args.scale, args.bias,
                          FusedUe(args, coef), FusedUf(args, coef));
    CheckLaunch(api);
    LaunchBnGradSumsNhwc4<T>(a, grid, px, pdy, mean, partial, FusedUe(args, coef),
                             FusedUf(args, coef), ActOf(args.act));
    CheckLaunch(api);
    LaunchBnCollapsePartials(per_channel, partial, a.chunks, total);
    CheckLaunch(api);
    LaunchBnBwdFinish(plan.args, PerItem(h, c), total, mean, inv, args.scale, args.dscale,
                      args.dbias, args.alpha_data, args.alpha_param, args.beta_param, coef);
    CheckLaunch(api);
    LaunchBnBwdApplyNhwc4<T>(a, On(h, D1(GridStrideBlocks(h, a.m * a.c4, kBnNhwc4Threads)),
                                   D1(kBnNhwc4Threads)),
                             pdy, px, static_cast<T*>(args.dx), coef, ActOf(args.act));
    CheckLaunch(api);
    return true;
}

template bool BatchNormBackwardNhwc4<float>(Handle&, const BnBackwardArgs&);
template bool BatchNormBackwardNhwc4<Half>(Handle&, const BnBackwardArgs&);
template bool BatchNormBackwardNhwc4<BFloat16>(Handle&, const BnBackwardArgs&);

template bool BatchNormForwardTrainingNhwc4<float>(Handle&, const BnForwardArgs&);
template bool BatchNormForwardTrainingNhwc4<Half>(Handle&, const BnForwardArgs&);
template bool BatchNormForwardTrainingNhwc4<BFloat16>(Handle&, const BnForwardArgs&);

} // namespace miopen::gpu
