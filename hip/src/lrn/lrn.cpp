#include "lrn/lrn.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <cmath>
#include <sstream>

namespace miopen {

void LRNDescriptor::Set(miopenLRNMode_t mode, unsigned int n, double alpha, double beta, double k)
{
    if(mode != miopenLRNWithinChannel && mode != miopenLRNCrossChannel)
        ThrowBadParm("mode = ", static_cast<int>(mode), " is not a miopenLRNMode_t value");
    if(n < 1)
        ThrowBadParm("lrnN = ", n, "; must be >= 1");
    if(!std::isfinite(alpha))
        ThrowBadParm("lrnAlpha = ", alpha, "; must be finite");
    if(!std::isfinite(beta))
        ThrowBadParm("lrnBeta = ", beta, "; must be finite");
    if(!std::isfinite(k))
        ThrowBadParm("lrnK = ", k, "; must be finite");
    set_   = true;
    mode_  = mode;
    n_     = n;
    alpha_ = alpha;
    beta_  = beta;
    k_     = k;
}

std::string LRNDescriptor::ToString() const
{
    if(!set_)
        return "unset";
    std::ostringstream out;
    out << (mode_ == miopenLRNCrossChannel ? "miopenLRNCrossChannel" : "miopenLRNWithinChannel")
        << ", lrnN=" << n_ << ", lrnAlpha=" << alpha_ << ", lrnBeta=" << beta_ << ", lrnK=" << k_;
    return out.str();
}

const LRNDescriptor& DerefLRN(miopenLRNDescriptor_t desc, const char* name)
{
    const LRNDescriptor& d = Deref<LRNDescriptor>(desc, name);
    if(!d.IsSet())
        ThrowBadParm(name, " has not been set (call miopenSetLRNDescriptor first)");
    return d;
}

size_t LRNWorkSpaceSize(const TensorDescriptor& yDesc)
{
    return yDesc.ElementSize() * DataTypeSize(yDesc.Type());
}

namespace {

// MIOpen refuses K = 0 ("Expect non-zero bias/K"): an all-zero window would give 0^-beta.
void CheckK(const LRNDescriptor& lrn, const char* name)
{
    if(lrn.K() == 0.0)
        ThrowBadParm(name, " has lrnK = 0; LRN needs a non-zero K");
}

} // namespace

void LRNForward(Handle& handle, const LRNDescriptor& lrn, const void* alpha,
                const TensorDescriptor& xDesc, const void* x, const void* beta,
                const TensorDescriptor& yDesc, void* y, bool do_backward, void* workSpace)
{
    CheckK(lrn, "lrnDesc");
    CheckNumDims(xDesc, "xDesc", 4, 4);
    CheckSameLens(xDesc, "xDesc", yDesc, "yDesc");
    CheckSameType(xDesc, "xDesc", yDesc, "yDesc");
    DispatchFloating(yDesc.Type(), "yDesc", [](auto) {}); // BadParm for a type LRN lacks
    CheckDataPointers(handle, {{x, "x"}, {y, "y"}}, {{workSpace, "workSpace"}});
    if(do_backward && workSpace == nullptr)
        ThrowBadParm("workSpace is a null pointer but do_backward is true (it needs ",
                     LRNWorkSpaceSize(yDesc), " bytes: miopenLRNGetWorkSpaceSize)");
    const Blend s     = ReadBlend(alpha, beta, yDesc);
    const LrnParams p = lrn.Params();
    DispatchFloating(yDesc.Type(), "yDesc", [&](auto tag) {
        using T        = typename decltype(tag)::type;
        const auto* xp = static_cast<const T*>(x);
        auto* yp       = static_cast<T*>(y);
        T* scale       = do_backward ? static_cast<T*>(workSpace) : nullptr;
        RunOp(
            handle, [&] { cpu::LRNForward<T>(p, s.alpha, xDesc, xp, s.beta, yDesc, yp, scale); },
            [&](auto& h) {
                gpu::LRNForward<T>(h, p, s.alpha, xDesc, xp, s.beta, yDesc, yp, scale);
            });
    });
}

void LRNBackward(Handle& handle, const LRNDescriptor& lrn, const void* alpha,
                 const TensorDescriptor& yDesc, const void* y, const TensorDescriptor& dyDesc,
                 const void* dy, const TensorDescriptor& xDesc, const void* x, const void* beta,
                 const TensorDescriptor& dxDesc, void* dx, const void* workSpace)
{
    CheckK(lrn, "lrnDesc");
    CheckNumDims(yDesc, "yDesc", 4, 4);
    CheckSameLens(yDesc, "yDesc", dyDesc, "dyDesc");
    CheckSameLens(yDesc, "yDesc", xDesc, "xDesc");
    CheckSameLens(yDesc, "yDesc", dxDesc, "dxDesc");
    CheckSameType(yDesc, "yDesc", dyDesc, "dyDesc");
    CheckSameType(yDesc, "yDesc", xDesc, "xDesc");
    CheckSameType(yDesc, "yDesc", dxDesc, "dxDesc");
    DispatchFloating(dxDesc.Type(), "dxDesc", [](auto) {}); // BadParm for a type LRN lacks
    CheckDataPointers(handle, {{y, "y"}, {dy, "dy"}, {x, "x"}, {dx, "dx"}}, {{workSpace, "workSpace"}});
    const Blend s     = ReadBlend(alpha, beta, dxDesc);
    const LrnParams p = lrn.Params();
    DispatchFloating(dxDesc.Type(), "dxDesc", [&](auto tag) {
        using T         = typename decltype(tag)::type;
        const auto* yp  = static_cast<const T*>(y);
        const auto* dyp = static_cast<const T*>(dy);
        const auto* xp  = static_cast<const T*>(x);
        auto* dxp       = static_cast<T*>(dx);
        const auto* scale = static_cast<const T*>(workSpace);
        RunOp(
            handle,
            [&] {
                cpu::LRNBackward<T>(p, s.alpha, yDesc, yp, dyDesc, dyp, xDesc, xp, s.beta, dxDesc,
                                    dxp, scale);
            },
            [&](auto& h) {
                gpu::LRNBackward<T>(h, p, s.alpha, yDesc, yp, dyDesc, dyp, xDesc, xp, s.beta,
                                    dxDesc, dxp, scale);
            });
    });
}

namespace log {
void Print(std::ostream& out, miopenLRNDescriptor_t desc)
{
    const void* p = desc;
    out << p;
    if(const auto* kind = registry::Find(p); kind != nullptr && *kind == typeid(LRNDescriptor))
        out << " {" << static_cast<const LRNDescriptor*>(desc)->ToString() << "}";
}
} // namespace log

} // namespace miopen
