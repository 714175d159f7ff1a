#include "conv/conv_gemm_gpu.hpp"
#include "conv/conv_geometry.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#if MIOPEN_CY_HAVE_GPU
#include "gemm/sgemm.hpp"
#endif

namespace miopen::conv_device {

#if MIOPEN_CY_HAVE_GPU
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

} // namespace
#endif

ConvInvoker Gemm1x1Invoker(const Handle& handle, const ConvProblem& p)
{
#if MIOPEN_CY_HAVE_GPU
    const Handle* h = &handle;
    const ConvGeometry g(p);
    const ConvDirection dir = p.direction;
    const gpu::SgemmArgs base = GroupGemm(g, dir);
    int tile = 0, splits = 1;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits);
    const size_t need = splits > 1 ? gpu::SgemmWorkspaceBytes(base, splits) : 0;
    return [h, g, dir, base, tile, splits, need](const ConvArgs& r) {
        // Without the workspace asked for, the unsplit GEMM (the launcher's own choice).
        const bool split = need > 0 && r.workspace != nullptr && r.workspace_size >= need;
        for(long grp = 0; grp < g.g; ++grp)
        {
            const gpu::SgemmArgs s = ForGroup(base, g, dir, grp, r);
            if(split)
                gpu::LaunchSgemmWith(s, tile, splits, static_cast<float*>(r.workspace), h->Stream());
            else
                gpu::LaunchSgemm(s, h->Stream());
        }
    };
#else
    ThrowNotImplemented("convolution on the GPU is not implemented in this build");
#endif
}

size_t Gemm1x1WorkspaceSize(const Handle& handle, const ConvProblem& p)
{
#if MIOPEN_CY_HAVE_GPU
    if(!handle.IsGpu() || p.direction != ConvDirection::BackwardWeights)
        return 0;
    const gpu::SgemmArgs base = GroupGemm(ConvGeometry(p), p.direction);
    int tile = 0, splits = 1;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits);
    return splits > 1 ? gpu::SgemmWorkspaceBytes(base, splits) : 0;
#else
    return 0;
#endif
}

double GemmGpuEstimateMs(const ConvProblem& p) { return 2.0 * p.Macs() / 30e12 * 1e3 + 0.004; }

} // namespace miopen::conv_device
