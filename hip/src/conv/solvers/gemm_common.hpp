// What the GEMM solvers share: their applicability (CPU, packed N-C-spatial tensors, sizes that
// fit the BLAS's 32-bit ints), their time estimate, and the per-(image, group) matrix views.
// The solvers themselves, one per file, are MIOpen's GEMM solvers by name and id.
#pragma once

#include "conv/conv_geometry.hpp"
#include "conv/solver.hpp"
#include "cpu/blas.hpp"
#include "cpu/conv_gemm.hpp"

#include <climits>

namespace miopen::solvers::gemm {

/// `gpu_too`: the solver also runs on GPU handles (conv/conv_gemm_gpu.hpp), else it is CPU-only.
inline Applicability CommonApplicability(const ConvContext& ctx, const ConvProblem& p, ConvDirection dir,
                                         bool gpu_too = false)
{
    if(!ctx.handle.IsCpu() && !gpu_too)
        return OtherDomain("CPU solver");
    if(p.direction != dir)
        return OtherDomain(dir == ConvDirection::Forward ? "forward only"
                           : dir == ConvDirection::BackwardData ? "backward data only"
                                                                : "backward weights only");
    if(!p.IsPackedNCHW())
        return NotApplicable("needs packed N, C, spatial tensors");
    const double biggest = static_cast<double>(p.c / p.groups) * p.FilterSpatial() *
                           static_cast<double>(std::max(p.OutSpatial(), p.InSpatial()));
    if(biggest > INT_MAX || p.k > INT_MAX)
        return NotApplicable("matrices too large for 32-bit BLAS indices");
    return Applicable();
}

/// A 1x1 filter without padding (any stride): what the 1x1 GEMM solvers of any stride need.
inline Applicability Unpadded1x1(const ConvProblem& p)
{
    if(!p.Is1x1())
        return NotApplicable("needs a 1x1 filter");
    for(int i = 0; i < p.dims; ++i)
        if(p.pads[i] != 0)
            return NotApplicable("needs no padding");
    return Applicable();
}

/// The column matrix of one image and group, in bytes.
inline size_t ColBytes(const ConvProblem& p)
{
    return sizeof(float) * (p.c / p.groups) * p.FilterSpatial() * p.OutSpatial();
}

/// Estimated time: the GEMM at ~60 GFLOP/s plus the column traffic at ~8 GB/s.
inline double EstimateMs(const ConvProblem& p, bool uses_col)
{
    const double gemm = 2.0 * p.Macs() / 60e9;
    const double col = uses_col ? 2.0 * static_cast<double>(ColBytes(p)) * p.n / 8e9 : 0.0;
    return (gemm + col) * 1e3;
}

/// Matrix views of one image n and group grp (packed tensors).
struct Views
{
    const ConvGeometry& g;
    long fs() const { return g.fil[0] * g.fil[1] * g.fil[2]; }
    long os() const { return g.out[0] * g.out[1] * g.out[2]; }
    long is() const { return g.in[0] * g.in[1] * g.in[2]; }
    template <class T> T* W(T* w, long grp) const { return w + grp * g.kpg * g.ws[0]; }
    template <class T> T* X(T* x, long n, long grp) const { return x + n * g.xs[0] + grp * g.cpg * g.xs[1]; }
    template <class T> T* Y(T* y, long n, long grp) const { return y + n * g.ys[0] + grp * g.kpg * g.ys[1]; }
};

} // namespace miopen::solvers::gemm
