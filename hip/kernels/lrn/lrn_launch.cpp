// Launchers of LRN: the descriptor's parameters as the CPU kernels derive them (window bounds,
// alpha over the area, the gradient coefficient in double), one thread per element; cross-channel
// windows of 3 to 11 (odd) channels take the column kernels of lrn_cross_cols.hip.
#include "kernels/common/launch_common.hpp"
#include "lrn/lrn_args.hpp"
#include "kernels/lrn/lrn_cross_cols_kernels.hpp"
#include "kernels/lrn/lrn_kernels.hpp"

#include <algorithm>
#include <array>

namespace miopen::gpu {
namespace {

LrnArgs ArgsOf(const LrnParams& lrn, const TensorDescriptor& d, float alpha, float beta)
{
    LrnArgs a;
    const auto& l = d.Lens();
    a.n           = static_cast<int64_t>(l[0]);
    a.c           = static_cast<int64_t>(l[1]);
    a.h           = static_cast<int64_t>(l[2]);
    a.w           = static_cast<int64_t>(l[3]);
    a.within      = lrn.mode == miopenLRNWithinChannel;
    const double b = lrn.beta;
    a.pow_kind    = b == 0.75 ? 0 : b == 0.5 ? 1 : b == 1.0 ? 2 : 3;
    a.lo          = static_cast<int64_t>((lrn.n - 1) / 2);
    a.hi          = static_cast<int64_t>(lrn.n - 1) - a.lo;
    const double area = a.within ? static_cast<double>(lrn.n) * static_cast<double>(lrn.n)
                                 : static_cast<double>(lrn.n);
    a.k         = static_cast<float>(lrn.k);
    a.ratio     = static_cast<float>(lrn.alpha / area);
    a.lrn_beta  = static_cast<float>(lrn.beta);
    a.grad_coef = static_cast<float>(2.0 * lrn.alpha * lrn.beta / area);
    a.alpha     = alpha;
    a.beta      = beta;
    return a;
}

void Copy4(int64_t (&dst)[4], const TensorDescriptor& d)
{
    for(int i = 0; i < 4; ++i)
        dst[i] = static_cast<int64_t>(d.Strides()[i]);
}

/// Each thread reads its neighbours' inputs, so an output that is also an input (in place) would
/// be overwritten under other threads' reads: such inputs are read from a copy in the handle's
/// scratch, made on the stream before the kernel. `ins` are replaced in place.
template <size_t N, class T>
void Unalias(Handle& h, const T* out, std::array<const T**, N> ins,
             std::array<const TensorDescriptor*, N> descs)
{
    size_t bytes = 0;
    for(size_t i = 0; i < N; ++i)
        if(*ins[i] == out)
            bytes = std::max(bytes, descs[i]->ElementSpace() * sizeof(T));
    if(bytes == 0)
        return;
    auto* copy = static_cast<T*>(h.Scratch(bytes));
    CopyAsync(copy, out, bytes, h.Stream());
    for(size_t i = 0; i < N; ++i)
        if(*ins[i] == out)
            *ins[i] = copy;
}

} // namespace

template <class T>
void LRNForward(Handle& h, const LrnParams& lrn, float alpha, const TensorDescriptor& xDesc,
                const T* x, float beta, const TensorDescriptor& yDesc, T* y, T* scale)
{
    Unalias<1, T>(h, y, {&x}, {&xDesc});
    LrnArgs a = ArgsOf(lrn, xDesc, alpha, beta);
    Copy4(a.xs, xDesc);
    Copy4(a.ys, yDesc);
    if(!a.within && LrnCrossColsWindow(lrn.n))
    {
        // One thread per (n, h, w) column (lrn_cross_cols.hip).
        const int64_t columns = a.n * a.h * a.w;
        LaunchLrnFwdCrossCols(a, On(h, D1(GridStrideBlocks(h, columns, 256)), D1(256)), x, y,
                              scale);
        CheckLaunch("miopenLRNForward");
        return;
    }
    const int64_t total = static_cast<int64_t>(xDesc.ElementSize());
    LaunchLrnFwd(a, On(h, D1(GridStrideBlocks(h, total, 256)), D1(256)), x, y, scale);
    CheckLaunch("miopenLRNForward");
}

template <class T>
void LRNBackward(Handle& h, const LrnParams& lrn, float alpha, const TensorDescriptor& yDesc,
                 const T* y, const TensorDescriptor& dyDesc, const T* dy,
                 const TensorDescriptor& xDesc, const T* x, float beta,
                 const TensorDescriptor& dxDesc, T* dx, const T* scale)
{
    Unalias<3, T>(h, dx, {&y, &dy, &x}, {&yDesc, &dyDesc, &xDesc});
    LrnArgs a = ArgsOf(lrn, yDesc, alpha, beta);
    Copy4(a.xs, xDesc);
    Copy4(a.ys, yDesc);
    Copy4(a.dys, dyDesc);
    Copy4(a.dxs, dxDesc);
    if(!a.within && LrnCrossColsWindow(lrn.n))
    {
        const int64_t columns = a.n * a.h * a.w;
        LaunchLrnBwdCrossCols(a, On(h, D1(GridStrideBlocks(h, columns, 256)), D1(256)), x, y,
                              dy, scale, dx);
        CheckLaunch("miopenLRNBackward");
        return;
    }
    const int64_t total = static_cast<int64_t>(yDesc.ElementSize());
    LaunchLrnBwd(a, On(h, D1(GridStrideBlocks(h, total, 256)), D1(256)), x, y, dy, scale, dx);
    CheckLaunch("miopenLRNBackward");
}


#define MIOPEN_LRN_LAUNCH(T)                                                                   \
    template void LRNForward<T>(Handle&, const LrnParams&, float, const TensorDescriptor&,      \
                                const T*, float, const TensorDescriptor&, T*, T*);              \
    template void LRNBackward<T>(Handle&, const LrnParams&, float, const TensorDescriptor&,     \
                                 const T*, const TensorDescriptor&, const T*,                   \
                                 const TensorDescriptor&, const T*, float,                      \
                                 const TensorDescriptor&, T*, const T*);
MIOPEN_LRN_LAUNCH(float)
MIOPEN_LRN_LAUNCH(Half)
MIOPEN_LRN_LAUNCH(BFloat16)
#undef MIOPEN_LRN_LAUNCH

} // namespace miopen::gpu
