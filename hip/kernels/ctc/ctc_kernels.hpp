// Host entry point of ctc.hip, called by ctc_launch.cpp; templates for T = float, Half. Plain C++.
#pragma once

#include "core/storage.hpp"
#include "ctc/ctc_args.hpp"
#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// Threads of a ctc_loss block: a multiple of every warp size, fixed (the block reductions'
/// order, and so the bits, depend on it).
constexpr int kCtcThreads = 256;

/// The workspace regions of CtcLayout, as pointers.
struct CtcWorkspace
{
    const int* input_len;
    const int* label_len;
    const int* label_off;
    const int* labels;
    const int* next;
    const int* head;
    float* lse;    // [N][T]
    double* alpha; // [N][T][S]; row t becomes terms_t once beta reaches t
    double* beta;  // [N][2][S]
};

/// ctc_loss: a block of kCtcThreads per batch item (grid N).
template <class T>
void LaunchCtcLoss(const CtcArgs& a, const Launch& l, const T* probs, T* losses, T* gradients,
                   const CtcWorkspace& w);

} // namespace miopen::gpu
