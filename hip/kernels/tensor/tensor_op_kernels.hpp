// Host entry points of tensor_op.hip (the whole-tensor ops on the element-wise engine), called by
// tensor_op_launch.cpp. Plain C++.
#pragma once

#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// C = op(alpha1 * A, alpha2 * B) + beta * C; in = {A, B}; op a miopenTensorOp_t value.
void LaunchOpTensor(const MapArgs<2>& a, const Launch& l, int op, float alpha1, float alpha2,
                    bool read_out);
/// y = alpha * x + beta * y; in = {x}.
void LaunchAxpby(const MapArgs<1>& a, const Launch& l, float alpha, bool read_out);
/// y = value.
void LaunchFill(const MapArgs<0>& a, const Launch& l, float value);

} // namespace miopen::gpu
