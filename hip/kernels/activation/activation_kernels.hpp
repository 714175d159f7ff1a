// Host entry points of activation.hip, called by activation_launch.cpp. Plain C++.
#pragma once

#include "common/args.hpp"

namespace miopen::gpu {

/// The descriptor's mode (a miopenActivationMode_t value) and parameters.
struct ActivationMode
{
    int mode;
    float alpha, beta, gamma;
};

/// y = alpha * f(x) + beta * y; in = {x}.
void LaunchActivationFwd(const MapArgs<1>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out);
/// dx = alpha * f'(x) * dy + beta * dx; in = {dy, x}.
void LaunchActivationBwd(const MapArgs<2>& a, const Launch& l, const ActivationMode& m,
                         float alpha, bool read_out);

} // namespace miopen::gpu
