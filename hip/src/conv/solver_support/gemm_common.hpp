// What the GEMM solvers share: their applicability (packed N-C-spatial tensors, sizes that fit
// the BLAS's 32-bit ints), their time estimates, and the skeleton GemmSolver that MIOpen's eight
// GEMM solvers (solvers/gemm_*.cpp, one per file by name and id) fill in with their direction,
// their kind and their CPU run (cpu/conv/gemm.hpp).
#pragma once

#include "conv/conv_geometry.hpp"
#include "conv/conv_gpu.hpp"
#include "conv/solver.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string_view>

namespace miopen::solvers::gemm {

/// `gpu_too`: the solver also runs on GPU handles (conv/conv_gpu.hpp), else it is CPU-only.
/// `nhwc_too`: packed channels-last tensors are accepted too (the 1x1 solvers: one GEMM over the
/// batch's pixels, whose count must then fit the BLAS's 32-bit ints).
inline Applicability CommonApplicability(const ConvContext& ctx, const ConvProblem& p, ConvDirection dir,
                                         bool gpu_too = false, bool nhwc_too = false)
{
    if(!ctx.handle.IsCpu() && !gpu_too)
        return OtherDomain("CPU solver");
    if(p.direction != dir)
        return OtherDomain(dir == ConvDirection::Forward ? "forward only"
                           : dir == ConvDirection::BackwardData ? "backward data only"
                                                                : "backward weights only");
    if(nhwc_too && p.IsPackedNHWC())
    {
        const double pixels = static_cast<double>(p.n) * std::max(p.OutSpatial(), p.InSpatial());
        if(pixels > INT_MAX || p.k > INT_MAX || p.c > INT_MAX)
            return NotApplicable("the batch's pixels too many for 32-bit BLAS indices");
        return Applicable();
    }
    if(!p.IsPackedNCHW())
        return NotApplicable(nhwc_too ? "needs packed N, C, spatial tensors (or packed N, spatial, C)"
                                      : "needs packed N, C, spatial tensors");
    const double biggest = static_cast<double>(p.c / p.groups) * p.FilterSpatial() *
                           static_cast<double>(std::max(p.OutSpatial(), p.InSpatial()));
    if(biggest > INT_MAX || p.k > INT_MAX)
        return NotApplicable("matrices too large for 32-bit BLAS indices");
    return Applicable();
}

/// A 1x1 filter without padding (any stride): what the 1x1 GEMM solvers of any stride need.
inline Applicability Unpadded1x1(const ConvProblem& p)
{
    if(!p.Is1x1())
        return NotApplicable("needs a 1x1 filter");
    for(int i = 0; i < p.dims; ++i)
        if(p.pads[i] != 0)
            return NotApplicable("needs no padding");
    return Applicable();
}

/// The column matrix of one image and group, in bytes.
inline size_t ColBytes(const ConvProblem& p)
{
    return sizeof(float) * (p.c / p.groups) * p.FilterSpatial() * p.OutSpatial();
}

/// Estimated time: the GEMM at ~60 GFLOP/s plus the column traffic at ~8 GB/s.
inline double EstimateMs(const ConvProblem& p, bool uses_col)
{
    const double gemm = 2.0 * p.Macs() / 60e9;
    const double col = uses_col ? 2.0 * static_cast<double>(ColBytes(p)) * p.n / 8e9 : 0.0;
    return (gemm + col) * 1e3;
}

/// The strided 1x1 solvers' workspace on the GPU: the subsampled tensor of the whole batch
/// (N x C x output positions).
inline size_t Strided1x1GpuWorkspaceSize(const ConvProblem& p)
{
    return sizeof(float) * size_t(p.n) * size_t(p.c) * size_t(p.OutSpatial());
}

/// The general GEMM solvers' estimated time on the GPU.
inline double RestGpuEstimateMs(const ConvProblem& p)
{
    // Per image and group one GEMM of M x N outputs summed over K, at about 30 TFLOP/s when its
    // 64 x 64 tiles fill a 132-multiprocessor GPU and proportionally less when they do not (the
    // GEMM runs unsplit: backward weights' Kg x Cg*R*S output summed over the output positions
    // can be a handful of tiles); the column matrix written and read once at about 2 TB/s; three
    // launches. Find skips a solver whose estimate is far behind the best time it measured.
    const double rows = double(p.c / p.groups) * p.FilterSpatial();
    const double os = double(p.OutSpatial()), kg = double(p.k / p.groups);
    double m = kg, n = os, k = rows;                                 // forward
    if(p.direction == ConvDirection::BackwardData)
        m = rows, n = os, k = kg;
    else if(p.direction == ConvDirection::BackwardWeights)
        m = kg, n = rows, k = os;
    const double tiles = std::ceil(m / 64.0) * std::ceil(n / 64.0);
    const double rate  = 30e12 * std::min(1.0, tiles / 132.0);
    const double per   = 2.0 * m * n * k / rate + 2.0 * sizeof(float) * rows * os / 2e12 + 3 * 4e-6;
    return per * double(p.n) * p.groups * 1e3;
}

/// Estimated time on the GPU: the GEMM at about 30 TFLOP/s plus a launch.
inline double GpuEstimateMs(const ConvProblem& p) { return 2.0 * p.Macs() / 30e12 * 1e3 + 0.004; }

/// What decides a GEMM solver's applicability, workspace, estimate and GPU invoker:
///   Unit1x1     a 1x1 filter, stride 1, no padding: one GEMM per image and group, no workspace
///               (backward weights on the GPU: an optional split of the image sum)
///   Strided1x1  a 1x1 filter, stride > 1, no padding: the subsampled x (or dx) in the workspace
///   Rest        any geometry: im2col / col2im of one image and group in the workspace
enum class Kind
{
    Unit1x1,
    Strided1x1,
    Rest,
};

/// MIOpen's GEMM solvers: a solver states its name, id, direction and kind, and its run on the CPU
/// (OpenBLAS; the workspace as WorkspaceSize says on a CPU handle); on GPU handles the kind's
/// invoker runs (kernels/gemm/conv_gemm_launch.cpp). The 1x1 kinds also take packed
/// channels-last tensors (MIOpen's GEMM solvers are NCHW-only; ours read NHWC as it lies): on the
/// GPU always, on the CPU where the solver gives its channels-last run `nhwc_run`; a Rest solver
/// with an `nhwc_run` (GemmWrwUniversal) takes the strided 1x1 on them.
class GemmSolver final : public ConvSolver
{
public:
    /// x, w, y: the canonical tensors (backward data writes x, backward weights w); col: the
    /// workspace.
    using CpuRun = void (*)(const ConvGeometry& g, float* x, float* w, float* y, float* col);

    GemmSolver(std::string_view name, uint64_t id, ConvDirection dir, Kind kind, CpuRun run,
               CpuRun nhwc_run = nullptr)
        : name_(name), id_(id), dir_(dir), kind_(kind), run_(run), nhwc_run_(nhwc_run)
    {
    }
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return kind_ == Kind::Unit1x1      ? GpuEstimateMs(p)
                   : kind_ == Kind::Strided1x1 ? GpuEstimateMs(p) + 0.01   // + the gather or scatter
                                               : RestGpuEstimateMs(p);
        return gemm::EstimateMs(p, kind_ != Kind::Unit1x1);
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common =
            CommonApplicability(ctx, p, dir_, true, kind_ != Kind::Rest || nhwc_run_ != nullptr);
        if(!common.ok || (kind_ == Kind::Rest && !p.IsPackedNHWC()))
            return common;
        if(p.IsPackedNHWC() && ctx.handle.IsCpu() && nhwc_run_ == nullptr)
            return NotApplicable("packed NHWC on the CPU: no channels-last run");
        if(kind_ == Kind::Rest)
        {
            // GemmWrwUniversal on packed NHWC: the strided 1x1 (the subsampled x gathered, then
            // the product over the pixels); stride 1 is GemmWrw1x1_stride1's.
            const Applicability unpadded = Unpadded1x1(p);
            if(!unpadded.ok)
                return NotApplicable("packed NHWC: a 1x1 filter without padding only");
            if(p.IsUnitStrideNoPad())
                return NotApplicable("packed NHWC with stride 1: GemmWrw1x1_stride1 needs no gather");
            return Applicable();
        }
        if(kind_ == Kind::Unit1x1)
        {
            if(!p.Is1x1() || !p.IsUnitStrideNoPad())
                return NotApplicable("needs a 1x1 filter with stride 1 and no padding");
            return Applicable();
        }
        const Applicability unpadded = Unpadded1x1(p);
        if(!unpadded.ok)
            return unpadded;
        if(p.IsUnitStrideNoPad())
            return NotApplicable("stride 1: GemmFwd1x1_0_1 / GemmBwd1x1_stride1 need no workspace");
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        switch(kind_)
        {
        case Kind::Unit1x1: return conv_gpu::Gemm1x1WorkspaceSize(ctx.handle, p);   // a split image sum on the GPU
        case Kind::Strided1x1: return ctx.handle.IsGpu() ? Strided1x1GpuWorkspaceSize(p) : ColBytes(p);
        case Kind::Rest: break;
        }
        if(p.IsPackedNHWC())
            return ctx.handle.IsGpu() ? conv_gpu::GemmWrwNhwcWorkspaceSize(ctx.handle, p) : ColBytes(p);
        return conv_gpu::GemmRestWorkspaceSize(ctx.handle, p);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return kind_ == Kind::Unit1x1      ? conv_gpu::Gemm1x1Invoker(ctx.handle, p)
                   : kind_ == Kind::Strided1x1 ? conv_gpu::Gemm1x1StridedInvoker(ctx.handle, p)
                                               : conv_gpu::GemmRestInvoker(ctx.handle, p);
        return [run = p.IsPackedNHWC() ? nhwc_run_ : run_, g = ConvGeometry(p)](const ConvArgs& a) {
            run(g, static_cast<float*>(a.x), static_cast<float*>(a.w), static_cast<float*>(a.y),
                static_cast<float*>(a.workspace));
        };
    }

private:
    std::string_view name_;
    uint64_t id_;
    ConvDirection dir_;
    Kind kind_;
    CpuRun run_;
    CpuRun nhwc_run_;
};

} // namespace miopen::solvers::gemm
