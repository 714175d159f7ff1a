// Dropout on the CPU: out = keep ? in * scale : 0 over tensors of up to 5 dims, the mask drawn by
// the Philox generator of dropout/dropout_args.hpp (the GPU kernel's bits), read from the reserve
// space, and/or written to it (one byte per element, logical order). OpenMP over blocks of whole
// groups of four elements (one Philox call each), so the bits do not depend on the thread count.
#include "dropout/dropout_args.hpp"
#include "core/storage.hpp"
#include "cpu/storage_convert.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace miopen::cpu {
namespace {

constexpr int64_t kBlock = 4096; // elements per OpenMP task, a multiple of 4

/// Element offsets of logical index i in `in` and `out`.
inline void Offsets(const DropoutArgs& a, int64_t i, int64_t& oi, int64_t& oo)
{
    if(a.packed)
    {
        oi = oo = i;
        return;
    }
    oi = oo = 0;
    for(int d = a.ndim - 1; d >= 0; --d)
    {
        const int64_t q = i / a.lens[d];
        const int64_t r = i - q * a.lens[d];
        oi += r * a.in_strides[d];
        oo += r * a.out_strides[d];
        i = q;
    }
}

} // namespace

template <class T>
void Dropout(const DropoutArgs& a, const T* in, T* out, uint8_t* mask, uint64_t seed,
             uint64_t offset)
{
    const int64_t blocks = (a.numel + kBlock - 1) / kBlock;
    // Locals: stores through out (float) and drawn (uint8_t, which aliases anything) would
    // otherwise force the fields of `a` to be reloaded every element, and block vectorisation.
    const float rate  = a.rate;
    const float scale = a.scale;
    // Threads only where there is enough work to pay for waking them.
#pragma omp parallel for schedule(static) if(a.numel >= 4 * kBlock)
    for(int64_t b = 0; b < blocks; ++b)
    {
        const int64_t lo = b * kBlock;
        const int64_t n  = lo + kBlock < a.numel ? kBlock : a.numel - lo;
        alignas(64) uint8_t drawn[kBlock];
        const uint8_t* keep = drawn;
        if(a.read_mask)
            keep = mask + lo;
        else
        {
            // A plain loop over whole groups, which the compiler vectorises across groups.
            const uint64_t g0 = static_cast<uint64_t>(lo / 4);
            const int64_t groups = (n + 3) / 4;
            for(int64_t g = 0; g < groups; ++g)
            {
                const Philox4 bits = DropoutBits(seed, offset, g0 + static_cast<uint64_t>(g));
                for(int j = 0; j < 4; ++j)
                    drawn[4 * g + j] = DropoutKeep(bits.v[j], rate) ? 1 : 0;
            }
            if(a.write_mask)
                std::memcpy(mask + lo, drawn, static_cast<size_t>(n));
        }
        if(a.packed)
        {
            if constexpr(std::is_same_v<T, float>)
            {
                const float* x = in + lo;
                float* y       = out + lo;
                for(int64_t k = 0; k < n; ++k)
                    y[k] = keep[k] ? x[k] * scale : 0.0f;
            }
            else
            {
                // 16-bit data through the bulk conversions (F16C, AVX-512 BF16): same bits.
                alignas(64) float v[kBlock];
                const auto m = static_cast<size_t>(n);
                ConvertToFloat(in + lo, v, m);
                for(int64_t k = 0; k < n; ++k)
                    v[k] = keep[k] ? v[k] * scale : 0.0f;
                ConvertFromFloat(v, out + lo, m);
            }
        }
        else
        {
            for(int64_t k = 0; k < n; ++k)
            {
                int64_t oi, oo;
                Offsets(a, lo + k, oi, oo);
                out[oo] = FloatTo<T>(keep[k] ? ToFloat(in[oi]) * scale : 0.0f);
            }
        }
    }
}

template void Dropout<float>(const DropoutArgs&, const float*, float*, uint8_t*, uint64_t,
                             uint64_t);
template void Dropout<Half>(const DropoutArgs&, const Half*, Half*, uint8_t*, uint64_t, uint64_t);
template void Dropout<BFloat16>(const DropoutArgs&, const BFloat16*, BFloat16*, uint8_t*, uint64_t,
                                uint64_t);

} // namespace miopen::cpu
