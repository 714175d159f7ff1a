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
/// op_tensor_channel: C = op(alpha1 * A, alpha2 * b[c]) + beta * C on packed NC[D]HW A and C (the
/// same strides, 16-byte aligned) whose (n, c) planes are whole 16-byte vectors (W = 16 /
/// sizeof(T) elements), B broadcast over every dim but C (b_stride: B's C stride, 0 when B's C
/// length is 1). A block owns a balanced chunk of one plane and reads its b once; U vectors of A
/// in flight a thread. The per-channel broadcast (x * scale[c], x + shift[c]) without MapRows'
/// row offsets and partial chunks.
template <class T>
struct OpTensorChannelArgs
{
    const T* a       = nullptr;
    const T* b       = nullptr;
    T* c             = nullptr;
    int64_t b_stride = 0;
    int64_t channels = 1;
    int64_t plane_q  = 0; // vectors per (n, c) plane
    int64_t chunk_q  = 0; // vectors per block
    int64_t chunks   = 1; // blocks per plane
    float beta       = 0.0f;
};
constexpr int kOpChannelThreads = 256;
constexpr int kOpChannelUnroll  = 4; // 16-byte vectors of A a thread moves per pass
template <class T>
void LaunchOpTensorChannel(const OpTensorChannelArgs<T>& p, const Launch& l, int op, float alpha1,
                           float alpha2);

/// y = alpha * x + beta * y; in = {x}.
template <class T>
void LaunchAxpby(const MapArgs<1, T>& a, const Launch& l, float alpha, bool read_out);

/// The integer forms (T = int8_t, int32_t): MIOpen's wrapping arithmetic (tensor/int_arith.hpp),
/// one element a thread over the strided space (operands A, B, C; or x, y). C / y is not read
/// when beta == 0.
template <class T>
void LaunchOpTensorInt(const StridedSpace<3>& s, const Launch& l, int op, int64_t alpha1,
                       const T* A, int64_t alpha2, const T* B, int64_t beta, T* C);
template <class T>
void LaunchAxpbyInt(const StridedSpace<2>& s, const Launch& l, int64_t alpha, const T* x,
                    int64_t beta, T* y);

/// y = value (its bits) over the strided space s of y: packed, 16-byte aligned y in 16-byte
/// stores, else one element a thread.
template <class T>
void LaunchFill(const StridedSpace<1>& s, const Launch& l, T* y, T value);

} // namespace miopen::gpu
