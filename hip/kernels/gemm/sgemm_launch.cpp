// The host side of the GPU SGEMM (sgemm.hip): argument checks, the choice of tile and split,
// the launch check. The kernels are in sgemm.hip; sgemm.hpp is the interface.
#include "kernels/gemm/sgemm.hpp"
#include "kernels/gemm/gemm_operand_check.hpp"

#include "core/env.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cmath>

namespace miopen::gpu {
namespace {

constexpr int kStep     = 8;    // the kernel's reduction step (kBK in sgemm.hip)
constexpr int kMaxZ     = 65535;
constexpr int kMaxSplit = 1024;   // parts of a split sum (256 left a 64x64 output half idle)

/// Blocks of a tile shape that fit on one multiprocessor at once (the kernels' launch bounds).
int Slots(int tile) { return tile == 0 ? 2 : tile == 3 ? 6 : 3; }

/// Relative speed of a full tile (a bigger tile reuses each shared-memory and global load more).
double Efficiency(int tile) { return tile == 0 ? 1.0 : tile == 3 ? 0.72 : 0.88; }

bool SumMode(const SgemmArgs& g) { return g.sum_batch || g.batch == 1; }

int64_t Steps(const SgemmArgs& g)
{
    return int64_t{std::max(g.batch, 1)} * ((std::max(g.k, 0) + kStep - 1) / kStep);
}

void Check(const SgemmArgs& g)
{
    if(g.m < 0)
        ThrowBadParm("SgemmArgs.m is ", g.m, "; expected >= 0");
    if(g.n < 0)
        ThrowBadParm("SgemmArgs.n is ", g.n, "; expected >= 0");
    if(g.k < 0)
        ThrowBadParm("SgemmArgs.k is ", g.k, "; expected >= 0");
    if(g.batch < 0)
        ThrowBadParm("SgemmArgs.batch is ", g.batch, "; expected >= 0");
    if(g.m == 0 || g.n == 0 || g.batch == 0)
        return;
    if(g.c == nullptr)
        ThrowBadParm("SgemmArgs.c is null");
    const int64_t min_ldc = std::max(g.n, 1);
    if(g.ldc < min_ldc)
        ThrowBadParm("SgemmArgs.ldc is ", g.ldc, "; expected >= ", min_ldc);
    if(!g.sum_batch && g.batch > 1 && g.stride_c < 0)
        ThrowBadParm("SgemmArgs.stride_c is ", g.stride_c, "; expected >= 0");
    if(g.k == 0)
        return;
    CheckGemmOperands(g, "SgemmArgs");
    if(g.stride_a < 0)
        ThrowBadParm("SgemmArgs.stride_a is ", g.stride_a, "; expected >= 0");
    if(g.stride_b < 0)
        ThrowBadParm("SgemmArgs.stride_b is ", g.stride_b, "; expected >= 0");
}

int CurrentSms() { return MultiprocessorCount(CurrentDevice()); }

void Choose(const SgemmArgs& g, int sms, bool allow_split, int& best_tile, int& best_splits, bool& best_fold)
{
    best_tile   = 0;
    best_splits = 1;
    best_fold   = false;
    double best = 1e300;
    const int64_t steps = Steps(g);
    const int64_t max_split = std::min<int64_t>(kMaxSplit, kMaxZ);   // the cap on the parts of a split sum
    for(int option = 0; option < kSgemmTiles * 2; ++option)
    {
        const int t     = option % kSgemmTiles;
        const bool fold = option >= kSgemmTiles;
        if(fold && !SgemmCanFold(g))
            break;
        int bm, bn;
        SgemmTileShape(t, bm, bn);
        const int64_t cols = fold ? int64_t{g.n} * g.batch : g.n;
        int64_t blocks     = int64_t{(g.m + bm - 1) / bm} * ((cols + bn - 1) / bn);
        if(!SumMode(g) && !fold)
            blocks *= g.batch;
        const int64_t capacity = int64_t{std::max(sms, 1)} * Slots(t);
        int splits             = 1;
        if(allow_split && SumMode(g) && !fold && blocks < capacity)
        {
            // Fill one wave, each part keeping at least 16 steps (128 of k) of work.
            const int64_t by_fill = capacity / blocks;
            const int64_t by_work = steps / 16;
            splits = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({by_fill, by_work, max_split})));
        }
        // Time in units of one full wave of this shape: the waves, each part 1/splits of the
        // work, plus the split's extra traffic (write and re-read the partial tiles) as a share.
        const double waves = std::ceil(double(blocks * splits) / double(capacity));
        // (Folded columns cost a division per column, once; same speed otherwise.)
        double cost        = waves / splits / Efficiency(t);
        if(splits > 1)
            cost *= 1.0 + 0.05 * splits * 64.0 / std::max<double>(g.k, 64.0);
        if(cost < best * 0.999)
        {
            best        = cost;
            best_tile   = t;
            best_splits = splits;
            best_fold   = fold;
        }
    }
}

} // namespace

namespace {

/// The split model shared by the folded split and the plain split-k: an m x cols output whose
/// reduction is `steps` 8-wide k steps, split in 1..max_split parts (only `forced` parts when
/// forced > 0), on `sms` multiprocessors. A time model in units of one 128x128 x 8 tile step at
/// a multiprocessor's full FMA rate (about 1000 cycles): the busiest multiprocessor runs
/// ceil(blocks / sms) blocks of `per` steps at the tile's relative speed, slower when it holds
/// fewer blocks than fit (less latency hidden); a split adds writing and re-reading its partial
/// outputs (about 16 bytes a cycle per multiprocessor, times `traffic`) and a second launch.
void SplitModel(int64_t m, int64_t cols, int64_t steps, int sms, int64_t max_split, int64_t forced,
                int& best_tile, int& best_splits, double traffic = 1.0)
{
    best_tile   = 0;
    best_splits = 1;
    double best = 1e300;
    for(int t = 0; t < kSgemmTiles; ++t)
    {
        int bm, bn;
        SgemmTileShape(t, bm, bn);
        const int64_t blocks   = ((m + bm - 1) / bm) * ((cols + bn - 1) / bn);
        const double tile_work = double(bm) * bn / (128.0 * 128.0) / Efficiency(t);
        for(int64_t s = 1; s <= max_split; ++s)
        {
            if(forced > 0 && s != std::min(forced, max_split))
                continue;
            const int64_t per   = (steps + s - 1) / s;
            const int64_t busy  = (blocks * s + std::max(sms, 1) - 1) / std::max(sms, 1);
            const double speed  = busy >= Slots(t) ? 1.0 : 0.6 + 0.4 * double(busy) / Slots(t);
            double cost         = double(busy) * per * tile_work / speed;
            if(s > 1)
            {
                // The partial tiles: s * m * cols floats written and read, spread over the SMs;
                // one 128x128x8 tile step is 2^17 FMAs, about 1000 cycles of one SM's share.
                const double elems = double(s) * m * cols;
                cost += elems * 8.0 / (std::max(sms, 1) * 16.0) / 1000.0 * 2.0 * traffic + 4.0;
            }
            if(cost < best * 0.999)
            {
                best        = cost;
                best_tile   = t;
                best_splits = static_cast<int>(s);
            }
        }
    }
}

/// Whether a GEMM is a plain one (one product, no epilogue) that LaunchSgemmSplitK may split.
bool PlainProduct(const SgemmArgs& g)
{
    return g.batch == 1 && g.epilogue == nullptr && g.m > 0 && g.n > 0 && g.k > 0;
}

} // namespace

void SgemmChooseFoldSplit(const SgemmArgs& g, int sms, int& best_tile, int& best_splits)
{
    best_tile   = 0;
    best_splits = 1;
    if(!SgemmCanFold(g) || g.k <= 0)
        return;
    // The test hook MIOPEN_CY_DEBUG_SGEMM_FOLD_SPLIT fixes the split
    // (tests/conv/solvers/test_gemm.py runs several splits on problems small enough to test,
    // where the model picks none).
    const int64_t steps   = (g.k + kStep - 1) / kStep;
    const int64_t cols    = int64_t{g.n} * g.batch;
    const int64_t forced  = env::Integer("MIOPEN_CY_DEBUG_SGEMM_FOLD_SPLIT", 0);
    const int64_t max_split = std::max<int64_t>(1, std::min<int64_t>(steps / 16, 32));
    SplitModel(g.m, cols, steps, sms, max_split, forced, best_tile, best_splits);
}

void SgemmChooseSplitK(const SgemmArgs& g, int sms, int max_splits, int& tile, int& splits)
{
    tile   = 0;
    splits = 1;
    if(!PlainProduct(g))
        return;
    // Parts of at least 8 steps (64 of k) by the model; the test hook
    // MIOPEN_CY_DEBUG_SGEMM_SPLIT=S forces S parts (as many as k's steps and max_splits allow), so
    // that small test problems run the split path too.
    const int64_t steps  = (int64_t{g.k} + kStep - 1) / kStep;
    const int64_t forced = env::Integer("MIOPEN_CY_DEBUG_SGEMM_SPLIT", 0);
    const int64_t cap    = std::min<int64_t>({int64_t{std::max(max_splits, 1)}, kMaxSplit, steps});
    const int64_t max_split =
        forced > 0 ? cap : std::max<int64_t>(1, std::min<int64_t>(steps / 8, cap));
    // The parts of a step product are a few MB that stay in L2 until the gate kernel reads them:
    // 0.4 of the traffic term's cost. Fitted on an H200 by forcing splits of the fp32 RNN's step
    // products (hidden 1024, batch 64; MIOPEN_CY_DEBUG_SGEMM_SPLIT 1 to 32): the full term picked
    // 4 parts for the LSTM's forward (13.0 ms a call) where 8 take 11.1, and 16 for its backward
    // (12.7 ms) where 32 take 11.5; 0.4 picks 8 and 32. GRU: 11 parts forward (8 took 10.1 ms,
    // 16 9.6, the full term's choice 11.2), 16 backward (10.2 ms; 32 took 9.3, the full term's
    // choice 10.7). The small shape's plans (batch 16, hidden 256) are the same either way.
    SplitModel(g.m, g.n, steps, sms, max_split, forced, tile, splits, 0.4);
}

int SgemmSplitParts(const SgemmArgs& g, int splits)
{
    // LaunchSgemmTile's plan for a split plain GEMM: steps of kStep, `per` steps a part.
    if(splits <= 1 || !PlainProduct(g))
        return 1;
    const int64_t total = (int64_t{g.k} + kStep - 1) / kStep;
    if(total <= 1)
        return 1;
    const int64_t parts = std::min<int64_t>(splits, total);
    const int64_t per   = (total + parts - 1) / parts;
    return static_cast<int>((total + per - 1) / per);
}

size_t SgemmFoldWorkspaceBytes(const SgemmArgs& g, int splits)
{
    if(splits <= 1 || !SgemmCanFold(g))
        return 0;
    const int64_t steps = (std::max(g.k, 0) + kStep - 1) / kStep;
    const int64_t parts = std::min<int64_t>(splits, std::max<int64_t>(steps, 1));
    return parts <= 1 ? 0
                      : sizeof(float) * size_t(parts) * size_t(std::max(g.m, 0)) * size_t(std::max(g.n, 0)) *
                            size_t(g.batch);
}

void SgemmChoose(const SgemmArgs& args, int sms, int& tile, int& splits, bool& fold)
{
    Choose(args, sms, true, tile, splits, fold);
}

size_t SgemmWorkspaceBytes(const SgemmArgs& args, int splits)
{
    if(splits <= 1 || !SumMode(args))
        return 0;
    const int64_t parts = std::min<int64_t>(splits, std::max<int64_t>(Steps(args), 1));
    return parts <= 1 ? 0 : sizeof(float) * size_t(parts) * size_t(std::max(args.m, 0)) * size_t(std::max(args.n, 0));
}

void LaunchSgemmWith(const SgemmArgs& args, int tile, int splits, bool fold, float* workspace, void* stream)
{
    Check(args);
    if(tile < 0 || tile >= kSgemmTiles)
        ThrowBadParm("SGEMM tile is ", tile, "; expected 0 to ", kSgemmTiles - 1);
    if(splits < 1 || splits > kMaxZ)
        ThrowBadParm("SGEMM splits is ", splits, "; expected 1 to ", kMaxZ);
    if(args.m == 0 || args.n == 0 || args.batch == 0)
        return;
    if(fold && !SgemmCanFold(args))
        ThrowBadParm("SGEMM fold asked for a GEMM that cannot fold its batch");
    const size_t need = fold ? SgemmFoldWorkspaceBytes(args, splits) : SgemmWorkspaceBytes(args, splits);
    if(need > 0 && workspace == nullptr)
        ThrowBadParm("SGEMM workspace is null; ", need, " bytes needed for ", splits, " splits");
    if(!SumMode(args) && !fold && args.batch > kMaxZ)
    {
        // The grid's z holds the batch: run it in slices.
        for(int b0 = 0; b0 < args.batch; b0 += kMaxZ)
        {
            SgemmArgs s = args;
            s.batch     = std::min(kMaxZ, args.batch - b0);
            s.a += b0 * args.stride_a;
            s.b += b0 * args.stride_b;
            s.c += b0 * args.stride_c;
            LaunchSgemmTile(s, tile, 1, false, nullptr, stream);
            CheckLaunch("Sgemm");
        }
        return;
    }
    LaunchSgemmTile(args, tile, splits, fold, workspace, stream);
    CheckLaunch("Sgemm");
}

void LaunchSgemm(const SgemmArgs& args, void* stream)
{
    Check(args);
    if(args.m == 0 || args.n == 0 || args.batch == 0)
        return;
    int tile, splits;
    bool fold;
    Choose(args, CurrentSms(), false, tile, splits, fold);
    LaunchSgemmWith(args, tile, 1, fold, nullptr, stream);
}

int LaunchSgemmSplitK(const SgemmArgs& args, float* workspace, size_t workspace_floats, bool reduce,
                      void* stream)
{
    Check(args);
    if(args.m == 0 || args.n == 0 || args.batch == 0)
        return 1;
    if(!PlainProduct(args))
    {
        LaunchSgemm(args, stream);
        return 1;
    }
    const size_t out   = size_t(args.m) * size_t(args.n);
    const size_t room  = workspace == nullptr ? 0 : workspace_floats / out;
    const int max_part = static_cast<int>(std::min<size_t>(room, size_t(kMaxSplit)));
    int tile = 0, splits = 1;
    SgemmChooseSplitK(args, CurrentSms(), max_part, tile, splits);
    const int parts = SgemmSplitParts(args, splits);
    if(parts <= 1)
    {
        // unsplit: the tile the model picked, C written directly
        LaunchSgemmWith(args, tile, 1, false, nullptr, stream);
        return 1;
    }
    LaunchSgemmTile(args, tile, splits, false, workspace, stream, reduce);
    CheckLaunch("Sgemm (split k)");
    return parts;
}

} // namespace miopen::gpu
