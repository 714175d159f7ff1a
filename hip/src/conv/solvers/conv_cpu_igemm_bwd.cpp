// ConvCpuImplicitGemmBwd (miopen_cy id 1002): backward data of stride-1 convolutions, as the forward implicit GEMM of dy with the flipped, transposed filters. The column matrix is built a few output
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

struct ConvCpuImplicitGemmBwdSolver final : ConvTunableSolver
{
    std::string_view Name() const override { return "ConvCpuImplicitGemmBwd"; }   // find-db key: never rename
    uint64_t Id() const override { return 1002; }
    ConvAlgo Algorithm() const override { return ConvAlgo::ImplicitGemm; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        return gemm::EstimateMs(p, false) * 0.9;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::BackwardData);
        if(!common.ok)
            return common;
        for(int i = 0; i < p.dims; ++i)
        {
            if(p.strides[i] != 1)
                return NotApplicable("needs stride 1");
            if(p.pads[i] > p.dilations[i] * (static_cast<int>(p.filter[i]) - 1))
                return NotApplicable("needs pad <= dilation * (filter - 1)");
        }
        return Applicable();
    }
    std::string_view VariantHeader() const override { return igemm::kHeader; }
    std::vector<std::string> Variants(const ConvContext&, const ConvProblem& p) const override
    {
        // The column matrix of the transposed problem: (K/G) * filter taps rows, dx's spatial size wide.
        return igemm::Variants(p, 4.0 * (p.k / p.groups) * p.FilterSpatial() * p.InSpatial());
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p, const std::string& variant) const override
    {
        const igemm::Variant v = igemm::Parse(Name(), variant, Variants(ctx, p));
        return [g = ConvGeometry(p), v](const ConvArgs& a) {
            cpu::ConvBwdDataIgemm(g, static_cast<float*>(a.x), static_cast<const float*>(a.w),
                                  static_cast<const float*>(a.y), v.chunk_kb * 1024, v.nb);
        };
    }
};

} // namespace

const ConvSolver& ConvCpuImplicitGemmBwd()
{
    static const ConvCpuImplicitGemmBwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
