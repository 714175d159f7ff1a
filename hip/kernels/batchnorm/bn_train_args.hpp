// The finish step's parameters taken from a training forward's arguments: shared by the general
// launcher (batchnorm_launch.cpp) and the packed NCHW fast path (bn_fwd_train_nchw4_launch.cpp).
#pragma once

#include "batchnorm/batchnorm_args.hpp"
#include "kernels/batchnorm/batchnorm_kernels.hpp"

namespace miopen::gpu {

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

} // namespace miopen::gpu
