// The packed batch-norm inference path (bn_infer_packed.hip): taken by
// BatchNormForwardInference when x and y are packed and aligned. Plain C++.
#pragma once

#include "batchnorm/batchnorm_args.hpp"
#include "core/handle.hpp"

namespace miopen::gpu {

/// Runs the inference on the packed path and returns true, or returns false (nothing launched)
/// where it does not apply: x or y not packed (NC[D]HW, or N[D]HWC in spatial mode with C a
/// multiple of 4) or not 16-byte aligned, a plane (spatial: the [D]HW run of one (n, c); per
/// activation and channels-last: the C[D]HW run of one n) not a multiple of 4 elements.
template <class T>
bool BatchNormInferencePacked(Handle& h, const BnForwardArgs& args);

} // namespace miopen::gpu
