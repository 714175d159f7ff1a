#include "conv/problem.hpp"
#include "core/errors.hpp"

#include <sstream>

namespace miopen {

bool ConvProblem::Is1x1() const { return FilterSpatial() == 1; }

bool ConvProblem::IsUnitStrideNoPad() const
{
    for(int i = 0; i < dims; ++i)
        if(strides[i] != 1 || pads[i] != 0 || dilations[i] != 1)
            return false;
    return true;
}

double ConvProblem::Macs() const
{
    return static_cast<double>(n) * k * (c / groups) * FilterSpatial() * OutSpatial();
}

std::string ConvProblem::Key() const
{
    std::ostringstream o;
    auto joined = [&](const auto& v, const char* sep) {
        for(int i = 0; i < dims; ++i)
            o << (i ? sep : "") << v[i];
    };
    o << c << "-";
    joined(in, "-");
    o << "-";
    joined(filter, "x");
    o << "-" << k << "-";
    joined(out, "-");
    o << "-" << n << "-";
    joined(pads, "x");
    o << "-";
    joined(strides, "x");
    o << "-";
    joined(dilations, "x");
    o << "-" << groups << "-";
    switch(layout)
    {
    case ConvLayout::ChannelsFirst: o << (dims == 3 ? "NCDHW" : "NCHW"); break;
    case ConvLayout::ChannelsLast: o << (dims == 3 ? "NDHWC-NDHWC-NDHWC" : "NHWC-NHWC-NHWC"); break;
    case ConvLayout::Strided: o << "STRIDED"; break;
    }
    o << "-" << ConvTypeKeyName(type) << "-" << (IsForward() ? "F" : IsBackwardData() ? "B" : "W");
    return o.str();
}

const char* ConvTypeKeyName(miopenDataType_t type)
{
    switch(type)
    {
    case miopenFloat: return "FP32";
    case miopenHalf: return "FP16";
    case miopenBFloat16: return "BF16";
    case miopenInt8: return "INT8";
    case miopenInt32: return "INT32";
    case miopenDouble: return "FP64";
    default: return "UNKNOWN";
    }
}

void CheckConvType(const TensorDescriptor& d, const char* name)
{
    const miopenDataType_t t = d.Type();
    if(t != miopenFloat && t != miopenHalf && t != miopenBFloat16)
        ThrowNotImplemented(name, " has data type ", DataTypeName(t),
                            "; convolution implements miopenFloat, miopenHalf and miopenBFloat16 "
                            "(x, w and y of one type)");
}

namespace {

/// Packed with the channel dimension (1) innermost: N, spatial..., C.
bool IsPackedChannelsLast(const TensorDescriptor& d)
{
    const auto& lens = d.Lens();
    const auto& strides = d.Strides();
    const size_t nd = lens.size();
    // Order of dimensions from innermost: C, then the spatial ones from last to first, then N.
    std::vector<size_t> order{1};
    for(size_t i = nd; i-- > 2;)
        order.push_back(i);
    order.push_back(0);
    size_t expect = 1;
    for(size_t i : order)
    {
        if(lens[i] != 1 && strides[i] != expect)
            return false;
        expect *= lens[i];
    }
    return true;
}

ConvLayout LayoutOf(const TensorDescriptor& x, const char* x_name,
                    const TensorDescriptor& w, const char* w_name,
                    const TensorDescriptor& y, const char* y_name)
{
    const TensorDescriptor* t[3] = {&x, &w, &y};
    const char* names[3] = {x_name, w_name, y_name};
    bool first = true, last = true;
    int first_only = -1, last_only = -1;   // a tensor packed in one order and not the other
    for(int i = 0; i < 3; ++i)
    {
        const bool f = t[i]->IsPacked();
        const bool l = IsPackedChannelsLast(*t[i]);
        first = first && f;
        last = last && l;
        if(f && !l && first_only < 0)
            first_only = i;
        if(l && !f && last_only < 0)
            last_only = i;
        if(!f && !l)
            return ConvLayout::Strided;
    }
    if(first)
        return ConvLayout::ChannelsFirst;
    if(last)
        return ConvLayout::ChannelsLast;
    ThrowBadParm("mixed layouts: ", names[first_only], " is packed channels-first (NCHW) but ",
                 names[last_only], " is packed channels-last (NHWC); give x, w and y one layout");
}

} // namespace

ConvProblem MakeConvProblem(UserDirection direction,
                            const ConvolutionDescriptor& conv,
                            const TensorDescriptor& xLike, const char* x_name,
                            const TensorDescriptor& w, const char* w_name,
                            const TensorDescriptor& yLike, const char* y_name)
{
    CheckSameType(xLike, x_name, w, w_name);
    CheckSameType(yLike, y_name, w, w_name);
    CheckConvType(w, w_name);

    // The user's forward output must have the lengths the descriptor gives.
    std::vector<size_t> expect = conv.ForwardOutputLens(xLike, w);
    if(yLike.Lens() != expect)
    {
        std::ostringstream e;
        for(size_t i = 0; i < expect.size(); ++i)
            e << (i ? ", " : "") << expect[i];
        ThrowBadParm(y_name, " has lengths ", yLike.ToString(), "; the convolution of ", x_name,
                     " and ", w_name, " gives (", e.str(), ")");
    }

    ConvProblem p;
    const bool t = conv.IsTranspose();
    // Canonical x is the convolution's input side: the user's y side for a transposed conv.
    p.x = t ? yLike : xLike;
    p.y = t ? xLike : yLike;
    p.w = w;
    switch(direction)
    {
    case UserDirection::Forward:
        p.direction = t ? ConvDirection::BackwardData : ConvDirection::Forward;
        break;
    case UserDirection::BackwardData:
        p.direction = t ? ConvDirection::Forward : ConvDirection::BackwardData;
        break;
    case UserDirection::BackwardWeights: p.direction = ConvDirection::BackwardWeights; break;
    }
    p.dims   = conv.SpatialDims();
    p.groups = conv.GroupCount();
    p.n      = p.x.Lens()[0];
    p.c      = p.x.Lens()[1];
    p.k      = p.y.Lens()[1];
    for(int i = 0; i < 3; ++i)
    {
        const bool used = i < p.dims;
        p.pads[i]      = used ? conv.Pads()[i] : 0;
        p.strides[i]   = used ? conv.Strides()[i] : 1;
        p.dilations[i] = used ? conv.Dilations()[i] : 1;
        p.in[i]        = used ? p.x.Lens()[2 + i] : 1;
        p.out[i]       = used ? p.y.Lens()[2 + i] : 1;
        p.filter[i]    = used ? w.Lens()[2 + i] : 1;
    }
    p.deterministic = conv.Deterministic();
    p.type = w.Type();
    p.layout = LayoutOf(xLike, x_name, w, w_name, yLike, y_name);
    return p;
}

} // namespace miopen
