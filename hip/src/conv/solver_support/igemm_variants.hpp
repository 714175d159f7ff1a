// The variant table of the blocked implicit-GEMM solvers (ConvCpuImplicitGemm{Fwd,Bwd,Wrw}):
//     CHUNK_KB,NB
//     256,1     default: column chunks of ~256 KiB (a few output rows), one image per GEMM
//     64,1  1024,1  4096,1   smaller / larger chunks (a wider GEMM against more L2 traffic)
//     0,2   0,4             NB whole images side by side in one GEMM (small images: a wider GEMM,
//                           or for backward weights a longer inner dimension); offered when N >= NB
//                           and NB images' columns take at most 16 MiB
// Threads take whole chunks (or image blocks); with fewer blocks than threads the GEMM is split.
// And the three solvers' skeleton (igemm::CpuSolver): each states its name, id, direction, its
// extra applicability and column size, and its run.
#pragma once

#include "conv/conv_geometry.hpp"
#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "conv/solver_support/gemm_common.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace miopen::solvers::igemm {

inline constexpr std::string_view kHeader = "CHUNK_KB,NB";

struct Variant
{
    long chunk_kb = 256;
    long nb = 1;
};

/// col_bytes: one image's (and group's) full column matrix in bytes.
inline std::vector<std::string> Variants(const ConvProblem& p, double col_bytes)
{
    std::vector<std::string> out = {"256,1", "64,1", "1024,1", "4096,1"};
    for(long nb : {2L, 4L})
        if(static_cast<long>(p.n) >= nb && col_bytes * nb <= 16.0 * 1024 * 1024)
            out.push_back("0," + std::to_string(nb));
    return out;
}

inline Variant Parse(std::string_view solver, const std::string& text, const std::vector<std::string>& allowed)
{
    if(std::find(allowed.begin(), allowed.end(), text) == allowed.end())
    {
        std::string list;
        for(const auto& a : allowed)
            list += (list.empty() ? "" : " ") + a;
        ThrowBadParm(solver, ": variant '", text, "' is not one of this problem's variants (", kHeader, "): ",
                     list);
    }
    Variant v;
    std::sscanf(text.c_str(), "%ld,%ld", &v.chunk_kb, &v.nb);
    return v;
}

/// The blocked implicit-GEMM solvers on the CPU (ConvCpuImplicitGemm{Fwd,Bwd,Wrw}): the GEMM
/// solvers' applicability on CPU handles, their estimate less 10%, the variant table above.
class CpuSolver : public ConvTunableSolver
{
public:
    CpuSolver(std::string_view name, uint64_t id, ConvDirection dir) : name_(name), id_(id), dir_(dir) {}
    std::string_view Name() const override { return name_; }   // find-db keys: never rename
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::ImplicitGemm; }
    bool SupportsType(miopenDataType_t type) const override
    {
        return type == miopenFloat || type == miopenHalf || type == miopenBFloat16;
    }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        return gemm::EstimateMs(p, false) * 0.9;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, dir_);
        if(!common.ok)
            return common;
        return IsApplicableToo(p);
    }
    std::string_view VariantHeader() const override { return kHeader; }
    std::vector<std::string> Variants(const ConvContext&, const ConvProblem& p) const override
    {
        return igemm::Variants(p, ColBytes(p));
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p, const std::string& variant) const override
    {
        const Variant v = Parse(Name(), variant, Variants(ctx, p));
        return [this, g = ConvGeometry(p), v, type = p.type](const ConvArgs& a) { Run(g, type, a, v); };
    }

protected:
    /// What the solver needs beyond the GEMM solvers' common conditions.
    virtual Applicability IsApplicableToo(const ConvProblem&) const { return Applicable(); }
    /// One image's (and group's) full column matrix in bytes.
    virtual double ColBytes(const ConvProblem& p) const { return static_cast<double>(gemm::ColBytes(p)); }
    /// type: x, w and y's (fp32, fp16 or bf16; cpu/conv/igemm.hpp says how the 16-bit types run).
    virtual void Run(const ConvGeometry& g, miopenDataType_t type, const ConvArgs& a, const Variant& v) const = 0;

private:
    std::string_view name_;
    uint64_t id_;
    ConvDirection dir_;
};

} // namespace miopen::solvers::igemm
