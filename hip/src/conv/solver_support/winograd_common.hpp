// What the Winograd solvers share (ConvMPBidirectWinograd<m-r> for forward and backward data,
// ConvCpuWinogradWrw<m-3> and ConvWinograd3x3MultipassWrW<5-m> for backward weights):
// applicability (2-d, r x r filters, stride 1, dilation 1, packed NCHW, or packed NHWC on a GPU
// handle; not depthwise; r = 5 on a GPU handle only), the workspace of the plan, the time estimate
// and the invoker over cpu/conv/winograd.cpp on a CPU handle (on a GPU handle: winograd_gpu.hpp),
// and the solver skeleton WinogradSolver<Weights, M, R> that the families' class templates fill in.
#pragma once

#include "conv/conv_geometry.hpp"
#include "conv/solver.hpp"
#include "conv/solver_support/winograd_gpu.hpp"
#include "core/errors.hpp"
#include "cpu/conv/winograd.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <string_view>

namespace miopen::solvers::winograd {

/// Transformed inputs and products of one chunk of tile rows take about this much: it bounds the
/// workspace and keeps a chunk within the last-level cache.
constexpr size_t kChunkBytes = 8u << 20;
/// The pipelined schedule (cpu/conv/winograd.hpp) keeps a thread's chunk, and the transformed
/// filters, within about this much (half an L2 of these machines).
constexpr size_t kCacheBytes = 512u << 10;

inline cpu::WinogradShape ShapeOf(const ConvProblem& p)
{
    const ConvGeometry g(p);
    return p.IsForward()        ? cpu::WinogradShape::Forward(g)
           : p.IsBackwardData() ? cpu::WinogradShape::BackwardData(g)
                                : cpu::WinogradShape::BackwardWeights(g);
}

/// `weights`: the backward-weights solvers; else the bidirectional (forward, backward data) ones.
/// `m`: the output tile (backward weights: of dy), `r` the filter: F(m x m, r x r).
inline Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p, bool weights, int m, int r)
{
    if(weights && !p.IsBackwardWeights())
        return OtherDomain("backward weights only");
    if(!weights && p.IsBackwardWeights())
        return OtherDomain("forward and backward data only");
    // The CPU kernels are F(m x m, 3 x 3); 5x5 filters have the fft solver there.
    if(r != 3 && !ctx.handle.IsGpu())
        return OtherDomain("GPU solver");
    if(p.dims != 2)
        return NotApplicable("needs 2 spatial dims");
    if(p.filter[0] != static_cast<size_t>(r) || p.filter[1] != static_cast<size_t>(r))
        return NotApplicable("needs a " + std::to_string(r) + "x" + std::to_string(r) + " filter");
    if(p.strides[0] != 1 || p.strides[1] != 1)
        return NotApplicable("needs stride 1");
    if(p.dilations[0] != 1 || p.dilations[1] != 1)
        return NotApplicable("needs dilation 1");
    if(p.IsPackedNHWC() && !ctx.handle.IsGpu())
        return NotApplicable("packed NHWC: on the GPU only (the CPU kernels are NCHW)");
    if(!p.IsPackedNCHW() && !p.IsPackedNHWC())
        return NotApplicable("needs packed N, C, spatial tensors (or packed N, spatial, C on the GPU)");
    // Depthwise: each tile-element "GEMM" is 1 x tiles x 1, an elementwise product; the
    // transforms move 4x (F(4x4)) the data of the direct convolution for 2.25x fewer products.
    if(p.c == static_cast<size_t>(p.groups) && p.k == static_cast<size_t>(p.groups))
        return NotApplicable("depthwise (one channel per group): the per-element GEMMs degenerate");
    if(ctx.handle.IsGpu())
        return winograd_gpu::IsApplicable(ctx.handle, p, m);
    const double spatial = std::max((p.out[0] + 3.0) * (p.out[1] + 3.0), (p.in[0] + 3.0) * (p.in[1] + 3.0));
    if(static_cast<double>(p.n) * spatial > INT_MAX || static_cast<double>(p.c) * p.k > INT_MAX)
        return NotApplicable("matrices too large for 32-bit BLAS indices");
    return Applicable();
}

inline cpu::WinogradPlan PlanOf(const ConvProblem& p, int m)
{
    return cpu::MakeWinogradPlan(ShapeOf(p), m, kChunkBytes, kCacheBytes);
}

inline size_t WorkspaceSize(const ConvProblem& p, int m) { return PlanOf(p, m).WorkspaceBytes(); }

/// In the units of the GEMM solvers' estimates (gemm_common.hpp): the per-element GEMMs at
/// ~60 GFLOP/s, the transformed data (written once, read once) at ~8 GB/s, and the filter
/// transform (~10 ns a filter, redone per chunk of tiles when phased, else once).
inline double EstimateMs(const ConvProblem& p, int m)
{
    const cpu::WinogradShape s = ShapeOf(p);
    const cpu::WinogradPlan pl = PlanOf(p, m);
    const double a2 = static_cast<double>(pl.alpha) * pl.alpha;
    const double tiles = static_cast<double>(pl.rows) * pl.tiles_w;
    const double chunks = std::ceil(static_cast<double>(pl.rows) / pl.rows_per_chunk);
    const double gemm = 2.0 * a2 * s.oc * s.icpg * tiles / 60e9;
    const double traffic = 2.0 * sizeof(float) * a2 * (s.ic + s.oc) * tiles / 8e9;
    const double filters = (p.IsBackwardWeights() || pl.pipelined ? 1.0 : chunks) * s.oc * s.icpg * 10e-9;
    return (gemm + traffic + filters) * 1e3;
}

inline ConvInvoker MakeInvoker(const ConvProblem& p, int m)
{
    const cpu::WinogradShape s = ShapeOf(p);
    const cpu::WinogradPlan pl = PlanOf(p, m);
    return [s, pl](const ConvArgs& a) {
        if(a.workspace == nullptr || a.workspace_size < pl.WorkspaceBytes())
            ThrowBadParm("Winograd F(", pl.m, "x", pl.m, ",3x3) needs ", pl.WorkspaceBytes(),
                         " bytes of workspace; ", a.workspace == nullptr ? 0 : a.workspace_size, " given");
        if(s.dir == cpu::WinogradDirection::BackwardWeights)
            cpu::ConvWinogradBackwardWeights(s, pl, static_cast<const float*>(a.x), static_cast<const float*>(a.y),
                                             static_cast<float*>(a.w), a.workspace);
        else if(s.dir == cpu::WinogradDirection::Forward)
            cpu::ConvWinograd(s, pl, static_cast<const float*>(a.x), static_cast<const float*>(a.w),
                              static_cast<float*>(a.y), a.workspace);
        else
            cpu::ConvWinograd(s, pl, static_cast<const float*>(a.y), static_cast<const float*>(a.w),
                              static_cast<float*>(a.x), a.workspace);
    };
}

/// The body of every Winograd solver: `Weights` the backward-weights families, else the
/// bidirectional one (forward, backward data); F(M x M, R x R) with M the output tile (backward
/// weights: dy's tile) and R the filter (3: both devices; 5: the GPU). The family's class
/// template gives its name and id.
template <bool Weights, int M, int R>
class WinogradSolver : public ConvSolver
{
public:
    WinogradSolver(std::string_view name, uint64_t id) : name_(name), id_(id) {}
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Winograd; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::EstimateMs(ctx.handle, p, M);
        return winograd::EstimateMs(p, M);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return winograd::IsApplicable(ctx, p, Weights, M, R);
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::WorkspaceSize(ctx.handle, p, M);
        return winograd::WorkspaceSize(p, M);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return winograd_gpu::MakeInvoker(ctx.handle, p, M);
        return winograd::MakeInvoker(p, M);
    }

private:
    std::string_view name_;
    uint64_t id_;
};

} // namespace miopen::solvers::winograd
