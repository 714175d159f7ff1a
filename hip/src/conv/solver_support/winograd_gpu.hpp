// The GPU side of the Winograd solvers (they serve both devices, as MIOpen's do; those for 5x5
// filters the GPU only): the plan, workspace and estimate here, the invoker in
// hip/kernels/conv/conv_winograd_launch.cpp.
// ConvMPBidirectWinograd<4-3> / <2-3> / <4-5> (forward, backward data): input transform into
// V[e][C][tiles], filter transform into U[e][K][C/g], one strided-batched SGEMM per group over
// the alpha^2 tile elements (gemm/sgemm.hpp: M_e = U_e x V_e), and the output transform writing
// y. Backward data is the forward convolution of dy with the flipped, transposed filters and
// pad' = r - 1 - pad (cpu::WinogradShape::BackwardData), as on the CPU.
// ConvCpuWinogradWrw<4-3> / <2-3> and ConvWinograd3x3MultipassWrW<5-4> / <5-3> (backward weights,
// 3x3 and 5x5 filters, dy in 4x4 / 2x2 and 4x4 / 3x3 tiles): x and dy transformed with the tiles
// in parts, per (tile element, part) a GEMM reducing over the part's tiles, and a weight transform
// that adds the parts in order (deterministic) and writes dw.
// Packed NHWC tensors run the same plan through channels-last transforms and workspaces (the
// GEMMs' operands swapped so that the channels stay contiguous).
// Kernels: hip/kernels/conv/conv_winograd.hip (layouts there). Workspace: the whole batch's
// transformed data and products at once (one pass).
#pragma once

#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "core/handle.hpp"

#include <cstddef>

namespace miopen::solvers::winograd_gpu {

/// The GPU's limits beyond the shared ones (winograd_common.hpp), MIOpen's: every
/// transformed tensor under 2^31 bytes, and a workspace within
/// MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX bytes (forward and backward data) or
/// MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_WORKSPACE_MAX bytes (backward weights, 5x5) when set (> 0).
/// `m` is the output tile (backward weights: dy's), the filter size the problem's.
Applicability IsApplicable(const Handle& handle, const ConvProblem& p, int m);
/// Bytes of the three workspace parts (each 256-byte aligned); backward weights' depends on the
/// GPU (how many parts the tiles are cut into).
size_t WorkspaceSize(const Handle& handle, const ConvProblem& p, int m);
/// The GEMMs at about 25 TFLOP/s (fewer for short reductions), the transformed data written and
/// read once at about 2 TB/s, and the launches.
double EstimateMs(const Handle& handle, const ConvProblem& p, int m);
ConvInvoker MakeInvoker(const Handle& handle, const ConvProblem& p, int m);

} // namespace miopen::solvers::winograd_gpu
