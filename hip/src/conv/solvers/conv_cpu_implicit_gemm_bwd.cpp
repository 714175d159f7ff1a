// ConvCpuImplicitGemmBwd (miopen_cy id 1002): backward data of stride-1 convolutions, as the forward implicit GEMM of dy with the flipped, transposed filters. The column matrix is built a few output
// rows at a time into a per-thread buffer of about CHUNK_KB (a tunable, igemm_variants.hpp) that stays in L2 and multiplied
// there (cpu/conv/igemm.cpp), so it never goes through memory. Workspace: none (per-thread
// buffers). Deterministic: yes (bit for bit run to run with the same thread count).
#include "conv/solver_support/igemm_variants.hpp"
#include "conv/solvers.hpp"
#include "cpu/conv/igemm.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuImplicitGemmBwdSolver final : igemm::CpuSolver
{
    ConvCpuImplicitGemmBwdSolver() : CpuSolver("ConvCpuImplicitGemmBwd", 1002, ConvDirection::BackwardData) {}

protected:
    Applicability IsApplicableToo(const ConvProblem& p) const override
    {
        for(int i = 0; i < p.dims; ++i)
        {
            if(p.strides[i] != 1)
                return NotApplicable("needs stride 1");
            if(p.pads[i] > p.dilations[i] * (static_cast<int>(p.filter[i]) - 1))
                return NotApplicable("needs pad <= dilation * (filter - 1)");
        }
        return Applicable();
    }
    double ColBytes(const ConvProblem& p) const override
    {
        // The column matrix of the transposed problem: (K/G) * filter taps rows, dx's spatial size wide.
        return 4.0 * (p.k / p.groups) * p.FilterSpatial() * p.InSpatial();
    }
    void Run(const ConvGeometry& g, const ConvArgs& a, const igemm::Variant& v) const override
    {
        cpu::ConvBwdDataIgemm(g, static_cast<float*>(a.x), static_cast<const float*>(a.w),
                              static_cast<const float*>(a.y), v.chunk_kb * 1024, v.nb);
    }
};

} // namespace

const ConvSolver& ConvCpuImplicitGemmBwd()
{
    static const ConvCpuImplicitGemmBwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
