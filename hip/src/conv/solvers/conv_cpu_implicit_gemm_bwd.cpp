// ConvCpuImplicitGemmBwd (miopen_cy id 1002): backward data of stride-1 convolutions, as the forward implicit GEMM of dy with the flipped, transposed filters.
// In fp16 / bf16 also strided ones (and pad > dilation * (filter - 1)): per image and group
// col = W^T * dy, col2im into an fp32 image rounded once into dx (cpu/conv/igemm.hpp). The column matrix is built a few output
// rows at a time into a per-thread buffer of about CHUNK_KB (a tunable, igemm_variants.hpp) that stays in L2 and multiplied
// there (cpu/conv/igemm.cpp), so it never goes through memory. Workspace: none (per-thread
// buffers). Deterministic: yes (bit for bit run to run with the same thread count).
#include "conv/solver_support/igemm_variants.hpp"
#include "conv/solvers.hpp"
#include "core/storage.hpp"
#include "cpu/conv/igemm.hpp"

#include <type_traits>

namespace miopen::solvers {
namespace {

/// Where the transposed forward does not apply: a stride > 1, or pad > dilation * (filter - 1).
bool strided_or_padded(const ConvGeometry& g)
{
    for(int i = 0; i < 3; ++i)
        if(g.str[i] != 1 || g.pad[i] > g.dil[i] * (g.fil[i] - 1))
            return true;
    return false;
}

struct ConvCpuImplicitGemmBwdSolver final : igemm::CpuSolver
{
    ConvCpuImplicitGemmBwdSolver() : CpuSolver("ConvCpuImplicitGemmBwd", 1002, ConvDirection::BackwardData) {}

protected:
    Applicability IsApplicableToo(const ConvProblem& p) const override
    {
        if(p.type != miopenFloat)
            return Applicable();   // fp16 / bf16: strided problems through GEMM + col2im
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
    void Run(const ConvGeometry& g, miopenDataType_t type, const ConvArgs& a, const igemm::Variant& v) const override
    {
        DispatchFloating(type, "w", [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr(!std::is_same_v<T, float>)
                if(strided_or_padded(g))
                {
                    cpu::ConvBwdDataGemmCol2Im(g, static_cast<T*>(a.x), static_cast<const T*>(a.w),
                                               static_cast<const T*>(a.y));
                    return;
                }
            cpu::ConvBwdDataIgemm(g, static_cast<T*>(a.x), static_cast<const T*>(a.w), static_cast<const T*>(a.y),
                                  v.chunk_kb * 1024, v.nb);
        });
    }
};

} // namespace

const ConvSolver& ConvCpuImplicitGemmBwd()
{
    static const ConvCpuImplicitGemmBwdSolver solver;
    return solver;
}

} // namespace miopen::solvers
