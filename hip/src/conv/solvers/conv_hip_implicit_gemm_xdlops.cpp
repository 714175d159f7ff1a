// MIOpen's XDLOPS implicit-GEMM solvers on tensor cores (hip/kernels/conv/conv_igemm_mma.hip over
// the matrix layer kernels/common/mma.hpp: NVIDIA mma.sync on sm_80 and later, AMD MFMA on gfx908
// and gfx90a), fp16 and bf16 with fp32 accumulation, packed NHWC / NDHWC tensors, backward data's
// K/G a multiple of 8 (16-byte channel vectors; forward takes any C/G, loading 2 bytes at a time
// where C/G is not a multiple of 8, as the stem's C = 3). MIOpen's
// names, ids (src/solver.cpp's ++id order) and switches:
//   ConvHipImplicitGemmFwdXdlops         128  MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS
//                                             forward, 2-d, one group
//   ConvHipImplicitGemmGroupFwdXdlops    137  MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS
//                                             forward, 2-d, several groups
//   ConvHipImplicitGemm3DGroupFwdXdlops  138  MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS
//                                             forward, 3-d, any groups
//   ConvHipImplicitGemmBwdXdlops         129  MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS
//                                             backward data, 2-d, one group, any stride
//   ConvHipImplicitGemmGroupBwdXdlops    155  MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_GROUP_BWD_XDLOPS
//                                             backward data, 2-d, several groups
//   ConvHipImplicitGemm3DGroupBwdXdlops  141  MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS
//                                             backward data, 3-d, any groups
//   ConvHipImplicitGemmGroupWrwXdlops    156  MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS
//                                             backward weights, 2-d, any groups (MIOpen has no
//                                             one-group XDLOPS WrW of this family)
//   ConvHipImplicitGemm3DGroupWrwXdlops  140  MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS
//                                             backward weights, 3-d, any groups
// Workspace: backward weights, its fp32 partials (splits * K * filter taps * C/G floats), added in
// split order (IgemmMmaWrwSplits); forward and backward data, none when their output tiles fill
// the GPU, else the fp32 partials of a split reduction (splits * output elements floats,
// IgemmMmaSplitsK). Deterministic: yes (fixed split order; the splits depend on the problem and
// the GPU's multiprocessor count only).
#include "conv/conv_gpu.hpp"
#include "conv/solvers.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace miopen {
namespace conv_gpu {
/// The tensor-core kernel's invoker (kernels/conv/conv_igemm_mma_launch.cpp in GPU builds);
/// its reduction split into `splits` parts (IgemmMmaWrwSplits, IgemmMmaSplitsK).
ConvInvoker IgemmMmaInvoker(const Handle& handle, const ConvProblem& p, const char* name, int splits);
#if !MIOPEN_CY_HAVE_GPU
ConvInvoker IgemmMmaInvoker(const Handle&, const ConvProblem&, const char* name, int)
{
    ThrowNotImplemented(name, ": this build has no GPU backend");
}
#endif
} // namespace conv_gpu

namespace solvers {
namespace {

/// The split count in [1, most] that minimises a time model fitted to an H200 (fp16, batch 32):
/// the kernels run two blocks a multiprocessor, so `slots` = 2 * SMs blocks make a wave, and a
/// wave of blocks of k reduction steps takes about k + 1 microseconds (3x3 c64 56x56 forward:
/// 784 tiles of 18 steps in 56.7 us, 1.06 us a step a wave); fp32 partials add their traffic
/// (`out_elems` floats a part, written once and read once by the reduction, at about 3 TB/s)
/// and the reduction's launch (about 3 us). `reduced`: the unsplit run writes
/// partials too (backward weights). Ties go to the fewer parts.
size_t ModelSplits(size_t tiles, size_t steps, size_t most, size_t slots, double out_elems, bool reduced)
{
    auto time_us = [&](size_t s) {
        const double waves = double((tiles * s + slots - 1) / slots);
        const double t     = waves * (double((steps + s - 1) / s) + 1.0);
        return s == 1 && !reduced ? t : t + double(s) * out_elems * 8.0 / 3.0e6 + 3.0;
    };
    size_t splits = 1;
    double best   = time_us(1);
    for(size_t s = 2; s <= most; ++s)
        if(const double t = time_us(s); t < best)
        {
            best   = t;
            splits = s;
        }
    return splits;
}

/// Backward weights: parts of the reduction (n, output positions), as ModelSplits chooses them:
/// at least 128 positions a part, at most 256 parts, G * parts <= 65535. The count was
/// ceil(2 * SMs / tiles), capped at 64: the cap left the one- and two-tile problems (K and
/// C * taps <= 128: the stem, the c64 and k64 1x1 layers) on 64 blocks (256 parts made them
/// 1.2-1.7x faster on an H200, the stem 0.47 -> 0.27 ms; 1024 gained nothing more), and the
/// ceiling sent grids of 130-260 tiles into a full wave and a short second one.
int IgemmMmaWrwSplits(const Handle& handle, const ConvProblem& p)
{
    const size_t cols  = p.c / p.groups * p.FilterSpatial();
    const size_t tiles = ((p.k / p.groups + 127) / 128) * ((cols + 127) / 128) * size_t(p.groups);
    const size_t positions = p.n * p.OutSpatial();
    size_t most            = std::min<size_t>(256, std::max<size_t>(1, positions / 128));
    most                   = std::max<size_t>(1, std::min<size_t>(most, 65535 / size_t(p.groups)));
    const size_t slots     = 2 * size_t(gpu::MultiprocessorCount(handle.Ordinal()));
    const double out_elems = double(p.k) * double(cols);
    return static_cast<int>(ModelSplits(tiles, (positions + 31) / 32, most, slots, out_elems, true));
}

/// Backward data's stride phases (the kernel runs one GEMM a residue class of dx positions, grid z
/// = G * splits * phases): the product of the strides; forward 1.
size_t IgemmMmaPhases(const ConvProblem& p)
{
    size_t phases = 1;
    for(int i = 0; p.direction == ConvDirection::BackwardData && i < p.dims; ++i)
        phases *= size_t(p.strides[i]);
    return phases;
}

/// Forward and backward data: parts of the reduction (filter taps * C/G, or * K/G) when the
/// 128 x 128 output tiles alone leave multiprocessors idle (fewer tiles than multiprocessors:
/// 512x7x7 at batch 32 has 52), as ModelSplits chooses them: at most 16, at least 4 steps (128
/// elements) a part, G * phases * parts <= 65535, no empty part in the largest phase (backward
/// data's smaller phases may end with empty parts). 7x7 3x3 c512 k512 (52 tiles of 144 steps)
/// takes 5 parts, one full wave (ceil(2 * SMs / tiles) = 6 before: a full wave and a 48-block
/// second one, 61 us measured), 14x14 1x1 c1024 k256 (98 tiles of 32 steps) 2 (3 before: two
/// waves, 44 us). 1: unsplit, which grids of one tile a multiprocessor or more always are
/// (splitting grids of 196-208 tiles made them 1.4-1.5x slower).
int IgemmMmaSplitsK(const Handle& handle, const ConvProblem& p)
{
    // Backward data by stride phase: a phase's rows are about N * prod(in / stride), its taps
    // about prod(filter / stride) (the largest phase's: ceil).
    const bool bwd      = p.direction == ConvDirection::BackwardData;
    const size_t phases = IgemmMmaPhases(p);
    size_t rows = p.n, taps = 1;
    for(int i = 0; i < p.dims; ++i)
    {
        const size_t s = bwd ? size_t(p.strides[i]) : 1;
        rows *= bwd ? (size_t(p.in[i]) + s - 1) / s : size_t(p.out[i]);
        taps *= (size_t(p.filter[i]) + s - 1) / s;
    }
    const size_t cols   = (bwd ? p.c : p.k) / p.groups;
    const size_t red    = taps * ((bwd ? p.k : p.c) / p.groups);
    const size_t tiles  = ((rows + 127) / 128) * ((cols + 127) / 128) * size_t(p.groups) * phases;
    const size_t sms    = size_t(gpu::MultiprocessorCount(handle.Ordinal()));
    const size_t slots  = 2 * sms;
    if(tiles >= sms)
        return 1;
    const size_t steps = (red + 31) / 32;   // the kernel's reduction step (kIgemmMmaBK)
    size_t most        = std::min<size_t>(16, std::max<size_t>(1, steps / 4));
    most               = std::max<size_t>(1, std::min<size_t>(most, 65535 / (size_t(p.groups) * phases)));
    const double out_elems = double(rows) * double(cols) * double(p.groups) * double(phases);
    const size_t splits    = ModelSplits(tiles, steps, most, slots, out_elems, false);
    const size_t per = (steps + splits - 1) / splits;   // steps a part; then no part is empty
    return static_cast<int>((steps + per - 1) / per);
}

/// How a solver of the family takes groups.
enum class Groups
{
    One,
    Several,
    Any,
};

class ConvHipImplicitGemmXdlops final : public ConvSolver
{
public:
    ConvHipImplicitGemmXdlops(const char* name, uint64_t id, ConvDirection dir, int dims, Groups groups)
        : name_(name), id_(id), dir_(dir), dims_(dims), groups_(groups)
    {
    }
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::ImplicitGemm; }
    bool SupportsType(miopenDataType_t t) const override { return t == miopenHalf || t == miopenBFloat16; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        // About 100 TFLOP/s on full 128 x 128 tiles; a GEMM narrower than the tile (K/G columns,
        // N*Ho*Wo rows) leaves its share of the tile idle.
        // Backward data runs a GEMM a stride phase (its rows N*H*W / phases, its taps only those on
        // the stride grid); backward weights reads both operands 2 bytes at a time (about a
        // third of the rate) unless K/G and C/G are multiples of 8 (16-byte copies).
        const bool bwd      = dir_ == ConvDirection::BackwardData;
        const bool wrw      = dir_ == ConvDirection::BackwardWeights;
        const double cols   = wrw ? double(p.c / p.groups * p.FilterSpatial()) : double((bwd ? p.c : p.k) / p.groups);
        const double phases = double(IgemmMmaPhases(p));
        const double rows =
            wrw ? double(p.k / p.groups) : double(p.n * (bwd ? p.InSpatial() : p.OutSpatial())) / phases;
        const double fill  = std::min(1.0, cols / 128.0) * std::min(1.0, rows / 128.0);
        // Forward with C/G not a multiple of 8 loads its operands 2 bytes at a time (the stem).
        const bool narrow  = dir_ == ConvDirection::Forward && (p.c / p.groups) % 8 != 0;
        const bool wrw_vec = wrw && (p.k / p.groups) % 8 == 0 && (p.c / p.groups) % 8 == 0;
        const double waste = wrw ? (wrw_vec ? 1.2 : 3.0) : narrow ? 4.0 : 1.0;
        return 2.0 * p.Macs() * waste / (100e12 * fill) * 1e3 + 0.005;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(p.direction != dir_)
            return OtherDomain("another direction");
        // The problem's rules first, so that a CPU handle's error also says why.
        if(!p.IsPackedNHWC())
            return NotApplicable("needs packed NHWC / NDHWC tensors (channels last)");
        if(p.dims != dims_)
            return NotApplicable(dims_ == 2 ? "needs 2 spatial dims" : "needs 3 spatial dims");
        if(groups_ == Groups::One && p.groups > 1)
            return NotApplicable("needs one group");
        if(groups_ == Groups::Several && p.groups == 1)
            return NotApplicable("needs several groups");
        const bool bwd = dir_ == ConvDirection::BackwardData;
        const bool wrw = dir_ == ConvDirection::BackwardWeights;
        if(bwd && (p.k / p.groups) % 8 != 0)
            return NotApplicable("needs K/G a multiple of 8 (16-byte channel vectors)");
        if(!conv_gpu::Fits32(p))
            return NotApplicable("a tensor has 2^31 elements or more");
        const size_t cols = wrw ? p.c / p.groups * p.FilterSpatial() : (bwd ? p.c : p.k) / p.groups;
        if(p.groups > 65535 || (cols + 127) / 128 > 65535)
            return NotApplicable("more than 65535 groups or column tiles");
        if(bwd && size_t(p.groups) * IgemmMmaPhases(p) > 65535)
            return NotApplicable("more than 65535 groups times stride phases (the product of the strides)");
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        const std::string why = gpu::MmaArchWhyNot(gpu::ArchName(ctx.handle.Ordinal()));
        if(!why.empty())
            return NotApplicable(why);
        return Applicable();
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!ctx.handle.IsGpu())
            return 0;
        if(dir_ == ConvDirection::BackwardWeights)
            return size_t(IgemmMmaWrwSplits(ctx.handle, p)) * p.k * (p.c / p.groups) * p.FilterSpatial() *
                   sizeof(float);
        const size_t splits = size_t(IgemmMmaSplitsK(ctx.handle, p));
        if(splits == 1)
            return 0;
        const bool bwd = dir_ == ConvDirection::BackwardData;
        return splits * p.n * (bwd ? p.InSpatial() * p.c : p.OutSpatial() * p.k) * sizeof(float);
    }
    /// Forward applies a fusion plan's epilogue in its store (unsplit) or its split reduction.
    bool CarriesEpilogue(const ConvContext& ctx, const ConvProblem&) const override
    {
        return dir_ == ConvDirection::Forward && ctx.handle.IsGpu();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const int splits = dir_ == ConvDirection::BackwardWeights ? IgemmMmaWrwSplits(ctx.handle, p)
                                                                  : IgemmMmaSplitsK(ctx.handle, p);
        return conv_gpu::IgemmMmaInvoker(ctx.handle, p, name_, splits);
    }

private:
    const char* name_;
    uint64_t id_;
    ConvDirection dir_;
    int dims_;
    Groups groups_;
};

} // namespace

const ConvSolver& ConvHipImplicitGemmFwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmFwdXdlops", 128, ConvDirection::Forward, 2, Groups::One);
    return s;
}
const ConvSolver& ConvHipImplicitGemmGroupFwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmGroupFwdXdlops", 137, ConvDirection::Forward, 2, Groups::Several);
    return s;
}
const ConvSolver& ConvHipImplicitGemm3DGroupFwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemm3DGroupFwdXdlops", 138, ConvDirection::Forward, 3, Groups::Any);
    return s;
}
const ConvSolver& ConvHipImplicitGemmBwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmBwdXdlops", 129, ConvDirection::BackwardData, 2, Groups::One);
    return s;
}
const ConvSolver& ConvHipImplicitGemmGroupBwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmGroupBwdXdlops", 155, ConvDirection::BackwardData, 2,
                                             Groups::Several);
    return s;
}
const ConvSolver& ConvHipImplicitGemm3DGroupBwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemm3DGroupBwdXdlops", 141, ConvDirection::BackwardData, 3,
                                             Groups::Any);
    return s;
}
const ConvSolver& ConvHipImplicitGemmGroupWrwXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmGroupWrwXdlops", 156, ConvDirection::BackwardWeights,
                                             2, Groups::Any);
    return s;
}
const ConvSolver& ConvHipImplicitGemm3DGroupWrwXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemm3DGroupWrwXdlops", 140, ConvDirection::BackwardWeights,
                                             3, Groups::Any);
    return s;
}

} // namespace solvers
} // namespace miopen
