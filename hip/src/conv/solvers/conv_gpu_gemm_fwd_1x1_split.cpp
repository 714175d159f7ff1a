// ConvGpuGemmFwd1x1Split (id 2161, miopen_cy's own): forward 1x1 convolution without padding on
// the GPU as one GEMM whose columns are the whole batch's output positions (the SGEMM's folded
// batch, hip/kernels/gemm/sgemm.hip), its sum over C split into parts that run side by side and
// are added in part order (deterministic) -- for layers whose K x (N * output positions) output
// is too small to fill the GPU with tiles (e.g. C 2048, 7x7, K 512: 52 tiles of 128x128 on 132
// multiprocessors). Strided layers first gather the subsampled x (as GemmFwd1x1_0_2 does).
// Applicable only where the launcher's model picks a split (elsewhere GemmFwd1x1_0_1 and
// GemmFwd1x1_0_2 run the same GEMM unsplit). Workspace: the gathered x (strided) and the partial
// outputs. Deterministic: yes. A GPU solver: other domain on the CPU.
#include "conv/conv_device.hpp"
#include "conv/conv_gemm_gpu.hpp"
#include "conv/conv_geometry.hpp"
#include "conv/solvers/gemm_common.hpp"
#include "conv/solvers/solvers.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#if MIOPEN_CY_HAVE_GPU
#include "conv/conv_kargs.hpp"
#include "kernels/gemm/gemm_gather.hpp"
#include "kernels/gemm/sgemm.hpp"
#endif

namespace miopen::solvers {
namespace {

#if MIOPEN_CY_HAVE_GPU
/// The plan of a problem: the GEMM of group 0 (b and c unset), the tile, the split and the
/// workspace layout (the gathered x first, then the partial outputs).
struct SplitPlan
{
    gpu::SgemmArgs base;
    int tile = 0, splits = 1;
    bool strided   = false;
    size_t col     = 0;   // bytes of the gathered x (strided only)
    size_t partial = 0;   // bytes of the partial outputs
};

SplitPlan Plan(const Handle& handle, const ConvProblem& p)
{
    const ConvGeometry g(p);
    const long os = g.out[0] * g.out[1] * g.out[2];
    SplitPlan s;
    s.strided     = !p.IsUnitStrideNoPad();
    gpu::SgemmArgs& a = s.base;
    a.batch = static_cast<int>(g.n);
    a.m     = static_cast<int>(g.kpg);
    a.n     = static_cast<int>(os);
    a.k     = static_cast<int>(g.cpg);
    a.lda   = g.ws[0];
    a.stride_a = 0;
    a.ldb      = s.strided ? os : g.xs[1];
    a.stride_b = s.strided ? g.c * os : g.xs[0];
    a.ldc      = g.ys[1];
    a.stride_c = g.ys[0];
    gpu::SgemmChooseFoldSplit(a, gpu::MultiprocessorCount(handle.Ordinal()), s.tile, s.splits);
    s.col     = s.strided ? sizeof(float) * size_t(g.n) * size_t(g.c) * size_t(os) : 0;
    s.partial = gpu::SgemmFoldWorkspaceBytes(a, s.splits);
    return s;
}

#endif

class ConvGpuGemmFwd1x1SplitSolver final : public ConvSolver
{
public:
    std::string_view Name() const override { return "ConvGpuGemmFwd1x1Split"; }   // stored in the find-db
    uint64_t Id() const override { return 2161; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Gemm; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        return conv_device::GemmGpuEstimateMs(p) + 0.005;   // + the reduction
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        const Applicability common = gemm::CommonApplicability(ctx, p, ConvDirection::Forward, true);
        if(!common.ok)
            return common;
        const Applicability unpadded = gemm::Unpadded1x1(p);
        if(!unpadded.ok)
            return unpadded;
        if(static_cast<double>(p.n) * p.OutSpatial() > 0x7fffffff ||
           static_cast<double>(p.n) * p.c * p.OutSpatial() > 0x7fffffff)
            return NotApplicable("the batch's output positions need 2^31 or more columns");
#if MIOPEN_CY_HAVE_GPU
        if(p.n < 2)
            return NotApplicable("one image: nothing to fold");
        if(Plan(ctx.handle, p).splits <= 1)
            return NotApplicable("the unsplit GEMM fills the GPU (GemmFwd1x1_0_1 / GemmFwd1x1_0_2)");
        return Applicable();
#else
        return NotApplicable("no GPU backend in this build");
#endif
    }
    size_t WorkspaceSize(const ConvContext& ctx, const ConvProblem& p) const override
    {
#if MIOPEN_CY_HAVE_GPU
        if(!ctx.handle.IsGpu())
            return 0;
        const SplitPlan s = Plan(ctx.handle, p);
        return s.col + s.partial;
#else
        return 0;
#endif
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
#if MIOPEN_CY_HAVE_GPU
        const Handle* h       = &ctx.handle;
        const ConvGeometry g(p);
        const SplitPlan s     = Plan(ctx.handle, p);
        const gpu::ConvKArgs ka = conv_device::KernelArgs(g);
        const long os         = g.out[0] * g.out[1] * g.out[2];
        return [h, g, s, ka, os](const ConvArgs& r) {
            if(r.workspace == nullptr || r.workspace_size < s.col + s.partial)
                ThrowBadParm("workSpace is ", r.workspace == nullptr ? "null" : "too small", "; ConvGpuGemmFwd1x1Split needs ",
                             s.col + s.partial, " bytes");
            char* ws     = static_cast<char*>(r.workspace);
            const float* xb = static_cast<const float*>(r.x);
            if(s.strided)
            {
                gpu::LaunchConv1x1Gather(ka, h->Stream(), xb, reinterpret_cast<float*>(ws));
                gpu::CheckLaunch("ConvGpuGemmFwd1x1Split gather");
                xb = reinterpret_cast<const float*>(ws);
            }
            float* part = s.partial > 0 ? reinterpret_cast<float*>(ws + s.col) : nullptr;
            for(long grp = 0; grp < g.g; ++grp)
            {
                gpu::SgemmArgs a = s.base;
                a.a = static_cast<const float*>(r.w) + grp * g.kpg * g.ws[0];
                a.b = xb + grp * g.cpg * (s.strided ? os : g.xs[1]);
                a.c = static_cast<float*>(r.y) + grp * g.kpg * g.ys[1];
                gpu::LaunchSgemmWith(a, s.tile, s.splits, true, part, h->Stream());
            }
        };
#else
        (void)ctx;
        (void)p;
        ThrowNotImplemented("convolution on the GPU is not implemented in this build");
#endif
    }
};

} // namespace

const ConvSolver& ConvGpuGemmFwd1x1Split()
{
    static const ConvGpuGemmFwd1x1SplitSolver s;
    return s;
}

} // namespace miopen::solvers
