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

/// Packed N, C, S dy (S = D*H*W, a multiple of 4) in float4 units for BiasBwdNchw4; every count
/// of float4s fits in 31 bits.
struct BiasBwdNchw4Args
{
    uint32_t n = 1, c = 1;
    uint32_t s4     = 1; // S / 4
    uint32_t chunk4 = 1; // float4s of a channel per block
    uint32_t chunks = 1; // blocks per channel (grid.x)
};
constexpr int kBiasBwdThreads = 256;
/// Per-(channel, chunk) sums of packed dy into partial[c * chunks + p].s1 (grid chunks x C).
void LaunchBiasBwdNchw4(const BiasBwdNchw4Args& a, const Launch& l, const float* dy,
                        Partial2* partial);

/// bias_fwd_packed: y = alpha * y + alpha * b[c] (+ beta * y) on packed NC[D]HW y whose
/// per-(n, c) plane is a whole number of float4s, y 16-byte aligned. A block owns a balanced
/// chunk of one plane (planes * chunks blocks).
struct BiasFwdPackedArgs
{
    float* y        = nullptr;
    const float* b  = nullptr;
    int64_t b_stride = 1;   // b's C stride
    int64_t channels = 1;
    int64_t plane_q  = 0;   // float4s per (n, c) plane
    int64_t chunk_q  = 0;   // float4s per block
    int64_t chunks   = 1;   // blocks per plane
    float alpha      = 1.0f;
    float beta       = 0.0f;
};
constexpr int kBiasFwdThreads = 256;
constexpr int kBiasFwdUnroll  = 4; // float4s a thread moves per pass
void LaunchBiasFwdPacked(const BiasFwdPackedArgs& p, const Launch& l);

} // namespace miopen::gpu
