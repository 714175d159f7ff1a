// Host entry point of bn_infer_peract.hip, called by bn_infer_packed_launch.cpp. Plain C++.
#pragma once

#include "core/storage.hpp"
#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

/// Per-activation inference: x and y (storage type T) packed N x (plane_v units of vec elements);
/// scale, bias, est_mean and est_var (fp32) packed runs of plane_v * vec floats, all 16-byte
/// aligned. Each thread applies one unit's coefficients to nb consecutive n; groups =
/// ceil(n / nb).
struct BnInferPeractArgs
{
    const void* x = nullptr; // T
    void* y       = nullptr; // T
    const float* scale    = nullptr;
    const float* bias     = nullptr;
    const float* est_mean = nullptr;
    const float* est_var  = nullptr;
    int64_t plane_v = 0, n = 1, nb = 1, groups = 1;
    int vec = 4; // elements a thread: 4, or 8 of 16-bit data (plane_v units of vec)
    float alpha = 1.0f, beta = 0.0f, epsilon = 0.0f;
};
int BnInferPeractThreads();
/// Grid: ceil(plane_v / BnInferPeractThreads()) * groups blocks of BnInferPeractThreads().
template <class T>
void LaunchBnInferPeract(const BnInferPeractArgs& p, const Launch& l);

} // namespace miopen::gpu
