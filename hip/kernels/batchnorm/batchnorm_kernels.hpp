// Host entry points of batchnorm.hip, called by batchnorm_launch.cpp. Plain C++.
#pragma once

#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// Per-group coefficients in the handle's scratch, indexed by group number.
struct BnCoef
{
    float* m;  // forward: y = (x - m) * a + c;  backward: dx = c1 * dy + (c2 * (x - m) + c3)
    float* a;  // a or c1
    float* c;  // c or c2
    float* d;  // backward: c3
};

/// Parameters of a training forward's finish: the batch statistics to save and update.
struct BnTrainArgs
{
    const float* scale;
    const float* bias;
    float alpha;
    float epsilon;
    double exp_avg_factor;
    float* running_mean;      // both or neither
    float* running_variance;
    float* save_mean;         // both or neither
    float* save_inv_std;
};

/// Shifted sums of x per (group, chunk): sum (x - x0) and sum (x - x0)^2, x0 the group's first.
void LaunchBnStats(const GroupArgs<1>& a, const Launch& l, const float* x, Partial2* partial);
/// Batch statistics, running / saved statistics and the coefficients (one thread per group).
void LaunchBnTrainFinish(const GroupArgs<1>& a, const Launch& l, const float* x,
                         const Partial2* partial, const BnTrainArgs& t, BnCoef coef);
/// bn_infer_packed.hip: inference over packed x and y in planes of plane_q float4s (spatial: one
/// (n, c) a plane, coefficients from the parameters at channel * param_stride; per activation:
/// one n a plane, coefficients coef_m/a/c of bn_infer_coef, non-null). Grid: planes * chunks
/// blocks of BnInferPackedThreads() threads, chunk_q float4s of a plane each.
struct BnInferPackedArgs
{
    const float* x = nullptr;
    float* y       = nullptr;
    int64_t plane_q = 0, chunk_q = 0, chunks = 1, channels = 1, param_stride = 1;
    const float* scale = nullptr;
    const float* bias = nullptr;
    const float* est_mean = nullptr;
    const float* est_var = nullptr;
    const float* coef_m = nullptr;
    const float* coef_a = nullptr;
    const float* coef_c = nullptr;
    float alpha = 1.0f, beta = 0.0f, epsilon = 0.0f;
};
int BnInferPackedThreads();
/// unroll: float4s of x a thread keeps in flight (4 spatial, 2 per activation).
void LaunchBnInferPacked(const BnInferPackedArgs& p, const Launch& l, int unroll);

/// Coefficients from the estimated statistics.
void LaunchBnInferCoef(const GroupArgs<1>& a, const Launch& l, const float* scale,
                       const float* bias, const float* est_mean, const float* est_var,
                       float alpha, float epsilon, BnCoef coef);
/// y = (x - m) * a + c + beta * y; in = {x, m, a, c}.
void LaunchBnApply(const MapArgs<4>& a, const Launch& l, bool read_out);

/// Backward: the mean and 1/sqrt(var + eps) per group into mean/inv_std, from the saved
/// statistics (saved_mean non-null) or from stats partials of x.
void LaunchBnBwdPrepare(const GroupArgs<1>& a, const Launch& l, const float* x,
                        const Partial2* partial, const float* saved_mean,
                        const float* saved_inv_std, float epsilon, double* mean, double* inv_std);
/// sum dy and sum dy * (x - mean) per (group, chunk); operands {x, dy}.
void LaunchBnGradSums(const GroupArgs<2>& a, const Launch& l, const float* x, const float* dy,
                      const double* mean, Partial2* partial);
/// dscale and dbias (blended with alpha/beta_param) and the dx coefficients, per group.
void LaunchBnBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                       const double* mean, const double* inv_std, const float* scale,
                       float* dscale, float* dbias, double alpha_data, float alpha_param,
                       float beta_param, BnCoef coef);
/// dx = c1 * dy + (c2 * (x - m) + c3) + beta * dx; in = {dy, x, m, c1, c2, c3}.
void LaunchBnBwdApply(const MapArgs<6>& a, const Launch& l, bool read_out);

} // namespace miopen::gpu
