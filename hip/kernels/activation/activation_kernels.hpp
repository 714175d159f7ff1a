// Host entry points of activation.hip, called by activation_launch.cpp, for T = float, Half,
// BFloat16. Plain C++.
#pragma once

#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// The descriptor's mode (a miopenActivationMode_t value) and parameters.
struct ActivationMode
{
    int mode;
    float alpha, beta, gamma;
};

/// y = alpha * f(x) + beta * y; in = {x}. Packed, aligned operands take MapPacked
/// (common/packed_map.hpp), the others the general engine (common/elementwise.hpp).
template <class T>
void LaunchActivationFwd(const MapArgs<1, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out);
/// dx = alpha * f'(x) * dy + beta * dx; in = {dy, x}. The kernel as the forward's.
template <class T>
void LaunchActivationBwd(const MapArgs<2, T>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out);

} // namespace miopen::gpu
