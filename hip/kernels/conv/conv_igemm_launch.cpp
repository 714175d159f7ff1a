// The invokers of the implicit-GEMM kernels (conv_igemm.hip): ConvGpuImplicitGemm{Fwd,Bwd,Wrw}<tile>,
// one tile row of gpu::kIgemmTiles (conv/conv_args.hpp) each; backward weights' split of the
// reduction.
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_launch.hpp"

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
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int splits = p.direction == ConvDirection::BackwardWeights ? IgemmWrwSplits(handle, p, variant) : 1;
    return ByDirection(
        handle, p.direction, {"ConvGpuImplicitGemmFwd", "ConvGpuImplicitGemmBwd", "ConvGpuImplicitGemmWrw"},
        [a, variant](void* s, float* x, float* w, float* y, float*) {
            gpu::LaunchConvIgemmFwd(a, s, variant, x, w, y);
        },
        [a, variant](void* s, float* dx, float* w, float* dy, float*) {
            gpu::LaunchConvIgemmBwd(a, s, variant, dx, w, dy);
        },
        [a, variant, splits](void* s, float* x, float* dw, float* dy, float* ws) {
            gpu::LaunchConvIgemmWrw(a, s, variant, splits, x, dw, dy, ws);
        });
}

} // namespace miopen::conv_gpu
