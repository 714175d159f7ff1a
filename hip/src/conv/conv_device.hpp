// The device side of convolution, for the device-agnostic front door (convolution.cpp) and the
// solvers: the architecture name of the find-db, timing with device events, the alpha/beta blend
// on the GPU, and invokers of the GPU kernels (hip/kernels/conv). Compiled in every build; without
// a GPU backend the GPU functions throw NotImplemented (no GPU handle can exist there anyway).
#pragma once

#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "core/handle.hpp"

#include <memory>
#include <string>

namespace miopen::conv_device {

/// "cpu", or the GPU's architecture: "sm_90" (NVIDIA), "gfx90a" (AMD).
std::string ArchName(const Handle& handle);

/// Makes the handle's GPU current for the scope (nothing on a CPU handle).
class Scope
{
public:
    explicit Scope(const Handle& handle);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    int previous_ = -1;
    bool gpu_ = false;
};

/// Time of one run: device events on a GPU (after a warm-up run), wall clock on the CPU; the
/// best of up to three runs; on a GPU the first timed run above `cutoff_ms` ends it, and a
/// warm-up run 5 ms past it is the answer (a solver that slow cannot win the Find that asks).
double MeasureMs(const Handle& handle, const ConvInvoker& run, const ConvArgs& args, double cutoff_ms = 1e30);

/// out = alpha * result + beta * out on the handle's device (out not read when beta == 0).
void Blend(const Handle& handle, float alpha, const TensorDescriptor& desc, const float* result,
           float beta, float* out);

/// Scratch memory on the handle's device (host memory on a CPU handle): the blend's result tensor,
/// Find 2.0's benchmark tensors and workspace.
class Buffer
{
public:
    /// `what` names the buffer in an allocation failure.
    Buffer(const Handle& handle, size_t bytes, const char* what);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    void* Get() const { return p_; }

private:
    const Handle& handle_;
    void* p_ = nullptr;
    std::unique_ptr<char[]> host_;
};

/// Whether every tensor of the problem has fewer than 2^31 elements (the 32-bit kernels).
bool Fits32(const ConvProblem& p);

/// The naive direct kernel of the problem's direction (any geometry, no workspace).
ConvInvoker NaiveInvoker(const Handle& handle, const ConvProblem& p);

/// Implicit GEMM tile variants (hip/kernels/conv/conv_igemm.hip).
constexpr int kIgemmVariants = 6;
/// The tile (bm x bn) of a variant.
void IgemmTile(int variant, int& bm, int& bn);
/// Backward weights: how many parts the reduction is split into (1: no workspace).
int IgemmWrwSplits(const Handle& handle, const ConvProblem& p, int variant);
ConvInvoker IgemmInvoker(const Handle& handle, const ConvProblem& p, int variant);

/// Backward data for C/G <= 4, 2-d (hip/kernels/conv/conv_bwd_smallc.hip); 32-bit indices.
bool SmallCBwdApplies(const ConvProblem& p);
ConvInvoker SmallCBwdInvoker(const Handle& handle, const ConvProblem& p);

/// Depthwise kernels (hip/kernels/conv/conv_depthwise.hip): groups == C == K, 2-d, packed NCHW.
ConvInvoker DepthwiseInvoker(const Handle& handle, const ConvProblem& p);

/// Grouped/depthwise direct kernels for C/G, K/G <= 32 (hip/kernels/conv/conv_grouped.hip), 2-d,
/// packed NCHW. Backward weights: the number of splits of the reduction (1: no workspace).
bool GroupedApplies(const ConvProblem& p);
int GroupedWrwSplits(const Handle& handle, const ConvProblem& p);
ConvInvoker GroupedInvoker(const Handle& handle, const ConvProblem& p);

} // namespace miopen::conv_device
