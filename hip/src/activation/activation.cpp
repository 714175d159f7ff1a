// ActivationDescriptor and the activation front door: every check runs before anything is
// written, then the kernels of the handle's device run
// (cpu/activation.cpp, or kernels/activation/activation.hip on a GPU), for fp32, fp16 and bf16
// data (MIOpen's activation refuses bf16; we run it).
#include "activation/activation.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <cmath>
#include <sstream>

namespace miopen {

const char* ActivationModeName(miopenActivationMode_t mode)
{
    switch(mode)
    {
    case miopenActivationPASTHRU: return "miopenActivationPASTHRU";
    case miopenActivationLOGISTIC: return "miopenActivationLOGISTIC";
    case miopenActivationTANH: return "miopenActivationTANH";
    case miopenActivationRELU: return "miopenActivationRELU";
    case miopenActivationSOFTRELU: return "miopenActivationSOFTRELU";
    case miopenActivationABS: return "miopenActivationABS";
    case miopenActivationPOWER: return "miopenActivationPOWER";
    case miopenActivationCLIPPEDRELU: return "miopenActivationCLIPPEDRELU";
    case miopenActivationLEAKYRELU: return "miopenActivationLEAKYRELU";
    case miopenActivationELU: return "miopenActivationELU";
    }
    return "unknown";
}

void ActivationDescriptor::Set(int mode, double alpha, double beta, double gamma)
{
    if(mode < miopenActivationPASTHRU || mode > miopenActivationELU)
        ThrowBadParm("mode = ", mode, " is not a miopenActivationMode_t value");
    // MIOpen stores anything; a NaN or infinite parameter only ever produces NaN outputs, so it
    // is refused here, where the mistake is made.
    const double values[3] = {alpha, beta, gamma};
    const char* names[3]   = {"activAlpha", "activBeta", "activGamma"};
    for(int i = 0; i < 3; ++i)
        if(!std::isfinite(values[i]))
            ThrowBadParm(names[i], " = ", values[i], "; activation parameters must be finite");
    mode_  = static_cast<miopenActivationMode_t>(mode);
    alpha_ = alpha;
    beta_  = beta;
    gamma_ = gamma;
    set_   = true;
}

std::string ActivationDescriptor::ToString() const
{
    if(!set_)
        return "unset";
    std::ostringstream out;
    out.precision(17);
    out << ActivationModeName(mode_) << ", activAlpha=" << alpha_ << ", activBeta=" << beta_
        << ", activGamma=" << gamma_;
    return out.str();
}

ActivationDescriptor& DerefActivation(miopenActivationDescriptor_t desc, const char* name)
{
    return Deref<ActivationDescriptor>(desc, name);
}

const ActivationDescriptor& DerefSetActivation(miopenActivationDescriptor_t desc, const char* name)
{
    const ActivationDescriptor& d = DerefActivation(desc, name);
    if(!d.IsSet())
        ThrowBadParm(name, " has not been set (call miopenSetActivationDescriptor first)");
    return d;
}

namespace {

ActivationParams ParamsOf(const ActivationDescriptor& d)
{
    return {d.Mode(), static_cast<float>(d.Alpha()), static_cast<float>(d.Beta()),
            static_cast<float>(d.Gamma())};
}

/// An output that is the same buffer as an input is fine element by element, but only when both
/// walk it the same way.
void CheckInPlace(const void* in, const TensorDescriptor& in_desc, const char* in_name,
                  const char* in_desc_name, const void* out, const TensorDescriptor& out_desc,
                  const char* out_name, const char* out_desc_name)
{
    if(in == out && in_desc.Strides() != out_desc.Strides())
        ThrowBadParm(in_name, " and ", out_name, " are the same buffer but ", in_desc_name, " and ",
                     out_desc_name, " have different strides: ", in_desc.ToString(), " vs ",
                     out_desc.ToString(), "; in-place needs the same layout");
}

} // namespace

void ActivationForward(Handle& handle, const ActivationDescriptor& activDesc, const void* alpha,
                       const TensorDescriptor& xDesc, const void* x, const void* beta,
                       const TensorDescriptor& yDesc, void* y)
{
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
        CheckDataPointers(handle, {{x, "x"}, {y, "y"}});
        CheckInPlace(x, xDesc, "x", "xDesc", y, yDesc, "y", "yDesc");
        const Blend s = ReadBlend(alpha, beta, yDesc);
        const ActivationParams p = ParamsOf(activDesc);
        const auto* xp = static_cast<const T*>(x);
        auto* yp       = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::ActivationForward(p, s.alpha, xDesc, xp, s.beta, yDesc, yp); },
            [&](auto& h) { gpu::ActivationForward(h, p, s.alpha, xDesc, xp, s.beta, yDesc, yp); });
    });
}

void ActivationBackward(Handle& handle, const ActivationDescriptor& activDesc, const void* alpha,
                        const TensorDescriptor& yDesc, const void* y,
                        const TensorDescriptor& dyDesc, const void* dy,
                        const TensorDescriptor& xDesc, const void* x, const void* beta,
                        const TensorDescriptor& dxDesc, void* dx)
{
    CheckSameType(yDesc, "yDesc", dxDesc, "dxDesc");
    CheckSameType(dyDesc, "dyDesc", dxDesc, "dxDesc");
    CheckSameType(xDesc, "xDesc", dxDesc, "dxDesc");
    DispatchFloating(dxDesc.Type(), "dxDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckSameLens(yDesc, "yDesc", dxDesc, "dxDesc");
        CheckSameLens(dyDesc, "dyDesc", dxDesc, "dxDesc");
        CheckSameLens(xDesc, "xDesc", dxDesc, "dxDesc");
        CheckDataPointers(handle, {{y, "y"}, {dy, "dy"}, {x, "x"}, {dx, "dx"}});
        CheckInPlace(dy, dyDesc, "dy", "dyDesc", dx, dxDesc, "dx", "dxDesc");
        CheckInPlace(x, xDesc, "x", "xDesc", dx, dxDesc, "dx", "dxDesc");
        const Blend s = ReadBlend(alpha, beta, dxDesc);
        const ActivationParams p = ParamsOf(activDesc);
        const auto* dyp = static_cast<const T*>(dy);
        const auto* xp  = static_cast<const T*>(x);
        auto* dxp       = static_cast<T*>(dx);
        RunOp(
            handle,
            [&] { cpu::ActivationBackward(p, s.alpha, dyDesc, dyp, xDesc, xp, s.beta, dxDesc, dxp); },
            [&](auto& h) {
                gpu::ActivationBackward(h, p, s.alpha, dyDesc, dyp, xDesc, xp, s.beta, dxDesc,
                                        dxp);
            });
    });
}

namespace log {
void Print(std::ostream& out, miopenActivationDescriptor_t desc)
{
    const void* p = desc;
    out << p;
    if(const auto* kind = registry::Find(p); kind != nullptr && *kind == typeid(ActivationDescriptor))
        out << " {" << static_cast<const ActivationDescriptor*>(desc)->ToString() << "}";
}
} // namespace log

} // namespace miopen
