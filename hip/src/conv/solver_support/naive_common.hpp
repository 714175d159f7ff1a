// The skeleton of MIOpen's naive direct solvers (ConvDirectNaiveConv{Fwd,Bwd,Wrw}): any geometry,
// any strides, no workspace, deterministic, on either device: the CPU kernels of cpu/conv/direct.cpp,
// the GPU kernels of hip/kernels/conv/conv_direct.hip (conv_gpu::NaiveInvoker). A solver states its
// name, id, direction, its speed on each device for the estimate, and its CPU run. Every type
// (fp32, fp16, bf16: fp32 accumulation, one rounding), every layout: the reference path of each
// problem.
#pragma once

#include "conv/conv_geometry.hpp"
#include "conv/conv_gpu.hpp"
#include "conv/solver.hpp"

#include <string_view>

namespace miopen::solvers::naive {

class NaiveSolver final : public ConvSolver
{
public:
    /// The CPU kernel of the direction for the problem's type (the args' pointers are of it).
    using CpuRun = void (*)(const ConvGeometry& g, const ConvArgs& a, miopenDataType_t type);

    /// gpu_flops, cpu_flops: the rates the estimate assumes.
    NaiveSolver(std::string_view name, uint64_t id, ConvDirection dir, double gpu_flops, double cpu_flops, CpuRun run)
        : name_(name), id_(id), dir_(dir), gpu_flops_(gpu_flops), cpu_flops_(cpu_flops), run_(run)
    {
    }
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    bool SupportsType(miopenDataType_t type) const override
    {
        return type == miopenFloat || type == miopenHalf || type == miopenBFloat16;
    }
    double EstimateMs(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return 2.0 * p.Macs() / (ctx.handle.IsGpu() ? gpu_flops_ : cpu_flops_) * 1e3;
    }
    Applicability IsApplicable(const ConvContext&, const ConvProblem& p) const override
    {
        if(p.direction != dir_)
            return OtherDomain(dir_ == ConvDirection::Forward        ? "forward only"
                               : dir_ == ConvDirection::BackwardData ? "backward data only"
                                                                     : "backward weights only");
        return Applicable();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(ctx.handle.IsGpu())
            return conv_gpu::NaiveInvoker(ctx.handle, p);
        return [run = run_, g = ConvGeometry(p), type = p.type](const ConvArgs& a) { run(g, a, type); };
    }

private:
    std::string_view name_;
    uint64_t id_;
    ConvDirection dir_;
    double gpu_flops_, cpu_flops_;
    CpuRun run_;
};

} // namespace miopen::solvers::naive
