// The GEMM convolution solvers on GPU handles (conv/conv_gpu.hpp): MIOpen's GemmFwd1x1_0_1,
// GemmBwd1x1_stride1, GemmWrw1x1_stride1 (a 1x1 convolution with stride 1 and no padding is one
// GEMM per image and group), GemmFwd1x1_0_2 and GemmBwd1x1_stride2 (the strided 1x1 through a
// gather or scatter), GemmFwdRest, GemmBwdRest, GemmWrwUniversal (im2col / col2im around the
// GEMM), and miopen_cy's ConvGpuGemmFwd1x1Split (the batch folded into the columns, the sum over C
// split). Kernels: sgemm.hip, gemm_gather.hip, im2col.hip. The 1x1 solvers also take packed
// channels-last (NHWC / NDHWC) tensors: one GEMM over all the batch's pixels (NhwcGemm).
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/gemm/gemm_gather.hpp"
#include "kernels/gemm/im2col.hpp"
#include "kernels/gemm/sgemm.hpp"

namespace miopen::conv_gpu {
namespace {

/// The GEMM of group 0 (the others differ by their pointers: GroupOffsets).
gpu::SgemmArgs GroupGemm(const ConvGeometry& g, ConvDirection dir)
{
    const long spatial = g.out[0] * g.out[1] * g.out[2];   // == input spatial for 1x1 s1 p0
    gpu::SgemmArgs s;
    s.batch = static_cast<int>(g.n);
    switch(dir)
    {
    case ConvDirection::Forward:
        s.m = static_cast<int>(g.kpg); s.n = static_cast<int>(spatial); s.k = static_cast<int>(g.cpg);
        s.lda = g.ws[0]; s.stride_a = 0;
        s.ldb = g.xs[1]; s.stride_b = g.xs[0];
        s.ldc = g.ys[1]; s.stride_c = g.ys[0];
        break;
    case ConvDirection::BackwardData:
        s.trans_a = true;
        s.m = static_cast<int>(g.cpg); s.n = static_cast<int>(spatial); s.k = static_cast<int>(g.kpg);
        s.lda = g.ws[0]; s.stride_a = 0;
        s.ldb = g.ys[1]; s.stride_b = g.ys[0];
        s.ldc = g.xs[1]; s.stride_c = g.xs[0];
        break;
    case ConvDirection::BackwardWeights:
        s.trans_b = true; s.sum_batch = true;
        s.m = static_cast<int>(g.kpg); s.n = static_cast<int>(g.cpg); s.k = static_cast<int>(spatial);
        s.lda = g.ys[1]; s.stride_a = g.ys[0];
        s.ldb = g.xs[1]; s.stride_b = g.xs[0];
        s.ldc = g.ws[0]; s.stride_c = 0;
        break;
    }
    return s;
}

/// Points the GEMM at group grp's matrices of x, w and y.
gpu::SgemmArgs ForGroup(gpu::SgemmArgs s, const ConvGeometry& g, ConvDirection dir, long grp,
                        const ConvArgs& r)
{
    const float* x = static_cast<const float*>(r.x);
    const float* w = static_cast<const float*>(r.w);
    const float* y = static_cast<const float*>(r.y);
    const long xo = grp * g.cpg * g.xs[1], wo = grp * g.kpg * g.ws[0], yo = grp * g.kpg * g.ys[1];
    switch(dir)
    {
    case ConvDirection::Forward:
        s.a = w + wo; s.b = x + xo; s.c = static_cast<float*>(r.y) + yo;
        break;
    case ConvDirection::BackwardData:
        s.a = w + wo; s.b = y + yo; s.c = static_cast<float*>(r.x) + xo;
        break;
    case ConvDirection::BackwardWeights:
        s.a = y + yo; s.b = x + xo; s.c = static_cast<float*>(r.w) + wo;
        break;
    }
    return s;
}

/// Channels-last 1x1 (packed N, spatial, C): x, dx, y and dy are matrices of pixels x channels as
/// they lie, so each direction is one GEMM per group over all the batch's `pixels` (group 0's;
/// the others differ by their pointers, NhwcForGroup):
///   forward          y (P x Kg, ld K)  = x (P x Cg, ld C) * W[g]^T        (W: Kg x Cg, ld Cg)
///   backward data    dx (P x Cg, ld C) = dy (P x Kg, ld K) * W[g]
///   backward weights dW[g] (Kg x Cg)   = dy^T (Kg x P) * x (P x Cg), pixels in order.
/// The strided 1x1 runs the same GEMM with the packed gathered x (or scattered dx) in place of x.
gpu::SgemmArgs NhwcGemm(const ConvGeometry& g, ConvDirection dir, long pixels)
{
    gpu::SgemmArgs s;
    s.batch = 1;
    switch(dir)
    {
    case ConvDirection::Forward:
        s.trans_b = true;
        s.m = static_cast<int>(pixels); s.n = static_cast<int>(g.kpg); s.k = static_cast<int>(g.cpg);
        s.lda = g.c; s.ldb = g.ws[0]; s.ldc = g.k;
        break;
    case ConvDirection::BackwardData:
        s.m = static_cast<int>(pixels); s.n = static_cast<int>(g.cpg); s.k = static_cast<int>(g.kpg);
        s.lda = g.k; s.ldb = g.ws[0]; s.ldc = g.c;
        break;
    case ConvDirection::BackwardWeights:
        s.trans_a = true;
        s.m = static_cast<int>(g.kpg); s.n = static_cast<int>(g.cpg); s.k = static_cast<int>(pixels);
        s.lda = g.k; s.ldb = g.c; s.ldc = g.ws[0];
        break;
    }
    return s;
}

/// Points the channels-last GEMM at group grp's columns of x (or col) and y and its rows of w.
gpu::SgemmArgs NhwcForGroup(gpu::SgemmArgs s, const ConvGeometry& g, ConvDirection dir, long grp,
                            const float* x, const float* w, const float* y, float* out)
{
    const long xo = grp * g.cpg, wo = grp * g.kpg * g.ws[0], yo = grp * g.kpg;
    switch(dir)
    {
    case ConvDirection::Forward: s.a = x + xo; s.b = w + wo; s.c = out + yo; break;
    case ConvDirection::BackwardData: s.a = y + yo; s.b = w + wo; s.c = out + xo; break;
    case ConvDirection::BackwardWeights: s.a = y + yo; s.b = x + xo; s.c = out + wo; break;
    }
    return s;
}

long Pixels(const ConvGeometry& g) { return g.n * g.out[0] * g.out[1] * g.out[2]; }

/// The channels-last unit-stride 1x1 GEMM's plan: tile, split (of the one reduction: C, K or the
/// pixels) and its workspace bytes.
struct NhwcPlan
{
    gpu::SgemmArgs base;
    int tile = 0, splits = 1;
    bool fold = false;
    size_t need = 0;
};

NhwcPlan PlanNhwc(const Handle& handle, const ConvProblem& p)
{
    NhwcPlan n;
    const ConvGeometry g(p);
    n.base = NhwcGemm(g, p.direction, Pixels(g));
    gpu::SgemmChoose(n.base, gpu::MultiprocessorCount(handle.Ordinal()), n.tile, n.splits, n.fold);
    n.need = n.splits > 1 ? gpu::SgemmWorkspaceBytes(n.base, n.splits) : 0;
    return n;
}

ConvInvoker Gemm1x1NhwcInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h         = &handle;
    const ConvGeometry g(p);
    const ConvDirection dir = p.direction;
    const NhwcPlan plan     = PlanNhwc(handle, p);
    return [h, g, dir, plan](const ConvArgs& r) {
        // Without the workspace asked for, the unsplit GEMM (the launcher's own choice).
        const bool split = plan.need > 0 && r.workspace != nullptr && r.workspace_size >= plan.need;
        float* out = static_cast<float*>(dir == ConvDirection::Forward        ? r.y
                                         : dir == ConvDirection::BackwardData ? r.x
                                                                              : r.w);
        for(long grp = 0; grp < g.g; ++grp)
        {
            const gpu::SgemmArgs s = NhwcForGroup(plan.base, g, dir, grp, static_cast<const float*>(r.x),
                                                  static_cast<const float*>(r.w),
                                                  static_cast<const float*>(r.y), out);
            if(split)
                gpu::LaunchSgemmWith(s, plan.tile, plan.splits, false, static_cast<float*>(r.workspace),
                                     h->Stream());
            else if(plan.need == 0)
                gpu::LaunchSgemmWith(s, plan.tile, 1, false, nullptr, h->Stream());
            else
                gpu::LaunchSgemm(s, h->Stream());
        }
    };
}

/// The strided channels-last 1x1: forward gathers the subsampled x into the workspace (packed
/// N, output positions, C) and runs the GEMM on it; backward data runs the GEMM into the
/// workspace and scatters it into dx (zeros off the stride grid).
ConvInvoker Gemm1x1StridedNhwcInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h           = &handle;
    const ConvGeometry g(p);
    const ConvDirection dir   = p.direction;
    const gpu::SgemmArgs base = NhwcGemm(g, dir, Pixels(g));
    int tile = 0, splits = 1;
    bool fold = false;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits, fold);
    const gpu::ConvKArgs ka = KernelArgs(g);
    return [h, g, dir, base, tile, ka](const ConvArgs& r) {
        float* col = static_cast<float*>(r.workspace);
        if(col == nullptr)
            ThrowBadParm("workSpace is null; the strided 1x1 GEMM on the GPU needs one");
        const float* w = static_cast<const float*>(r.w);
        if(dir == ConvDirection::Forward)
        {
            gpu::LaunchConv1x1GatherNhwc(ka, h->Stream(), static_cast<const float*>(r.x), col);
            gpu::CheckLaunch("GemmFwd1x1_0_2 gather");
            for(long grp = 0; grp < g.g; ++grp)
                gpu::LaunchSgemmWith(NhwcForGroup(base, g, dir, grp, col, w, nullptr, static_cast<float*>(r.y)),
                                     tile, 1, false, nullptr, h->Stream());
        }
        else
        {
            for(long grp = 0; grp < g.g; ++grp)
                gpu::LaunchSgemmWith(NhwcForGroup(base, g, dir, grp, nullptr, w, static_cast<const float*>(r.y), col),
                                     tile, 1, false, nullptr, h->Stream());
            gpu::LaunchConv1x1ScatterNhwc(ka, h->Stream(), col, static_cast<float*>(r.x));
            gpu::CheckLaunch("GemmBwd1x1_stride2 scatter");
        }
    };
}

/// GemmWrwUniversal on packed NHWC (strided 1x1): the gathered x (packed pixels x C, 256-byte
/// rounded) first in the workspace, then the split sum's partials.
struct WrwNhwcPlan
{
    gpu::SgemmArgs base;
    int tile = 0, splits = 1;
    size_t col = 0, partial = 0;
};

WrwNhwcPlan PlanWrwNhwc(const Handle& handle, const ConvProblem& p)
{
    const ConvGeometry g(p);
    WrwNhwcPlan w;
    w.base = NhwcGemm(g, ConvDirection::BackwardWeights, Pixels(g));
    bool fold = false;
    gpu::SgemmChoose(w.base, gpu::MultiprocessorCount(handle.Ordinal()), w.tile, w.splits, fold);
    w.col     = (sizeof(float) * size_t(Pixels(g)) * size_t(g.c) + 255) / 256 * 256;
    w.partial = w.splits > 1 ? gpu::SgemmWorkspaceBytes(w.base, w.splits) : 0;
    return w;
}

ConvInvoker GemmWrwNhwcInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h         = &handle;
    const ConvGeometry g(p);
    const WrwNhwcPlan plan  = PlanWrwNhwc(handle, p);
    const gpu::ConvKArgs ka = KernelArgs(g);
    return [h, g, plan, ka](const ConvArgs& r) {
        if(r.workspace == nullptr || r.workspace_size < plan.col)
            ThrowBadParm("workSpace of ", r.workspace == nullptr ? 0 : r.workspace_size,
                         " bytes; GemmWrwUniversal on packed NHWC on the GPU needs ", plan.col + plan.partial);
        float* col = static_cast<float*>(r.workspace);
        gpu::LaunchConv1x1GatherNhwc(ka, h->Stream(), static_cast<const float*>(r.x), col);
        gpu::CheckLaunch("GemmWrwUniversal gather");
        const bool split = plan.partial > 0 && r.workspace_size >= plan.col + plan.partial;
        float* part      = reinterpret_cast<float*>(static_cast<char*>(r.workspace) + plan.col);
        for(long grp = 0; grp < g.g; ++grp)
        {
            const gpu::SgemmArgs s = NhwcForGroup(plan.base, g, ConvDirection::BackwardWeights, grp, col,
                                                  nullptr, static_cast<const float*>(r.y), static_cast<float*>(r.w));
            if(split)
                gpu::LaunchSgemmWith(s, plan.tile, plan.splits, false, part, h->Stream());
            else
                gpu::LaunchSgemmWith(s, plan.tile, 1, false, nullptr, h->Stream());
        }
    };
}

} // namespace

size_t GemmWrwNhwcWorkspaceSize(const Handle& handle, const ConvProblem& p)
{
    if(!handle.IsGpu())
        return 0;
    const WrwNhwcPlan plan = PlanWrwNhwc(handle, p);
    return plan.col + plan.partial;
}

ConvInvoker Gemm1x1StridedInvoker(const Handle& handle, const ConvProblem& p)
{
    const ConvDirection dir = p.direction;
    if(dir == ConvDirection::BackwardWeights)
        ThrowNotImplemented("the strided 1x1 GEMM on the GPU has no backward weights");
    if(p.IsPackedNHWC())
        return Gemm1x1StridedNhwcInvoker(handle, p);
    const Handle* h = &handle;
    const ConvGeometry g(p);
    const long os = g.out[0] * g.out[1] * g.out[2];
    // The GEMM of group 0 on the packed subsampled tensor (col[n][c][o]) in place of x or dx.
    gpu::SgemmArgs base;
    base.batch = static_cast<int>(g.n);
    base.n     = static_cast<int>(os);
    base.lda   = g.ws[0];
    if(dir == ConvDirection::Forward)
    {
        base.m = static_cast<int>(g.kpg); base.k = static_cast<int>(g.cpg);
        base.ldb = os; base.stride_b = g.c * os;
        base.ldc = g.ys[1]; base.stride_c = g.ys[0];
    }
    else
    {
        base.trans_a = true;
        base.m = static_cast<int>(g.cpg); base.k = static_cast<int>(g.kpg);
        base.ldb = g.ys[1]; base.stride_b = g.ys[0];
        base.ldc = os; base.stride_c = g.c * os;
    }
    int tile = 0, splits = 1;
    bool fold = false;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits, fold);
    const gpu::ConvKArgs ka = KernelArgs(g);
    return [h, g, dir, base, tile, fold, ka, os](const ConvArgs& r) {
        float* col = static_cast<float*>(r.workspace);
        if(col == nullptr)
            ThrowBadParm("workSpace is null; the strided 1x1 GEMM on the GPU needs one");
        if(dir == ConvDirection::Forward)
        {
            gpu::LaunchConv1x1Gather(ka, h->Stream(), static_cast<const float*>(r.x), col);
            gpu::CheckLaunch("GemmFwd1x1_0_2 gather");
        }
        for(long grp = 0; grp < g.g; ++grp)
        {
            gpu::SgemmArgs s = base;
            const float* w   = static_cast<const float*>(r.w) + grp * g.kpg * g.ws[0];
            s.a              = w;
            if(dir == ConvDirection::Forward)
            {
                s.b = col + grp * g.cpg * os;
                s.c = static_cast<float*>(r.y) + grp * g.kpg * g.ys[1];
            }
            else
            {
                s.b = static_cast<const float*>(r.y) + grp * g.kpg * g.ys[1];
                s.c = col + grp * g.cpg * os;
            }
            gpu::LaunchSgemmWith(s, tile, 1, fold, nullptr, h->Stream());
        }
        if(dir == ConvDirection::BackwardData)
        {
            gpu::LaunchConv1x1Scatter(ka, h->Stream(), col, static_cast<float*>(r.x));
            gpu::CheckLaunch("GemmBwd1x1_stride2 scatter");
        }
    };
}

ConvInvoker Gemm1x1Invoker(const Handle& handle, const ConvProblem& p)
{
    if(p.IsPackedNHWC())
        return Gemm1x1NhwcInvoker(handle, p);
    const Handle* h = &handle;
    const ConvGeometry g(p);
    const ConvDirection dir = p.direction;
    const gpu::SgemmArgs base = GroupGemm(g, dir);
    int tile = 0, splits = 1;
    bool fold = false;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits, fold);
    const size_t need = splits > 1 ? gpu::SgemmWorkspaceBytes(base, splits) : 0;
    return [h, g, dir, base, tile, splits, fold, need](const ConvArgs& r) {
        // Without the workspace asked for, the unsplit GEMM (the launcher's own choice).
        const bool split = need > 0 && r.workspace != nullptr && r.workspace_size >= need;
        for(long grp = 0; grp < g.g; ++grp)
        {
            const gpu::SgemmArgs s = ForGroup(base, g, dir, grp, r);
            if(split)
                gpu::LaunchSgemmWith(s, tile, splits, false, static_cast<float*>(r.workspace), h->Stream());
            else if(need == 0)
                gpu::LaunchSgemmWith(s, tile, 1, fold, nullptr, h->Stream());
            else
                gpu::LaunchSgemm(s, h->Stream());
        }
    };
}

size_t Gemm1x1WorkspaceSize(const Handle& handle, const ConvProblem& p)
{
    if(handle.IsGpu() && p.IsPackedNHWC())
        return PlanNhwc(handle, p).need;   // any direction: one GEMM whose sum may split
    if(!handle.IsGpu() || p.direction != ConvDirection::BackwardWeights)
        return 0;
    const gpu::SgemmArgs base = GroupGemm(ConvGeometry(p), p.direction);
    int tile = 0, splits = 1;
    bool fold = false;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits, fold);
    return splits > 1 ? gpu::SgemmWorkspaceBytes(base, splits) : 0;
}

ConvInvoker GemmRestInvoker(const Handle& handle, const ConvProblem& p)
{
    if(p.IsPackedNHWC())
    {
        if(p.direction != ConvDirection::BackwardWeights)
            ThrowNotImplemented("GemmFwdRest / GemmBwdRest on packed NHWC");
        return GemmWrwNhwcInvoker(handle, p);
    }
    const Handle* h          = &handle;
    const ConvGeometry g(p);
    const ConvDirection dir  = p.direction;
    const gpu::ConvKArgs ka  = KernelArgs(g);
    const long rows          = g.cpg * g.fil[0] * g.fil[1] * g.fil[2];
    const long os            = g.out[0] * g.out[1] * g.out[2];
    const size_t need        = GemmRestWorkspaceSize(handle, p);
    const char* const name   = dir == ConvDirection::Forward       ? "GemmFwdRest"
                               : dir == ConvDirection::BackwardData ? "GemmBwdRest"
                                                                    : "GemmWrwUniversal";
    return [h, g, dir, ka, rows, os, need, name](const ConvArgs& r) {
        if(r.workspace == nullptr || r.workspace_size < need)
            ThrowBadParm("workSpace of ", r.workspace_size, " bytes; ", name, " on the GPU needs ", need);
        float* col      = static_cast<float*>(r.workspace);
        const float* x  = static_cast<const float*>(r.x);
        const float* w  = static_cast<const float*>(r.w);
        const float* dy = static_cast<const float*>(r.y);
        void* st        = h->Stream();
        for(long n = 0; n < g.n; ++n)
            for(long grp = 0; grp < g.g; ++grp)
            {
                const float* wg = w + grp * g.kpg * g.ws[0];
                const long yo   = n * g.ys[0] + grp * g.kpg * g.ys[1];
                gpu::SgemmArgs s;
                switch(dir)
                {
                case ConvDirection::Forward: // y[n][g] (Kg x OS) = W[g] (Kg x rows) * col
                    gpu::LaunchIm2Col(ka, st, n, grp, x, col);
                    s.m = static_cast<int>(g.kpg), s.n = static_cast<int>(os), s.k = static_cast<int>(rows);
                    s.a = wg, s.lda = g.ws[0], s.b = col, s.ldb = os;
                    s.c = static_cast<float*>(r.y) + yo, s.ldc = g.ys[1];
                    gpu::LaunchSgemm(s, st);
                    break;
                case ConvDirection::BackwardData: // col = W[g]^T (rows x Kg) * dy[n][g], then col2im
                    s.trans_a = true;
                    s.m = static_cast<int>(rows), s.n = static_cast<int>(os), s.k = static_cast<int>(g.kpg);
                    s.a = wg, s.lda = g.ws[0], s.b = dy + yo, s.ldb = g.ys[1], s.c = col, s.ldc = os;
                    gpu::LaunchSgemm(s, st);
                    gpu::LaunchCol2Im(ka, st, n, grp, col, static_cast<float*>(r.x));
                    break;
                case ConvDirection::BackwardWeights: // dW[g] += dy[n][g] * col^T, images in order
                {
                    float* part = col + rows * os;
                    gpu::LaunchIm2Col(ka, st, n, grp, x, col);
                    s.trans_b = true;
                    s.m = static_cast<int>(g.kpg), s.n = static_cast<int>(rows), s.k = static_cast<int>(os);
                    s.a = dy + yo, s.lda = g.ys[1], s.b = col, s.ldb = os, s.c = part, s.ldc = rows;
                    gpu::LaunchSgemm(s, st);
                    gpu::LaunchAccumulate(st, g.kpg * rows, n == 0, part,
                                          static_cast<float*>(r.w) + grp * g.kpg * g.ws[0]);
                    break;
                }
                }
                gpu::CheckLaunch(name);
            }
    };
}


namespace {

/// ConvGpuGemmFwd1x1Split's plan of a problem: the GEMM of group 0 (b and c unset), the tile, the
/// split and the workspace layout (the gathered x first, then the partial outputs).
struct SplitPlan
{
    gpu::SgemmArgs base;
    int tile = 0, splits = 1;
    bool strided   = false;
    size_t col     = 0;   // bytes of the gathered x (strided only)
    size_t partial = 0;   // bytes of the partial outputs
};

SplitPlan PlanSplit(const Handle& handle, const ConvProblem& p)
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

} // namespace

int Gemm1x1SplitParts(const Handle& handle, const ConvProblem& p)
{
    return handle.IsGpu() ? PlanSplit(handle, p).splits : 1;
}

size_t Gemm1x1SplitWorkspaceSize(const Handle& handle, const ConvProblem& p)
{
    if(!handle.IsGpu())
        return 0;
    const SplitPlan s = PlanSplit(handle, p);
    return s.col + s.partial;
}

ConvInvoker Gemm1x1SplitInvoker(const Handle& handle, const ConvProblem& p)
{
    const Handle* h       = &handle;
    const ConvGeometry g(p);
    const SplitPlan s     = PlanSplit(handle, p);
    const gpu::ConvKArgs ka = KernelArgs(g);
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
            a.epilogue = r.epilogue; // one group (CarriesEpilogue)
            gpu::LaunchSgemmWith(a, s.tile, s.splits, true, part, h->Stream());
        }
    };
}

} // namespace miopen::conv_gpu
