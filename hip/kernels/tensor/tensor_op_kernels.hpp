// Host entry points of tensor_op.hip (the whole-tensor ops on the element-wise engine), called by
// tensor_op_launch.cpp, for T = float, Half, BFloat16 (LaunchFill also int8_t, int32_t). Plain C++.
#pragma once

#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// C = op(alpha1 * A, alpha2 * B) + beta * C; in = {A, B}; op a miopenTensorOp_t value.
template <class T>
void LaunchOpTensor(const MapArgs<2, T>& a, const Launch& l, int op, float alpha1, float alpha2,
                    bool read_out);
/// y = alpha * x + beta * y; in = {x}.
template <class T>
void LaunchAxpby(const MapArgs<1, T>& a, const Launch& l, float alpha, bool read_out);

/// y = value (its bits) over the strided space s of y: packed, 16-byte aligned y in 16-byte
/// stores, else one element a thread.
template <class T>
void LaunchFill(const StridedSpace<1>& s, const Launch& l, T* y, T value);

} // namespace miopen::gpu
