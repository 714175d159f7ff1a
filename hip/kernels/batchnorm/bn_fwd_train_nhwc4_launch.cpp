// Launcher of bn_fwd_train_nhwc4.hip: whether the channels-last fast path applies (spatial mode,
// x and y packed N[D]HWC, C a multiple of 4, both 16-byte aligned), its chunking, the scratch,
// and the three launches (stats, batchnorm.hip's finish, apply) in stream order.
#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/bn_fwd_train_nhwc4_kernels.hpp"
#include "kernels/batchnorm/bn_layout.hpp"
#include "kernels/batchnorm/bn_train_args.hpp"
#include "kernels/common/group_plan.hpp"

#include <algorithm>
#include <cstdint>

namespace miopen::gpu {

template <class T>
bool BatchNormForwardTrainingNhwc4(Handle& h, const BnForwardArgs& args)
{
    const TensorDescriptor& x = *args.xDesc;
    if(args.mode != miopenBNSpatial || x.IsPacked() || !PackedChannelsLast(x) ||
       x.Strides() != args.yDesc->Strides() || !Aligned16(args.x) || !Aligned16(args.y))
        return false;
    const int64_t c = static_cast<int64_t>(x.Lens()[1]);
    if(c % 4 != 0 || c > 65535 * 4)
        return false;
    BnNhwc4Args a;
    a.c4   = c / 4;
    a.m    = static_cast<int64_t>(x.ElementSize()) / c;
    a.beta = args.beta;
    int cq = 1;
    while(cq * 2 <= a.c4 && cq < 64)
        cq *= 2;
    a.cq              = cq;
    const int lanes   = kBnNhwc4Threads / cq;
    const int64_t gy  = (a.c4 + cq - 1) / cq;
    int64_t chunks    = std::max<int64_t>(1, (kGroupTargetBlocks + gy - 1) / gy);
    chunks            = std::min<int64_t>(chunks, std::max<int64_t>(1, a.m / (int64_t{lanes} * 8)));
    chunks            = std::min<int64_t>(chunks, 65535);
    a.chunk           = (a.m + chunks - 1) / chunks;
    a.chunks          = static_cast<int>((a.m + a.chunk - 1) / a.chunk);
    if(gy > 65535)
        return false;

    // The finish kernel's view: groups = channels, m = N * S, our chunk count.
    auto plan        = PlanGroups<1>(h, {args.xDesc, args.pDesc}, [](int d) { return d == 1; });
    plan.args.chunks = a.chunks;

    ScratchLayout layout;
    const size_t at_partial = layout.Add<Partial2>(static_cast<size_t>(c) * a.chunks);
    size_t at_coef[3];
    for(auto& at : at_coef)
        at = layout.Add<float>(static_cast<size_t>(c));
    void* base    = h.Scratch(layout.Bytes());
    auto* partial = At<Partial2>(base, at_partial);
    BnCoef coef{At<float>(base, at_coef[0]), At<float>(base, at_coef[1]),
                At<float>(base, at_coef[2]), nullptr};

    const T* px = static_cast<const T*>(args.x);
    LaunchBnStatsNhwc4<T>(a, On(h, D2(static_cast<unsigned>(a.chunks), static_cast<unsigned>(gy)),
                                D1(kBnNhwc4Threads)),
                          px, partial);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    const BnTrainArgs t = TrainArgsOf(args);
    LaunchBnTrainFinish<T>(plan.args, PerItem(h, c), px, partial, t, coef);
    CheckLaunch("miopenBatchNormalizationForwardTraining");

    LaunchBnApplyNhwc4<T>(a, On(h, D1(GridStrideBlocks(h, a.m * a.c4, kBnNhwc4Threads)),
                                D1(kBnNhwc4Threads)),
                          px, static_cast<T*>(args.y), coef);
    CheckLaunch("miopenBatchNormalizationForwardTraining");
    return true;
}

template bool BatchNormForwardTrainingNhwc4<float>(Handle&, const BnForwardArgs&);
template bool BatchNormForwardTrainingNhwc4<Half>(Handle&, const BnForwardArgs&);
template bool BatchNormForwardTrainingNhwc4<BFloat16>(Handle&, const BnForwardArgs&);

} // namespace miopen::gpu
