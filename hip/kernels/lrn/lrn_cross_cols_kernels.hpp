// Host entry points of lrn_cross_cols.hip, called by lrn_launch.cpp. Plain C++.
#pragma once

#include "kernels/lrn/lrn_kernels.hpp"

#include <cstdint>

namespace miopen::gpu {

/// Whether the column kernels take a cross-channel window of n channels (3, 5, 7, 9, 11).
bool LrnCrossColsWindow(int64_t n);
/// lrn_fwd / lrn_bwd of lrn_kernels.hpp, cross-channel, one thread per (n, h, w) column:
/// a launch over n * h * w threads.
void LaunchLrnFwdCrossCols(const LrnArgs& a, const Launch& l, const float* x, float* y,
                           float* scale);
void LaunchLrnBwdCrossCols(const LrnArgs& a, const Launch& l, const float* x, const float* y,
                           const float* dy, const float* scale, float* dx);

} // namespace miopen::gpu
