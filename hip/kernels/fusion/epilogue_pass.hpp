// The fused epilogue pass (epilogue_pass.hip) and its fold kernel: argument structs and host
// entry points, called by epilogue_pass_launch.cpp, for T = float, Half, BFloat16. Plain C++.
//
//   y[i] = act(scale[c] * (alpha * in[i] + alpha2 * z[i]) + shift[c])      c: i's channel
//
// one pass over y: the epilogue of a convolution chain whose solver carries none (in = y, in
// place) and the batch-norm inference + activation chain (in = x). scale and shift are K fp32
// values that the fold kernel computes on the device from the chain's parameters (bias, batch
// norm inference), into a buffer the fusion plan owns.
#pragma once

#include "kernels/activation/activation_kernels.hpp"
#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// The pass's data paths:
///   kEpiPlanes:  packed NC[D]HW, a plane (one (n, c)) a whole number of 16-byte vectors: a block
///                takes a chunk of one plane, its channel's scale and shift read once;
///   kEpiPixels:  packed N[D]HWC, C a whole number of vectors: a vector's channels are
///                consecutive; with `fixed` (C / W divides the block) a thread's vectors all
///                have the same channels and read their scale and shift once;
///   kEpiScalar:  packed (either layout), any sizes below 2^31 elements: an element a thread,
///                its channel by 32-bit division;
///   kEpiGeneral: any strides (up to 5 dims), an element a thread.
enum EpiloguePath
{
    kEpiPlanes  = 0,
    kEpiPixels  = 1,
    kEpiScalar  = 2,
    kEpiGeneral = 3,
};

/// The fold: for each channel c < k, scale[c] and shift[c] from the chain's steps in order
/// (scale = 1, shift = 0 first): a bias adds b[c] to shift; a batch norm (inference, spatial)
/// with s = bnScale / sqrt(var + eps), b = bnBias - mean * s maps (scale, shift) to
/// (scale * s, shift * s + b), in double and rounded once (the CPU fold's arithmetic).
struct EpilogueFoldStep
{
    int batch_norm = 0;         // 0: bias (in `bias`)
    int type       = 1;         // miopenDataType_t of the parameters: float, half or bfloat16
    int64_t stride = 1;         // elements between channels
    const void* bias  = nullptr;
    const void* scale = nullptr, *mean = nullptr, *var = nullptr;
    double epsilon = 0.0;
};

struct EpilogueFoldK
{
    int64_t k  = 0;
    int nsteps = 0;
    EpilogueFoldStep steps[2];
    float* scale = nullptr;
    float* shift = nullptr;
};

struct EpiloguePassK
{
    const void* in = nullptr;   // T; may be out (in place, same strides)
    void* out      = nullptr;   // T
    const void* z  = nullptr;   // T; null: no residual
    const float* scale = nullptr; // K values
    const float* shift = nullptr; // K values
    float alpha  = 1.0f;
    float alpha2 = 0.0f;
    int path     = kEpiGeneral;
    int64_t channels = 1;
    // kEpiPlanes / kEpiPixels: vectors (of 16 bytes) a plane, a chunk, chunks a plane; kEpiPixels:
    // cq = C / W (vectors a pixel), fixed = C / W divides the block
    int64_t plane_q = 0, chunk_q = 0, chunks = 1, cq = 1;
    int fixed = 0;
    // kEpiScalar: numel, inner (the elements of a plane, NCHW) and channels_last
    int64_t numel = 0, inner = 1;
    int channels_last = 0;
    // kEpiGeneral: y's lengths and the three operands' strides (dim 1 is C)
    int ndim = 0;
    int64_t lens[5] = {}, in_s[5] = {}, z_s[5] = {}, out_s[5] = {};
    // kEpiPlanes with fold_inline: scale and shift are not in memory yet; a block folds its
    // plane's channel from `fold`'s steps (the fold kernel's arithmetic) instead of reading them
    int fold_inline = 0;
    EpilogueFoldK fold;
};

constexpr int kEpiThreads = 256;
/// 16-byte vectors a thread has in flight (of in, and as many of z).
constexpr int kEpiUnroll = 4;

template <class T>
void LaunchEpiloguePass(const EpiloguePassK& p, const Launch& l, const ActivationMode& act);

void LaunchEpilogueFold(const EpilogueFoldK& p, const Launch& l);

} // namespace miopen::gpu
