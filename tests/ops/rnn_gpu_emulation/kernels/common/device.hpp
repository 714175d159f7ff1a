// Host stand-in for kernels/common/device.hpp, for tests/ops/test_rnn_gpu_emulated.py: the
// kernel qualifiers compile away and MIOPEN_CY_LAUNCH runs the kernel on the host once per thread
// of its grid, in order (threadIdx.y and z descending, so that a block's lane 0 runs after the
// lanes whose partial results it folds after __syncthreads, which is a no-op here).
#pragma once
#include "kernels/common/args.hpp"
#include <cstdint>
#include <cmath>
#include <cstring>
#define __global__
#define __device__
#define __host__
#define __launch_bounds__(x)
#define __shared__ static
struct EmuDim { unsigned x = 0, y = 0, z = 0; };
inline thread_local EmuDim blockIdx, threadIdx, gridDim, blockDim;
inline void __syncthreads() {}
inline float __uint_as_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint32_t __float_as_uint(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
#define MIOPEN_CY_LAUNCH(kernel, launch, shared, ...)                                             \
    do {                                                                                          \
        const auto& L_ = (launch);                                                                \
        gridDim  = {L_.grid.x, L_.grid.y, L_.grid.z};                                             \
        blockDim = {L_.block.x, L_.block.y, L_.block.z};                                          \
        for(unsigned bz = 0; bz < L_.grid.z; ++bz)                                                \
            for(unsigned by = 0; by < L_.grid.y; ++by)                                            \
                for(unsigned bx = 0; bx < L_.grid.x; ++bx)                                        \
                    for(int tz = int(L_.block.z) - 1; tz >= 0; --tz)                              \
                        for(int ty = int(L_.block.y) - 1; ty >= 0; --ty)                          \
                            for(unsigned tx = 0; tx < L_.block.x; ++tx)                           \
                            {                                                                     \
                                blockIdx  = {bx, by, bz};                                         \
                                threadIdx = {tx, unsigned(ty), unsigned(tz)};                     \
                                kernel(__VA_ARGS__);                                              \
                            }                                                                     \
    } while(0)
