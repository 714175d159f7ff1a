// The invokers of the implicit-GEMM kernels (conv_igemm.hip): ConvGpuImplicitGemm{Fwd,Bwd,Wrw}<tile>,
// one tile row of gpu::kIgemmTiles (conv/conv_args.hpp) each; backward weights' split of the
// reduction.
#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "kernels/conv/conv_kernels.hpp"

#include <algorithm>

namespace miopen::conv_gpu {

int IgemmWrwSplits(const Handle& handle, const ConvProblem& p, int variant)
{
    if(!handle.IsGpu())
        return 1;
    const size_t bm = gpu::kIgemmTiles[variant].bm, bn = gpu::kIgemmTiles[variant].bn;
    const size_t m = p.k / p.groups, n = p.c / p.groups * p.FilterSpatial();
    const size_t tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn) * p.groups;
    const size_t red = p.n * p.OutSpatial();
    const size_t target = 4 * static_cast<size_t>(gpu::MultiprocessorCount(handle.Ordinal()));
    size_t splits = (target + tiles - 1) / tiles;
    splits = std::min<size_t>(splits, std::max<size_t>(1, red / 256));   // at least 256 kk a split
    splits = std::min<size_t>(splits, 64);
    splits = std::min<size_t>(splits, 65535 / static_cast<size_t>(p.groups));
    return static_cast<int>(std::max<size_t>(splits, 1));
}

ConvInvoker IgemmInvoker(const Handle& handle, const ConvProblem& p, int variant)
{
    const Handle* h = &handle;
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    switch(p.direction)
    {
    case ConvDirection::Forward:
        return [h, a, variant](const ConvArgs& r) {
            gpu::LaunchConvIgemmFwd(a, h->Stream(), variant, static_cast<const float*>(r.x),
                                    static_cast<const float*>(r.w), static_cast<float*>(r.y));
            gpu::CheckLaunch("ConvGpuImplicitGemmFwd");
        };
    case ConvDirection::BackwardData:
        return [h, a, variant](const ConvArgs& r) {
            gpu::LaunchConvIgemmBwd(a, h->Stream(), variant, static_cast<float*>(r.x),
                                    static_cast<const float*>(r.w), static_cast<const float*>(r.y));
            gpu::CheckLaunch("ConvGpuImplicitGemmBwd");
        };
    case ConvDirection::BackwardWeights:
    {
        const int splits = IgemmWrwSplits(handle, p, variant);
        return [h, a, variant, splits](const ConvArgs& r) {
            gpu::LaunchConvIgemmWrw(a, h->Stream(), variant, splits, static_cast<const float*>(r.x),
                                    static_cast<float*>(r.w), static_cast<const float*>(r.y),
                                    static_cast<float*>(r.workspace));
            gpu::CheckLaunch("ConvGpuImplicitGemmWrw");
        };
    }
    }
    Throw(miopenStatusInternalError, "unknown convolution direction");
}

} // namespace miopen::conv_gpu
