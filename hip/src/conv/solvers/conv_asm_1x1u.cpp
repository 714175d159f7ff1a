// ConvAsm1x1U (MIOpen id 2): direct forward 1x1 convolution, stride 1 or 2, pad 0, fp32, packed
// NCHW, by the hand-written GCN assembly kernel asm/conv_fwd_1x1_gcn.s (gfx906, gfx908, gfx90a),
// loaded from the code object embedded at build time. AMD GPUs only: on the CPU and on NVIDIA it
// is not applicable, with that reason. Toggles: MIOPEN_DEBUG_GCN_ASM_KERNELS=0 and
// MIOPEN_DEBUG_CONV_DIRECT_ASM_1X1U=0. Rules: 1x1, pads 0, dilations 1, equal strides of 1 or 2,
// fp32, NCHW. Workspace: none (MIOpen's stride-2 path subsamples into a workspace; this kernel
// reads the strided input directly). Deterministic: yes.
#include "conv/solver_support/conv_asm_args.hpp"
#include "conv/solver_support/conv_asm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvAsm1x1USolver final : AsmSolver
{
    ConvAsm1x1USolver()   // MIOpen's name and id: never change
        : AsmSolver("ConvAsm1x1U", 2, "MIOPEN_DEBUG_CONV_DIRECT_ASM_1X1U", "conv_fwd_1x1_gcn")
    {
    }
    Applicability Fits(const ConvProblem& p) const override
    {
        const Applicability common = AsmCommonRules(p);
        if(!common.ok)
            return common;
        if(p.filter[0] != 1 || p.filter[1] != 1)
            return NotApplicable("1x1 filters only");
        if(p.pads[0] != 0 || p.pads[1] != 0 || p.dilations[0] != 1 || p.dilations[1] != 1)
            return NotApplicable("pads 0 and dilations 1 only");
        if(p.strides[0] != p.strides[1] || (p.strides[0] != 1 && p.strides[0] != 2))
            return NotApplicable("strides 1x1 or 2x2 only");
        return Applicable();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const auto n = static_cast<uint32_t>(p.n), c = static_cast<uint32_t>(p.c);
        const auto h = static_cast<uint32_t>(p.in[0]), w = static_cast<uint32_t>(p.in[1]);
        const auto k = static_cast<uint32_t>(p.k);
        const auto ho = static_cast<uint32_t>(p.out[0]), wo = static_cast<uint32_t>(p.out[1]);
        const auto s = static_cast<uint32_t>(p.strides[0]);
        const unsigned grid[3] = {(wo + kGcnTileW - 1) / kGcnTileW, (ho + kGcnTileH - 1) / kGcnTileH,
                                  (k + kGcn1x1KPerGroup - 1) / kGcn1x1KPerGroup};
        return MakeAsmInvoker<ConvAsm1x1Args>(ctx, Kernel(), grid, [=](void* x, void* wt, void* y) {
            return ConvAsm1x1Args{x, wt, y, n, c, h, w, k, ho, wo, s};
        });
    }
};

} // namespace

const ConvSolver& ConvAsm1x1U()
{
    static const ConvAsm1x1USolver solver;
    return solver;
}

} // namespace miopen::solvers
