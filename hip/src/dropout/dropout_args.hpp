// Dropout: the generator and the argument structs shared by the front door (dropout.cpp), the CPU
// kernel (cpu/dropout.cpp) and the GPU launcher (kernels/dropout/), so both devices draw the same
// mask bits for the same seed.
//
// The generator is Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC'11; Random123's constants), counter-based: element i of a call (i its logical index, packed
// in x's lengths order) takes word i % 4 of
//     Philox4x32_10(counter = {lo(i / 4), hi(i / 4), lo(offset), hi(offset)}, key = {lo(seed), hi(seed)})
// and is kept when u = ((word >> 8) + 1) * 2^-24, a uniform in (0, 1], exceeds the dropout rate
// (so rate 0 keeps everything and rate 1 drops everything). MIOpen draws from a XORWOW state per
// GPU thread, seeded like rocrand's, whose mask depends on its grid; that mask is not reproduced.
//
// The states buffer (miopenDropoutGetStatesSize bytes, MIOpen's size) holds a DropoutState in its
// first 32 bytes: the seed, the offset the next forward uses, and the offset of the last forward
// (what a backward without reserveSpace draws again). With state_evo each forward advances the
// offset by one (MIOpen documents state_evo as a placeholder and never advances its states).
#pragma once

#include <cstddef>
#include <cstdint>

#if !defined(__CUDACC__) && !defined(__HIPCC__)
#include "core/handle.hpp"
#endif

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MIOPEN_CY_DROPOUT_HD __host__ __device__
#else
#define MIOPEN_CY_DROPOUT_HD
#endif

namespace miopen {

/// The generator state kept at the start of the states buffer.
struct DropoutState
{
    uint32_t magic   = 0;
    uint32_t version = 0;
    uint64_t seed    = 0;
    uint64_t offset  = 0; // the offset of the next forward
    uint64_t last    = 0; // the offset of the last forward with state_evo
};
static_assert(sizeof(DropoutState) == 32, "DropoutState: 32 bytes");
constexpr uint32_t kDropoutStateMagic   = 0x4f52444dU; // "MDRO"
constexpr uint32_t kDropoutStateVersion = 1;

/// MIOpen's states: 16384 (256 * 64, MAX_PRNG_STATE) XORWOW states of 24 bytes.
constexpr size_t kDropoutXorwowStateBytes = 24;
constexpr size_t kDropoutMaxStates        = 256 * 64;

/// Philox-4x32-10 of a 128-bit counter and a 64-bit key: four 32-bit words.
struct Philox4
{
    uint32_t v[4];
};

MIOPEN_CY_DROPOUT_HD inline void PhiloxMulHiLo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo)
{
    const uint64_t p = static_cast<uint64_t>(a) * b;
    hi               = static_cast<uint32_t>(p >> 32);
    lo               = static_cast<uint32_t>(p);
}

MIOPEN_CY_DROPOUT_HD inline Philox4 Philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2,
                                                  uint32_t c3, uint32_t k0, uint32_t k1)
{
    for(int r = 0; r < 10; ++r)
    {
        if(r > 0)
        {
            k0 += 0x9E3779B9U;
            k1 += 0xBB67AE85U;
        }
        uint32_t hi0, lo0, hi1, lo1;
        PhiloxMulHiLo(0xD2511F53U, c0, hi0, lo0);
        PhiloxMulHiLo(0xCD9E8D57U, c2, hi1, lo1);
        const uint32_t n0 = hi1 ^ c1 ^ k0;
        const uint32_t n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
    }
    return {{c0, c1, c2, c3}};
}

/// The four words of element group g (elements 4g .. 4g + 3) of the call at `offset`.
MIOPEN_CY_DROPOUT_HD inline Philox4 DropoutBits(uint64_t seed, uint64_t offset, uint64_t g)
{
    return Philox4x32_10(static_cast<uint32_t>(g), static_cast<uint32_t>(g >> 32),
                         static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32),
                         static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
}

/// Whether a word keeps its element at dropout rate p: ((word >> 8) + 1) * 2^-24 > p, exact in
/// fp32 on every device.
MIOPEN_CY_DROPOUT_HD inline bool DropoutKeep(uint32_t word, float p)
{
    return static_cast<float>((word >> 8) + 1U) * 5.9604644775390625e-08f > p;
}

/// One dropout call on tensors of up to 5 dims (lengths outer to inner, strides in elements):
/// out = keep ? in * scale : 0 with the mask drawn (seed, offset), read from `mask` (read_mask)
/// and written to `mask` when non-null (write_mask).
struct DropoutArgs
{
    int ndim = 1;
    int64_t numel = 0;
    int64_t lens[5] = {1, 1, 1, 1, 1};
    int64_t in_strides[5] = {};
    int64_t out_strides[5] = {};
    bool packed    = false; // in and out both packed (element i at offset i)
    float rate     = 0.0f;  // the dropout probability
    float scale    = 1.0f;  // 1 / (1 - rate), 0 for rate 1
    bool read_mask  = false;
    bool write_mask = false;
};

#if !defined(__CUDACC__) && !defined(__HIPCC__)
namespace cpu {
/// The dropout of `a` on the CPU, the mask drawn at (seed, offset) unless a.read_mask.
template <class T>
void Dropout(const DropoutArgs& a, const T* in, T* out, uint8_t* mask, uint64_t seed,
             uint64_t offset);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU; seed and offset are read on the device from `state` (the
/// states buffer): `state->last` with use_last, else `state->offset`. With advance, a second
/// kernel then sets last = offset and offset += 1 (state_evo), in stream order.
template <class T>
void Dropout(Handle& h, const DropoutArgs& a, const T* in, T* out, uint8_t* mask,
             DropoutState* state, bool use_last, bool advance);
} // namespace gpu
#endif

} // namespace miopen
