// The invoker of the tensor-core implicit-GEMM kernels (conv_igemm_mma.hip) for the
// ConvHipImplicitGemm*Xdlops solvers (conv/solvers/conv_hip_implicit_gemm_xdlops.cpp, which
// declares IgemmMmaInvoker and defines it for CPU-only builds). Forward applies ConvArgs::epilogue
// (a fusion plan's) in the kernel's store or its split reduction.
#include "kernels/conv/conv_igemm_mma.hpp"
#include "kernels/conv/conv_launch.hpp"

namespace miopen::conv_gpu {

ConvInvoker IgemmMmaInvoker(const Handle& handle, const ConvProblem& p, const char* name, int splits)
{
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const bool bf16        = p.type == miopenBFloat16;
    const Handle* h        = &handle;
    if(p.direction == ConvDirection::BackwardWeights)
        return [h, a, bf16, name, splits](const ConvArgs& r) {
            gpu::LaunchConvIgemmMmaWrw(a, h->Stream(), bf16, splits, r.x, r.w, r.y, static_cast<float*>(r.workspace));
            gpu::CheckLaunch(name);
        };
    // Forward and backward data split their reduction only into a workspace that holds the
    // partials (splits * output elements floats); a smaller one runs unsplit (the same sums in
    // another order).
    const bool bwd    = p.direction == ConvDirection::BackwardData;
    const size_t need = size_t(splits) * p.n * (bwd ? p.InSpatial() * p.c : p.OutSpatial() * p.k) * sizeof(float);
    auto split_for    = [splits, need](const ConvArgs& r) {
        return splits > 1 && r.workspace != nullptr && r.workspace_size >= need ? splits : 1;
    };
    if(bwd)
        return [h, a, bf16, name, split_for](const ConvArgs& r) {
            gpu::LaunchConvIgemmMmaBwd(a, h->Stream(), bf16, split_for(r), r.x, r.w, r.y,
                                       static_cast<float*>(r.workspace));
            gpu::CheckLaunch(name);
        };
    return [h, a, bf16, name, split_for](const ConvArgs& r) {
        gpu::LaunchConvIgemmMmaFwd(a, h->Stream(), bf16, split_for(r), r.x, r.w, r.y,
                                   static_cast<float*>(r.workspace), r.epilogue);
        gpu::CheckLaunch(name);
    };
}

} // namespace miopen::conv_gpu
