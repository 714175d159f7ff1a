// The inference coefficients of one parameter entry, y = (x - m) * a + c, in fp32:
//   inv_std = 1 / sqrtf(var + eps), m = mean, a = alpha * scale * inv_std, c = alpha * bias.
// One formula for every inference path: the coefficient kernel (batchnorm.hip's BnInferCoef),
// the packed kernel's blocks of one channel and its threads of fixed channels
// (bn_infer_packed.hip). Device code: include from .hip files only.
#pragma once

#include <cstdint>

namespace miopen::gpu {

__device__ inline void BnInferCoefAt(const float* scale, const float* bias, const float* est_mean,
                                     const float* est_var, int64_t p, float alpha, float epsilon,
                                     float& m, float& a, float& c)
{
    const float inv_std = 1.0f / sqrtf(est_var[p] + epsilon);
    m                   = est_mean[p];
    a                   = alpha * scale[p] * inv_std;
    c                   = alpha * bias[p];
}

} // namespace miopen::gpu
