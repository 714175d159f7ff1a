// The time of one convolution run, for Find (convolution.cpp, find2.cpp) and tuning: device events
// on a GPU, the wall clock on the CPU.
#pragma once

#include "conv/solver.hpp"
#include "core/handle.hpp"

namespace miopen::timing {

/// Time of one run: device events on a GPU (after a warm-up run), wall clock on the CPU; the
/// best of up to three runs; on a GPU the first timed run above `cutoff_ms` ends it, and a
/// warm-up run 5 ms past it is the answer (a solver that slow cannot win the Find that asks).
double MeasureMs(const Handle& handle, const ConvInvoker& run, const ConvArgs& args, double cutoff_ms = 1e30);

} // namespace miopen::timing
