// Shared by the general launcher (batchnorm_launch.cpp) and the packed fast paths
// (bn_train_nchw4_launch.cpp, bn_train_nhwc4_launch.cpp): the finish step's parameters taken from
// a training forward's arguments, and one call's scratch carved from the handle's.
#pragma once

#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/common/group_plan.hpp"

namespace miopen::gpu {

/// The fused activation of a training forward or backward as the kernels take it (PASTHRU: none).
inline ActivationMode ActOf(const ActivationParams& p)
{
    return {static_cast<int>(p.mode), p.alpha, p.beta, p.gamma};
}

/// Backward fused with an activation: the scratch's ue / uf arrays (BnCoef e, f), else nulls.
inline float* FusedUe(const BnBackwardArgs& args, const BnCoef& c) { return args.Fused() ? c.e : nullptr; }
inline float* FusedUf(const BnBackwardArgs& args, const BnCoef& c) { return args.Fused() ? c.f : nullptr; }

inline BnTrainArgs TrainArgsOf(const BnForwardArgs& args)
{
    BnTrainArgs t;
    t.scale            = args.scale;
    t.bias             = args.bias;
    t.alpha            = args.alpha;
    t.epsilon          = static_cast<float>(args.epsilon);
    t.exp_avg_factor   = args.exp_avg_factor;
    t.running_mean     = args.running_mean;
    t.running_variance = args.running_variance;
    t.save_mean        = args.save_mean;
    t.save_inv_std     = args.save_inv_std;
    return t;
}

/// Scratch for one call over `groups` groups: partial sums (groups * chunks, group-major), the
/// collapsed sums (one a group; null unless asked for), per-group mean and inv_std (backward) and
/// the six coefficient arrays (the forward uses m, a, c; the backward m, a, c, d, and e, f when
/// fused with an activation).
struct BnScratch
{
    Partial2* partial = nullptr;
    Partial2* total   = nullptr;
    double* mean      = nullptr;
    double* inv_std   = nullptr;
    BnCoef coef{};
};

inline BnScratch CarveBnScratch(Handle& h, int64_t groups, int64_t chunks, bool with_total = false)
{
    const size_t g = static_cast<size_t>(groups);
    ScratchLayout layout;
    const size_t at_partial = layout.Add<Partial2>(g * static_cast<size_t>(chunks));
    const size_t at_total   = with_total ? layout.Add<Partial2>(g) : 0;
    const size_t at_mean    = layout.Add<double>(g);
    const size_t at_inv     = layout.Add<double>(g);
    size_t at_coef[6];
    for(auto& at : at_coef)
        at = layout.Add<float>(g);
    void* base = h.Scratch(layout.Bytes());
    BnScratch s;
    s.partial = At<Partial2>(base, at_partial);
    s.total   = with_total ? At<Partial2>(base, at_total) : nullptr;
    s.mean    = At<double>(base, at_mean);
    s.inv_std = At<double>(base, at_inv);
    s.coef    = {At<float>(base, at_coef[0]), At<float>(base, at_coef[1]),
                 At<float>(base, at_coef[2]), At<float>(base, at_coef[3]),
                 At<float>(base, at_coef[4]), At<float>(base, at_coef[5])};
    return s;
}

} // namespace miopen::gpu
