// ConvCpuImplicitGemmFwd (miopen_cy id 1001): forward convolution of any geometry. The column matrix is built a few output
// rows at a time into a per-thread buffer of about CHUNK_KB (a tunable, igemm_variants.hpp) that stays in L2 and multiplied
// there (cpu/conv_igemm.cpp), so it never goes through memory. Workspace: none (per-thread
// buffers). Deterministic: yes (bit for bit run to run with the same thread count).
#include "conv/conv_geometry.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/igemm_variants.hpp"
#include "conv/solvers/solvers.hpp"
#include "cpu/conv_igemm.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuImplicitGemmFwdSolver final : ConvTunableSolver
{
    std::string_view Name() const override { return "ConvCpuImplicitGemmFwd"; }   // find-db key: never rename
    uint64_t Id() const override { return 1001; }
    ConvAlgo Algorithm() const override { return ConvAlgo::ImplicitGemm; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        return gemm::EstimateMs(p, false) * 0.9;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::Forward);
        if(!common.ok)
            return common;

        return Applicable();
    }
    std::string_view VariantHeader() const override { return igemm::kHeader; }
    std::vector<std::string> Variants(const ConvContext&, const ConvProblem& p) const override
    {
        return igemm::Variants(p, static_cast<double>(gemm::ColBytes(p)));
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p, const std::string& variant) const override
    {
        const igemm::Variant v = igemm::Parse(Name(), variant, Variants(ctx, p));
        return [g = ConvGeometry(p), v](const ConvArgs& a) {
            cpu::ConvFwdIgemm(g, static_cast<const float*>(a.x), static_cast<const float*>(a.w),
                              static_cast<float*>(a.y), cpu::IgemmRowsPerChunk(g, v.chunk_kb * 1024), v.nb);
        };
    }
};

} // namespace

const ConvSolver& ConvCpuImplicitGemmFwd()
{
    static const ConvCpuImplicitGemmFwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
