// Every solver (conv/solvers/<name>.cpp), declared in one place; conv/registry.cpp lists them in
// priority order.
#pragma once

#include "conv/solver.hpp"

namespace miopen::solvers {

// Direct, naive (any geometry, any strides): the universal fallbacks.
const ConvSolver& ConvDirectNaiveFwd();
const ConvSolver& ConvDirectNaiveBwdData();
const ConvSolver& ConvDirectNaiveBwdWeights();
// GEMM on OpenBLAS (packed tensors).
const ConvSolver& GemmFwd1x1_0_1();
const ConvSolver& GemmFwd1x1_0_2();
const ConvSolver& GemmFwdRest();
const ConvSolver& GemmBwd1x1_stride1();
const ConvSolver& GemmBwd1x1_stride2();
const ConvSolver& GemmBwdRest();
const ConvSolver& GemmWrw1x1_stride1();
const ConvSolver& GemmWrwUniversal();
// Blocked implicit GEMM (packed tensors): the CPU fast path.
const ConvSolver& ConvCpuImplicitGemmFwd();
const ConvSolver& ConvCpuImplicitGemmBwd();
const ConvSolver& ConvCpuImplicitGemmWrw();
// Blocked direct convolution with register-tiled AVX-512 / AVX2 micro-kernels: forward, backward
// data of stride-1 convolutions, backward weights.
const ConvSolver& ConvCpuDirectBlockedFwd();
const ConvSolver& ConvCpuDirectBlockedBwd();
const ConvSolver& ConvCpuDirectBlockedWrw();
// Winograd F(m x m, r x r) (packed NCHW, or packed NHWC on a GPU; stride 1): forward and backward
// data for <4, 3>, <2, 3> and <4, 5> (the GPU); backward weights for 3x3 filters, <4, 3> and
// <2, 3>, and for 5x5 filters on the GPU, MIOpen's <WinoDataH = 5, WinoFilterH = dy's tile>:
// <5, 4> and <5, 3>.
template <int WinoDataH, int WinoFilterH>
const ConvSolver& ConvMPBidirectWinograd();
template <int WinoDataH, int WinoFilterH>
const ConvSolver& ConvCpuWinogradWrw();
template <int WinoDataH, int WinoFilterH>
const ConvSolver& ConvWinograd3x3MultipassWrW();
// FFT (packed NCHW, 2-d, filters 4x4 to 64x64, stride 1, one group): forward and backward data.
const ConvSolver& Fft();
// Implicit GEMM on the GPU, one solver per direction and row of gpu::kIgemmTiles (conv/conv_args.hpp):
// conv_gpu_implicit_gemm.cpp.
const ConvSolver& ConvGpuImplicitGemmFwd(int variant);
const ConvSolver& ConvGpuImplicitGemmBwd(int variant);
const ConvSolver& ConvGpuImplicitGemmWrw(int variant);
// Backward data on the GPU for C/G <= 4 (2-d): conv_gpu_direct_bwd_small_c.cpp.
const ConvSolver& ConvGpuDirectBwdSmallC();
// Depthwise on the GPU (groups == C == K, 2-d, packed): conv_gpu_depthwise.cpp.
const ConvSolver& ConvGpuDepthwiseFwd();
const ConvSolver& ConvGpuDepthwiseBwd();
const ConvSolver& ConvGpuDepthwiseWrw();
// Grouped/depthwise on the GPU (C/G, K/G <= 32, 2-d, packed): conv_gpu_grouped.cpp.
const ConvSolver& ConvGpuGroupedFwd();
const ConvSolver& ConvGpuGroupedBwd();
const ConvSolver& ConvGpuGroupedWrw();

// Forward 1x1 on the GPU as one batch-folded GEMM split over C: conv_gpu_gemm_fwd_1x1_split.cpp.
const ConvSolver& ConvGpuGemmFwd1x1Split();

// GCN assembly (asm/*.s, AMD GPUs only): direct forward 3x3 and 1x1.
const ConvSolver& ConvAsm3x3U();
const ConvSolver& ConvAsm1x1U();

// MIOpen's XDLOPS implicit GEMM on tensor cores (fp16/bf16, packed NHWC/NDHWC, every direction;
// mma.sync on sm_80+, MFMA on gfx908/gfx90a): conv_hip_implicit_gemm_xdlops.cpp.
const ConvSolver& ConvHipImplicitGemmFwdXdlops();
const ConvSolver& ConvHipImplicitGemmGroupFwdXdlops();
const ConvSolver& ConvHipImplicitGemm3DGroupFwdXdlops();
const ConvSolver& ConvHipImplicitGemmBwdXdlops();
const ConvSolver& ConvHipImplicitGemmGroupBwdXdlops();
const ConvSolver& ConvHipImplicitGemm3DGroupBwdXdlops();
const ConvSolver& ConvHipImplicitGemmGroupWrwXdlops();
const ConvSolver& ConvHipImplicitGemm3DGroupWrwXdlops();

} // namespace miopen::solvers
