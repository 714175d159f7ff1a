// Front doors of the whole-tensor ops. Types: fp32, fp16 and bf16 for every call (MIOpen's
// miopenScaleTensor refuses bf16 and its OpTensor/TransformTensor kernels take it: we run all
// three everywhere); miopenSetTensor also int8 and int32 (it copies the value's bits). The
// integer arithmetic MIOpen's calls accept (src/ocl/tensorocl.cpp): miopenOpTensor on int8 and
// int32, miopenScaleTensor on int32 (int8 is a BadParm there, as in MIOpen),
// miopenTransformTensor on int32 and on int8, including MIOpen's int8 channel padding and
// cropping (x and y differ in C only, alpha 1 and beta 0; C a multiple of 4 as MIOpen requires),
// in MIOpen's wrapping integer arithmetic (tensor/int_arith.hpp); int8 TransformTensor with other
// alpha/beta runs too (MIOpen: NotImplemented). Scaling factors (alpha, beta) are host floats for
// every type (cuDNN's convention; MIOpen reads them in the tensor's type), integral and in the
// type's range for int8/int32 (a BadParm naming the factor otherwise). miopenDouble is
// NotImplemented, any other type a BadParm. miopenSetTensor's fill value is of y's type, as
// MIOpen and cuDNN read it.
#include "tensor/tensor_ops.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace miopen {
namespace {

/// miopenDouble, which MIOpen defines for the call and we do not run: NotImplemented, naming the
/// parameter.
void RefuseUnimplemented(const TensorDescriptor& d, const char* name, const char* api)
{
    if(d.Type() == miopenDouble)
        ThrowNotImplemented(name, " has data type ", DataTypeName(d.Type()), "; ", api,
                            " runs miopenFloat, miopenHalf, miopenBFloat16, miopenInt8 and "
                            "miopenInt32 here");
}

bool IsIntType(miopenDataType_t t) { return t == miopenInt8 || t == miopenInt32; }

/// A host scaling factor of an int8/int32 call: read as a float (as for every type), integral and
/// within the type's range, else a BadParm naming it.
int64_t ReadIntScalar(const void* p, miopenDataType_t type, const char* name)
{
    const double v    = ReadScalar(p, type, name);
    const double lo   = type == miopenInt8 ? -128.0 : -2147483648.0;
    const double hi   = type == miopenInt8 ? 127.0 : 2147483647.0;
    if(!(v >= lo && v <= hi) || std::floor(v) != v)
        ThrowBadParm(name, " = ", v, " is not an integer in [", static_cast<int64_t>(lo), ", ",
                     static_cast<int64_t>(hi), "]; ", DataTypeName(type),
                     " arithmetic takes integral scaling factors");
    return static_cast<int64_t>(v);
}

/// f(TypeTag<int8_t>) or f(TypeTag<int32_t>) for an integer type.
template <class F>
void DispatchInt(miopenDataType_t type, F&& f)
{
    if(type == miopenInt8)
        f(TypeTag<int8_t>{});
    else
        f(TypeTag<int32_t>{});
}

/// MIOpen's int8 TransformTensor between tensors that differ in C only (NCHW_VECT_C padding):
/// x's C channels into y's first ones with y's other channels zeroed (x C <= y C: y C a multiple
/// of 4 and less than x C + 4), or y's C channels from x's first ones (x C > y C: x C a multiple
/// of 4). Only the copy (alpha 1, beta 0), as in MIOpen. Any strides.
void TransformInt8Channels(Handle& handle, int64_t alpha, int64_t beta,
                           const TensorDescriptor& xDesc, const void* x,
                           const TensorDescriptor& yDesc, void* y)
{
    const size_t xc = xDesc.Lens()[1];
    const size_t yc = yDesc.Lens()[1];
    for(int d = 0; d < xDesc.NumDims(); ++d)
        if(d != 1 && xDesc.Lens()[d] != yDesc.Lens()[d])
            ThrowBadParm("xDesc length ", xDesc.Lens()[d], " of dim ", d, " differs from yDesc's ",
                         yDesc.Lens()[d], " (miopenInt8 x and y may differ in C only)");
    if(xc <= yc && (yc % 4 != 0 || xc + 4 <= yc))
        ThrowBadParm("yDesc has C = ", yc, " for xDesc's C = ", xc,
                     "; miopenInt8 padding takes y's C a multiple of 4 and less than x's C + 4");
    if(xc > yc && xc % 4 != 0)
        ThrowBadParm("xDesc has C = ", xc, " above yDesc's C = ", yc,
                     "; miopenInt8 cropping takes x's C a multiple of 4");
    if(alpha != 1 || beta != 0)
        ThrowNotImplemented(alpha != 1 ? "alpha" : "beta", " = ", alpha != 1 ? alpha : beta,
                            "; miopenTransformTensor pads or crops miopenInt8 channels as a copy "
                            "only (alpha 1, beta 0), as MIOpen does");
    CheckDataPointers(handle, {{x, "x"}, {y, "y"}});
    std::vector<size_t> lens = xDesc.Lens();
    lens[1]                  = xc < yc ? xc : yc;
    TensorDescriptor xv, yv;
    xv.Set(miopenInt8, lens, xDesc.Strides());
    yv.Set(miopenInt8, lens, yDesc.Strides());
    const auto* xp = static_cast<const int8_t*>(x);
    auto* yp       = static_cast<int8_t*>(y);
    RunOp(
        handle,
        [&] {
            if(xc < yc)
                cpu::Fill(yDesc, yp, int8_t{0});
            cpu::AxpbyInt(int64_t{1}, xv, xp, int64_t{0}, yv, yp);
        },
        [&](auto& h) {
            if(xc < yc)
                gpu::Fill(h, yDesc, yp, int8_t{0});
            gpu::AxpbyInt(h, int64_t{1}, xv, xp, int64_t{0}, yv, yp, "miopenTransformTensor");
        });
}

} // namespace

void OpTensor(Handle& handle, miopenTensorOp_t op, const void* alpha1,
              const TensorDescriptor& aDesc, const void* A, const void* alpha2,
              const TensorDescriptor& bDesc, const void* B, const void* beta,
              const TensorDescriptor& cDesc, void* C)
{
    if(op < miopenTensorOpAdd || op > miopenTensorOpMax)
        ThrowBadParm("tensorOp = ", static_cast<int>(op), " is not a miopenTensorOp_t value");
    CheckSameType(aDesc, "aDesc", cDesc, "cDesc");
    CheckSameType(bDesc, "bDesc", cDesc, "cDesc");
    RefuseUnimplemented(cDesc, "cDesc", "miopenOpTensor");
    CheckSameLens(aDesc, "aDesc", cDesc, "cDesc");
    if(bDesc.NumDims() != cDesc.NumDims())
        ThrowBadParm("bDesc has ", bDesc.NumDims(), " dims but cDesc has ", cDesc.NumDims());
    std::vector<size_t> b_strides(bDesc.NumDims());
    for(int d = 0; d < bDesc.NumDims(); ++d)
    {
        const size_t bl = bDesc.Lens()[d];
        if(bl != 1 && bl != cDesc.Lens()[d])
            ThrowBadParm("bDesc length ", bl, " of dim ", d, " must be 1 or cDesc's ",
                         cDesc.Lens()[d]);
        b_strides[d] = bl == 1 ? 0 : bDesc.Strides()[d];
    }
    if(IsIntType(cDesc.Type()))
    {
        const auto t     = cDesc.Type();
        const int64_t a1 = ReadIntScalar(alpha1, t, "alpha1");
        const int64_t a2 = ReadIntScalar(alpha2, t, "alpha2");
        const int64_t b  = ReadIntScalar(beta, t, "beta");
        CheckDataPointers(handle, {{A, "A"}, {B, "B"}, {C, "C"}});
        return DispatchInt(t, [&](auto tag) {
            using T        = typename decltype(tag)::type;
            const auto* ap = static_cast<const T*>(A);
            const auto* bp = static_cast<const T*>(B);
            auto* cp       = static_cast<T*>(C);
            RunOp(
                handle,
                [&] { cpu::OpTensorInt(op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp); },
                [&](auto& h) {
                    gpu::OpTensorInt(h, op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp);
                });
        });
    }
    DispatchFloating(cDesc.Type(), "cDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{A, "A"}, {B, "B"}, {C, "C"}});
        const float a1 = static_cast<float>(ReadScalar(alpha1, cDesc.Type(), "alpha1"));
        const float a2 = static_cast<float>(ReadScalar(alpha2, cDesc.Type(), "alpha2"));
        const float b  = static_cast<float>(ReadScalar(beta, cDesc.Type(), "beta"));
        const auto* ap = static_cast<const T*>(A);
        const auto* bp = static_cast<const T*>(B);
        auto* cp       = static_cast<T*>(C);
        RunOp(
            handle,
            [&] { cpu::OpTensor(op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp); },
            [&](auto& h) {
                gpu::OpTensor(h, op, a1, aDesc, ap, a2, b_strides.data(), bp, b, cDesc, cp);
            });
    });
}

void SetTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    RefuseUnimplemented(yDesc, "yDesc", "miopenSetTensor");
    DispatchStorage(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{y, "y"}});
        if(alpha == nullptr)
            ThrowBadParm("alpha is a null pointer");
        T value; // the fill value is of y's type (MIOpen, cuDNN)
        std::memcpy(&value, alpha, sizeof(T));
        auto* yp = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::Fill(yDesc, yp, value); },
            [&](auto& h) { gpu::Fill(h, yDesc, yp, value); });
    });
}

void ScaleTensor(Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    RefuseUnimplemented(yDesc, "yDesc", "miopenScaleTensor");
    if(yDesc.Type() == miopenInt8)
        ThrowBadParm("yDesc has data type miopenInt8; miopenScaleTensor takes miopenFloat, "
                     "miopenHalf, miopenBFloat16 and miopenInt32 (MIOpen refuses int8 too)");
    if(yDesc.Type() == miopenInt32)
    {
        const int64_t a = ReadIntScalar(alpha, miopenInt32, "alpha");
        CheckDataPointers(handle, {{y, "y"}});
        auto* yp = static_cast<int32_t*>(y);
        RunOp(
            handle, [&] { cpu::AxpbyInt(a, yDesc, static_cast<const int32_t*>(yp), int64_t{0}, yDesc, yp); },
            [&](auto& h) {
                gpu::AxpbyInt(h, a, yDesc, static_cast<const int32_t*>(yp), int64_t{0}, yDesc, yp,
                              "miopenScaleTensor");
            });
        return;
    }
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{y, "y"}});
        const float a = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
        auto* yp      = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::Axpby(a, yDesc, static_cast<const T*>(yp), 0.0f, yDesc, yp); },
            [&](auto& h) {
                gpu::Axpby(h, a, yDesc, static_cast<const T*>(yp), 0.0f, yDesc, yp,
                           "miopenScaleTensor");
            });
    });
}

void TransformTensor(Handle& handle, const void* alpha, const TensorDescriptor& xDesc,
                     const void* x, const void* beta, const TensorDescriptor& yDesc, void* y)
{
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    RefuseUnimplemented(yDesc, "yDesc", "miopenTransformTensor");
    if(IsIntType(yDesc.Type()))
    {
        const auto t     = yDesc.Type();
        const int64_t a  = ReadIntScalar(alpha, t, "alpha");
        const int64_t b  = ReadIntScalar(beta, t, "beta");
        if(t == miopenInt8 && xDesc.NumDims() == yDesc.NumDims() && xDesc.NumDims() >= 3 &&
           xDesc.Lens()[1] != yDesc.Lens()[1])
            return TransformInt8Channels(handle, a, b, xDesc, x, yDesc, y);
        CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
        CheckDataPointers(handle, {{x, "x"}, {y, "y"}});
        return DispatchInt(t, [&](auto tag) {
            using T        = typename decltype(tag)::type;
            const auto* xp = static_cast<const T*>(x);
            auto* yp       = static_cast<T*>(y);
            RunOp(
                handle, [&] { cpu::AxpbyInt(a, xDesc, xp, b, yDesc, yp); },
                [&](auto& h) { gpu::AxpbyInt(h, a, xDesc, xp, b, yDesc, yp, "miopenTransformTensor"); });
        });
    }
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{x, "x"}, {y, "y"}});
        const Blend s  = ReadBlend(alpha, beta, yDesc);
        const auto* xp = static_cast<const T*>(x);
        auto* yp       = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::Axpby(s.alpha, xDesc, xp, s.beta, yDesc, yp); },
            [&](auto& h) {
                gpu::Axpby(h, s.alpha, xDesc, xp, s.beta, yDesc, yp, "miopenTransformTensor");
            });
    });
}

} // namespace miopen
