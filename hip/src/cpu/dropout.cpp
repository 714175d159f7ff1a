// Dropout on the CPU: out = keep ? in * scale : 0 over tensors of up to 5 dims, the mask drawn by
// the Philox generator of dropout/dropout_args.hpp (the GPU kernel's bits), read from the reserve
// space, and/or written to it (one byte per element, logical order). OpenMP over blocks of whole
// groups of four elements (one Philox call each), so the bits do not depend on the thread count.
#include "dropout/dropout_args.hpp"
#include "core/storage.hpp"

#include <cstdint>

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
#pragma omp parallel for schedule(static) if(blocks > 1)
    for(int64_t b = 0; b < blocks; ++b)
    {
        const int64_t lo = b * kBlock;
        const int64_t hi = lo + kBlock < a.numel ? lo + kBlock : a.numel;
        for(int64_t g = lo; g < hi; g += 4)
        {
            Philox4 bits{{0, 0, 0, 0}};
            if(!a.read_mask)
                bits = DropoutBits(seed, offset, static_cast<uint64_t>(g / 4));
            const int lanes = hi - g < 4 ? static_cast<int>(hi - g) : 4;
            for(int j = 0; j < lanes; ++j)
            {
                const int64_t i = g + j;
                bool keep;
                if(a.read_mask)
                    keep = mask[i] != 0;
                else
                {
                    keep = DropoutKeep(bits.v[j], a.rate);
                    if(a.write_mask)
                        mask[i] = keep ? 1 : 0;
                }
                int64_t oi, oo;
                Offsets(a, i, oi, oo);
                out[oo] = keep ? FloatTo<T>(ToFloat(in[oi]) * a.scale) : FloatTo<T>(0.0f);
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
