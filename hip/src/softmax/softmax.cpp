#include "softmax/softmax.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

namespace miopen {
namespace {

void CheckAlgorithmAndMode(miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)
{
    if(algorithm != MIOPEN_SOFTMAX_FAST && algorithm != MIOPEN_SOFTMAX_ACCURATE &&
       algorithm != MIOPEN_SOFTMAX_LOG)
        ThrowBadParm("algorithm = ", static_cast<int>(algorithm),
                     " is not a miopenSoftmaxAlgorithm_t value");
    if(mode != MIOPEN_SOFTMAX_MODE_INSTANCE && mode != MIOPEN_SOFTMAX_MODE_CHANNEL)
        ThrowBadParm("mode = ", static_cast<int>(mode), " is not a miopenSoftmaxMode_t value");
}

} // namespace

void SoftmaxForward(Handle& handle, const void* alpha, const TensorDescriptor& xDesc, const void* x,
                    const void* beta, const TensorDescriptor& yDesc, void* y,
                    miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)
{
    CheckAlgorithmAndMode(algorithm, mode);
    CheckNumDims(xDesc, "xDesc", 4, 4);
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    CheckDataPointers({{x, "x"}, {y, "y"}});
    const Blend s = ReadBlend(alpha, beta, yDesc);
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T        = typename decltype(tag)::type;
        const auto* xp = static_cast<const T*>(x);
        auto* yp       = static_cast<T*>(y);
        RunOp(
            handle,
            [&] { cpu::SoftmaxForward(algorithm, mode, s.alpha, xDesc, xp, s.beta, yDesc, yp); },
            [&](auto& h) {
                gpu::SoftmaxForward(h, algorithm, mode, s.alpha, xDesc, xp, s.beta, yDesc, yp);
            });
    });
}

void SoftmaxBackward(Handle& handle, const void* alpha, const TensorDescriptor& yDesc,
                     const void* y, const TensorDescriptor& dyDesc, const void* dy,
                     const void* beta, const TensorDescriptor& dxDesc, void* dx,
                     miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)
{
    CheckAlgorithmAndMode(algorithm, mode);
    CheckNumDims(yDesc, "yDesc", 4, 4);
    CheckSameLens(yDesc, "yDesc", dyDesc, "dyDesc");
    CheckSameLens(dyDesc, "dyDesc", dxDesc, "dxDesc");
    CheckSameType(yDesc, "yDesc", dyDesc, "dyDesc");
    CheckSameType(dyDesc, "dyDesc", dxDesc, "dxDesc");
    CheckDataPointers({{y, "y"}, {dy, "dy"}, {dx, "dx"}});
    const Blend s = ReadBlend(alpha, beta, dxDesc);
    DispatchFloating(dxDesc.Type(), "dxDesc", [&](auto tag) {
        using T         = typename decltype(tag)::type;
        const auto* yp  = static_cast<const T*>(y);
        const auto* dyp = static_cast<const T*>(dy);
        auto* dxp       = static_cast<T*>(dx);
        RunOp(
            handle,
            [&] {
                cpu::SoftmaxBackward(algorithm, mode, s.alpha, yDesc, yp, dyDesc, dyp, s.beta,
                                     dxDesc, dxp);
            },
            [&](auto& h) {
                gpu::SoftmaxBackward(h, algorithm, mode, s.alpha, yDesc, yp, dyDesc, dyp, s.beta,
                                     dxDesc, dxp);
            });
    });
}

} // namespace miopen
