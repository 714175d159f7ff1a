// Launcher of bn_infer_packed.hip: the packed check (NC[D]HW, or N[D]HWC in spatial mode), the
// balanced chunks of a plane, and (per activation, channels-last unless a thread's channels are
// fixed) the coefficients of bn_infer_coef in the handle's scratch first. Per activation, every
// storage type tries bn_infer_peract first (one pass, no coefficient kernel).
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/batchnorm/bn_infer_packed.hpp"
#include "kernels/batchnorm/bn_infer_peract_kernels.hpp"
#include "kernels/batchnorm/bn_layout.hpp"
#include "kernels/common/group_plan.hpp"

#include <cstdint>
#include <type_traits>

namespace miopen::gpu {
namespace {

/// n a thread of bn_infer_peract: 8 of fp32 (0.111 ms against 0.129 for the coefficient path on
/// an H200, CHANGELOG.md, poolfwd; 2 and 32 were slower), 16 of 16-bit data (8 elements a
/// thread, 2 units in flight: 0.856 / 0.869 of copy for fp16 / bf16 at 64x64x112x112 on an H200,
/// against 0.822 for 4 elements and 8 n; 8 elements with 4 units in flight 0.830 / 0.837, 32 n
/// 0.838; fp32 at 16 n 0.872 against 0.889 at 8).
template <class T>
constexpr int kBnPeractNb = sizeof(T) == 2 ? 16 : 8;

/// Channels-last inference with a thread's channels fixed computes their coefficients itself up
/// to this many channels, else reads bn_infer_coef's (bn_infer_packed.hip says why).
constexpr int64_t kBnParamsFixedMaxC = 64;

/// bn_infer_peract where it applies (x and y checked by the caller: packed, aligned, a plane of
/// whole float4s): the parameter tensor packed 1 x C[D]HW in x's order, the four parameter
/// pointers 16-byte aligned. False: nothing launched.
template <class T>
bool BnInferPeract(Handle& h, const BnForwardArgs& args, int64_t n, int64_t plane)
{
    const int nb = kBnPeractNb<T>;
    const TensorDescriptor& x = *args.xDesc;
    const TensorDescriptor& pd = *args.pDesc;
    if(!pd.IsPacked() || pd.NumDims() != x.NumDims() || pd.Lens()[0] != 1 ||
       !Aligned16(args.scale) || !Aligned16(args.bias) || !Aligned16(args.est_mean) ||
       !Aligned16(args.est_variance))
        return false;
    for(int d = 1; d < x.NumDims(); ++d)
        if(pd.Lens()[d] != x.Lens()[d])
            return false;
    BnInferPeractArgs p;
    p.x = args.x, p.y = args.y;
    p.scale = args.scale, p.bias = args.bias;
    p.est_mean = args.est_mean, p.est_var = args.est_variance;
    p.alpha = args.alpha, p.beta = args.beta, p.epsilon = static_cast<float>(args.epsilon);
    // 16-bit data 8 elements a thread (16-byte accesses) where the plane is whole eights
    p.vec     = sizeof(T) == 2 && plane % 8 == 0 ? 8 : 4;
    p.plane_v = plane / p.vec;
    p.n       = n;
    p.nb      = nb < n ? nb : n;
    p.groups  = (n + p.nb - 1) / p.nb;
    const int64_t chunks = (p.plane_v + BnInferPeractThreads() - 1) / BnInferPeractThreads();
    if(chunks * p.groups >= (int64_t{1} << 31))
        return false;
    LaunchBnInferPeract<T>(p, On(h, D1(static_cast<unsigned>(chunks * p.groups)),
                              D1(static_cast<unsigned>(BnInferPeractThreads()))));
    CheckLaunch("miopenBatchNormalizationForwardInference");
    return true;
}

} // namespace

template <class T>
bool BatchNormInferencePacked(Handle& h, const BnForwardArgs& args)
{
    const TensorDescriptor& x = *args.xDesc;
    const TensorDescriptor& y = *args.yDesc;
    if(x.NumDims() < 2 || (reinterpret_cast<uintptr_t>(args.x) & 15) != 0 ||
       (reinterpret_cast<uintptr_t>(args.y) & 15) != 0)
        return false;
    const bool per_act = args.mode == miopenBNPerActivation;
    // spatial channels-last: planes of one n, coefficients per channel
    const bool nhwc = !per_act && PackedChannelsLast(x) && PackedChannelsLast(y) &&
                      x.Lens()[1] % 4 == 0 && !(x.IsPacked() && y.IsPacked());
    if(!nhwc && (!x.IsPacked() || !y.IsPacked()))
        return false;
    int64_t n = static_cast<int64_t>(x.Lens()[0]), c = static_cast<int64_t>(x.Lens()[1]);
    int64_t inner = 1;
    for(int d = 2; d < x.NumDims(); ++d)
        inner *= static_cast<int64_t>(x.Lens()[d]);
    const int64_t plane  = per_act || nhwc ? c * inner : inner;
    const int64_t planes = per_act || nhwc ? n : n * c;
    if(plane <= 0 || planes <= 0 || plane % 4 != 0)
        return false;

    BnInferPackedArgs p;
    p.x = args.x, p.y = args.y;
    p.alpha = args.alpha, p.beta = args.beta, p.epsilon = static_cast<float>(args.epsilon);
    p.plane_q = plane / 4;
    // quads of x a thread: 4 (2 with coefficient arrays), twice as many for 16-bit data
    const int wide = sizeof(T) == 2 ? 2 : 1;
    int u          = 4 * wide;
    if(per_act && BnInferPeract<T>(h, args, n, plane))
        return true;
    // 16-bit data in units of 8 elements (16-byte accesses, 4 a thread) where the plane (and
    // channels-last, C with C / 8 dividing the block) is whole units
    const bool vec8 = sizeof(T) == 2 && plane % 8 == 0 &&
                      (nhwc ? c % 8 == 0 && BnInferPackedThreads() % (c / 8) == 0 : !per_act);
    if(vec8)
    {
        p.vec     = 8;
        p.plane_q = plane / 8;
    }
    const int64_t ncoef = per_act ? plane : c;
    // channels-last with C / 4 (C / 8) dividing the block: a thread's units all have the same
    // channels, whose coefficients it reads once (chunks rounded to whole pixels below): one
    // stream of x, the spatial unroll; up to kBnParamsFixedMaxC channels it computes them from
    // the parameters itself (no coefficient kernel; measured on an H200, bn_infer_packed.hip)
    p.coef_fixed = nhwc && BnInferPackedThreads() % (ncoef / p.vec) == 0;
    const bool from_params = p.coef_fixed && c <= kBnParamsFixedMaxC;
    if((per_act || nhwc) && !from_params)
    {
        // the coefficients of bn_infer_coef: per activation in x's (packed) order (group g is
        // element g of a plane), channels-last one per channel
        const auto plan = PlanGroups<1>(h, {args.xDesc, args.pDesc},
                                        [per_act](int d) { return d == 1 || (per_act && d > 1); });
        if(plan.args.groups != ncoef)
            return false;
        ScratchLayout layout;
        const size_t at_m = layout.Add<float>(ncoef);
        const size_t at_a = layout.Add<float>(ncoef);
        const size_t at_c = layout.Add<float>(ncoef);
        void* base        = h.Scratch(layout.Bytes());
        BnCoef coef{At<float>(base, at_m), At<float>(base, at_a), At<float>(base, at_c), nullptr};
        LaunchBnInferCoef(plan.args, PerItem(h, plan.args.groups), args.scale, args.bias,
                          args.est_mean, args.est_variance, args.alpha, p.epsilon, coef);
        CheckLaunch("miopenBatchNormalizationForwardInference");
        p.coef_m = coef.m, p.coef_a = coef.a, p.coef_c = coef.c;
        p.coef_q = ncoef / p.vec;
        if(!p.coef_fixed)
            u = 2 * wide; // four quad streams a step: two steps in flight (fp32)
    }
    else
    {
        p.scale = args.scale, p.bias = args.bias;
        p.est_mean = args.est_mean, p.est_var = args.est_variance;
        p.channels     = c;
        p.param_stride = static_cast<int64_t>(args.pDesc->Strides()[1]);
        if(from_params)
            p.coef_q = ncoef / p.vec;
    }
    if(vec8)
        u = 4; // units of 8: 4 a thread, as many bytes as 8 quads
    // balanced chunks: as few as give each thread at most u units per operand
    PlanBalancedChunks(p.plane_q, int64_t{BnInferPackedThreads()} * u, p.chunk_q, p.chunks);
    if(p.coef_fixed)
    {
        // every chunk starts on a whole pixel (plane_q is a multiple of coef_q)
        p.chunk_q = (p.chunk_q + p.coef_q - 1) / p.coef_q * p.coef_q;
        p.chunks  = (p.plane_q + p.chunk_q - 1) / p.chunk_q;
    }
    if(planes * p.chunks >= (int64_t{1} << 31))
        return false;
    LaunchBnInferPacked<T>(p, On(h, D1(static_cast<unsigned>(planes * p.chunks)),
                              D1(static_cast<unsigned>(BnInferPackedThreads()))),
                        u);
    CheckLaunch("miopenBatchNormalizationForwardInference");
    return true;
}

template bool BatchNormInferencePacked<float>(Handle&, const BnForwardArgs&);
template bool BatchNormInferencePacked<Half>(Handle&, const BnForwardArgs&);
template bool BatchNormInferencePacked<BFloat16>(Handle&, const BnForwardArgs&);

} // namespace miopen::gpu
