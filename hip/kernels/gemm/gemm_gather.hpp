// The data movement around the GEMM convolution solvers on the GPU (gemm_gather.hip): the strided
// 1x1 convolution's subsampled input (GemmFwd1x1_0_2) and the scatter of its backward-data GEMM's
// result into dx (GemmBwd1x1_stride2). Plain C++.
#pragma once

#include "kernels/conv/conv_kernels.hpp"

namespace miopen::gpu {

/// col[n][c][o] (packed, o over the output positions) = x[n][c][o * stride] for a 1x1
/// convolution without padding (a.n, a.c, a.out, a.str and a.xs are read).
void LaunchConv1x1Gather(const ConvKArgs& a, void* stream, const float* x, float* col);

/// dx[n][c][i] = col[n][c][i / stride] where every spatial i is a multiple of the stride, else 0:
/// every element of dx is written (a.n, a.c, a.in, a.out, a.str and a.xs are read).
/// One thread per stride-wide run of a dx row (2-element vector stores for stride 2 where aligned).
void LaunchConv1x1Scatter(const ConvKArgs& a, void* stream, const float* col, float* dx);

/// The same two for packed channels-last tensors (x, dx: N, spatial, C; col: N, output
/// positions, C, packed): col[n][o][c] = x[n][o * stride][c], and dx[n][i][c] = col[n][i /
/// stride][c] where every spatial i is a multiple of the stride, else 0 (every dx element
/// written). Four channels a thread (16-byte accesses) where C % 4 == 0 and the pointers allow.
void LaunchConv1x1GatherNhwc(const ConvKArgs& a, void* stream, const float* x, float* col);
void LaunchConv1x1ScatterNhwc(const ConvKArgs& a, void* stream, const float* col, float* dx);
} // namespace miopen::gpu
