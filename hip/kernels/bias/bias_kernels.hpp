// Host entry points of bias.hip (the bias gradient), called by bias_launch.cpp. Plain C++.
#pragma once

#include "common/args.hpp"

namespace miopen::gpu {

/// Per-(channel, chunk) sums of dy, in double.
void LaunchBiasBwdPartial(const GroupArgs<1>& a, const Launch& l, const float* dy,
                          Partial2* partial);
/// db = alpha * sum + beta * db per channel (db not read when beta == 0); the channel's db
/// offset comes from a.g (the parameter operand).
void LaunchBiasBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                         float* db, float alpha, float beta);

/// bias_fwd_packed: y = alpha * y + alpha * b[c] (+ beta * y) on packed NC[D]HW y whose
/// per-(n, c) plane is a whole number of float4s, y 16-byte aligned. A block owns a balanced
/// chunk of one plane (planes * chunks blocks); `streaming`: loads and stores carry the
/// evict-first hint (__ldcs / __stcs), for the in-place read-modify-write.
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
void LaunchBiasFwdPacked(const BiasFwdPackedArgs& p, const Launch& l, bool streaming);

} // namespace miopen::gpu
