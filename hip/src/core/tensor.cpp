#include "core/tensor.hpp"
#include "core/errors.hpp"
#include "core/logging.hpp"
#include "core/object.hpp"

#include <limits>
#include <sstream>

namespace miopen {

size_t DataTypeSize(miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf:
    case miopenBFloat16: return 2;
    case miopenFloat:
    case miopenInt32: return 4;
    case miopenInt8: return 1;
    case miopenDouble: return 8;
    }
    return 0;
}

const char* DataTypeName(miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf: return "miopenHalf";
    case miopenFloat: return "miopenFloat";
    case miopenInt32: return "miopenInt32";
    case miopenInt8: return "miopenInt8";
    case miopenBFloat16: return "miopenBFloat16";
    case miopenDouble: return "miopenDouble";
    }
    return "unknown";
}

void CheckDataType(int type, const char* name)
{
    switch(type)
    {
    case miopenHalf:
    case miopenFloat:
    case miopenInt32:
    case miopenInt8:
    case miopenBFloat16:
    case miopenDouble: return;
    default: ThrowBadParm(name, " = ", type, " is not a miopenDataType_t value");
    }
}

std::vector<size_t> ChannelsLastStrides(const std::vector<size_t>& lens)
{
    std::vector<size_t> s(lens.size());
    size_t step = 1;
    s[1]        = step;
    step *= lens[1];
    for(size_t d = lens.size() - 1; d >= 2; --d)
    {
        s[d] = step;
        step *= lens[d];
    }
    s[0] = step;
    return s;
}

std::vector<size_t> PackedStrides(const std::vector<size_t>& lens)
{
    std::vector<size_t> strides(lens.size());
    size_t s = 1;
    for(size_t i = lens.size(); i-- > 0;)
    {
        strides[i] = s;
        s *= lens[i];
    }
    return strides;
}

void TensorDescriptor::Set(miopenDataType_t type,
                           const std::vector<size_t>& lens,
                           const std::vector<size_t>& strides_in,
                           miopenTensorLayout_t /*layout*/)
{
    CheckDataType(type, "dataType");
    if(lens.empty() || lens.size() > kMaxTensorDims)
        ThrowBadParm("the number of dimensions is ", lens.size(), "; expected 1 to ", kMaxTensorDims);
    const std::vector<size_t> strides = strides_in.empty() ? PackedStrides(lens) : strides_in;
    if(strides.size() != lens.size())
        ThrowBadParm("got ", strides.size(), " strides for ", lens.size(), " dimensions");

    constexpr size_t kLimit = static_cast<size_t>(std::numeric_limits<long long>::max());
    size_t numel = 1;
    size_t space = 1;
    for(size_t i = 0; i < lens.size(); ++i)
    {
        if(lens[i] == 0)
            ThrowBadParm("length of dimension ", i, " is 0; lengths must be positive");
        if(strides[i] == 0)
            ThrowBadParm("stride of dimension ", i, " is 0; strides must be positive");
        size_t extent = 0;
        if(__builtin_mul_overflow(numel, lens[i], &numel) || numel > kLimit ||
           __builtin_mul_overflow(lens[i] - 1, strides[i], &extent) ||
           __builtin_add_overflow(space, extent, &space) || space > kLimit)
            ThrowBadParm("the tensor's size overflows: lengths and strides are too large");
    }
    size_t bytes = 0;
    if(__builtin_mul_overflow(space, DataTypeSize(type), &bytes) || bytes > kLimit)
        ThrowBadParm("the tensor's size in bytes overflows");

    type_    = type;
    lens_    = lens;
    strides_ = strides;
    numel_   = numel;
    space_   = space;
}

bool TensorDescriptor::IsPacked() const
{
    size_t expect = 1;
    for(size_t i = lens_.size(); i-- > 0;)
    {
        if(lens_[i] != 1 && strides_[i] != expect)
            return false;
        expect *= lens_[i];
    }
    return true;
}

std::string TensorDescriptor::ToString() const
{
    if(!IsSet())
        return "unset";
    std::ostringstream out;
    out << DataTypeName(type_) << ", lens=(";
    for(size_t i = 0; i < lens_.size(); ++i)
        out << (i ? ", " : "") << lens_[i];
    out << "), strides=(";
    for(size_t i = 0; i < strides_.size(); ++i)
        out << (i ? ", " : "") << strides_[i];
    out << ")";
    return out.str();
}

const TensorDescriptor& DerefTensor(miopenTensorDescriptor_t desc, const char* name)
{
    const TensorDescriptor& d = Deref<TensorDescriptor>(desc, name);
    if(!d.IsSet())
        ThrowBadParm(name, " has not been set (call miopenSet*TensorDescriptor first)");
    return d;
}

void CheckSameLens(const TensorDescriptor& a, const char* a_name,
                   const TensorDescriptor& b, const char* b_name)
{
    if(!a.SameLens(b))
        ThrowBadParm(a_name, " and ", b_name, " have different lengths: ", a.ToString(), " vs ",
                     b.ToString());
}

void CheckSameType(const TensorDescriptor& a, const char* a_name,
                   const TensorDescriptor& b, const char* b_name)
{
    if(a.Type() != b.Type())
        ThrowBadParm(a_name, " is ", DataTypeName(a.Type()), " but ", b_name, " is ",
                     DataTypeName(b.Type()));
}

void CheckComputeType(const TensorDescriptor& d, const char* name)
{
    if(d.Type() != miopenFloat)
        ThrowNotImplemented(name, " has data type ", DataTypeName(d.Type()),
                            "; this backend implements miopenFloat only");
}

void CheckNumDims(const TensorDescriptor& d, const char* name, int lo, int hi)
{
    if(d.NumDims() < lo || d.NumDims() > hi)
    {
        if(lo == hi)
            ThrowBadParm(name, " has ", d.NumDims(), " dims; expected ", lo);
        ThrowBadParm(name, " has ", d.NumDims(), " dims; expected ", lo, " to ", hi);
    }
}

double ReadScalar(const void* p, miopenDataType_t type, const char* name)
{
    if(p == nullptr)
        ThrowBadParm(name, " is a null pointer");
    return type == miopenDouble ? *static_cast<const double*>(p)
                                : static_cast<double>(*static_cast<const float*>(p));
}

namespace log {
void Print(std::ostream& out, miopenTensorDescriptor_t desc)
{
    const void* p = desc;
    out << p;
    if(const auto* kind = registry::Find(p); kind != nullptr && *kind == typeid(TensorDescriptor))
        out << " {" << static_cast<const TensorDescriptor*>(desc)->ToString() << "}";
}
} // namespace log

} // namespace miopen
