// The CPU epilogue of a fused convolution (fusion/fusion_args.hpp), and the batch-norm inference +
// activation chain: one pass over y (reading x for the latter), block by block, the residual, bias and folded batch norm in fp32 (rounded once),
// then the activation of the block through cpu::ActivationForward while the block is in cache;
// and EpilogueRun, the same applied by a convolution solver to a block of y it has just computed.
#include "fusion/fusion_args.hpp"

#include "cpu/activation_functors.hpp"

#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <algorithm>

#include <omp.h>

namespace miopen::cpu {

namespace {

template <class T>
void Activate(const ConvEpilogueArgs& e, T* p, size_t n)
{
    if(!e.has_act)
        return;
    TensorDescriptor d;
    d.Set(kDataTypeOf<T>, {n}, {});
    ActivationForward<T>(e.act, 1.0f, d, p, 0.0f, d, p);
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
                for(size_t i = 0; i < n; ++i)
                    yp[i] = FloatTo<T>(ToFloat(xp[i]) * ac + zc * ToFloat(zp[i]) + bc);
            else
                for(size_t i = 0; i < n; ++i)
                    yp[i] = FloatTo<T>(ToFloat(xp[i]) * ac + bc);
            Activate(e, yp, n);
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
            {
                const T* zr = zp + p * C;
                for(size_t c = 0; c < C; ++c)
                    yr[c] = FloatTo<T>(ToFloat(xr[c]) * a[c] + zs[c] * ToFloat(zr[c]) + b[c]);
            }
            else
            {
                for(size_t c = 0; c < C; ++c)
                    yr[c] = FloatTo<T>(ToFloat(xr[c]) * a[c] + b[c]);
            }
        }
        Activate(e, yp, np * C);
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
