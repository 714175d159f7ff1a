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

/// One step of the GPU fold (fusion/fusion.cpp, kernels/fusion/epilogue_pass.hip): a bias, or a
/// spatial batch norm inference, its parameters in device memory along `desc`'s dim 1.
struct EpilogueFoldParam
{
    bool batch_norm = false;
    const TensorDescriptor* desc = nullptr;
    const void* bias  = nullptr; // the bias; batch norm: bnBias
    const void* scale = nullptr, *mean = nullptr, *var = nullptr;
    double epsilon = 0.0;
};

/// The GPU epilogue pass: y = act(scale[c] * (alpha * in + alpha2 * z) + shift[c]), scale and
/// shift K fp32 values in device memory (the fold's), z of y's type with zDesc's strides.
struct GpuEpilogueArgs
{
    float alpha  = 1.0f;
    float alpha2 = 0.0f;
    const void* z = nullptr;
    const TensorDescriptor* zDesc = nullptr;
    float* scale = nullptr; // the plan's buffer: K values each
    float* shift = nullptr;
    bool has_act = false;
    ActivationParams act{};
    /// fold_pending: scale and shift are not queued yet (GpuEpilogue); EpiloguePass folds the
    /// chain's steps `fold` (none for an activation alone: scale 1, shift 0) itself, in the pass
    /// where its path allows (a block of one channel folds that channel), else with FoldEpilogue
    /// before the pass.
    bool fold_pending = false;
    std::vector<EpilogueFoldParam> fold;
};

namespace cpu {
/// The epilogue as a CPU forward-convolution solver carries it (ConvArgs::cpu_epilogue): a
/// solver that writes y in blocks (ConvSolver::CarriesCpuEpilogue: the implicit GEMM's chunks of
/// output rows, the blocked direct solver's register tiles) applies it to each block right after
/// computing it, while the block is in cache, and sets `applied`. The others (Winograd, FFT, the
/// GEMM and naive direct solvers) leave it: the plan then runs cpu::ConvEpilogue as a pass over y.
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

/// One register tile's run (the blocked direct solver, before the tile is stored; fp32 y):
/// tile[u * ld + k] for u < nw, k < nk is output channel k0 + k of the tile's u-th output, whose
/// element lies at y + off + k * ks + u * us (z, when set, is read there): the same arithmetic as
/// EpilogueRun, in place, along the channels (per-channel scale and shift as vectors).
void EpilogueTile(const ConvEpilogueArgs& e, float* tile, size_t ld, size_t nw, size_t nk, size_t k0,
                  size_t off, size_t ks, size_t us);

/// Applies the epilogue to y in place in one pass: each block of y (a plane of packed NC[D]HW,
/// a run of pixels of packed N[D]HWC) gets the affine part and then the activation while it is
/// in cache. Returns false, writing nothing, for other layouts.
template <class T>
bool ConvEpilogue(const ConvEpilogueArgs& e, const TensorDescriptor& yDesc, T* y);
} // namespace cpu

namespace gpu {
/// scale[c] = 1, shift[c] = 0, then each step in order (a bias adds to shift; a batch norm maps
/// (scale, shift) to (scale * s, shift * s + b)): one tiny kernel on the handle's stream
/// (kernels/fusion/epilogue_pass_launch.cpp), the CPU fold's arithmetic.
void FoldEpilogue(const Handle& h, size_t k, const std::vector<EpilogueFoldParam>& steps,
                  float* scale, float* shift);
/// The epilogue in one pass from in (inDesc's strides; in == y in place with y's strides) into y,
/// on the handle's stream: 16-byte vectors on packed NC[D]HW / N[D]HWC, any strides correct.
template <class T>
void EpiloguePass(const Handle& h, const GpuEpilogueArgs& e, const TensorDescriptor& inDesc,
                  const T* in, const TensorDescriptor& yDesc, T* y);
} // namespace gpu

} // namespace miopen
