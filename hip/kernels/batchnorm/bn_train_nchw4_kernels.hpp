// Host entry points of bn_train_nchw4.hip, called by bn_train_nchw4_launch.cpp. Plain C++.
#pragma once

#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// Threads of a block of either kernel, and the float4s one apply block owns.
constexpr int kBnNchw4Threads  = 256;
constexpr int kBnApplyPerBlock = 4 * kBnNchw4Threads;

/// A packed N, C, S tensor (S = H*W or D*H*W, a multiple of 4) in float4 units; every count
/// of float4s fits in 31 bits.
struct BnNchw4Args
{
    uint32_t n = 1, c = 1;
    uint32_t hw4    = 1; // S / 4
    uint32_t chunk4 = 1; // stats: float4s of a channel per block
    uint32_t chunks = 1; // stats: blocks per channel (grid.x)
    float beta      = 0.0f;
};

/// Shifted sums of x per (channel, chunk) into partial[c * chunks + p] (grid chunks x C).
template <class T>
void LaunchBnStatsNchw4(const BnNchw4Args& a, const Launch& l, const T* x, Partial2* partial);
/// y = (x - m) * a + c + beta * y per channel, kBnApplyPerBlock quads a block.
template <class T>
void LaunchBnApplyNchw4(const BnNchw4Args& a, const Launch& l, const T* x, T* y, BnCoef coef,
                        const ActivationMode& act = kBnNoActivation);
/// Backward: sum dy and sum dy * (x - mean[c]) per (channel, chunk) into partial[c * chunks + p]
/// (fused: act'(u) * dy for dy, u = (x - mean) * ue + uf).
template <class T>
void LaunchBnGradSumsNchw4(const BnNchw4Args& a, const Launch& l, const T* x, const T* dy,
                           const double* mean, Partial2* partial, const float* ue = nullptr,
                           const float* uf = nullptr,
                           const ActivationMode& act = kBnNoActivation);
/// dx = c1 * dy + (c2 * (x - m) + c3) + beta * dx per channel (coef m, a, c, d; beta in a).
template <class T>
void LaunchBnBwdApplyNchw4(const BnNchw4Args& a, const Launch& l, const T* dy, const T* x, T* dx,
                           BnCoef coef, const ActivationMode& act = kBnNoActivation);

} // namespace miopen::gpu
