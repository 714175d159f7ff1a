// Launchers of epilogue_pass.hip: the fold of the chain's device parameters, and the epilogue
// pass's path for the operands' layout (epilogue_pass.hpp): 16-byte vectors where in, z and y
// share a packed NC[D]HW (a plane of whole vectors) or N[D]HWC (C of whole vectors) layout and
// are 16-byte aligned, an element a thread on other packed shapes, the general path otherwise.
#include "fusion/fusion_args.hpp"
#include "kernels/batchnorm/bn_layout.hpp"
#include "kernels/common/launch_common.hpp"
#include "kernels/fusion/epilogue_pass.hpp"

#include <cstdint>

namespace miopen::gpu {

/// The fold kernel's arguments: K channels, the chain's steps (at most a bias and a batch norm).
EpilogueFoldK FoldArgs(size_t k, const std::vector<EpilogueFoldParam>& steps, float* scale,
                       float* shift)
{
    EpilogueFoldK p;
    p.k = static_cast<int64_t>(k);
    if(steps.size() > 2)
        ThrowBadParm("the fused epilogue folds at most a bias and a batch norm; got ",
                     steps.size(), " steps");
    for(const auto& s : steps)
    {
        EpilogueFoldStep& d = p.steps[p.nsteps++];
        d.batch_norm = s.batch_norm ? 1 : 0;
        d.type       = static_cast<int>(s.desc->Type());
        d.stride     = static_cast<int64_t>(s.desc->Strides()[1]);
        d.bias = s.bias, d.scale = s.scale, d.mean = s.mean, d.var = s.var;
        d.epsilon = s.epsilon;
    }
    p.scale = scale;
    p.shift = shift;
    return p;
}

void FoldEpilogue(const Handle& h, size_t k, const std::vector<EpilogueFoldParam>& steps,
                  float* scale, float* shift)
{
    const EpilogueFoldK p = FoldArgs(k, steps, scale, shift);
    LaunchEpilogueFold(p, On(h, D1(CeilDiv(p.k, 128)), D1(128)));
    CheckLaunch("miopenExecuteFusionPlan (the epilogue's fold)");
}

template <class T>
void EpiloguePass(const Handle& h, const GpuEpilogueArgs& e, const TensorDescriptor& inDesc,
                  const T* in, const TensorDescriptor& yDesc, T* y)
{
    constexpr int W = static_cast<int>(16 / sizeof(T));
    EpiloguePassK p;
    p.in = in, p.out = y, p.z = e.z;
    p.scale = e.scale, p.shift = e.shift;
    p.alpha = e.alpha, p.alpha2 = e.alpha2;
    const auto& lens = yDesc.Lens();
    const int nd     = yDesc.NumDims();
    p.channels       = static_cast<int64_t>(lens[1]);
    p.numel          = static_cast<int64_t>(yDesc.ElementSize());
    if(p.numel == 0)
        return;
    int64_t inner = 1;
    for(int d = 2; d < nd; ++d)
        inner *= static_cast<int64_t>(lens[d]);
    p.inner = inner;
    const TensorDescriptor* zd = e.z != nullptr ? e.zDesc : nullptr;
    const bool same = inDesc.Strides() == yDesc.Strides() &&
                      (zd == nullptr || zd->Strides() == yDesc.Strides());
    const bool nchw = same && yDesc.IsPacked();
    const bool nhwc = same && !nchw && PackedChannelsLast(yDesc);
    const bool aligned = Aligned16(in) && Aligned16(y) && (e.z == nullptr || Aligned16(e.z));
    Launch l;
    if(nchw && aligned && inner % W == 0)
    {
        // a block a balanced chunk of one (n, c) plane
        p.path    = kEpiPlanes;
        p.plane_q = inner / W;
        PlanBalancedChunks(p.plane_q, int64_t{kEpiThreads} * kEpiUnroll, p.chunk_q, p.chunks);
        const int64_t planes = p.numel / inner;
        if(planes * p.chunks < (int64_t{1} << 31))
            l = On(h, D1(static_cast<unsigned>(planes * p.chunks)), D1(kEpiThreads));
        else
            p.path = kEpiGeneral;
    }
    else if(nhwc && aligned && p.channels % W == 0)
    {
        // the whole tensor one plane of pixel rows; chunks of whole pixels
        p.path    = kEpiPixels;
        p.plane_q = p.numel / W;
        p.cq      = p.channels / W;
        p.fixed   = kEpiThreads % p.cq == 0 ? 1 : 0;
        PlanBalancedChunks(p.plane_q, int64_t{kEpiThreads} * kEpiUnroll, p.chunk_q, p.chunks);
        p.chunk_q = (p.chunk_q + p.cq - 1) / p.cq * p.cq;
        p.chunks  = (p.plane_q + p.chunk_q - 1) / p.chunk_q;
        if(p.chunks < (int64_t{1} << 31) && p.chunk_q < (int64_t{1} << 31))
            l = On(h, D1(static_cast<unsigned>(p.chunks)), D1(kEpiThreads));
        else
            p.path = kEpiGeneral;
    }
    else if((nchw || nhwc) && p.numel < (int64_t{1} << 31))
    {
        p.path          = kEpiScalar;
        p.channels_last = nhwc ? 1 : 0;
    }
    if(p.path == kEpiScalar || p.path == kEpiGeneral)
    {
        if(p.path == kEpiGeneral)
        {
            if(nd > 5)
                ThrowBadParm("the fused epilogue takes tensors of up to 5 dims; y is ",
                             yDesc.ToString());
            p.ndim = nd;
            for(int d = 0; d < nd; ++d)
            {
                p.lens[d]  = static_cast<int64_t>(lens[d]);
                p.in_s[d]  = static_cast<int64_t>(inDesc.Strides()[d]);
                p.out_s[d] = static_cast<int64_t>(yDesc.Strides()[d]);
                p.z_s[d]   = zd != nullptr ? static_cast<int64_t>(zd->Strides()[d]) : 0;
            }
        }
        l = On(h, D1(GridStrideBlocks(h, p.numel, kEpiThreads)), D1(kEpiThreads));
    }
    if(e.fold_pending)
    {
        // the fold the plan left to the pass: a block of one plane folds its channel itself (no
        // fold launch); the other paths read scale and shift, folded first
        if(p.path == kEpiPlanes)
        {
            p.fold_inline = 1;
            p.fold        = FoldArgs(static_cast<size_t>(p.channels), e.fold, e.scale, e.shift);
        }
        else
            FoldEpilogue(h, static_cast<size_t>(p.channels), e.fold, e.scale, e.shift);
    }
    ActivationMode act{static_cast<int>(miopenActivationPASTHRU), 0.0f, 0.0f, 0.0f};
    if(e.has_act)
        act = {static_cast<int>(e.act.mode), e.act.alpha, e.act.beta, e.act.gamma};
    LaunchEpiloguePass<T>(p, l, act);
    CheckLaunch("miopenExecuteFusionPlan (the fused epilogue)");
}

template void EpiloguePass<float>(const Handle&, const GpuEpilogueArgs&, const TensorDescriptor&,
                                  const float*, const TensorDescriptor&, float*);
template void EpiloguePass<Half>(const Handle&, const GpuEpilogueArgs&, const TensorDescriptor&,
                                 const Half*, const TensorDescriptor&, Half*);
template void EpiloguePass<BFloat16>(const Handle&, const GpuEpilogueArgs&,
                                     const TensorDescriptor&, const BFloat16*,
                                     const TensorDescriptor&, BFloat16*);

} // namespace miopen::gpu
