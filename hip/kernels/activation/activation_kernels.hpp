// Host entry points of activation.hip, called by activation_launch.cpp. Plain C++.
#pragma once

#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// The descriptor's mode (a miopenActivationMode_t value) and parameters.
struct ActivationMode
{
    int mode;
    float alpha, beta, gamma;
};

/// y = alpha * f(x) + beta * y; in = {x}. unroll: the float4s a thread moves (PackedUnroll of
/// common/packed_choice.hpp): packed, aligned operands take MapPacked (common/packed_map.hpp)
/// unless it is 0.
void LaunchActivationFwd(const MapArgs<1>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out, int unroll);
/// dx = alpha * f'(x) * dy + beta * dx; in = {dy, x}. unroll: as the forward's.
void LaunchActivationBwd(const MapArgs<2>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out, int unroll);

} // namespace miopen::gpu
