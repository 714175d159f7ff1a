// ConvCpuImplicitGemmFwd (miopen_cy id 1001): forward convolution of any geometry. The column matrix is built a few output
// rows at a time into a per-thread buffer of about CHUNK_KB (a tunable, igemm_variants.hpp) that stays in L2 and multiplied
// there (cpu/conv/igemm.cpp), so it never goes through memory. Workspace: none (per-thread
// buffers). Deterministic: yes (bit for bit run to run with the same thread count). Carries a fusion
// plan's epilogue: applied to each chunk of output rows right after its GEMM (ConvArgs::cpu_epilogue).
#include "conv/solver_support/igemm_variants.hpp"
#include "conv/solvers.hpp"
#include "core/storage.hpp"
#include "cpu/conv/igemm.hpp"

namespace miopen::solvers {
namespace {

struct ConvCpuImplicitGemmFwdSolver final : igemm::CpuSolver
{
    ConvCpuImplicitGemmFwdSolver() : CpuSolver("ConvCpuImplicitGemmFwd", 1001, ConvDirection::Forward) {}
    bool CarriesCpuEpilogue() const override { return true; }

protected:
    void Run(const ConvGeometry& g, miopenDataType_t type, const ConvArgs& a, const igemm::Variant& v) const override
    {
        DispatchFloating(type, "w", [&](auto tag) {
            using T = typename decltype(tag)::type;
            cpu::ConvFwdIgemm(g, static_cast<const T*>(a.x), static_cast<const T*>(a.w), static_cast<T*>(a.y),
                              cpu::IgemmRowsPerChunk(g, v.chunk_kb * 1024), v.nb, a.cpu_epilogue);
        });
    }
};

} // namespace

const ConvSolver& ConvCpuImplicitGemmFwd()
{
    static const ConvCpuImplicitGemmFwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
