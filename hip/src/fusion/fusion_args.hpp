// The fused convolution epilogue as the kernels see it: y = act(a[c] * (y + alpha2 * z + bias[c])
// + b[c]), batch-norm inference folded into a and b; with `in`, y = act(a[c] * in + b[c]) (the
// batch-norm inference + activation chain). Device-neutral: the fusion front door and
// the CPU kernel (cpu/fusion_epilogue.cpp) include it.
#pragma once

#include "activation/activation_args.hpp"
#include "core/tensor.hpp"

#include <vector>

namespace miopen {

struct ConvEpilogueArgs
{
    float alpha2    = 0.0f;
    const void* z   = nullptr;     // y's type and strides; null: no residual
    const void* in  = nullptr;     // read instead of y (y's type and strides); null: y in place
    std::vector<float> scale;      // a[c] (1 without batch norm), K values
    std::vector<float> shift;      // a[c] * bias[c] + b[c], K values
    bool has_act = false;
    ActivationParams act{};
};

namespace cpu {
/// The epilogue as a CPU forward-convolution solver carries it (ConvArgs::cpu_epilogue): a
/// solver that writes y in blocks (ConvSolver::CarriesCpuEpilogue: the implicit GEMM's chunks of
/// output rows) applies it to each block right after computing it, while the block is in cache,
/// and sets `applied`. The others (Winograd, FFT, the GEMM and direct solvers for now) leave it:
/// the plan then runs cpu::ConvEpilogue as a pass over y.
struct ConvBlockEpilogue
{
    const ConvEpilogueArgs* e = nullptr;
    mutable bool applied      = false;
};

/// One block's run: v[0, n) are the fp32 results of output channel k whose elements lie at
/// y + off ... y + off + n - 1 (y's type T; z, when set, is read at the same offsets): v = act(
/// v * scale[k] + alpha2 * scale[k] * z + shift[k]) in place. The caller rounds v into y once
/// (fp32 y: v is y + off itself).
template <class T>
void EpilogueRun(const ConvEpilogueArgs& e, float* v, size_t off, size_t n, size_t k);

/// Applies the epilogue to y in place in one pass: each block of y (a plane of packed NC[D]HW,
/// a run of pixels of packed N[D]HWC) gets the affine part and then the activation while it is
/// in cache. Returns false, writing nothing, for other layouts.
template <class T>
bool ConvEpilogue(const ConvEpilogueArgs& e, const TensorDescriptor& yDesc, T* y);
} // namespace cpu

} // namespace miopen
