// ConvCpuImplicitGemmFwd (miopen_cy id 1001): forward convolution of any geometry. The column matrix is built a few output
// rows at a time into a per-thread buffer of about kChunkBytes that stays in L2 and multiplied
// there (cpu/conv_igemm.cpp), so it never goes through memory. Workspace: none (per-thread
// buffers). Deterministic: yes (bit for bit run to run with the same thread count).
#include "conv/conv_geometry.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"
#include "cpu/conv_igemm.hpp"

namespace miopen::solvers {
namespace {

constexpr long kChunkBytes = 256 * 1024;

struct ConvCpuImplicitGemmFwdSolver final : ConvSolver
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
    ConvInvoker MakeInvoker(const ConvContext&, const ConvProblem& p) const override
    {
        return [g = ConvGeometry(p)](const ConvArgs& a) { cpu::ConvFwdIgemm(g, static_cast<const float*>(a.x), static_cast<const float*>(a.w), static_cast<float*>(a.y), cpu::IgemmRowsPerChunk(g, kChunkBytes)); };
    }
};

} // namespace

const ConvSolver& ConvCpuImplicitGemmFwd()
{
    static const ConvCpuImplicitGemmFwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
