// The GEMM convolution solvers' GPU side (MIOpen's GemmFwd1x1_0_1, GemmBwd1x1_stride1 and
// GemmWrw1x1_stride1 run on CPU and GPU handles alike, as ConvDirectNaive* do): a 1x1 convolution
// with stride 1 and no padding is one GEMM per image and group, run by our SGEMM kernel
// (hip/kernels/gemm/sgemm.hip). Compiled in every build; without a GPU backend the invokers
// throw NotImplemented (no GPU handle can exist there anyway).
#pragma once

#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "core/handle.hpp"

#include <cstddef>

namespace miopen::conv_device {

/// The 1x1 (stride 1, no padding, packed) GEMM of the problem's direction on the GPU:
///   forward          y[n][g]  (Kg x HW) = W[g] (Kg x Cg) * x[n][g] (Cg x HW)
///   backward data    dx[n][g] (Cg x HW) = W[g]^T          * dy[n][g] (Kg x HW)
///   backward weights dW[g]    (Kg x Cg) = sum over n of dy[n][g] * x[n][g]^T, in image order.
ConvInvoker Gemm1x1Invoker(const Handle& handle, const ConvProblem& p);

/// Backward weights may split the image sum into parts added in order (deterministic) when the
/// weight matrix is too small to fill the GPU: the bytes of their partial sums (0: no split).
/// The invoker runs unsplit when the caller's workspace is smaller.
size_t Gemm1x1WorkspaceSize(const Handle& handle, const ConvProblem& p);

/// The strided 1x1 convolution without padding (GemmFwd1x1_0_2, GemmBwd1x1_stride2) on the GPU:
/// forward gathers the subsampled x into the workspace and runs the GEMM on it; backward data runs
/// the GEMM into the workspace and scatters it into dx (zeros off the stride grid).
ConvInvoker Gemm1x1StridedInvoker(const Handle& handle, const ConvProblem& p);
/// Their workspace on the GPU: the subsampled tensor of the whole batch (N x C x output positions).
size_t Gemm1x1StridedWorkspaceSize(const ConvProblem& p);

/// MIOpen's general GEMM solvers on the GPU (GemmFwdRest, GemmBwdRest, GemmWrwUniversal), one image
/// and group at a time through the column matrix in the workspace (gemm/im2col.hpp):
///   forward          col = im2col(x[n][g]); y[n][g] = W[g] * col
///   backward data    col = W[g]^T * dy[n][g]; dx[n][g] = col2im(col)
///   backward weights col = im2col(x[n][g]); dW[g] (+)= dy[n][g] * col^T, images in order.
ConvInvoker GemmRestInvoker(const Handle& handle, const ConvProblem& p);
/// Their workspace: one column matrix (MIOpen's size); backward weights on a GPU handle also one
/// image's weight gradient, added into dW in image order.
size_t GemmRestWorkspaceSize(const Handle& handle, const ConvProblem& p);
/// Their estimated time on the GPU.
double GemmRestGpuEstimateMs(const ConvProblem& p);

/// Estimated time on the GPU: the GEMM at about 30 TFLOP/s plus a launch.
double GemmGpuEstimateMs(const ConvProblem& p);

} // namespace miopen::conv_device
