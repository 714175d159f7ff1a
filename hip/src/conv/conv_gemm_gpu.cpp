#include "conv/conv_gemm_gpu.hpp"
#include "conv/conv_geometry.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cmath>

#if MIOPEN_CY_HAVE_GPU
#include "conv/conv_kargs.hpp"
#include "kernels/gemm/gemm_gather.hpp"
#include "kernels/gemm/im2col.hpp"
#include "kernels/gemm/sgemm.hpp"
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

ConvInvoker Gemm1x1StridedInvoker(const Handle& handle, const ConvProblem& p)
{
#if MIOPEN_CY_HAVE_GPU
    const Handle* h = &handle;
    const ConvGeometry g(p);
    const ConvDirection dir = p.direction;
    if(dir == ConvDirection::BackwardWeights)
        ThrowNotImplemented("the strided 1x1 GEMM on the GPU has no backward weights");
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
    // The earlier one-thread-per-element scatter, for comparison (a debug switch, read here).
    const auto scatter = env::Value("MIOPEN_CY_DEBUG_GEMM_SCATTER");
    const bool per_element = scatter && *scatter == "element";
    return [h, g, dir, base, tile, fold, ka, os, per_element](const ConvArgs& r) {
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
            if(per_element)
                gpu::LaunchConv1x1ScatterPerElement(ka, h->Stream(), col, static_cast<float*>(r.x));
            else
                gpu::LaunchConv1x1Scatter(ka, h->Stream(), col, static_cast<float*>(r.x));
            gpu::CheckLaunch("GemmBwd1x1_stride2 scatter");
        }
    };
#else
    ThrowNotImplemented("convolution on the GPU is not implemented in this build");
#endif
}

size_t Gemm1x1StridedWorkspaceSize(const ConvProblem& p)
{
    return sizeof(float) * size_t(p.n) * size_t(p.c) * size_t(p.OutSpatial());
}

ConvInvoker Gemm1x1Invoker(const Handle& handle, const ConvProblem& p)
{
#if MIOPEN_CY_HAVE_GPU
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
    bool fold = false;
    gpu::SgemmChoose(base, gpu::MultiprocessorCount(handle.Ordinal()), tile, splits, fold);
    return splits > 1 ? gpu::SgemmWorkspaceBytes(base, splits) : 0;
#else
    return 0;
#endif
}

ConvInvoker GemmRestInvoker(const Handle& handle, const ConvProblem& p)
{
#if MIOPEN_CY_HAVE_GPU
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
#else
    ThrowNotImplemented("convolution on the GPU is not implemented in this build");
#endif
}

size_t GemmRestWorkspaceSize(const Handle& handle, const ConvProblem& p)
{
    const size_t rows = size_t(p.c / p.groups) * size_t(p.FilterSpatial());
    size_t bytes      = sizeof(float) * rows * size_t(p.OutSpatial());
    if(handle.IsGpu() && p.direction == ConvDirection::BackwardWeights)
        bytes += sizeof(float) * size_t(p.k / p.groups) * rows; // one image's weight gradient
    return bytes;
}

double GemmRestGpuEstimateMs(const ConvProblem& p)
{
    // Per image and group one GEMM of M x N outputs summed over K, at about 30 TFLOP/s when its
    // 64 x 64 tiles fill a 132-multiprocessor GPU and proportionally less when they do not (the
    // GEMM runs unsplit: backward weights' Kg x Cg*R*S output summed over the output positions
    // can be a handful of tiles); the column matrix written and read once at about 2 TB/s; three
    // launches. Find skips a solver whose estimate is far behind the best time it measured.
    const double rows = double(p.c / p.groups) * p.FilterSpatial();
    const double os = double(p.OutSpatial()), kg = double(p.k / p.groups);
    double m = kg, n = os, k = rows;                                 // forward
    if(p.direction == ConvDirection::BackwardData)
        m = rows, n = os, k = kg;
    else if(p.direction == ConvDirection::BackwardWeights)
        m = kg, n = rows, k = os;
    const double tiles = std::ceil(m / 64.0) * std::ceil(n / 64.0);
    const double rate  = 30e12 * std::min(1.0, tiles / 132.0);
    const double per   = 2.0 * m * n * k / rate + 2.0 * sizeof(float) * rows * os / 2e12 + 3 * 4e-6;
    return per * double(p.n) * p.groups * 1e3;
}

double GemmGpuEstimateMs(const ConvProblem& p) { return 2.0 * p.Macs() / 30e12 * 1e3 + 0.004; }

} // namespace miopen::conv_device
