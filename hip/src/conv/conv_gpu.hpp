// The solvers' way to the GPU: the convolution invokers and the GPU-only choices behind them
// (tile, split, workspace), declared device-neutral. In GPU builds they are defined by the
// launchers beside their kernels (hip/kernels/conv/*_launch.cpp, hip/kernels/gemm/
// conv_gemm_launch.cpp); in CPU-only builds by conv/conv_gpu_none.cpp, where the invokers throw
// NotImplemented and the choices answer "nothing on the GPU" (no GPU handle can exist there).
// The kernels' argument structs are in conv/conv_args.hpp.
#pragma once

#include "conv/conv_args.hpp"
#include "conv/conv_geometry.hpp"
#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "core/handle.hpp"

#include <climits>
#include <cstddef>

namespace miopen::conv_gpu {

/// The kernels' view of a convolution (gpu::ConvKArgs) from its geometry.
inline gpu::ConvKArgs KernelArgs(const ConvGeometry& g)
{
    gpu::ConvKArgs a{};
    a.n = g.n; a.c = g.c; a.k = g.k; a.g = g.g; a.cpg = g.cpg; a.kpg = g.kpg;
    for(int i = 0; i < 3; ++i)
    {
        a.in[i] = g.in[i]; a.out[i] = g.out[i]; a.fil[i] = g.fil[i];
        a.pad[i] = g.pad[i]; a.str[i] = g.str[i]; a.dil[i] = g.dil[i];
    }
    for(int i = 0; i < 5; ++i)
    {
        a.xs[i] = g.xs[i]; a.ws[i] = g.ws[i]; a.ys[i] = g.ys[i];
    }
    return a;
}

/// Whether every tensor of the problem has fewer than 2^31 elements (the 32-bit kernels).
inline bool Fits32(const ConvProblem& p)
{
    const size_t lim = static_cast<size_t>(INT_MAX);
    return p.x.ElementSpace() < lim && p.w.ElementSpace() < lim && p.y.ElementSpace() < lim &&
           p.n * p.InSpatial() < lim && p.n * p.OutSpatial() < lim;
}

// ---- kernels/conv/conv_direct_launch.cpp -------------------------------------------------------
/// The naive direct kernel of the problem's direction (any geometry, no workspace).
ConvInvoker NaiveInvoker(const Handle& handle, const ConvProblem& p);

// ---- kernels/conv/conv_igemm_launch.cpp --------------------------------------------------------
/// Backward weights: how many parts the reduction is split into for tile row `variant` of
/// gpu::kIgemmTiles (1: no workspace; 1 on a CPU handle).
int IgemmWrwSplits(const Handle& handle, const ConvProblem& p, int variant);
ConvInvoker IgemmInvoker(const Handle& handle, const ConvProblem& p, int variant);

// ---- kernels/conv/conv_bwd_smallc_launch.cpp ---------------------------------------------------
/// Backward data for C/G <= 4, 2-d; 32-bit indices.
bool SmallCBwdApplies(const ConvProblem& p);
ConvInvoker SmallCBwdInvoker(const Handle& handle, const ConvProblem& p);

// ---- kernels/conv/conv_depthwise_launch.cpp ----------------------------------------------------
/// Depthwise kernels: groups == C == K, 2-d, packed NCHW.
ConvInvoker DepthwiseInvoker(const Handle& handle, const ConvProblem& p);

// ---- kernels/conv/conv_grouped_launch.cpp ------------------------------------------------------
/// Grouped/depthwise direct kernels for C/G, K/G <= 32, 2-d, packed NCHW. Backward weights: the
/// number of splits of the reduction (1: no workspace; 1 on a CPU handle).
bool GroupedApplies(const ConvProblem& p);
int GroupedWrwSplits(const Handle& handle, const ConvProblem& p);
ConvInvoker GroupedInvoker(const Handle& handle, const ConvProblem& p);

// ---- kernels/gemm/conv_gemm_launch.cpp: the GEMM solvers on GPU handles ------------------------
/// The 1x1 (stride 1, no padding, packed) GEMM of the problem's direction:
///   forward          y[n][g]  (Kg x HW) = W[g] (Kg x Cg) * x[n][g] (Cg x HW)
///   backward data    dx[n][g] (Cg x HW) = W[g]^T          * dy[n][g] (Kg x HW)
///   backward weights dW[g]    (Kg x Cg) = sum over n of dy[n][g] * x[n][g]^T, in image order.
ConvInvoker Gemm1x1Invoker(const Handle& handle, const ConvProblem& p);
/// Backward weights may split the image sum into parts added in order (deterministic) when the
/// weight matrix is too small to fill the GPU: the bytes of their partial sums (0: no split; 0 on
/// a CPU handle). The invoker runs unsplit when the caller's workspace is smaller.
size_t Gemm1x1WorkspaceSize(const Handle& handle, const ConvProblem& p);
/// The strided 1x1 convolution without padding (GemmFwd1x1_0_2, GemmBwd1x1_stride2): forward
/// gathers the subsampled x into the workspace and runs the GEMM on it; backward data runs the
/// GEMM into the workspace and scatters it into dx (zeros off the stride grid).
ConvInvoker Gemm1x1StridedInvoker(const Handle& handle, const ConvProblem& p);
/// MIOpen's general GEMM solvers (GemmFwdRest, GemmBwdRest, GemmWrwUniversal), one image and group
/// at a time through the column matrix in the workspace (kernels/gemm/im2col.hpp).
ConvInvoker GemmRestInvoker(const Handle& handle, const ConvProblem& p);
/// Their workspace on either device: one column matrix (MIOpen's size); backward weights on a GPU
/// handle also one image's weight gradient, added into dW in image order.
inline size_t GemmRestWorkspaceSize(const Handle& handle, const ConvProblem& p)
{
    const size_t rows = size_t(p.c / p.groups) * size_t(p.FilterSpatial());
    size_t bytes      = sizeof(float) * rows * size_t(p.OutSpatial());
    if(handle.IsGpu() && p.direction == ConvDirection::BackwardWeights)
        bytes += sizeof(float) * size_t(p.k / p.groups) * rows; // one image's weight gradient
    return bytes;
}
/// GemmWrwUniversal on packed NHWC (a 1x1 filter without padding, stride > 1): the subsampled x
/// of the whole batch gathered into the workspace, then dW[g] = dy^T * col over the pixels (its
/// sum split where the weight tiles are few). GemmRestInvoker runs it; its workspace in bytes.
size_t GemmWrwNhwcWorkspaceSize(const Handle& handle, const ConvProblem& p);
/// ConvGpuGemmFwd1x1Split: forward 1x1 without padding as one GEMM over the whole batch's output
/// positions, its sum over C split into parts added in order. The parts the launcher's model picks
/// (1: no split pays, or a CPU handle), and the workspace (the gathered x, then the partials).
int Gemm1x1SplitParts(const Handle& handle, const ConvProblem& p);
size_t Gemm1x1SplitWorkspaceSize(const Handle& handle, const ConvProblem& p);
ConvInvoker Gemm1x1SplitInvoker(const Handle& handle, const ConvProblem& p);

// ---- kernels/conv/conv_winograd_launch.cpp -----------------------------------------------------
/// A Winograd F(m x m, 3x3) run on the GPU as planned by the solvers (solver_support/
/// winograd_gpu.cpp): the transforms' arguments, the tile of the backward-weights SGEMM (-1: the
/// launcher's choice) and the three workspace parts in floats (V, U, M; backward weights V, D, P).
struct WinogradGpuPlan
{
    gpu::WinogradKArgs k;
    int gemm_tile;
    size_t f0, f1, f2;

    size_t Bytes() const { return sizeof(float) * (f0 + f1 + f2); }
};
ConvInvoker WinogradInvoker(const Handle& handle, ConvDirection dir, const WinogradGpuPlan& plan);

} // namespace miopen::conv_gpu
