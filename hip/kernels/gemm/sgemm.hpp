// A fast fp32 strided-batched GEMM on the GPU (sgemm.hip), for the GEMM convolution solvers
// (1x1 as a plain GEMM) and any other kernel that needs a matrix product. Plain C++: the
// launcher (sgemm_launch.cpp) checks the arguments, picks the tile and checks the launch.
#pragma once

#include "gemm/sgemm_args.hpp"

#include <cstddef>
#include <cstdint>

namespace miopen::gpu {

// The tile table and the split reduction (LaunchSgemm and SgemmArgs: gemm/sgemm_args.hpp), for
// the launchers that pick a tile or a split themselves.

/// Tile shapes (BM x BN, 8x8 outputs a thread): 0 = 128x128 (256 threads), 1 = 128x64,
/// 2 = 64x128 (128 threads), 3 = 64x64 (64 threads).
constexpr int kSgemmTiles = 4;
void SgemmTileShape(int tile, int& bm, int& bn);

/// Whether a batched GEMM can fold its batch into the columns (one GEMM of batch * n columns):
/// A shared by every product (stride_a 0), B not transposed, not summed.
inline bool SgemmCanFold(const SgemmArgs& a)
{
    return !a.sum_batch && a.batch > 1 && a.stride_a == 0 && !a.trans_b &&
           static_cast<int64_t>(a.n) * a.batch <= 0x7fffffff;
}

/// The tile, the split of the summed dimension (sum_batch only; splits > 1 needs
/// SgemmWorkspaceBytes) and whether to fold the batch (SgemmCanFold) that the launcher picks on
/// a GPU with `sms` multiprocessors.
void SgemmChoose(const SgemmArgs& args, int sms, int& tile, int& splits, bool& fold);
/// Bytes of workspace a sum_batch GEMM split `splits` ways needs (0 for splits <= 1).
size_t SgemmWorkspaceBytes(const SgemmArgs& args, int splits);

/// A folded GEMM (SgemmCanFold) may also split its k range into parts added in order through a
/// workspace (deterministic) when its m x (batch * n) output is too small to fill the GPU: the
/// tile and split (1: no split pays) picked for `sms` multiprocessors, and the workspace bytes of
/// a split (0 for splits <= 1). LaunchSgemmWith(args, tile, splits, true, workspace) runs it.
void SgemmChooseFoldSplit(const SgemmArgs& args, int sms, int& tile, int& splits);
size_t SgemmFoldWorkspaceBytes(const SgemmArgs& args, int splits);

/// Runs one tile shape (fold: the batch folded into the columns, where SgemmCanFold). With
/// sum_batch and splits > 1, the batch range is cut into `splits`
/// contiguous parts whose partial products go to `workspace` (SgemmWorkspaceBytes) and a second
/// kernel adds them in part order (deterministic); !reduce leaves the parts there (C untouched
/// where there are several; no epilogue). No argument checks: LaunchSgemm does them.
void LaunchSgemmTile(const SgemmArgs& args, int tile, int splits, bool fold, float* workspace, void* stream,
                     bool reduce = true);

/// The split-k of a plain GEMM (batch 1, no epilogue) for LaunchSgemmSplitK
/// (gemm/sgemm_args.hpp): the tile and split (1: none pays) by SgemmChooseFoldSplit's time model
/// on `sms` multiprocessors, at most max_splits parts; MIOPEN_CY_DEBUG_SGEMM_SPLIT=S forces S
/// parts (capped by max_splits and k's 8-wide steps). SgemmSplitParts: the parts a split into
/// `splits` makes (the k steps cut into equal runs; 1: C written directly).
void SgemmChooseSplitK(const SgemmArgs& args, int sms, int max_splits, int& tile, int& splits);
int SgemmSplitParts(const SgemmArgs& args, int splits);

/// LaunchSgemm with the tile, split and fold given (checked like LaunchSgemm; `workspace` of
/// SgemmWorkspaceBytes(args, splits) bytes when splits > 1, SgemmFoldWorkspaceBytes folded; fold
/// only where SgemmCanFold).
void LaunchSgemmWith(const SgemmArgs& args, int tile, int splits, bool fold, float* workspace, void* stream);

} // namespace miopen::gpu
