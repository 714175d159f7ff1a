// Launchers of the bias ops: forward is OpTensor Add with y as A and C (MIOpen's definition),
// BiasFwdPacked on packed y (NC[D]HW or N[D]HWC); backward the per-channel reduction of bias.hip (BiasBwdNchw4 on
// packed dy, else the group reduction) with its partial sums in the handle's scratch.
#include "bias/bias_args.hpp"
#include "kernels/bias/bias_kernels.hpp"
#include "kernels/batchnorm/bn_layout.hpp"
#include "kernels/common/group_plan.hpp"
#include "kernels/common/launch_common.hpp"
#include "tensor/tensor_args.hpp"

#include <cstdint>

namespace miopen::gpu {
namespace {

/// BiasFwdPacked where y is 16-byte aligned and packed, NC[D]HW with its (n, c) planes whole
/// 16-byte vectors or N[D]HWC with C whole vectors; false: nothing launched.
template <class T>
bool ForwardBiasPacked(Handle& h, float alpha, const TensorDescriptor& bDesc, const T* b,
                       float beta, const TensorDescriptor& yDesc, T* y)
{
    constexpr int64_t W = 16 / sizeof(T);
    if(yDesc.NumDims() < 2 || (reinterpret_cast<uintptr_t>(y) & 15) != 0)
        return false;
    const auto& lens = yDesc.Lens();
    if(!yDesc.IsPacked())
    {
        // packed channels-last: whole pixels a block, C a multiple of W
        const int64_t c     = static_cast<int64_t>(lens[1]);
        const int64_t numel = static_cast<int64_t>(yDesc.ElementSize());
        if(!PackedChannelsLast(yDesc) || c % W != 0 || numel <= 0)
            return false;
        BiasFwdPackedArgs<T> p;
        p.y = y, p.b = b, p.alpha = alpha, p.beta = beta;
        p.b_stride = static_cast<int64_t>(bDesc.Strides()[1]);
        p.channels = c;
        p.plane_q  = numel / W;
        p.cq       = c / W;
        p.fixed    = kBiasFwdThreads % p.cq == 0 ? 1 : 0;
        PlanBalancedChunks(p.plane_q, int64_t{kBiasFwdThreads} * kBiasFwdUnroll, p.chunk_q, p.chunks);
        p.chunk_q = (p.chunk_q + p.cq - 1) / p.cq * p.cq;
        p.chunks  = (p.plane_q + p.chunk_q - 1) / p.chunk_q;
        if(p.chunks >= (int64_t{1} << 31))
            return false;
        LaunchBiasFwdPacked(p, On(h, D1(static_cast<unsigned>(p.chunks)), D1(kBiasFwdThreads)));
        CheckLaunch("miopenConvolutionForwardBias");
        return true;
    }
    int64_t plane    = 1;
    for(size_t d = 2; d < lens.size(); ++d)
        plane *= static_cast<int64_t>(lens[d]);
    const int64_t planes = static_cast<int64_t>(lens[0] * lens[1]);
    if(plane <= 0 || planes <= 0 || plane % W != 0)
        return false;
    BiasFwdPackedArgs<T> p;
    p.y = y, p.b = b, p.alpha = alpha, p.beta = beta;
    p.b_stride = static_cast<int64_t>(bDesc.Strides()[1]);
    p.channels = static_cast<int64_t>(lens[1]);
    p.plane_q  = plane / W;
    // balanced chunks: as few as give each thread at most kBiasFwdUnroll vectors
    PlanBalancedChunks(p.plane_q, int64_t{kBiasFwdThreads} * kBiasFwdUnroll, p.chunk_q, p.chunks);
    if(planes * p.chunks >= (int64_t{1} << 31))
        return false;
    LaunchBiasFwdPacked(p, On(h, D1(static_cast<unsigned>(planes * p.chunks)), D1(kBiasFwdThreads)));
    CheckLaunch("miopenConvolutionForwardBias");
    return true;
}

/// The chunking of BiasBwdNchw4 where dy is packed N, C, S with S a multiple of the vector's W
/// elements (PackedNcs4, 16-byte aligned); false: the group reduction runs instead.
template <class T>
bool BiasBwdNchw4Plan(const TensorDescriptor& dyDesc, const T* dy, BiasBwdNchw4Args& a)
{
    constexpr int64_t W = 16 / sizeof(T);
    int64_t n = 0, c = 0, s = 0;
    if(!PackedNcs4(dyDesc, dy, n, c, s) || s % W != 0)
        return false;
    const ChannelChunks ch = PlanChannelChunks(n, c, s / W, kBiasBwdThreads);
    a.n      = static_cast<uint32_t>(n);
    a.c      = static_cast<uint32_t>(c);
    a.s4     = static_cast<uint32_t>(s / W);
    a.chunk4 = static_cast<uint32_t>(ch.chunk4);
    a.chunks = static_cast<uint32_t>(ch.chunks);
    return true;
}

} // namespace

template <class T>
void ConvolutionForwardBias(Handle& h, float alpha, const TensorDescriptor& bDesc, const T* b,
                            float beta, const TensorDescriptor& yDesc, T* y)
{
    if(ForwardBiasPacked(h, alpha, bDesc, b, beta, yDesc, y))
        return;
    std::vector<size_t> b_strides(yDesc.NumDims(), 0);
    b_strides[1] = bDesc.Strides()[1];
    OpTensor(h, miopenTensorOpAdd, alpha, yDesc, static_cast<const T*>(y), alpha,
             b_strides.data(), b, beta, yDesc, y);
}

template <class T>
void ConvolutionBackwardBias(Handle& h, float alpha, const TensorDescriptor& dyDesc, const T* dy,
                             float beta, const TensorDescriptor& dbDesc, T* db)
{
    // The bias tensor's strides stand in for the parameter operand; only its C stride matters.
    auto plan = PlanGroups<1>(h, {&dyDesc, &dbDesc}, [](int d) { return d == 1; });
    BiasBwdNchw4Args packed;
    const bool nchw4 = BiasBwdNchw4Plan(dyDesc, dy, packed);
    if(nchw4)
        plan.args.chunks = static_cast<int>(packed.chunks); // the finish's view of the partials
    ScratchLayout layout;
    const size_t at_partial = layout.Add<Partial2>(plan.args.groups * plan.args.chunks);
    void* scratch           = h.Scratch(layout.Bytes());
    auto* partial           = At<Partial2>(scratch, at_partial);
    if(nchw4)
        LaunchBiasBwdNchw4(packed, On(h, D2(packed.chunks, packed.c), D1(kBiasBwdThreads)), dy,
                           partial);
    else
        LaunchBiasBwdPartial(plan.args, plan.launch, dy, partial);
    CheckLaunch("miopenConvolutionBackwardBias");
    LaunchBiasBwdFinish(plan.args, PerItem(h, plan.args.groups), partial, db, alpha, beta);
    CheckLaunch("miopenConvolutionBackwardBias");
}

#define MIOPEN_CY_BIAS_LAUNCH(T)                                                                  \
    template void ConvolutionForwardBias<T>(Handle&, float, const TensorDescriptor&, const T*,    \
                                            float, const TensorDescriptor&, T*);                  \
    template void ConvolutionBackwardBias<T>(Handle&, float, const TensorDescriptor&, const T*,   \
                                             float, const TensorDescriptor&, T*);
MIOPEN_CY_BIAS_LAUNCH(float)
MIOPEN_CY_BIAS_LAUNCH(Half)
MIOPEN_CY_BIAS_LAUNCH(BFloat16)
#undef MIOPEN_CY_BIAS_LAUNCH

} // namespace miopen::gpu
