// Host entry points of bias.hip (the bias gradient), called by bias_launch.cpp. Plain C++.
#pragma once

#include "common/args.hpp"

namespace miopen::gpu {

/// Per-(channel, chunk) sums of dy, in double.
void LaunchBiasBwdPartial(const GroupArgs<1>& a, const Launch& l, const float* dy,
                          Partial2* partial);
/// db = alpha * sum + beta * db per channel (db not read when beta == 0); the channel's db
/// offset comes from a.g (the parameter operand).
void LaunchBiasBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                         float* db, float alpha, float beta);

} // namespace miopen::gpu
