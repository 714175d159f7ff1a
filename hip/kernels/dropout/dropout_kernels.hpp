// Host entry points of dropout.hip, called by dropout_launch.cpp; templates for T = float, Half,
// BFloat16. Plain C++.
#pragma once

#include "core/storage.hpp"
#include "dropout/dropout_args.hpp"
#include "kernels/common/args.hpp"

namespace miopen::gpu {

constexpr int kDropoutThreads = 256;

/// dropout_fwd_packed: in and out packed and 16-byte aligned, the mask (when read or written)
/// aligned to 16 / sizeof(T) bytes; a thread owns 16 bytes of T (4 fp32, 8 fp16/bf16: one or
/// two Philox calls) per grid-stride step, and the numel % (16 / sizeof(T)) last elements are
/// taken one by one.
template <class T>
void LaunchDropoutPacked(const DropoutArgs& a, const Launch& l, const T* in, T* out,
                         uint8_t* mask, const DropoutState* state, bool use_last);
/// dropout_fwd_strided: any strides, a thread per group of four elements (one Philox call).
template <class T>
void LaunchDropoutStrided(const DropoutArgs& a, const Launch& l, const T* in, T* out,
                          uint8_t* mask, const DropoutState* state, bool use_last);
/// state_evo: last = offset, offset += 1 (one thread).
void LaunchDropoutAdvance(const Launch& l, DropoutState* state);

} // namespace miopen::gpu
