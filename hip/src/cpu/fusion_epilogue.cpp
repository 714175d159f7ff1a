// The CPU epilogue of a fused convolution (fusion/fusion_args.hpp), and the batch-norm inference +
// activation chain: one pass over y (reading x for the latter), block by block, the residual,
// bias and folded batch norm, then the activation (the activation op's functors), in fp32 and
// rounded once to y's type;
// and EpilogueRun, the same applied by a convolution solver to a block of y it has just computed.
#include "fusion/fusion_args.hpp"

#include "cpu/activation_functors.hpp"
#include "cpu/storage_convert.hpp"

#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <algorithm>

#include <omp.h>

namespace miopen::cpu {

namespace {

/// y[i] = act(affine(i, x[i], z[i])) for i < n (z null: 0), in fp32 and rounded once to T: chunks
/// converted in bulk (cpu/storage_convert.hpp: F16C / AVX-512 where the CPU has them) into stack
/// buffers, the activation's mode switched on once a chunk (a local copy of the functor, so the
/// loop vectorises, as cpu/activation.cpp does). (Calling the activation op's front door a block
/// and converting element by element made the 16-bit pass 8-10x slower than the two separate
/// calls.)
template <class T, class Affine>
void AffineActivate(const ConvEpilogueArgs& e, const T* x, const T* z, T* y, size_t n,
                    Affine affine)
{
    constexpr size_t kChunk = 1024;
    float xb[kChunk], zb[kChunk], buf[kChunk];
    for(size_t i0 = 0; i0 < n; i0 += kChunk)
    {
        const size_t m  = std::min(kChunk, n - i0);
        const float* xf = Load(x + i0, xb, m);
        const float* zf = z != nullptr ? Load(z + i0, zb, m) : nullptr;
        if(zf != nullptr)
            for(size_t i = 0; i < m; ++i)
                buf[i] = affine(i0 + i, xf[i], zf[i]);
        else
            for(size_t i = 0; i < m; ++i)
                buf[i] = affine(i0 + i, xf[i], 0.0f);
        if(e.has_act)
            act::WithMode(e.act, [&](const auto& op) {
                const auto f = op;
#pragma omp simd
                for(size_t i = 0; i < m; ++i)
                    buf[i] = f(buf[i]);
            });
        Store(buf, y + i0, m);
    }
}

} // namespace

template <class T>
bool ConvEpilogue(const ConvEpilogueArgs& e, const TensorDescriptor& yDesc, T* y)
{
    const auto& lens = yDesc.Lens();
    if(lens.size() < 3)
        return false;
    const bool nchw = yDesc.IsPacked();
    const bool nhwc = !nchw && yDesc.Strides() == ChannelsLastStrides(lens);
    if(!nchw && !nhwc)
        return false;
    const size_t N = lens[0], C = lens[1];
    size_t S = 1;
    for(size_t d = 2; d < lens.size(); ++d)
        S *= lens[d];
    const float* a  = e.scale.data();
    const float* b  = e.shift.data();
    const float a2  = e.alpha2;
    const T* z      = static_cast<const T*>(e.z);
    const T* in     = e.in != nullptr ? static_cast<const T*>(e.in) : y;

    if(nchw)
    {
        // Items: pieces of at most kPiece elements of one (n, c) plane.
        constexpr size_t kPiece = 8192;
        const size_t pieces     = (S + kPiece - 1) / kPiece;
        const long long items   = static_cast<long long>(N * C * pieces);
#pragma omp parallel for schedule(static)
        for(long long item = 0; item < items; ++item)
        {
            const size_t plane = static_cast<size_t>(item) / pieces;
            const size_t begin = (static_cast<size_t>(item) % pieces) * kPiece;
            const size_t n     = std::min(kPiece, S - begin);
            const size_t c     = plane % C;
            T* yp              = y + plane * S + begin;
            const T* xp        = in + plane * S + begin;
            const T* zp        = z != nullptr ? z + plane * S + begin : nullptr;
            const float ac = a[c], bc = b[c], zc = a2 * a[c];
            if(zp != nullptr)
                AffineActivate(e, xp, zp, yp, n, [&](size_t, float xv, float zv) {
                    return xv * ac + zc * zv + bc;
                });
            else
                AffineActivate(e, xp, zp, yp, n,
                               [&](size_t, float xv, float) { return xv * ac + bc; });
        }
        return true;
    }

    // Channels-last: items are runs of whole pixels (about 4096 elements).
    const size_t pixels    = N * S;
    const size_t run       = std::max<size_t>(1, 4096 / std::max<size_t>(C, 1));
    const long long items  = static_cast<long long>((pixels + run - 1) / run);
    std::vector<float> za(C);
    for(size_t c = 0; c < C; ++c)
        za[c] = a2 * a[c];
    const float* zs = za.data();
#pragma omp parallel for schedule(static)
    for(long long item = 0; item < items; ++item)
    {
        const size_t p0 = static_cast<size_t>(item) * run;
        const size_t np = std::min(run, pixels - p0);
        T* yp           = y + p0 * C;
        const T* xp     = in + p0 * C;
        const T* zp     = z != nullptr ? z + p0 * C : nullptr;
        for(size_t p = 0; p < np; ++p)
        {
            T* yr       = yp + p * C;
            const T* xr = xp + p * C;
            if(zp != nullptr)
                AffineActivate(e, xr, zp + p * C, yr, C, [&](size_t c, float xv, float zv) {
                    return xv * a[c] + zs[c] * zv + b[c];
                });
            else
                AffineActivate(e, xr, zp, yr, C,
                               [&](size_t c, float xv, float) { return xv * a[c] + b[c]; });
        }
    }
    return true;
}

template <class T>
void EpilogueRun(const ConvEpilogueArgs& e, float* v, size_t off, size_t n, size_t k)
{
    const float ac = e.scale[k], bc = e.shift[k];
    if(e.z != nullptr)
    {
        const T* z     = static_cast<const T*>(e.z) + off;
        const float zc = e.alpha2 * ac;
        for(size_t i = 0; i < n; ++i)
            v[i] = v[i] * ac + zc * ToFloat(z[i]) + bc;
    }
    else
    {
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            v[i] = v[i] * ac + bc;
    }
    if(!e.has_act)
        return;
    act::WithMode(e.act, [&](const auto& op) {
        const auto f = op; // a local copy, so the loop vectorises (see cpu/activation.cpp)
#pragma omp simd
        for(size_t i = 0; i < n; ++i)
            v[i] = f(v[i]);
    });
}

template void EpilogueRun<float>(const ConvEpilogueArgs&, float*, size_t, size_t, size_t);
template void EpilogueRun<Half>(const ConvEpilogueArgs&, float*, size_t, size_t, size_t);
template void EpilogueRun<BFloat16>(const ConvEpilogueArgs&, float*, size_t, size_t, size_t);

template bool ConvEpilogue<float>(const ConvEpilogueArgs&, const TensorDescriptor&, float*);
template bool ConvEpilogue<Half>(const ConvEpilogueArgs&, const TensorDescriptor&, Half*);
template bool ConvEpilogue<BFloat16>(const ConvEpilogueArgs&, const TensorDescriptor&, BFloat16*);

} // namespace miopen::cpu
