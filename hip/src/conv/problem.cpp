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
    o << "-" << groups << "-" << (IsPackedNCHW() ? (dims == 3 ? "NCDHW" : "NCHW") : "STRIDED");
    o << "-FP32-" << (IsForward() ? "F" : IsBackwardData() ? "B" : "W");
    return o.str();
}

ConvProblem MakeConvProblem(UserDirection direction,
                            const ConvolutionDescriptor& conv,
                            const TensorDescriptor& xLike, const char* x_name,
                            const TensorDescriptor& w, const char* w_name,
                            const TensorDescriptor& yLike, const char* y_name)
{
    CheckSameType(xLike, x_name, w, w_name);
    CheckSameType(yLike, y_name, w, w_name);
    CheckComputeType(w, w_name);

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
    return p;
}

} // namespace miopen
