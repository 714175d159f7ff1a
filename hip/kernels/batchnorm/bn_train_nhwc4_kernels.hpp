// Host entry points of bn_train_nhwc4.hip, called by bn_train_nhwc4_launch.cpp. Plain C++.
#pragma once

#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

constexpr int kBnNhwc4Threads = 256;

/// A packed channels-last tensor of m positions (N*[D*]H*W) by c4 quads of channels (C / 4); a
/// stats (gradient sums) block is cp pairs of channels (a power of 2 <= 128, <= C / 2's power
/// of 2) by kBnNhwc4Threads / cp position lanes over `chunk` positions (chunk * C <= 2^31);
/// grid (chunks, ceil(C / 2 / cp)).
struct BnNhwc4Args
{
    int64_t m      = 1;
    int64_t c4     = 1;
    int64_t chunk  = 1;
    int chunks     = 1;
    int cp         = 1;
    float beta     = 0.0f;
};

/// Shifted sums per (channel, chunk) into partial[c * chunks + p] (x0: x at position 0).
template <class T>
void LaunchBnStatsNhwc4(const BnNhwc4Args& a, const Launch& l, const T* x, Partial2* partial);
/// total[c] = partial[c * chunks] + ... + partial[c * chunks + chunks - 1] (fixed order), for
/// c < the grid's blocks (one block of kBnNhwc4Threads a channel).
void LaunchBnCollapsePartials(const Launch& l, const Partial2* partial, int chunks,
                              Partial2* total);
/// y = (x - m) * a + c + beta * y per channel, coefficients indexed by channel; a thread per
/// quad, grid-stride.
template <class T>
void LaunchBnApplyNhwc4(const BnNhwc4Args& a, const Launch& l, const T* x, T* y, BnCoef coef,
                        const ActivationMode& act = kBnNoActivation);
/// Backward: sum dy and sum dy * (x - mean[c]) per (channel, chunk) into partial[c * chunks + p]
/// (fused: act'(u) * dy for dy, u = (x - mean) * ue + uf).
template <class T>
void LaunchBnGradSumsNhwc4(const BnNhwc4Args& a, const Launch& l, const T* x, const T* dy,
                           const double* mean, Partial2* partial, const float* ue = nullptr,
                           const float* uf = nullptr,
                           const ActivationMode& act = kBnNoActivation);
/// dx = c1 * dy + (c2 * (x - m) + c3) + beta * dx per channel (coef m, a, c, d; beta in a).
template <class T>
void LaunchBnBwdApplyNhwc4(const BnNhwc4Args& a, const Launch& l, const T* dy, const T* x, T* dx,
                           BnCoef coef, const ActivationMode& act = kBnNoActivation);

} // namespace miopen::gpu
