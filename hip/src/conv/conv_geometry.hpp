// The problem's geometry as plain integers, with every tensor's strides padded to 3 spatial dims
// (unused dims have length 1 and stride 0): what the CPU convolution kernels index with.
#pragma once

#include "conv/problem.hpp"

#include <array>

namespace miopen {

struct ConvGeometry
{
    long n, c, k, g, cpg, kpg;                   // channels per group: cpg = c/g, kpg = k/g
    std::array<long, 3> in, out, fil, pad, str, dil;
    std::array<long, 5> xs, ws, ys;               // strides: n/k, c, d, h, w

    explicit ConvGeometry(const ConvProblem& p)
    {
        n = static_cast<long>(p.n);
        c = static_cast<long>(p.c);
        k = static_cast<long>(p.k);
        g = p.groups;
        cpg = c / g;
        kpg = k / g;
        // The problem's spatial dims are left-aligned; here they sit right-aligned in d, h, w,
        // so a 2-d problem has d = 1 (stride 0) and a 1-d problem d = h = 1.
        const int skip = 3 - p.dims;
        for(int j = 0; j < 3; ++j)
        {
            const bool used = j >= skip;
            const int i = j - skip;
            in[j]  = used ? static_cast<long>(p.in[i]) : 1;
            out[j] = used ? static_cast<long>(p.out[i]) : 1;
            fil[j] = used ? static_cast<long>(p.filter[i]) : 1;
            pad[j] = used ? p.pads[i] : 0;
            str[j] = used ? p.strides[i] : 1;
            dil[j] = used ? p.dilations[i] : 1;
        }
        Pad(p.x, xs, p.dims);
        Pad(p.w, ws, p.dims);
        Pad(p.y, ys, p.dims);
    }

private:
    static void Pad(const TensorDescriptor& t, std::array<long, 5>& s, int dims)
    {
        s = {0, 0, 0, 0, 0};
        s[0] = static_cast<long>(t.Strides()[0]);
        s[1] = static_cast<long>(t.Strides()[1]);
        for(int i = 0; i < dims; ++i)
            s[2 + (3 - dims) + i] = static_cast<long>(t.Strides()[2 + i]);
    }
};

/// The output positions o in [0, out) whose input index o*s - p + f*d lies in [0, in): the
/// bounds every direct/im2col loop uses to skip the padding.
inline void ValidRange(long in, long out, long p, long s, long d, long f, long& lo, long& hi)
{
    const long off = f * d - p;                 // input index = o * s + off
    lo = off >= 0 ? 0 : (-off + s - 1) / s;
    if(lo > out)                                // every output reads padding: an empty range at
        lo = out;                               // the end, never past it (callers zero [0, lo))
    const long last = in - 1 - off;             // o * s <= last
    hi = last < 0 ? 0 : (out < last / s + 1 ? out : last / s + 1);
    if(hi < lo)
        hi = lo;
}

} // namespace miopen
