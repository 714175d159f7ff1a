// ConvGpuImplicitGemm{Fwd,Bwd,Wrw}<tile>: implicit GEMM on the GPU (hip/kernels/conv/
// conv_igemm.hip), one solver per direction and row of the tile table gpu::kIgemmTiles
// (conv/conv_args.hpp: <128x128>, <64x64>, <128x64>, <16x128>, <128x64x16>, <64x128x16>), so that
// Find picks the tile (ids 2001-2006, 2011-2016, 2021-2026: miopen_cy's own, outside MIOpen's
// range; never renumber).
// Any geometry (1-3 spatial dims, pads, strides, dilations, groups) and any tensor strides, as
// long as every tensor has fewer than 2^31 elements. Forward and backward data need no workspace;
// backward weights splits its long reduction into parts summed in a fixed order through a
// workspace (deterministic); backward data runs one GEMM per stride phase (no zero terms). A GPU
// solver: other domain on the CPU.
#include "conv/conv_gpu.hpp"
#include "conv/solvers.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace miopen::solvers {
namespace {

class ConvGpuImplicitGemm final : public ConvSolver
{
public:
    ConvGpuImplicitGemm(ConvDirection dir, int variant, uint64_t id) : dir_(dir), variant_(variant), id_(id)
    {
        const char* d = dir == ConvDirection::Forward ? "Fwd" : dir == ConvDirection::BackwardData ? "Bwd" : "Wrw";
        name_ = std::string("ConvGpuImplicitGemm") + d + "<" + gpu::kIgemmTiles[variant].name + ">";
    }
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::ImplicitGemm; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        // About 15 TFLOP/s on a full tile, less for the share of the tile a small GEMM leaves idle.
        const int bm = gpu::kIgemmTiles[variant_].bm;
        const double m = dir_ == ConvDirection::BackwardData ? double(p.c / p.groups) : double(p.k / p.groups);
        double fill = std::min(1.0, m / bm);
        // Grouped backward weights with few filters per group runs far below the linear share
        // (H200: 3x at K/G = 8 on a 16-row tile, 20x at K/G = 1): the square keeps Find from
        // timing the wide tiles there (CHANGELOG.md, dwgrp / dwgrp2).
        if(dir_ == ConvDirection::BackwardWeights && p.groups > 1)
            fill *= fill;
        return 2.0 * p.Macs() / (15e12 * fill) * 1e3 + 0.005;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        if(p.direction != dir_)
            return OtherDomain("another direction");
        if(!conv_gpu::Fits32(p))
            return NotApplicable("a tensor has 2^31 elements or more");
        size_t phases = 1;
        for(int i = 0; i < p.dims; ++i)
            phases *= size_t(p.strides[i]);
        if(size_t(p.groups) * phases > 65535)
            return NotApplicable("more than 65535 groups x stride phases");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(dir_ != ConvDirection::BackwardWeights || !ctx.handle.IsGpu())
            return 0;
        const int splits = conv_gpu::IgemmWrwSplits(ctx.handle, p, variant_);
        return splits > 1 ? size_t(splits) * p.k * (p.c / p.groups) * p.FilterSpatial() * sizeof(float) : 0;
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::IgemmInvoker(ctx.handle, p, variant_);
    }

private:
    ConvDirection dir_;
    int variant_;
    uint64_t id_;
    std::string name_;
};

/// The solver of tile row `variant` for one direction (ids FirstId + row).
template <ConvDirection Dir, uint64_t FirstId, size_t... Row>
const ConvSolver& OfRow(int variant, std::index_sequence<Row...>)
{
    static const ConvGpuImplicitGemm all[] = {ConvGpuImplicitGemm(Dir, int(Row), FirstId + Row)...};
    return all[std::clamp(variant, 0, int(sizeof...(Row)) - 1)];
}

constexpr auto kRows = std::make_index_sequence<gpu::kIgemmVariants>();

} // namespace

const ConvSolver& ConvGpuImplicitGemmFwd(int variant)
{
    return OfRow<ConvDirection::Forward, 2001>(variant, kRows);
}
const ConvSolver& ConvGpuImplicitGemmBwd(int variant)
{
    return OfRow<ConvDirection::BackwardData, 2011>(variant, kRows);
}
const ConvSolver& ConvGpuImplicitGemmWrw(int variant)
{
    return OfRow<ConvDirection::BackwardWeights, 2021>(variant, kRows);
}

} // namespace miopen::solvers
