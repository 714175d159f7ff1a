// The GPU SGEMM's arguments and its one entry point (hip/kernels/gemm/sgemm.hip, launched by
// sgemm_launch.cpp), device-neutral: for miopenCySgemm (api/gemm_api.cpp) and the GPU launchers
// of the GEMM-based convolutions. Defined in GPU builds only: call it under MIOPEN_CY_HAVE_GPU.
// The tile table and the split reduction are in kernels/gemm/sgemm.hpp (launchers only).
#pragma once

#include <cstddef>
#include <cstdint>

namespace miopen::gpu {

struct ConvEpilogueParams; // conv/conv_args.hpp

/// Row-major C[b][m][n] = sum_k opA(A[b])[m][k] * opB(B[b])[k][n], b < batch (C overwritten).
/// opA: trans_a ? A[k * lda + m] : A[m * lda + k];  opB: trans_b ? B[n * ldb + k] : B[k * ldb + n].
/// sum_batch: C (one matrix) = sum over b of the products, in b order (deterministic, no atomics).
struct SgemmArgs {
    bool trans_a = false, trans_b = false, sum_batch = false;
    int m = 0, n = 0, k = 0, batch = 1;
    const float* a = nullptr; int64_t lda = 0, stride_a = 0;
    const float* b = nullptr; int64_t ldb = 0, stride_b = 0;
    float* c = nullptr;       int64_t ldc = 0, stride_c = 0;
    /// A forward convolution's fused epilogue (a fusion plan's), applied by the split's
    /// reduction (a GEMM that runs unsplit with one is refused): C's rows are the output
    /// channels (its scale and shift index), z has C's layout. Null: none.
    const ConvEpilogueParams* epilogue = nullptr;
};

/// Runs the GEMM on `stream` (hipStream_t / cudaStream_t; null: the current device's default
/// stream) of the current device. Throws miopen::Error (BadParm) naming the field at fault for
/// negative sizes, null pointers or leading dimensions too small; nothing runs for m, n or
/// batch 0; k == 0 writes zeros. It has no workspace, so it never splits a summed reduction: a
/// small m x n with a long sum (k x batch) leaves most of the GPU idle. There, SgemmChoose +
/// SgemmWorkspaceBytes + LaunchSgemmWith split it deterministically through a workspace.
void LaunchSgemm(const SgemmArgs& args, void* stream);

/// LaunchSgemm for a plain product (batch 1, no epilogue) whose m x n output is too small to fill
/// the GPU (the RNN's per-step products, 1x1 convolutions of a small image): its k range cut into
/// parts run side by side, each part's m x n product in `workspace` (part z at workspace + z * m *
/// n, row stride n; at most workspace_floats floats in all, null / 0: no split), then added in
/// part order (deterministic). reduce: a second kernel adds them into C; !reduce: they are left
/// in the workspace for the caller's own reduction (C untouched). Returns the number of parts:
/// 1 when it did not split (C written directly, whatever reduce). The split and tile come from a
/// time model of the current device (sgemm.hpp's SgemmChooseSplitK); the test hook
/// MIOPEN_CY_DEBUG_SGEMM_SPLIT=S forces S parts. Other GEMMs (batched, summed, with an
/// epilogue) run as LaunchSgemm and return 1.
int LaunchSgemmSplitK(const SgemmArgs& args, float* workspace, size_t workspace_floats, bool reduce,
                      void* stream);

} // namespace miopen::gpu
