// The GPU path of the Winograd solvers, F(m x m, r x r) with r = 3 or 5: plan, workspace and
// estimate (see winograd_gpu.hpp); the
// invoker runs the plan through conv_gpu::WinogradInvoker (hip/kernels/conv/
// conv_winograd_launch.cpp in GPU builds).
#include "conv/solver_support/winograd_gpu.hpp"
#include "conv/conv_geometry.hpp"
#include "conv/conv_gpu.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "cpu/conv/winograd.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace miopen::solvers::winograd_gpu {
namespace {

/// The forward-terms shape and the sizes of the workspace parts (in floats, each rounded up to
/// 64 floats = 256 bytes). Forward and backward data: V (transformed input), U (transformed
/// filters), M (products). Backward weights: V (transformed x), D (transformed dy), P (the parts'
/// products); the tiles in `splits` parts of `part`.
struct Plan
{
    cpu::WinogradShape s;
    int m, r, alpha;   // F(m x m, r x r), alpha = m + r - 1
    long tiles_h, tiles_w, tiles;
    long splits, part;
    int gemm_tile;   // backward weights on the GPU: the SGEMM tile (ChooseWrw)
    size_t f0, f1, f2;

    size_t Bytes() const { return sizeof(float) * (f0 + f1 + f2); }
};

size_t Round64(size_t f) { return (f + 63) / 64 * 64; }

/// Backward weights reduces over the tiles: the split of that sum into parts and the tile of the
/// tile-element SGEMM (sgemm.hpp's table: 128x128, 128x64, 64x128, 64x64, of which 2, 3, 3 and 6
/// blocks fit a multiprocessor at once, as sgemm_launch.cpp counts them). Rules fitted to an H200
/// sweep of every split and tile (CHANGELOG.md, gemm2):
///  - the 128x128 tile unsplit where its blocks fill 90-100% of one wave;
///  - else 64x64 tiles for at most 64 output channels a group, 128x64 otherwise, split into the
///    largest power of two of parts whose blocks fit one wave or, where two parts would not,
///    three waves (these sums are short: shorter blocks in full waves beat long ones in a few);
///  - at most 64 parts, each at least 64 tiles long.
struct WrwChoice
{
    long splits;
    int tile;
};

WrwChoice ChooseWrw(const Plan& pl, int sms)
{
    constexpr long kBm[4] = {128, 128, 64, 64}, kBn[4] = {128, 64, 128, 64}, kSlots[4] = {2, 3, 3, 6};
    const long e = static_cast<long>(pl.alpha) * pl.alpha;
    const auto blocks = [&](int t) {
        return e * pl.s.groups * ((pl.s.ocpg + kBm[t] - 1) / kBm[t]) * ((pl.s.icpg + kBn[t] - 1) / kBn[t]);
    };
    const auto pow2 = [](long x) {
        long p = 1;
        while(p <= x / 2)
            p *= 2;
        return p;
    };
    const long units = std::max(sms, 1);
    const long full = blocks(0), wave = units * kSlots[0];
    if(full <= wave && 10 * full >= 9 * wave)
        return {1, 0};
    const int tile = pl.s.ocpg <= 64 ? 3 : 1;
    const long b = blocks(tile), cap = units * kSlots[tile];
    long splits = 2 * b <= cap ? pow2(cap / b) : pow2(std::max(1L, 3 * cap / b));
    splits = std::min({splits, 64L, pow2(std::max(1L, pl.tiles / 64))});
    return {std::max(1L, splits), tile};
}

Plan PlanOf(const Handle& handle, const ConvProblem& p, int m)
{
    const ConvGeometry g(p);
    Plan pl{};
    pl.s = p.IsForward()        ? cpu::WinogradShape::Forward(g)
           : p.IsBackwardData() ? cpu::WinogradShape::BackwardData(g)
                                : cpu::WinogradShape::BackwardWeights(g);
    pl.m = m;
    pl.r = static_cast<int>(p.filter[0]);
    pl.alpha = m + pl.r - 1;
    pl.tiles_h = (pl.s.oh + m - 1) / m;
    pl.tiles_w = (pl.s.ow + m - 1) / m;
    pl.tiles = pl.s.n * pl.tiles_h * pl.tiles_w;
    pl.splits = 1;
    pl.part = pl.tiles;
    pl.gemm_tile = -1;
    const size_t e = static_cast<size_t>(pl.alpha) * pl.alpha;
    if(p.IsBackwardWeights())
    {
        if(handle.IsGpu())
        {
            const WrwChoice choice = ChooseWrw(pl, gpu::MultiprocessorCount(handle.Ordinal()));
            pl.splits = choice.splits;
            pl.gemm_tile = choice.tile;
        }
        pl.part = (pl.tiles + pl.splits - 1) / pl.splits;
        const size_t padded = static_cast<size_t>(pl.splits) * pl.part;
        pl.f0 = Round64(e * pl.s.ic * padded);
        pl.f1 = Round64(e * pl.s.oc * padded);
        pl.f2 = Round64(e * pl.splits * pl.s.oc * pl.s.icpg);
        return pl;
    }
    pl.f0 = Round64(e * pl.s.ic * pl.tiles);
    pl.f1 = Round64(e * pl.s.oc * pl.s.icpg);
    pl.f2 = Round64(e * pl.s.oc * pl.tiles);
    return pl;
}

} // namespace

Applicability IsApplicable(const Handle& handle, const ConvProblem& p, int m)
{
    const Plan pl = PlanOf(handle, p, m);
    const double e = static_cast<double>(pl.alpha) * pl.alpha;
    const double tiles = static_cast<double>(pl.splits) * pl.part;
    // MIOpen's limit for its multi-pass Winograd: each transformed buffer under 2^31 bytes (which
    // also keeps every GEMM dimension and kernel index within 32 bits).
    if(sizeof(float) * e * tiles * std::max(pl.s.ic, pl.s.oc) >= 2147483648.0 ||
       sizeof(float) * e * pl.s.oc * pl.s.icpg * pl.splits >= 2147483648.0)
        return NotApplicable("a transformed tensor would take 2^31 bytes or more");
    // MIOpen's workspace caps: its bidirectional solvers' and its multi-pass backward-weights
    // solvers' (ConvWinograd3x3MultipassWrW, our 5x5 ones); ConvCpuWinogradWrw has none.
    const char* cap = !p.IsBackwardWeights() ? "MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_WORKSPACE_MAX"
                      : pl.r == 5            ? "MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_WORKSPACE_MAX"
                                             : nullptr;
    if(cap != nullptr)
    {
        const long limit = env::Integer(cap, 0);
        if(limit > 0 && pl.Bytes() > static_cast<size_t>(limit))
            return NotApplicable("workspace of " + std::to_string(pl.Bytes()) + " bytes exceeds " + cap + "=" +
                                 std::to_string(limit));
    }
    return Applicable();
}

size_t WorkspaceSize(const Handle& handle, const ConvProblem& p, int m) { return PlanOf(handle, p, m).Bytes(); }

double EstimateMs(const Handle& handle, const ConvProblem& p, int m)
{
    const Plan pl = PlanOf(handle, p, m);
    const double e = static_cast<double>(pl.alpha) * pl.alpha;
    // A short reduction (few channels per group) leaves the GEMM memory-bound.
    const double red = p.IsBackwardWeights() ? static_cast<double>(pl.part) : static_cast<double>(pl.s.icpg);
    const double fill = std::min(1.0, red / 64.0);
    const double gemm = 2.0 * e * pl.s.oc * pl.s.icpg * pl.tiles / (25e12 * fill);
    const double traffic = 2.0 * sizeof(float) * e * (pl.s.ic + pl.s.oc) * pl.tiles / 2e12;
    return (gemm + traffic) * 1e3 + 0.004 + 0.002 * pl.s.groups;
}

ConvInvoker MakeInvoker(const Handle& handle, const ConvProblem& p, int m)
{
    const Plan pl = PlanOf(handle, p, m);
    conv_gpu::WinogradGpuPlan plan;
    gpu::WinogradKArgs& k = plan.k;
    k.m = m;
    k.r = pl.r;
    k.n = static_cast<int>(pl.s.n);
    k.ic = static_cast<int>(pl.s.ic);
    k.oc = static_cast<int>(pl.s.oc);
    k.groups = static_cast<int>(pl.s.groups);
    k.icpg = static_cast<int>(pl.s.icpg);
    k.ocpg = static_cast<int>(pl.s.ocpg);
    k.h = static_cast<int>(pl.s.h);
    k.w = static_cast<int>(pl.s.w);
    k.oh = static_cast<int>(pl.s.oh);
    k.ow = static_cast<int>(pl.s.ow);
    k.pad_h = static_cast<int>(pl.s.pad_h);
    k.pad_w = static_cast<int>(pl.s.pad_w);
    k.tiles_h = static_cast<int>(pl.tiles_h);
    k.tiles_w = static_cast<int>(pl.tiles_w);
    k.tiles = static_cast<int>(pl.tiles);
    k.splits = static_cast<int>(pl.splits);
    k.part = static_cast<int>(pl.part);
    k.flip = p.IsBackwardData();
    k.nhwc = p.IsPackedNHWC();
    plan.gemm_tile = pl.gemm_tile;
    plan.f0 = pl.f0;
    plan.f1 = pl.f1;
    plan.f2 = pl.f2;
    return conv_gpu::WinogradInvoker(handle, p.direction, plan);
}

} // namespace miopen::solvers::winograd_gpu
