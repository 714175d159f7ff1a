// Host entry points of lrn_cross_cols.hip, called by lrn_launch.cpp. Plain C++.
#pragma once

#include "kernels/lrn/lrn_kernels.hpp"

#include <cstdint>

namespace miopen::gpu {

/// Whether the column kernels take a cross-channel window of n channels (3, 5, 7, 9, 11).
bool LrnCrossColsWindow(int64_t n);
/// lrn_fwd / lrn_bwd of lrn_kernels.hpp, cross-channel, one thread per (n, h, w) column:
/// a launch over n * h * w threads.
template <class T>
void LaunchLrnFwdCrossCols(const LrnArgs& a, const Launch& l, const T* x, T* y, T* scale);
template <class T>
void LaunchLrnBwdCrossCols(const LrnArgs& a, const Launch& l, const T* x, const T* y, const T* dy,
                           const T* scale, T* dx);

} // namespace miopen::gpu
