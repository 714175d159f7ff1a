// CPU kernels of miopenActivationForward / Backward. One functor per mode gives f(x) and
// f'(x)·dy; one loop template per direction runs it over ForEachRow (cpu/elementwise.hpp): a
// unit-stride row is one `omp simd` loop, a strided row is gathered into a small block, computed
// vectorised and scattered back, so transcendental modes vectorise whatever the layout. Large
// outputs of memory-bound modes are written with streaming stores (kStreamBytes). fp16 and bf16
// run the same functors through MapTyped (blocks converted to fp32, one rounding on store).
#include "activation/activation_args.hpp"
#include "cpu/activation_functors.hpp"
#include "cpu/elementwise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace miopen::cpu {
namespace {

using namespace act;

// ---- the loops ----------------------------------------------------------------------------

/// Elements per gathered block of a strided row: small enough to stay in L1 (two blocks of
/// floats for backward), large enough to amortise the loop overhead.
constexpr size_t kBlock = 512;

/// Streaming (non-temporal) stores pay off when the tensors touched do not fit in the last-level
/// cache anyway (32 MiB on the machine this was tuned on; sysconf's figure is not trustworthy in
/// VMs), and only for memory-bound modes: measured on (8,64,112,112), RELU forward gains ~15%,
/// while LOGISTIC, whose time is computation, loses ~20%. Below the threshold the output is
/// left in cache for the next layer.
constexpr size_t kStreamBytes = size_t(48) << 20;

/// dst[0, n) = src[0, n) with non-temporal stores where the target has them: the output of a
/// large tensor is not read back soon, so it skips the read-for-ownership of each line.
inline void StreamStore(float* dst, const float* src, size_t n)
{
    size_t i = 0;
#if defined(__AVX512F__) || defined(__AVX__)
#if defined(__AVX512F__)
    constexpr size_t kLanes = 16;
#else
    constexpr size_t kLanes = 8;
#endif
    for(; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) % (kLanes * 4)) != 0; ++i)
        dst[i] = src[i];
    for(; i + kLanes <= n; i += kLanes)
#if defined(__AVX512F__)
        _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
#else
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
#endif
#endif
    for(; i < n; ++i)
        dst[i] = src[i];
}

inline void StreamFence()
{
#if defined(__AVX__)
    _mm_sfence();
#endif
}

template <bool ReadOut>
inline float Blended(float v, float alpha, float beta, float out)
{
    return ReadOut ? alpha * v + beta * out : alpha * v;
}

template <bool ReadY, class Op>
void ForwardRows(const Op& op, float alpha, float beta, const TensorDescriptor& xDesc,
                 const float* x, const TensorDescriptor& yDesc, float* y)
{
    const auto loop = MakeLoop<2>(yDesc.NumDims(), yDesc.Lens().data(),
                                  {StridesOf(xDesc), StridesOf(yDesc)});
    const bool stream = !ReadY && Op::kMemoryBound &&
                        2 * yDesc.ElementSize() * sizeof(float) >= kStreamBytes;
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        // Local copies: values reached through a reference may alias y, and GCC then reloads
        // them every iteration and gives up on vectorising (libmvec calls included).
        const Op f      = op;
        const float al  = alpha;
        const float be  = beta;
        const float* xr = x + off[0];
        float* yr       = y + off[1];
        alignas(64) float buf[kBlock];
        if(s[0] == 1 && s[1] == 1)
        {
            if(stream)
            {
                for(size_t start = 0; start < n; start += kBlock)
                {
                    const size_t m  = std::min(kBlock, n - start);
                    const float* xb = xr + start;
#pragma omp simd
                    for(size_t i = 0; i < m; ++i)
                        buf[i] = al * f(xb[i]);
                    StreamStore(yr + start, buf, m);
                }
                StreamFence();
                return;
            }
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                yr[i] = Blended<ReadY>(f(xr[i]), al, be, ReadY ? yr[i] : 0.0f);
            return;
        }
        for(size_t start = 0; start < n; start += kBlock)
        {
            const size_t m  = std::min(kBlock, n - start);
            const float* xb = xr + start * s[0];
            float* yb       = yr + start * s[1];
            for(size_t i = 0; i < m; ++i)
                buf[i] = xb[i * s[0]];
#pragma omp simd
            for(size_t i = 0; i < m; ++i)
                buf[i] = f(buf[i]);
            for(size_t i = 0; i < m; ++i)
                yb[i * s[1]] = Blended<ReadY>(buf[i], al, be, ReadY ? yb[i * s[1]] : 0.0f);
        }
    });
}

template <bool ReadDx, class Op>
void BackwardRows(const Op& op, float alpha, float beta, const TensorDescriptor& dyDesc,
                  const float* dy, const TensorDescriptor& xDesc, const float* x,
                  const TensorDescriptor& dxDesc, float* dx)
{
    const auto loop = MakeLoop<3>(dxDesc.NumDims(), dxDesc.Lens().data(),
                                  {StridesOf(dyDesc), StridesOf(xDesc), StridesOf(dxDesc)});
    const bool stream = !ReadDx && Op::kMemoryBound &&
                        3 * dxDesc.ElementSize() * sizeof(float) >= kStreamBytes;
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        const Op f       = op; // local copies: see ForwardRows
        const float al   = alpha;
        const float be   = beta;
        const float* dyr = dy + off[0];
        const float* xr  = x + off[1];
        float* dxr       = dx + off[2];
        alignas(64) float bx[kBlock];
        alignas(64) float bdy[kBlock];
        if(s[0] == 1 && s[1] == 1 && s[2] == 1)
        {
            if(stream)
            {
                for(size_t start = 0; start < n; start += kBlock)
                {
                    const size_t m   = std::min(kBlock, n - start);
                    const float* dyb = dyr + start;
                    const float* xb  = xr + start;
#pragma omp simd
                    for(size_t i = 0; i < m; ++i)
                        bx[i] = al * f.Back(xb[i], dyb[i]);
                    StreamStore(dxr + start, bx, m);
                }
                StreamFence();
                return;
            }
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                dxr[i] = Blended<ReadDx>(f.Back(xr[i], dyr[i]), al, be, ReadDx ? dxr[i] : 0.0f);
            return;
        }
        for(size_t start = 0; start < n; start += kBlock)
        {
            const size_t m   = std::min(kBlock, n - start);
            const float* dyb = dyr + start * s[0];
            const float* xb  = xr + start * s[1];
            float* dxb       = dxr + start * s[2];
            for(size_t i = 0; i < m; ++i)
            {
                bdy[i] = dyb[i * s[0]];
                bx[i]  = xb[i * s[1]];
            }
#pragma omp simd
            for(size_t i = 0; i < m; ++i)
                bx[i] = f.Back(bx[i], bdy[i]);
            for(size_t i = 0; i < m; ++i)
                dxb[i * s[2]] = Blended<ReadDx>(bx[i], al, be, ReadDx ? dxb[i * s[2]] : 0.0f);
        }
    });
}

/// fp16 / bf16: the same functor over MapTyped's fp32 blocks.
template <class T, class Op>
void ForwardTyped(const Op& op, float alpha, float beta, const TensorDescriptor& xDesc,
                  const T* x, const TensorDescriptor& yDesc, T* y)
{
    MapTyped<T, 1>(yDesc, {StridesOf(xDesc), StridesOf(yDesc)}, {x}, y, beta,
                   [op, alpha](const float* const* v, float* r, size_t m, size_t) {
                       const Op f      = op; // local copies: see ForwardRows
                       const float al  = alpha;
                       const float* xv = v[0];
#pragma omp simd
                       for(size_t i = 0; i < m; ++i)
                           r[i] = al * f(xv[i]);
                   });
}

template <class T, class Op>
void BackwardTyped(const Op& op, float alpha, float beta, const TensorDescriptor& dyDesc,
                   const T* dy, const TensorDescriptor& xDesc, const T* x,
                   const TensorDescriptor& dxDesc, T* dx)
{
    MapTyped<T, 2>(dxDesc, {StridesOf(dyDesc), StridesOf(xDesc), StridesOf(dxDesc)}, {dy, x}, dx,
                   beta, [op, alpha](const float* const* v, float* r, size_t m, size_t) {
                       const Op f       = op; // local copies: see ForwardRows
                       const float al   = alpha;
                       const float* dyv = v[0];
                       const float* xv  = v[1];
#pragma omp simd
                       for(size_t i = 0; i < m; ++i)
                           r[i] = al * f.Back(xv[i], dyv[i]);
                   });
}

} // namespace

template <class T>
void ActivationForward(const ActivationParams& p, float alpha, const TensorDescriptor& xDesc,
                       const T* x, float beta, const TensorDescriptor& yDesc, T* y)
{
    WithMode(p, [&](const auto& op) {
        if constexpr(!std::is_same_v<T, float>)
            ForwardTyped(op, alpha, beta, xDesc, x, yDesc, y);
        else if(beta == 0.0f)
            ForwardRows<false>(op, alpha, beta, xDesc, x, yDesc, y);
        else
            ForwardRows<true>(op, alpha, beta, xDesc, x, yDesc, y);
    });
}

template <class T>
void ActivationBackward(const ActivationParams& p, float alpha, const TensorDescriptor& dyDesc,
                        const T* dy, const TensorDescriptor& xDesc, const T* x, float beta,
                        const TensorDescriptor& dxDesc, T* dx)
{
    WithMode(p, [&](const auto& op) {
        if constexpr(!std::is_same_v<T, float>)
            BackwardTyped(op, alpha, beta, dyDesc, dy, xDesc, x, dxDesc, dx);
        else if(beta == 0.0f)
            BackwardRows<false>(op, alpha, beta, dyDesc, dy, xDesc, x, dxDesc, dx);
        else
            BackwardRows<true>(op, alpha, beta, dyDesc, dy, xDesc, x, dxDesc, dx);
    });
}

#define MIOPEN_CY_ACTIVATION(T)                                                                   \
    template void ActivationForward<T>(const ActivationParams&, float, const TensorDescriptor&,   \
                                       const T*, float, const TensorDescriptor&, T*);             \
    template void ActivationBackward<T>(const ActivationParams&, float, const TensorDescriptor&,  \
                                        const T*, const TensorDescriptor&, const T*, float,       \
                                        const TensorDescriptor&, T*);
MIOPEN_CY_ACTIVATION(float)
MIOPEN_CY_ACTIVATION(Half)
MIOPEN_CY_ACTIVATION(BFloat16)
#undef MIOPEN_CY_ACTIVATION

} // namespace miopen::cpu
