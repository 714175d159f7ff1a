// Launchers of the whole-tensor ops: strided spaces from the descriptors (B's broadcast dims
// have stride 0), the element-wise plan, the launch on the handle's stream, the launch check.
#include "kernels/common/launch_common.hpp"
#include "kernels/tensor/tensor_op_kernels.hpp"
#include "tensor/tensor_args.hpp"

namespace miopen::gpu {
namespace {

/// OpTensorChannel where B broadcasts over every dim but C (bStrides 0 there), A and C are packed
/// alike, 16-byte aligned, with (n, c) planes of whole 16-byte vectors; false: nothing launched.
/// 16-bit types only: fp32 keeps the rows engine it was measured with (0.9 of copy and more).
template <class T>
bool OpTensorChannelPath(const Handle& h, miopenTensorOp_t op, float alpha1,
                         const TensorDescriptor& aDesc, const T* A, float alpha2,
                         const size_t* bStrides, const T* B, float beta,
                         const TensorDescriptor& cDesc, T* C)
{
    if constexpr(sizeof(T) != 2)
        return false;
    else
    {
        constexpr int64_t W = 16 / sizeof(T);
        const int nd = cDesc.NumDims();
        if(nd < 2 || !cDesc.IsPacked() || aDesc.Strides() != cDesc.Strides() ||
           (reinterpret_cast<uintptr_t>(A) & 15) != 0 || (reinterpret_cast<uintptr_t>(C) & 15) != 0)
            return false;
        for(int d = 0; d < nd; ++d)
            if(d != 1 && bStrides[d] != 0)
                return false;
        const auto& lens = cDesc.Lens();
        int64_t plane    = 1;
        for(int d = 2; d < nd; ++d)
            plane *= static_cast<int64_t>(lens[d]);
        const int64_t planes = static_cast<int64_t>(lens[0] * lens[1]);
        if(plane <= 0 || planes <= 0 || plane % W != 0)
            return false;
        OpTensorChannelArgs<T> p;
        p.a = A, p.b = B, p.c = C, p.beta = beta;
        p.b_stride = static_cast<int64_t>(bStrides[1]);
        p.channels = static_cast<int64_t>(lens[1]);
        p.plane_q  = plane / W;
        PlanBalancedChunks(p.plane_q, int64_t{kOpChannelThreads} * kOpChannelUnroll, p.chunk_q,
                           p.chunks);
        if(planes * p.chunks >= (int64_t{1} << 31))
            return false;
        LaunchOpTensorChannel(
            p, On(h, D1(static_cast<unsigned>(planes * p.chunks)), D1(kOpChannelThreads)), op, alpha1,
            alpha2);
        return true;
    }
}

} // namespace

template <class T>
void OpTensor(const Handle& h, miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc,
              const T* A, float alpha2, const size_t* bStrides, const T* B, float beta,
              const TensorDescriptor& cDesc, T* C)
{
    if(OpTensorChannelPath(h, op, alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C))
    {
        CheckLaunch("miopenOpTensor");
        return;
    }
    const auto s = CollapseMap<3>(cDesc.NumDims(), cDesc.Lens().data(),
                               {StridesOf(aDesc), bStrides, StridesOf(cDesc)});
    Launch l;
    auto a  = PlanMap<2, T>(h, s, beta, l);
    a.in[0] = A;
    a.in[1] = B;
    a.out   = C;
    LaunchOpTensor(a, l, op, alpha1, alpha2, beta != 0.0f);
    CheckLaunch("miopenOpTensor");
}

template <class T>
void Axpby(const Handle& h, float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
           const TensorDescriptor& yDesc, T* y, const char* api)
{
    const auto s = CollapseMap<2>(yDesc.NumDims(), yDesc.Lens().data(),
                               {StridesOf(xDesc), StridesOf(yDesc)});
    Launch l;
    auto a  = PlanMap<1, T>(h, s, beta, l);
    a.in[0] = x;
    a.out   = y;
    LaunchAxpby(a, l, alpha, beta != 0.0f);
    CheckLaunch(api);
}

template <class T>
void Fill(const Handle& h, const TensorDescriptor& yDesc, T* y, T value)
{
    const auto s = CollapseMap<1>(yDesc.NumDims(), yDesc.Lens().data(), {StridesOf(yDesc)});
    const int64_t work = s.ndim == 1 && s.strides[0][0] == 1 ? (s.numel + 15) / 16 : s.numel;
    LaunchFill(s, On(h, D1(GridStrideBlocks(h, work, kMapThreads)), D1(kMapThreads)), y, value);
    CheckLaunch("miopenSetTensor");
}

template <class T>
void OpTensorInt(const Handle& h, miopenTensorOp_t op, int64_t alpha1,
                 const TensorDescriptor& aDesc, const T* A, int64_t alpha2,
                 const size_t* bStrides, const T* B, int64_t beta, const TensorDescriptor& cDesc,
                 T* C)
{
    const auto s = CollapseMap<3>(cDesc.NumDims(), cDesc.Lens().data(),
                               {StridesOf(aDesc), bStrides, StridesOf(cDesc)});
    LaunchOpTensorInt(s, On(h, D1(GridStrideBlocks(h, s.numel, kMapThreads)), D1(kMapThreads)),
                      static_cast<int>(op), alpha1, A, alpha2, B, beta, C);
    CheckLaunch("miopenOpTensor");
}

template <class T>
void AxpbyInt(const Handle& h, int64_t alpha, const TensorDescriptor& xDesc, const T* x,
              int64_t beta, const TensorDescriptor& yDesc, T* y, const char* api)
{
    const auto s = CollapseMap<2>(yDesc.NumDims(), yDesc.Lens().data(),
                               {StridesOf(xDesc), StridesOf(yDesc)});
    LaunchAxpbyInt(s, On(h, D1(GridStrideBlocks(h, s.numel, kMapThreads)), D1(kMapThreads)), alpha,
                   x, beta, y);
    CheckLaunch(api);
}

#define MIOPEN_CY_TENSOR_INT_LAUNCH(T)                                                            \
    template void OpTensorInt<T>(const Handle&, miopenTensorOp_t, int64_t,                        \
                                 const TensorDescriptor&, const T*, int64_t, const size_t*,       \
                                 const T*, int64_t, const TensorDescriptor&, T*);                 \
    template void AxpbyInt<T>(const Handle&, int64_t, const TensorDescriptor&, const T*, int64_t, \
                              const TensorDescriptor&, T*, const char*);
MIOPEN_CY_TENSOR_INT_LAUNCH(int8_t)
MIOPEN_CY_TENSOR_INT_LAUNCH(int32_t)
#undef MIOPEN_CY_TENSOR_INT_LAUNCH

#define MIOPEN_CY_TENSOR_LAUNCH(T)                                                                 \
    template void OpTensor<T>(const Handle&, miopenTensorOp_t, float, const TensorDescriptor&,    \
                              const T*, float, const size_t*, const T*, float,                    \
                              const TensorDescriptor&, T*);                                       \
    template void Axpby<T>(const Handle&, float, const TensorDescriptor&, const T*, float,        \
                           const TensorDescriptor&, T*, const char*);
MIOPEN_CY_TENSOR_LAUNCH(float)
MIOPEN_CY_TENSOR_LAUNCH(Half)
MIOPEN_CY_TENSOR_LAUNCH(BFloat16)
#undef MIOPEN_CY_TENSOR_LAUNCH
template void Fill<float>(const Handle&, const TensorDescriptor&, float*, float);
template void Fill<Half>(const Handle&, const TensorDescriptor&, Half*, Half);
template void Fill<BFloat16>(const Handle&, const TensorDescriptor&, BFloat16*, BFloat16);
template void Fill<int8_t>(const Handle&, const TensorDescriptor&, int8_t*, int8_t);
template void Fill<int32_t>(const Handle&, const TensorDescriptor&, int32_t*, int32_t);

} // namespace miopen::gpu
