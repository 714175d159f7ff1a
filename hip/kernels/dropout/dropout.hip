// dropout_fwd_packed / dropout_fwd_strided: out = keep ? in * scale : 0, the keep bits drawn by
// the Philox-4x32-10 generator of dropout/dropout_args.hpp (the CPU kernel's bits: element i of a
// call takes word i % 4 of the counter i / 4), read from the mask, or drawn and written to it
// (one byte per element in logical order). Forward and backward are the same kernels (backward
// reads the mask, or draws the forward's again). Seed and offset are read on the device from the
// states buffer, so a state advanced by state_evo needs no host round trip.
//   packed:  a thread owns W = 16 / sizeof(T) consecutive elements per grid-stride step: one
//            16-byte load and store of data, a W-byte mask access, W / 4 Philox calls;
//   strided: a thread owns a group of four elements, offsets from the lengths and strides.
// Storage types: T (float, Half, BFloat16) loaded as fp32, one rounding per output.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/dropout/dropout_kernels.hpp"

namespace miopen::gpu {
namespace {

// Mask modes: draw (no mask), draw and write the mask, read the mask.
constexpr int kDraw = 0, kDrawWrite = 1, kRead = 2;

__device__ inline void SeedOffset(const DropoutState* st, bool use_last, uint64_t& seed,
                                  uint64_t& offset)
{
    seed   = st->seed;
    offset = use_last ? st->last : st->offset;
}

/// The keep bits of the four elements of group g, as bytes (1 kept), from the generator or the
/// mask (`have` of them valid, the rest 0).
template <int Mode>
__device__ inline void KeepBits(const DropoutArgs& a, uint64_t seed, uint64_t offset, int64_t g,
                                const uint8_t* mask, int have, uint8_t (&keep)[4])
{
    if constexpr(Mode == kRead)
    {
#pragma unroll
        for(int j = 0; j < 4; ++j)
            keep[j] = j < have ? (mask[4 * g + j] != 0) : 0;
    }
    else
    {
        const Philox4 bits = DropoutBits(seed, offset, static_cast<uint64_t>(g));
#pragma unroll
        for(int j = 0; j < 4; ++j)
            keep[j] = DropoutKeep(bits.v[j], a.rate) ? 1 : 0;
    }
}

template <class T, int Mode>
__global__ void __launch_bounds__(kDropoutThreads)
    DropoutPacked(DropoutArgs a, const T* in, T* out,
                  uint8_t* __restrict__ mask, const DropoutState* state, bool use_last)
{
    constexpr int W = kVecOf<T>; // elements per 16 bytes
    uint64_t seed = 0, offset = 0;
    if constexpr(Mode != kRead)
        SeedOffset(state, use_last, seed, offset);
    const int64_t nvec   = a.numel / W;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int64_t first  = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for(int64_t v = first; v < nvec; v += stride)
    {
        float x[W];
        LoadVec<T, W>(in + v * W, x);
        uint8_t keep[W];
        if constexpr(Mode == kRead)
        {
            if constexpr(W == 4)
            {
                const uint32_t m = reinterpret_cast<const uint32_t*>(mask)[v];
#pragma unroll
                for(int j = 0; j < 4; ++j)
                    keep[j] = ((m >> (8 * j)) & 0xffu) != 0;
            }
            else
            {
                const uint2 m = reinterpret_cast<const uint2*>(mask)[v];
#pragma unroll
                for(int j = 0; j < 4; ++j)
                {
                    keep[j]     = ((m.x >> (8 * j)) & 0xffu) != 0;
                    keep[4 + j] = ((m.y >> (8 * j)) & 0xffu) != 0;
                }
            }
        }
        else
        {
#pragma unroll
            for(int q = 0; q < W / 4; ++q)
            {
                const Philox4 bits =
                    DropoutBits(seed, offset, static_cast<uint64_t>(v * (W / 4) + q));
#pragma unroll
                for(int j = 0; j < 4; ++j)
                    keep[4 * q + j] = DropoutKeep(bits.v[j], a.rate) ? 1 : 0;
            }
            if constexpr(Mode == kDrawWrite)
            {
                uint32_t m[W / 4];
#pragma unroll
                for(int q = 0; q < W / 4; ++q)
                    m[q] = uint32_t{keep[4 * q]} | (uint32_t{keep[4 * q + 1]} << 8) |
                           (uint32_t{keep[4 * q + 2]} << 16) | (uint32_t{keep[4 * q + 3]} << 24);
                if constexpr(W == 4)
                    reinterpret_cast<uint32_t*>(mask)[v] = m[0];
                else
                    reinterpret_cast<uint2*>(mask)[v] = make_uint2(m[0], m[1]);
            }
        }
        float y[W];
#pragma unroll
        for(int j = 0; j < W; ++j)
            y[j] = keep[j] ? x[j] * a.scale : 0.0f;
        StoreVec<T, W>(out + v * W, y);
    }
    // The last numel % W elements, one a thread of the first block.
    const int64_t tail = a.numel - nvec * W;
    if(blockIdx.x == 0 && threadIdx.x < tail)
    {
        const int64_t i = nvec * W + threadIdx.x;
        bool keep;
        if constexpr(Mode == kRead)
            keep = mask[i] != 0;
        else
        {
            const Philox4 bits = DropoutBits(seed, offset, static_cast<uint64_t>(i / 4));
            keep               = DropoutKeep(bits.v[i % 4], a.rate);
            if constexpr(Mode == kDrawWrite)
                mask[i] = keep ? 1 : 0;
        }
        StoreFloat(out + i, keep ? DeviceToFloat(in[i]) * a.scale : 0.0f);
    }
}

template <class T, int Mode>
__global__ void __launch_bounds__(kDropoutThreads)
    DropoutStrided(DropoutArgs a, const T* in, T* out, uint8_t* mask, const DropoutState* state,
                   bool use_last)
{
    uint64_t seed = 0, offset = 0;
    if constexpr(Mode != kRead)
        SeedOffset(state, use_last, seed, offset);
    const int64_t groups = (a.numel + 3) / 4;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for(int64_t g = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups;
        g += stride)
    {
        const int have = a.numel - 4 * g < 4 ? static_cast<int>(a.numel - 4 * g) : 4;
        uint8_t keep[4];
        KeepBits<Mode>(a, seed, offset, g, mask, have, keep);
        for(int j = 0; j < have; ++j)
        {
            int64_t i  = 4 * g + j;
            int64_t oi = 0, oo = 0;
            for(int d = a.ndim - 1; d >= 0; --d)
            {
                const int64_t q = i / a.lens[d];
                const int64_t r = i - q * a.lens[d];
                oi += r * a.in_strides[d];
                oo += r * a.out_strides[d];
                i = q;
            }
            if constexpr(Mode == kDrawWrite)
                mask[4 * g + j] = keep[j];
            StoreFloat(out + oo, keep[j] ? DeviceToFloat(in[oi]) * a.scale : 0.0f);
        }
    }
}

__global__ void DropoutAdvance(DropoutState* state)
{
    state->last = state->offset;
    state->offset += 1;
}

} // namespace

template <class T>
void LaunchDropoutPacked(const DropoutArgs& a, const Launch& l, const T* in, T* out,
                         uint8_t* mask, const DropoutState* state, bool use_last)
{
    if(a.read_mask)
        MIOPEN_CY_LAUNCH((DropoutPacked<T, kRead>), l, 0, a, in, out, mask, state, use_last);
    else if(a.write_mask)
        MIOPEN_CY_LAUNCH((DropoutPacked<T, kDrawWrite>), l, 0, a, in, out, mask, state, use_last);
    else
        MIOPEN_CY_LAUNCH((DropoutPacked<T, kDraw>), l, 0, a, in, out, mask, state, use_last);
}

template <class T>
void LaunchDropoutStrided(const DropoutArgs& a, const Launch& l, const T* in, T* out,
                          uint8_t* mask, const DropoutState* state, bool use_last)
{
    if(a.read_mask)
        MIOPEN_CY_LAUNCH((DropoutStrided<T, kRead>), l, 0, a, in, out, mask, state, use_last);
    else if(a.write_mask)
        MIOPEN_CY_LAUNCH((DropoutStrided<T, kDrawWrite>), l, 0, a, in, out, mask, state, use_last);
    else
        MIOPEN_CY_LAUNCH((DropoutStrided<T, kDraw>), l, 0, a, in, out, mask, state, use_last);
}

void LaunchDropoutAdvance(const Launch& l, DropoutState* state)
{
    MIOPEN_CY_LAUNCH(DropoutAdvance, l, 0, state);
}

#define MIOPEN_CY_DROPOUT(T)                                                                    \
    template void LaunchDropoutPacked<T>(const DropoutArgs&, const Launch&, const T*, T*,     \
                                         uint8_t*, const DropoutState*, bool);               \
    template void LaunchDropoutStrided<T>(const DropoutArgs&, const Launch&, const T*, T*,    \
                                          uint8_t*, const DropoutState*, bool);
MIOPEN_CY_DROPOUT(float)
MIOPEN_CY_DROPOUT(Half)
MIOPEN_CY_DROPOUT(BFloat16)
#undef MIOPEN_CY_DROPOUT

} // namespace miopen::gpu
