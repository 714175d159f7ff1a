// The CPU epilogue of a fused convolution (fusion/fusion_args.hpp), and the batch-norm inference +
// activation chain: one pass over y (reading x for the latter), block by block, the residual,
// bias and folded batch norm, then the activation (the activation op's functors), in fp32 and
// rounded once to y's type;
// and EpilogueRun / EpilogueTile, the same applied by a convolution solver to a block of y it has
// just computed (a run of one channel; a register tile along the channels).
#include "fusion/fusion_args.hpp"

#include "cpu/activation_functors.hpp"
#include "cpu/storage_convert.hpp"

#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include <omp.h>

#if defined(__x86_64__)
#include "cpu/bf16_round_simd.hpp"
#include "cpu/conv/direct_blocked.hpp" // dblk::BestIsa: the CPU's vector ISA, capped by the switch
#include <immintrin.h>
#define MIOPEN_CY_EPI_X86 1
#else
#define MIOPEN_CY_EPI_X86 0
#endif

#if MIOPEN_CY_EPI_X86
// The 16-bit rows in vector registers (cpu/fusion_epilogue_kernel.hpp), compiled for AVX-512F and
// for AVX2 + F16C + FMA whatever the library is compiled for, called only where the CPU has them.
// (GCC 12 reports its own intrinsics' _mm512_undefined_* sources as maybe uninitialized once they
// are inlined: a false positive, silenced here only.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC push_options
#pragma GCC target("avx512f,f16c,fma")
#define EPI_NS avx512
#define EPI_W 16
#define EPI_VEC __m512
#define EPI_SET1(f) _mm512_set1_ps(f)
#define EPI_LOADF(p) _mm512_loadu_ps(p)
#define EPI_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define EPI_MUL(a, b) _mm512_mul_ps(a, b)
#define EPI_LOAD16H(p) _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)))
#define EPI_STORE16H(p, v)                                                                         \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),                                             \
                        _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define EPI_LOAD16B(p)                                                                             \
    _mm512_castsi512_ps(_mm512_slli_epi32(                                                         \
        _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))), 16))
#define EPI_STORE16B(p, v)                                                                         \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),                                             \
                        _mm512_cvtepi32_epi16(RoundBf16Avx512(_mm512_castps_si512(v))))
#define EPI_SELECT_LT0(v, r)                                                                       \
    _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), v, r)
#define EPI_SELECT_GT0(v, r)                                                                       \
    _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GT_OQ), r, v)
#define EPI_SELECT_GT(v, t, r) _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, t, _CMP_GT_OQ), v, r)
#define EPI_ABS(v)                                                                                 \
    _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff)))
#include "cpu/fusion_epilogue_kernel.hpp"
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,f16c,fma")
namespace miopen::cpu::avx2 {
inline void StoreBf16(void* p, __m256 v) // the 8 rounded halves packed into 16 bytes
{
    const __m256i r = RoundBf16Avx2(_mm256_castps_si256(v));
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0xd8);
    _mm_storeu_si128(static_cast<__m128i*>(p), _mm256_castsi256_si128(packed));
}
} // namespace miopen::cpu::avx2
#define EPI_NS avx2
#define EPI_W 8
#define EPI_VEC __m256
#define EPI_SET1(f) _mm256_set1_ps(f)
#define EPI_LOADF(p) _mm256_loadu_ps(p)
#define EPI_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define EPI_MUL(a, b) _mm256_mul_ps(a, b)
#define EPI_LOAD16H(p) _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)))
#define EPI_STORE16H(p, v)                                                                         \
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p),                                                \
                     _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define EPI_LOAD16B(p)                                                                             \
    _mm256_castsi256_ps(_mm256_slli_epi32(                                                         \
        _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), 16))
#define EPI_STORE16B(p, v) StoreBf16(p, v)
#define EPI_SELECT_LT0(v, r) _mm256_blendv_ps(v, r, _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ))
#define EPI_SELECT_GT0(v, r) _mm256_blendv_ps(r, v, _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ))
#define EPI_SELECT_GT(v, t, r) _mm256_blendv_ps(v, r, _mm256_cmp_ps(v, t, _CMP_GT_OQ))
#define EPI_ABS(v) _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)))
#include "cpu/fusion_epilogue_kernel.hpp"
#pragma GCC pop_options
#pragma GCC diagnostic pop
#endif // MIOPEN_CY_EPI_X86

namespace miopen::cpu {

namespace {

constexpr size_t kChunk = 2048; // elements a step: x, z and y's fp32 copies stay in L1

/// y[i] = f(x[i] * a[c] + zc[c] * z[i] + b[c]) for the elements of one item, in fp32 and rounded
/// once to T. Per channel: a run of n elements of channel c (NCHW: `rows` = 1, `period` = 0, the
/// coefficients scalars a[0] ...), or `rows` pixel rows of `period` channels (NHWC: a, b, zc are
/// C-vectors). 16-bit chunks are converted in bulk (cpu/storage_convert.hpp: F16C / AVX-512) into
/// stack buffers; fp32 is read and written in place, one loop over the chunk. f is the
/// activation's functor (act::PassThru without one), a local copy so the loop vectorises.
/// (Calling the activation op's front door a block and converting element by element made the
/// 16-bit pass 8-10x slower than the two separate calls; a second loop over an fp32 buffer and a
/// copy out cost the fp32 pass another 1.3x.)
template <class T, bool Z, class F>
void AffineRows(const T* x, const T* z, T* y, size_t n, size_t period, const float* a,
                const float* b, const float* zc, const F& op)
{
    constexpr bool kFloat = std::is_same_v<T, float>;
    const F f             = op;
    float xb[kFloat ? 1 : kChunk], zb[kFloat || !Z ? 1 : kChunk], yb[kFloat ? 1 : kChunk];
    // A chunk is whole rows of `period` channels (period <= kChunk) or any run (period 0).
    const size_t step = period == 0 ? kChunk : std::max<size_t>(1, kChunk / period) * period;
    for(size_t i0 = 0; i0 < n; i0 += step)
    {
        const size_t m  = std::min(step, n - i0);
        const float* xf = Load(x + i0, xb, m);
        const float* zf = nullptr;
        if constexpr(Z)
            zf = Load(z + i0, zb, m);
        float* yf = nullptr;
        if constexpr(kFloat)
            yf = y + i0;
        else
            yf = yb;
        if(period == 0)
        {
            const float ac = a[0], bc = b[0];
            if constexpr(Z)
            {
                const float zcc = zc[0];
#pragma omp simd
                for(size_t i = 0; i < m; ++i)
                    yf[i] = f(xf[i] * ac + zcc * zf[i] + bc);
            }
            else
            {
#pragma omp simd
                for(size_t i = 0; i < m; ++i)
                    yf[i] = f(xf[i] * ac + bc);
            }
        }
        else
        {
            for(size_t r = 0; r < m; r += period)
            {
                const float* xr = xf + r;
                float* yr       = yf + r;
                if constexpr(Z)
                {
                    const float* zr = zf + r;
#pragma omp simd
                    for(size_t c = 0; c < period; ++c)
                        yr[c] = f(xr[c] * a[c] + zc[c] * zr[c] + b[c]);
                }
                else
                {
#pragma omp simd
                    for(size_t c = 0; c < period; ++c)
                        yr[c] = f(xr[c] * a[c] + b[c]);
                }
            }
        }
        if constexpr(!kFloat)
            Store(yf, y + i0, m);
    }
}

/// AffineRows with the residual switched on or off and the activation's functor chosen once.
template <class T, class Fn>
void WithEpilogue(const ConvEpilogueArgs& e, Fn&& fn)
{
    const ActivationParams none{miopenActivationPASTHRU, 0.0f, 0.0f, 0.0f};
    act::WithMode(e.has_act ? e.act : none, [&](const auto& op) {
        if(e.z != nullptr)
            fn(std::true_type{}, op);
        else
            fn(std::false_type{}, op);
    });
}

/// The vector-register rows of 16-bit data (cpu/fusion_epilogue_kernel.hpp) for this CPU and
/// activation, or null (fp32; a mode that is not piecewise linear; no AVX2 + F16C + FMA, or
/// MIOPEN_CY_DEBUG_CPU_ISA=none): those take AffineRows.
template <class T>
using VectorRowsFn = bool (*)(miopenActivationMode_t, bool, const T*, const T*, T*, size_t, size_t,
                              const float*, const float*, const float*, float);

template <class T>
VectorRowsFn<T> VectorRows(miopenActivationMode_t mode)
{
    const bool piecewise = mode == miopenActivationPASTHRU || mode == miopenActivationRELU ||
                           mode == miopenActivationCLIPPEDRELU || mode == miopenActivationLEAKYRELU ||
                           mode == miopenActivationABS;
    if constexpr(std::is_same_v<T, float>)
        return nullptr;
    else
    {
        if(!piecewise)
            return nullptr;
#if MIOPEN_CY_EPI_X86
        const dblk::Isa isa = dblk::BestIsa(); // the CPU's best, capped by MIOPEN_CY_DEBUG_CPU_ISA
        if(!__builtin_cpu_supports("f16c"))
            return nullptr;
        if(isa == dblk::Isa::Avx512)
            return &avx512::RowsFor<T>;
        if(isa == dblk::Isa::Avx2)
            return &avx2::RowsFor<T>;
#endif
        return nullptr;
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
    const float* a = e.scale.data();
    const float* b = e.shift.data();
    const T* z     = static_cast<const T*>(e.z);
    const T* in    = e.in != nullptr ? static_cast<const T*>(e.in) : y;
    std::vector<float> za(C);
    for(size_t c = 0; c < C; ++c)
        za[c] = e.alpha2 * a[c];
    const float* zs = za.data();

    // The items, each handed to rows(off, n, period, c0): elements [off, off + n) of in, z and y,
    // channel c0's run (period 0) or rows of `period` channels from c0.
    auto for_items = [&](auto&& rows) {
        if(nchw || C > kChunk)
        {
            // Pieces of at most kPiece elements of one (n, c) plane, or (NHWC with more channels
            // than a chunk) blocks of at most kChunk channels of one pixel.
            constexpr size_t kPiece = 8192;
            const size_t blocks     = (C + kChunk - 1) / kChunk;
            const size_t planes     = nchw ? N * C : N * S * blocks;
            const size_t pieces     = nchw ? (S + kPiece - 1) / kPiece : 1;
            const long long items   = static_cast<long long>(planes * pieces);
#pragma omp parallel for schedule(static)
            for(long long item = 0; item < items; ++item)
            {
                const size_t plane = static_cast<size_t>(item) / pieces;
                if(nchw)
                {
                    const size_t begin = (static_cast<size_t>(item) % pieces) * kPiece;
                    rows(plane * S + begin, std::min(kPiece, S - begin), size_t{0}, plane % C);
                }
                else
                {
                    const size_t c0 = (plane % blocks) * kChunk;
                    const size_t n  = std::min(kChunk, C - c0);
                    rows((plane / blocks) * C + c0, n, n, c0);
                }
            }
            return;
        }
        // Channels-last: runs of whole pixels (about kChunk elements each).
        const size_t pixels   = N * S;
        const size_t run      = std::max<size_t>(1, kChunk / std::max<size_t>(C, 1));
        const long long items = static_cast<long long>((pixels + run - 1) / run);
#pragma omp parallel for schedule(static)
        for(long long item = 0; item < items; ++item)
        {
            const size_t p0 = static_cast<size_t>(item) * run;
            rows(p0 * C, std::min(run, pixels - p0) * C, C, size_t{0});
        }
    };

    const miopenActivationMode_t mode = e.has_act ? e.act.mode : miopenActivationPASTHRU;
    if(const VectorRowsFn<T> vec = VectorRows<T>(mode); vec != nullptr)
    {
        const float alpha = e.act.alpha;
        for_items([&](size_t off, size_t n, size_t period, size_t c0) {
            vec(mode, z != nullptr, in + off, z != nullptr ? z + off : nullptr, y + off, n, period,
                a + c0, b + c0, zs + c0, alpha);
        });
        return true;
    }
    WithEpilogue<T>(e, [&](auto has_z, const auto& op) {
        constexpr bool kZ = decltype(has_z)::value;
        for_items([&](size_t off, size_t n, size_t period, size_t c0) {
            AffineRows<T, kZ>(in + off, z != nullptr ? z + off : nullptr, y + off, n, period,
                              a + c0, b + c0, zs + c0, op);
        });
    });
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

void EpilogueTile(const ConvEpilogueArgs& e, float* tile, size_t ld, size_t nw, size_t nk, size_t k0,
                  size_t off, size_t ks, size_t us)
{
    const float* a = e.scale.data() + k0;
    const float* b = e.shift.data() + k0;
    if(e.z != nullptr)
    {
        const float* z = static_cast<const float*>(e.z) + off;
        for(size_t u = 0; u < nw; ++u)
        {
            float* v        = tile + u * ld;
            const float* zu = z + u * us;
            for(size_t k = 0; k < nk; ++k)
            {
                const float zc = e.alpha2 * a[k];
                v[k]           = v[k] * a[k] + zc * zu[k * ks] + b[k];
            }
        }
    }
    else
    {
        for(size_t u = 0; u < nw; ++u)
        {
            float* v = tile + u * ld;
#pragma omp simd
            for(size_t k = 0; k < nk; ++k)
                v[k] = v[k] * a[k] + b[k];
        }
    }
    if(!e.has_act)
        return;
    act::WithMode(e.act, [&](const auto& op) {
        const auto f = op;
        for(size_t u = 0; u < nw; ++u)
        {
            float* v = tile + u * ld;
#pragma omp simd
            for(size_t k = 0; k < nk; ++k)
                v[k] = f(v[k]);
        }
    });
}

template void EpilogueRun<float>(const ConvEpilogueArgs&, float*, size_t, size_t, size_t);
template void EpilogueRun<Half>(const ConvEpilogueArgs&, float*, size_t, size_t, size_t);
template void EpilogueRun<BFloat16>(const ConvEpilogueArgs&, float*, size_t, size_t, size_t);

template bool ConvEpilogue<float>(const ConvEpilogueArgs&, const TensorDescriptor&, float*);
template bool ConvEpilogue<Half>(const ConvEpilogueArgs&, const TensorDescriptor&, Half*);
template bool ConvEpilogue<BFloat16>(const ConvEpilogueArgs&, const TensorDescriptor&, BFloat16*);

} // namespace miopen::cpu
