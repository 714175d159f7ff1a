// Host entry points of bias.hip (the bias gradient), called by bias_launch.cpp; the templates for
// T = float, Half, BFloat16. Plain C++.
#pragma once

#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// Per-(channel, chunk) sums of dy, in double.
template <class T>
void LaunchBiasBwdPartial(const GroupArgs<1>& a, const Launch& l, const T* dy, Partial2* partial);
/// db = alpha * sum + beta * db per channel (db not read when beta == 0); the channel's db
/// offset comes from a.g (the parameter operand).
template <class T>
void LaunchBiasBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial, T* db,
                         float alpha, float beta);

/// Packed N, C, S dy (S = D*H*W, a multiple of W = 16 / sizeof(T): 4 fp32, 8 fp16/bf16) in
/// units of 16-byte vectors for BiasBwdNchw4; every count of vectors fits in 31 bits.
struct BiasBwdNchw4Args
{
    uint32_t n = 1, c = 1;
    uint32_t s4     = 1; // S / W: vectors of one (n, c) plane
    uint32_t chunk4 = 1; // vectors of a channel per block
    uint32_t chunks = 1; // blocks per channel (grid.x)
};
constexpr int kBiasBwdThreads = 256;
/// Per-(channel, chunk) sums of packed dy into partial[c * chunks + p].s1 (grid chunks x C).
template <class T>
void LaunchBiasBwdNchw4(const BiasBwdNchw4Args& a, const Launch& l, const T* dy, Partial2* partial);

/// bias_fwd_packed: y = alpha * y + alpha * b[c] (+ beta * y) on packed NC[D]HW y whose
/// per-(n, c) plane is a whole number of 16-byte vectors (W = 16 / sizeof(T) elements), y 16-byte
/// aligned. A block owns a balanced chunk of one plane (planes * chunks blocks). Channels-last
/// (cq > 0): packed N[D]HWC y with C a multiple of W is one plane of whole pixels (chunks
/// multiples of cq vectors), vector q's channels (q % cq) * W onwards.
template <class T>
struct BiasFwdPackedArgs
{
    T* y             = nullptr;
    const T* b       = nullptr;
    int64_t b_stride = 1;   // b's C stride
    int64_t channels = 1;
    int64_t plane_q  = 0;   // vectors per (n, c) plane
    int64_t chunk_q  = 0;   // vectors per block
    int64_t chunks   = 1;   // blocks per plane
    int64_t cq       = 0;   // channels-last: vectors a pixel (C / W); 0: NC[D]HW
    int fixed        = 0;   // channels-last: cq divides kBiasFwdThreads
    float alpha      = 1.0f;
    float beta       = 0.0f;
};
constexpr int kBiasFwdThreads = 256;
constexpr int kBiasFwdUnroll  = 4; // 16-byte vectors a thread moves per pass
template <class T>
void LaunchBiasFwdPacked(const BiasFwdPackedArgs<T>& p, const Launch& l);

} // namespace miopen::gpu
