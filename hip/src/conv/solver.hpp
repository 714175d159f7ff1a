// The solver interface: one way to solve a class of convolution problems (DESIGN.md, seed 004).
// A solver has a stable name and id (stored in the find-db: never rename or renumber), belongs
// to one algorithm, says whether a problem is applicable (with the reason when it is not), how
// much workspace it needs, whether it is deterministic, and builds an invoker: the chosen kernel
// and its parameters, which runs the convolution when called.
#pragma once

#include "conv/problem.hpp"
#include "core/handle.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace miopen {

namespace cpu {
struct ConvBlockEpilogue; // fusion/fusion_args.hpp
}

enum class ConvAlgo
{
    Gemm         = miopenConvolutionAlgoGEMM,
    Direct       = miopenConvolutionAlgoDirect,
    Fft          = miopenConvolutionAlgoFFT,
    Winograd     = miopenConvolutionAlgoWinograd,
    ImplicitGemm = miopenConvolutionAlgoImplicitGEMM,
};

const char* AlgoName(ConvAlgo algo);        // "GEMM", "Direct", ...
const char* AlgoToggle(ConvAlgo algo);      // "MIOPEN_DEBUG_CONV_GEMM", ...

struct Applicability
{
    bool ok = true;
    std::string reason;          // why not, when !ok
    bool other_domain = false;   // another direction or device: not worth naming in errors
};
inline Applicability Applicable() { return {}; }
inline Applicability NotApplicable(std::string reason) { return {false, std::move(reason), false}; }
/// For solvers of another direction or device.
inline Applicability OtherDomain(std::string reason) { return {false, std::move(reason), true}; }

/// Where a solver runs: the handle (device) it was asked on.
struct ConvContext
{
    const Handle& handle;
};

/// The buffers of one run, in canonical roles. Forward writes y; BackwardData writes x (dx);
/// BackwardWeights writes w (dw). The written tensor is overwritten (alpha = 1, beta = 0): the
/// front door applies other alpha/beta values.
struct ConvArgs
{
    void* x = nullptr;
    void* w = nullptr;
    void* y = nullptr;
    void* workspace = nullptr;
    size_t workspace_size = 0;
    /// A fusion plan's epilogue (forward on the CPU, alpha 1 and beta 0 only): the CPU solvers
    /// that write y in blocks (CarriesCpuEpilogue) apply it to each block as soon as it is
    /// written and set its `applied`; the others ignore it (the plan then runs it as a pass).
    const cpu::ConvBlockEpilogue* cpu_epilogue = nullptr;
};

using ConvInvoker = std::function<void(const ConvArgs&)>;

class ConvSolver
{
public:
    virtual ~ConvSolver() = default;
    virtual std::string_view Name() const = 0;
    virtual uint64_t Id() const = 0;
    virtual ConvAlgo Algorithm() const = 0;
    virtual bool IsDeterministic() const { return true; }
    /// Whether the solver applies ConvArgs::cpu_epilogue to each block of y it writes.
    virtual bool CarriesCpuEpilogue() const { return false; }
    /// Whether the solver computes in this data type (x, w and y all of it). The registry asks
    /// before IsApplicable (SurveySolver), so IsApplicable only sees problems of a supported type.
    virtual bool SupportsType(miopenDataType_t type) const { return type == miopenFloat; }
    /// A switch of the solver's family besides its algorithm's and its own
    /// (MIOPEN_DEBUG_GCN_ASM_KERNELS for the assembly solvers), or null.
    virtual const char* FamilySwitch() const { return nullptr; }
    /// Rough time estimate (ms) used to order solvers without benchmarking (immediate mode,
    /// MIOPEN_FIND_MODE=FAST) and to skip hopeless ones during Find.
    virtual double EstimateMs(const ConvContext&, const ConvProblem& p) const = 0;
    virtual Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const = 0;
    virtual size_t WorkspaceSize(const ConvContext&, const ConvProblem&) const { return 0; }
    virtual ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const = 0;
};

/// A solver with a short table of variants (composable_kernel's instance tables, MIOpen's
/// PerformanceConfig). VariantHeader() names the fields ("CHUNK_KB,NB"); a variant is one row as
/// text ("256,1"). Find with exhaustiveSearch (or MIOPEN_FIND_ENFORCE=SEARCH) times every variant
/// and stores the best in the perf-db (conv/tuning.hpp); the plain MakeInvoker runs the perf-db's
/// variant for the problem, else the default (the first of Variants()).
class ConvTunableSolver : public ConvSolver
{
public:
    virtual std::string_view VariantHeader() const = 0;
    /// The variants worth trying on this problem, the default first; never empty.
    virtual std::vector<std::string> Variants(const ConvContext& ctx, const ConvProblem& p) const = 0;
    /// Runs one variant; BadParm for a variant that is not one of Variants().
    virtual ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p,
                                    const std::string& variant) const = 0;
    /// The perf-db's variant (when it is still one of Variants()), else the default.
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const final;   // conv/tuning.cpp
};

} // namespace miopen
