// Host entry points of the reduction kernels (reduce.hip), called by reduce_launch.cpp. Plain
// C++. Templates on the storage type T and the accumulation type Acc, instantiated in reduce.hip.
#pragma once

#include "core/storage.hpp"
#include "kernels/common/args.hpp"
#include "reduce/reduce_args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// The partial kernel on a grid of (ceil(outputs / gx), chunks) blocks of kReduceThreads; with
/// one chunk it finishes the outputs itself, else writes part_v / part_i, which the finishing
/// kernel (ReduceFinishLanes lanes per output) folds by a fixed order.
template <class T, class Acc>
void LaunchReduce(const ReducePlan& p, const Launch& partial, const Launch& finish, double alpha,
                  const T* a, double beta, T* c, int32_t* indices, Acc* part_v, int32_t* part_i);

} // namespace miopen::gpu
