// ConvAsm3x3U (MIOpen id 1): direct forward 3x3 convolution, stride 1, pad 1, fp32, packed NCHW,
// by the hand-written GCN assembly kernel asm/conv_fwd_3x3_gcn.s (gfx906, gfx908, gfx90a), loaded
// from the code object embedded at build time. AMD GPUs only: on the CPU and on NVIDIA it is not
// applicable, with that reason. Toggles: MIOPEN_DEBUG_GCN_ASM_KERNELS=0 and
// MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U=0. MIOpen's rules: 3x3, pads 1, strides 1, dilations 1,
// 3 < W <= 1000, fp32, NCHW (MIOpen's own kernel also needs C % 4 == 0; ours does not).
// Workspace: none. Deterministic: yes.
#include "conv/solver_support/conv_asm_args.hpp"
#include "conv/solver_support/conv_asm_common.hpp"
#include "conv/solvers.hpp"

namespace miopen::solvers {
namespace {

struct ConvAsm3x3USolver final : AsmSolver
{
    ConvAsm3x3USolver()   // MIOpen's name and id: never change
        : AsmSolver("ConvAsm3x3U", 1, "MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U", "conv_fwd_3x3_gcn")
    {
    }
    Applicability Fits(const ConvProblem& p) const override
    {
        const Applicability common = AsmCommonRules(p);
        if(!common.ok)
            return common;
        if(p.filter[0] != 3 || p.filter[1] != 3)
            return NotApplicable("3x3 filters only");
        if(p.pads[0] != 1 || p.pads[1] != 1 || p.strides[0] != 1 || p.strides[1] != 1 ||
           p.dilations[0] != 1 || p.dilations[1] != 1)
            return NotApplicable("pads 1, strides 1 and dilations 1 only");
        if(p.in[1] <= 3 || p.in[1] > 1000)
            return NotApplicable("needs 3 < W <= 1000");
        return Applicable();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const auto n = static_cast<uint32_t>(p.n), c = static_cast<uint32_t>(p.c);
        const auto h = static_cast<uint32_t>(p.in[0]), w = static_cast<uint32_t>(p.in[1]);
        const auto k = static_cast<uint32_t>(p.k);
        const unsigned grid[3] = {(w + kGcnTileW - 1) / kGcnTileW, (h + kGcnTileH - 1) / kGcnTileH, k};
        return MakeAsmInvoker<ConvAsm3x3Args>(ctx, Kernel(), grid, [=](void* x, void* wt, void* y) {
            return ConvAsm3x3Args{x, wt, y, n, c, h, w, k, 0};
        });
    }
};

} // namespace

const ConvSolver& ConvAsm3x3U()
{
    static const ConvAsm3x3USolver solver;
    return solver;
}

} // namespace miopen::solvers
