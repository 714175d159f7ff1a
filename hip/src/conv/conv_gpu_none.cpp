// conv/conv_gpu.hpp in a build without a GPU backend: no GPU handle can exist, so the GPU solvers
// find nothing to run and an invoker is never asked for (it throws NotImplemented if it is).
// GPU builds define these in the launchers beside the kernels (hip/kernels/*/*_launch.cpp).
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#if !MIOPEN_CY_HAVE_GPU

namespace miopen::conv_gpu {
namespace {

[[noreturn]] void NoGpu() { ThrowNotImplemented("convolution on the GPU is not implemented in this build"); }

} // namespace

ConvInvoker NaiveInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
int IgemmWrwSplits(const Handle&, const ConvProblem&, int) { return 1; }
ConvInvoker IgemmInvoker(const Handle&, const ConvProblem&, int) { NoGpu(); }
bool SmallCBwdApplies(const ConvProblem&) { return false; }
ConvInvoker SmallCBwdInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
ConvInvoker DepthwiseInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
bool GroupedApplies(const ConvProblem&) { return false; }
int GroupedWrwSplits(const Handle&, const ConvProblem&) { return 1; }
ConvInvoker GroupedInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
ConvInvoker Gemm1x1Invoker(const Handle&, const ConvProblem&) { NoGpu(); }
size_t Gemm1x1WorkspaceSize(const Handle&, const ConvProblem&) { return 0; }
ConvInvoker Gemm1x1StridedInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
ConvInvoker GemmRestInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
size_t GemmWrwNhwcWorkspaceSize(const Handle&, const ConvProblem&) { return 0; }
int Gemm1x1SplitParts(const Handle&, const ConvProblem&) { return 1; }
size_t Gemm1x1SplitWorkspaceSize(const Handle&, const ConvProblem&) { return 0; }
ConvInvoker Gemm1x1SplitInvoker(const Handle&, const ConvProblem&) { NoGpu(); }
ConvInvoker WinogradInvoker(const Handle&, ConvDirection, const WinogradGpuPlan&) { NoGpu(); }

} // namespace miopen::conv_gpu

#endif
