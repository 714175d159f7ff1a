// fft (MIOpen id 34, its FFT solver's name and id): FFT convolution for forward and backward data
// with large filters (larger than 3x3 in some dim, at most 64x64), stride 1, dilation 1, one group, packed NCHW, on the CPU.
// Overlap-save tiles of 2^a 3^b 5^c points, our own real-to-complex FFT, one complex GEMM per
// frequency bin over the channels (cpu/conv/fft.cpp). Backward data is the forward convolution of
// dy with the flipped, transposed filters and pad' = R - 1 - pad (AsForwardProblem in
// FftShape::BackwardData).
// Workspace: the filter spectra (bins x C x K complex, at most 256 MiB: not applicable beyond) and
// one chunk of input and output spectra (about 16 MiB). Deterministic: yes (same thread count).
// Accuracy: relative L2 error <= 1e-4 against a float64 reference (DESIGN.md's FFT bound;
// tests/conv/solvers/test_fft.py); typically ~1e-6.
#include "conv/conv_geometry.hpp"
#include "conv/solvers.hpp"
#include "core/errors.hpp"
#include "cpu/conv/fft.hpp"

#include <climits>

namespace miopen::solvers {
namespace {

constexpr size_t kChunkBytes = 16u << 20;

cpu::FftShape ShapeOf(const ConvProblem& p)
{
    const ConvGeometry g(p);
    return p.IsForward() ? cpu::FftShape::Forward(g) : cpu::FftShape::BackwardData(g);
}

struct FftSolver final : ConvSolver
{
    std::string_view Name() const override { return "fft"; }   // MIOpen's name and id: never change
    uint64_t Id() const override { return 34; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Fft; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        const cpu::FftShape s = ShapeOf(p);
        return cpu::FftPlanSeconds(s, cpu::MakeFftPlan(s, kChunkBytes)) * 1e3;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!ctx.handle.IsCpu())
            return OtherDomain("CPU solver");
        if(p.IsBackwardWeights())
            return OtherDomain("forward and backward data only");
        if(p.dims != 2)
            return NotApplicable("needs 2 spatial dims");
        if(p.groups != 1)
            return NotApplicable("needs one group");
        if(p.strides[0] != 1 || p.strides[1] != 1)
            return NotApplicable("needs stride 1");
        if(p.dilations[0] != 1 || p.dilations[1] != 1)
            return NotApplicable("needs dilation 1");
        if(p.filter[0] <= 3 && p.filter[1] <= 3)
            return NotApplicable("filter of 3x3 or smaller: Winograd and GEMM are faster");
        if(p.filter[0] > 64 || p.filter[1] > 64)
            return NotApplicable("filter larger than 64x64");
        if(!p.IsPackedNCHW())
            return NotApplicable("needs packed N, C, spatial tensors");
        if(static_cast<double>(p.c) * p.k > INT_MAX)
            return NotApplicable("channel counts too large for 32-bit BLAS indices");
        const cpu::FftPlan pl = cpu::MakeFftPlan(ShapeOf(p), kChunkBytes);
        if(8u * static_cast<size_t>(pl.filter_cfloats) > cpu::kFftMaxFilterBytes)
            return NotApplicable(Concat("filter spectra need ", 8u * static_cast<size_t>(pl.filter_cfloats),
                                        " bytes; at most ", cpu::kFftMaxFilterBytes));
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext&, const ConvProblem& p) const override
    {
        return cpu::MakeFftPlan(ShapeOf(p), kChunkBytes).WorkspaceBytes();
    }
    ConvInvoker MakeInvoker(const ConvContext&, const ConvProblem& p) const override
    {
        const cpu::FftShape s = ShapeOf(p);
        const cpu::FftPlan pl = cpu::MakeFftPlan(s, kChunkBytes);
        return [s, pl](const ConvArgs& a) {
            if(a.workspace == nullptr || a.workspace_size < pl.WorkspaceBytes())
                ThrowBadParm("fft needs ", pl.WorkspaceBytes(), " bytes of workspace; ",
                             a.workspace == nullptr ? 0 : a.workspace_size, " given");
            if(s.backward)
                cpu::ConvFft(s, pl, static_cast<const float*>(a.y), static_cast<const float*>(a.w),
                             static_cast<float*>(a.x), a.workspace);
            else
                cpu::ConvFft(s, pl, static_cast<const float*>(a.x), static_cast<const float*>(a.w),
                             static_cast<float*>(a.y), a.workspace);
        };
    }
};

} // namespace

const ConvSolver& Fft()
{
    static const FftSolver solver;
    return solver;
}

} // namespace miopen::solvers
