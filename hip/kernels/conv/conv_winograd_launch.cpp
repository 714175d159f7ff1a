// The invoker of the GPU Winograd solvers (ConvMPBidirectWinograd<m-r>, ConvCpuWinogradWrw<m-3>,
// ConvWinograd3x3MultipassWrW<5-m> on a GPU handle): the transforms of conv_winograd.hip around strided-batched SGEMMs (sgemm.hip) over
// the tile elements, as planned by conv/solver_support/winograd_gpu.cpp (layouts:
// conv_winograd.hpp).
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/conv/conv_winograd.hpp"
#include "kernels/gemm/sgemm.hpp"

namespace miopen::conv_gpu {
namespace {

/// Backward weights' tile-element GEMMs with the plan's tile (its own choice where the plan has none).
void WrwTileGemms(const gpu::SgemmArgs& s, const WinogradGpuPlan& pl, void* stream)
{
    if(pl.gemm_tile >= 0)
        gpu::LaunchSgemmWith(s, pl.gemm_tile, 1, false, nullptr, stream);
    else
        gpu::LaunchSgemm(s, stream);
    gpu::CheckLaunch("Winograd backward weights (tile-element GEMMs)");
}

} // namespace

ConvInvoker WinogradInvoker(const Handle& handle, ConvDirection dir, const WinogradGpuPlan& pl)
{
    const Handle* h = &handle;
    return [h, pl, dir](const ConvArgs& a) {
        const gpu::WinogradKArgs& k = pl.k;
        if(a.workspace == nullptr || a.workspace_size < pl.Bytes())
            ThrowBadParm("Winograd F(", k.m, "x", k.m, ",", k.r, "x", k.r, ") needs ", pl.Bytes(),
                         " bytes of workspace; ", a.workspace == nullptr ? 0 : a.workspace_size, " given");
        float* w0 = static_cast<float*>(a.workspace);
        float* w1 = w0 + pl.f0;
        float* w2 = w1 + pl.f1;
        void* stream = h->Stream();
        const int e = (k.m + k.r - 1) * (k.m + k.r - 1);
        if(dir == ConvDirection::BackwardWeights)
        {
            gpu::LaunchWinogradInputTransform(k, stream, static_cast<const float*>(a.x), w0);
            gpu::CheckLaunch("Winograd backward weights (x transform)");
            gpu::LaunchWinogradDyTransform(k, stream, static_cast<const float*>(a.y), w1);
            gpu::CheckLaunch("Winograd backward weights (dy transform)");
            // Per group and (tile element, part): P[ocpg][icpg] = D[ocpg][part] x V[icpg][part]^T
            // (channels-last: D[part][oc]^T x V[part][ic], neither operand transposed on its way
            // to shared memory).
            for(int g = 0; g < k.groups; ++g)
            {
                gpu::SgemmArgs s;
                if(k.nhwc)
                {
                    s.trans_a = true;
                    s.m = k.ocpg;
                    s.n = k.icpg;
                    s.k = k.part;
                    s.batch = e * k.splits;
                    s.a = w1 + static_cast<int64_t>(g) * k.ocpg;
                    s.lda = k.oc;
                    s.stride_a = static_cast<int64_t>(k.part) * k.oc;
                    s.b = w0 + static_cast<int64_t>(g) * k.icpg;
                    s.ldb = k.ic;
                    s.stride_b = static_cast<int64_t>(k.part) * k.ic;
                    s.c = w2 + static_cast<int64_t>(g) * k.ocpg * k.icpg;
                    s.ldc = k.icpg;
                    s.stride_c = static_cast<int64_t>(k.oc) * k.icpg;
                    WrwTileGemms(s, pl, stream);
                    continue;
                }
                s.trans_b = true;
                s.m = k.ocpg;
                s.n = k.icpg;
                s.k = k.part;
                s.batch = e * k.splits;
                s.a = w1 + static_cast<int64_t>(g) * k.ocpg * k.part;
                s.lda = k.part;
                s.stride_a = static_cast<int64_t>(k.oc) * k.part;
                s.b = w0 + static_cast<int64_t>(g) * k.icpg * k.part;
                s.ldb = k.part;
                s.stride_b = static_cast<int64_t>(k.ic) * k.part;
                s.c = w2 + static_cast<int64_t>(g) * k.ocpg * k.icpg;
                s.ldc = k.icpg;
                s.stride_c = static_cast<int64_t>(k.oc) * k.icpg;
                WrwTileGemms(s, pl, stream);
            }
            gpu::LaunchWinogradWeightTransform(k, stream, w2, static_cast<float*>(a.w));
            gpu::CheckLaunch("Winograd backward weights (weight transform)");
            return;
        }
        const bool forward = dir == ConvDirection::Forward;
        gpu::LaunchWinogradInputTransform(k, stream, static_cast<const float*>(forward ? a.x : a.y), w0);
        gpu::CheckLaunch("Winograd (input transform)");
        gpu::LaunchWinogradFilterTransform(k, stream, static_cast<const float*>(a.w), w1);
        gpu::CheckLaunch("Winograd (filter transform)");
        // Per group: M_e[ocpg][T] = U_e[ocpg][icpg] x V_e[icpg][T], batched over the tile elements
        // (channels-last: M_e[T][ocpg] = V_e[T][icpg] x U_e[icpg][ocpg]).
        for(int g = 0; g < k.groups; ++g)
        {
            gpu::SgemmArgs s;
            if(k.nhwc)
            {
                s.m = k.tiles;
                s.n = k.ocpg;
                s.k = k.icpg;
                s.batch = e;
                s.a = w0 + static_cast<int64_t>(g) * k.icpg;
                s.lda = k.ic;
                s.stride_a = static_cast<int64_t>(k.tiles) * k.ic;
                s.b = w1 + static_cast<int64_t>(g) * k.ocpg;
                s.ldb = k.oc;
                s.stride_b = static_cast<int64_t>(k.icpg) * k.oc;
                s.c = w2 + static_cast<int64_t>(g) * k.ocpg;
                s.ldc = k.oc;
                s.stride_c = static_cast<int64_t>(k.tiles) * k.oc;
                gpu::LaunchSgemm(s, stream);
                gpu::CheckLaunch("Winograd (tile-element GEMMs)");
                continue;
            }
            s.m = k.ocpg;
            s.n = k.tiles;
            s.k = k.icpg;
            s.batch = e;
            s.a = w1 + static_cast<int64_t>(g) * k.ocpg * k.icpg;
            s.lda = k.icpg;
            s.stride_a = static_cast<int64_t>(k.oc) * k.icpg;
            s.b = w0 + static_cast<int64_t>(g) * k.icpg * k.tiles;
            s.ldb = k.tiles;
            s.stride_b = static_cast<int64_t>(k.ic) * k.tiles;
            s.c = w2 + static_cast<int64_t>(g) * k.ocpg * k.tiles;
            s.ldc = k.tiles;
            s.stride_c = static_cast<int64_t>(k.oc) * k.tiles;
            gpu::LaunchSgemm(s, stream);
            gpu::CheckLaunch("Winograd (tile-element GEMMs)");
        }
        gpu::LaunchWinogradOutputTransform(k, stream, w2, static_cast<float*>(forward ? a.y : a.x));
        gpu::CheckLaunch("Winograd (output transform)");
    };
}

} // namespace miopen::conv_gpu
