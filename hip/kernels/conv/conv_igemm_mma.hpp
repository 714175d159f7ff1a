// Host entry points of the tensor-core implicit-GEMM kernels (conv_igemm_mma.hip), called by
// conv_igemm_mma_launch.cpp. Plain C++: the argument struct (conv/conv_args.hpp) is built on the
// host and passed by value; the buffers are fp16 or bf16 as `bf16` says.
#pragma once

#include "conv/conv_args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// The block's output tile (GEMM rows x columns) and its reduction step.
inline constexpr int kIgemmMmaBM = 128;
inline constexpr int kIgemmMmaBN = 128;
inline constexpr int kIgemmMmaBK = 32;

/// Reduction elements a part when a reduction of `red` elements is split into `splits` parts:
/// whole steps of kIgemmMmaBK, the last part the shortest (possibly empty when splits does not
/// divide the steps evenly; the solvers choose splits so that none is).
inline int IgemmMmaPerSplit(int64_t red, int splits)
{
    const int64_t steps = (red + kIgemmMmaBK - 1) / kIgemmMmaBK;
    return static_cast<int>((steps + splits - 1) / splits * kIgemmMmaBK);
}

/// Forward, packed NHWC / NDHWC (x N,[D,]H,W,C; w K,[Z,]Y,X,C/G; y N,[Do,]Ho,Wo,K), any C/G (a
/// multiple of 8 with 16-byte aligned pointers: 16-byte copies; else 2-byte loads, the stem's
/// C = 3 among them), every tensor under 2^31 elements, G <= 65535:
/// y = conv(x, w) with fp32 accumulation, rounded once. GEMM per group: rows (n, output position),
/// columns the group's K/G filters, reduction (filter position, c) with c fastest.
/// `splits` > 1 splits the reduction into that many parts of IgemmMmaPerSplit elements (grid z =
/// G * splits <= 65535): each writes its fp32 partial of the whole output into `workspace`
/// (splits * output elements floats), and a second kernel adds them in split order and rounds
/// once (deterministic); `workspace` is unused when splits is 1. `epilogue` (a fusion plan's;
/// null: none) is applied to each fp32 sum before its rounding: in the store, or split, in the
/// reduction kernel, so every split configuration stays fused.
void LaunchConvIgemmMmaFwd(const ConvKArgs& a, void* stream, bool bf16, int splits, const void* x, const void* w,
                           void* y, float* workspace, const ConvEpilogueParams* epilogue = nullptr);
/// Backward data, same layouts, K/G a multiple of 8 and dy's element offset too (C/G any):
/// dx = conv_bwd_data(dy, w). GEMM per group and stride phase (the residue class of the input
/// position modulo the stride, str[0] * str[1] * str[2] of them): rows (n, the phase's input
/// positions), columns the group's C/G channels, reduction (the phase's filter taps, k) with k
/// fastest: only the taps whose output position lies on the stride grid, so no product is wasted
/// on a zero; a phase with no such tap writes zeros. Grid z = G * splits * phases <= 65535.
/// Split as forward (workspace: splits * dx's elements floats); a phase's reduction is split in
/// `splits` parts of its own length (a short phase's last parts may be empty and write zeros).
void LaunchConvIgemmMmaBwd(const ConvKArgs& a, void* stream, bool bf16, int splits, void* dx, const void* w,
                           const void* dy, float* workspace);

/// Backward weights, same layouts, any channel counts: dw = conv_bwd_weights(x, dy). GEMM per
/// group: rows the group's K/G filters, columns (filter position, c) with c fastest, reduction
/// (n, output position) split into `splits` ranges of IgemmMmaWrwPerSplit positions (grid z =
/// G * splits <= 65535). K/G and C/G multiples of 8 with 16-byte aligned x and dy: 16-byte
/// copies into transposed tiles; else 2-byte loads (the same bits). Every split writes its fp32 partial tile into `workspace`
/// (splits * K * filter taps * C/G floats); a second kernel adds them in split order and rounds
/// once (deterministic).
int IgemmMmaWrwPerSplit(const ConvKArgs& a, int splits);
void LaunchConvIgemmMmaWrw(const ConvKArgs& a, void* stream, bool bf16, int splits, const void* x, void* dw,
                           const void* dy, float* workspace);

} // namespace miopen::gpu
