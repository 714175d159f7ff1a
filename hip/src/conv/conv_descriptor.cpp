#include "conv/conv_descriptor.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/logging.hpp"
#include "core/object.hpp"

#include <sstream>

namespace miopen {

ConvolutionDescriptor::ConvolutionDescriptor()
    : pads_(2, 0), strides_(2, 1), dilations_(2, 1), adj_(2, 0)
{
}

void ConvolutionDescriptor::Init(miopenConvolutionMode_t mode,
                                 const std::vector<int>& pads,
                                 const std::vector<int>& strides,
                                 const std::vector<int>& dilations)
{
    if(mode < miopenConvolution || mode > miopenDepthwise)
        ThrowBadParm("c_mode = ", static_cast<int>(mode), " is not a miopenConvolutionMode_t value");
    const size_t dims = pads.size();
    if(dims < 1 || dims > 3)
        ThrowBadParm("spatialDim = ", dims, "; expected 1, 2 or 3");
    for(size_t i = 0; i < dims; ++i)
    {
        if(pads[i] < 0)
            ThrowBadParm("pad[", i, "] = ", pads[i], "; pads must be >= 0");
        if(strides[i] < 1)
            ThrowBadParm("stride[", i, "] = ", strides[i], "; strides must be >= 1");
        if(dilations[i] < 1)
            ThrowBadParm("dilation[", i, "] = ", dilations[i], "; dilations must be >= 1");
    }
    mode_      = mode;
    pads_      = pads;
    strides_   = strides;
    dilations_ = dilations;
    adj_.assign(dims, 0);
}

void ConvolutionDescriptor::SetGroupCount(int groups)
{
    if(groups < 1)
        ThrowBadParm("groupCount = ", groups, "; must be >= 1");
    groups_ = groups;
}

void ConvolutionDescriptor::SetTransposeOutputPadding(const std::vector<int>& adj)
{
    if(static_cast<int>(adj.size()) != SpatialDims())
        ThrowBadParm("spatialDim = ", adj.size(), " but the descriptor has ", SpatialDims(),
                     " spatial dims");
    for(size_t i = 0; i < adj.size(); ++i)
        if(adj[i] < 0 || (adj[i] >= strides_[i] && adj[i] >= dilations_[i]))
            ThrowBadParm("output padding [", i, "] = ", adj[i],
                         "; must be >= 0 and smaller than the stride or the dilation (",
                         strides_[i], ", ", dilations_[i], ")");
    adj_ = adj;
}

void ConvolutionDescriptor::SetAttribute(int attr, int value)
{
    switch(attr)
    {
    case MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL:
        if(value < -1 || value > 1)
            ThrowBadParm("value = ", value, " for MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL; expected -1, 0 or 1");
        fp16_alt_impl_ = value;
        return;
    case MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC:
        if(value < 0 || value > 1)
            ThrowBadParm("value = ", value, " for MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC; expected 0 or 1");
        deterministic_ = value;
        return;
    default: ThrowBadParm("attr = ", attr, " is not a miopenConvolutionAttrib_t value");
    }
}

int ConvolutionDescriptor::GetAttribute(int attr) const
{
    switch(attr)
    {
    case MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL: return fp16_alt_impl_;
    case MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC: return DeterministicValue();
    default: ThrowBadParm("attr = ", attr, " is not a miopenConvolutionAttrib_t value");
    }
}

int ConvolutionDescriptor::DeterministicValue() const
{
    return static_cast<int>(env::Integer("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", deterministic_));
}

std::vector<size_t> ConvolutionDescriptor::ForwardOutputLens(const TensorDescriptor& x,
                                                             const TensorDescriptor& w) const
{
    const int dims = SpatialDims();
    if(x.NumDims() != dims + 2)
        ThrowBadParm("xDesc has ", x.NumDims(), " dims; a ", dims, "-d convolution needs ", dims + 2);
    if(w.NumDims() != dims + 2)
        ThrowBadParm("wDesc has ", w.NumDims(), " dims; a ", dims, "-d convolution needs ", dims + 2);
    const size_t n = x.Lens()[0], c = x.Lens()[1];
    const size_t wk = w.Lens()[0], wc = w.Lens()[1];
    const size_t g = static_cast<size_t>(groups_);
    size_t out_c = 0;
    if(IsTranspose())
    {
        if(c != wk)
            ThrowBadParm("xDesc has ", c, " channels but wDesc (transposed: C x K/groups x filter) has ",
                         wk, " in dim 0");
        if(wk % g != 0)
            ThrowBadParm("wDesc dim 0 (", wk, ") is not divisible by groupCount = ", g);
        out_c = wc * g;
    }
    else
    {
        if(c != wc * g)
            ThrowBadParm("xDesc has ", c, " channels but wDesc has ", wc, " x groupCount ", g, " = ",
                         wc * g);
        if(wk % g != 0)
            ThrowBadParm("wDesc has ", wk, " filters, not divisible by groupCount = ", g);
        out_c = wk;
    }
    std::vector<size_t> out{n, out_c};
    for(int i = 0; i < dims; ++i)
    {
        const long long in = static_cast<long long>(x.Lens()[2 + i]);
        const long long k  = static_cast<long long>(w.Lens()[2 + i]);
        const long long p = pads_[i], s = strides_[i], d = dilations_[i];
        long long o = 0;
        if(IsTranspose())
            o = (in - 1) * s - 2 * p + d * (k - 1) + adj_[i] + 1;
        else
        {
            const long long span = in + 2 * p - d * (k - 1) - 1;
            o = span < 0 ? 0 : span / s + 1;
        }
        if(o < 1)
            ThrowBadParm("the output's spatial dim ", i, " would be ", o,
                         ": the filter (", k, ", dilation ", d, ") does not fit the input (", in,
                         " + 2 x pad ", p, ")");
        out.push_back(static_cast<size_t>(o));
    }
    return out;
}

std::string ConvolutionDescriptor::ToString() const
{
    std::ostringstream out;
    auto list = [&](const char* name, const std::vector<int>& v) {
        out << ", " << name << "=(";
        for(size_t i = 0; i < v.size(); ++i)
            out << (i ? ", " : "") << v[i];
        out << ")";
    };
    out << "mode=" << static_cast<int>(mode_);
    list("pads", pads_);
    list("strides", strides_);
    list("dilations", dilations_);
    if(IsTranspose())
        list("adj", adj_);
    out << ", groups=" << groups_;
    return out.str();
}

ConvolutionDescriptor& DerefConv(miopenConvolutionDescriptor_t desc, const char* name)
{
    return Deref<ConvolutionDescriptor>(desc, name);
}

namespace log {
void Print(std::ostream& out, miopenConvolutionDescriptor_t desc)
{
    const void* p = desc;
    out << p;
    if(const auto* kind = registry::Find(p); kind != nullptr && *kind == typeid(ConvolutionDescriptor))
        out << " {" << static_cast<const ConvolutionDescriptor*>(desc)->ToString() << "}";
}
} // namespace log

} // namespace miopen
