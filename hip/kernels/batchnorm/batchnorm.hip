// Batch normalization, any strides, spatial and per-activation: statistics by the deterministic
// group reduction (common/reduce.hpp: double sums, fixed order, no atomics), one thread per group
// to finish them (running and saved statistics, the per-group coefficients), and the element-wise
// engine (common/elementwise.hpp) to write y or dx from the coefficients. Formulas and rounding
// follow the CPU kernels (cpu/batchnorm_*.cpp): 1/sqrt in float, the running variance unbiased
// (m / (m - 1), except for m = 1), coefficients rounded to float.
//
//   bn_stats        sum (x - x0), sum (x - x0)^2 per (group, chunk)   x0: the group's first x
//   bn_train_finish mean, variance, inv_std; running / saved; y coefficients
//   bn_infer_coef   y coefficients from the estimated mean and variance
//   bn_apply        y = (x - m) * a + c (+ beta * y)
//   bn_bwd_prepare  mean and inv_std from the saved statistics or the stats partials
//   bn_grad_sums    sum dy, sum dy * (x - mean) per (group, chunk)
//   bn_bwd_finish   dscale, dbias; dx coefficients
//   bn_bwd_apply    dx = c1 * dy + (c2 * (x - m) + c3) (+ beta * dx)
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/common/elementwise.hpp"
#include "kernels/common/reduce.hpp"

namespace miopen::gpu {
namespace {

struct StatsAcc
{
    const float* x;
    double shift;
    __device__ void Begin(int64_t, const int64_t (&goff)[2]) { shift = x[goff[0]]; }
    __device__ void Add(const int64_t (&off)[1], double& s1, double& s2) const
    {
        const double d = static_cast<double>(x[off[0]]) - shift;
        s1 += d;
        s2 += d * d;
    }
};

struct GradAcc
{
    const float* x;
    const float* dy;
    const double* mean;
    double mu;
    __device__ void Begin(int64_t g, const int64_t (&)[3]) { mu = mean[g]; }
    __device__ void Add(const int64_t (&off)[2], double& s1, double& s2) const
    {
        const double g = dy[off[1]];
        s1 += g;
        s2 += g * (static_cast<double>(x[off[0]]) - mu);
    }
};

/// Mean and biased variance of group g from its stats partials.
__device__ inline void Moments(const GroupArgs<1>& a, const float* x, const Partial2* partial,
                               int64_t g, const int64_t (&goff)[2], double& mean, double& var)
{
    const Partial2 t = SumPartials(partial, g, a.chunks);
    const double m   = static_cast<double>(a.m);
    const double d   = t.s1 / m;
    mean             = static_cast<double>(x[goff[0]]) + d;
    var              = t.s2 / m - d * d;
    if(!(var > 0.0))
        var = 0.0; // rounding can leave a constant group's variance a hair below 0
}

#define MIOPEN_CY_PER_GROUP(g, a)                                                       \
    for(int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; g < (a).groups; \
        g += int64_t{gridDim.x} * blockDim.x)

__global__ void BnTrainFinish(GroupArgs<1> a, const float* x, const Partial2* partial,
                              BnTrainArgs t, BnCoef coef)
{
    const double m      = static_cast<double>(a.m);
    const double unbias = a.m > 1 ? m / (m - 1.0) : 1.0;
    const double f      = t.exp_avg_factor;
    MIOPEN_CY_PER_GROUP(g, a)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        const int64_t p = goff[1];
        double mean, var;
        Moments(a, x, partial, g, goff, mean, var);
        const float inv_std = 1.0f / sqrtf(static_cast<float>(var) + t.epsilon);
        if(t.running_mean != nullptr)
        {
            t.running_mean[p] = static_cast<float>((1.0 - f) * t.running_mean[p] + f * mean);
            t.running_variance[p] =
                static_cast<float>((1.0 - f) * t.running_variance[p] + f * (var * unbias));
        }
        if(t.save_mean != nullptr)
        {
            t.save_mean[p]    = static_cast<float>(mean);
            t.save_inv_std[p] = inv_std;
        }
        coef.m[g] = static_cast<float>(mean);
        coef.a[g] = static_cast<float>(static_cast<double>(t.alpha) * t.scale[p] * inv_std);
        coef.c[g] = t.alpha * t.bias[p];
    }
}

__global__ void BnInferCoef(GroupArgs<1> a, const float* scale, const float* bias,
                            const float* est_mean, const float* est_var, float alpha,
                            float epsilon, BnCoef coef)
{
    MIOPEN_CY_PER_GROUP(g, a)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        const int64_t p     = goff[1];
        const float inv_std = 1.0f / sqrtf(est_var[p] + epsilon);
        coef.m[g]           = est_mean[p];
        coef.a[g]           = alpha * scale[p] * inv_std;
        coef.c[g]           = alpha * bias[p];
    }
}

__global__ void BnBwdPrepare(GroupArgs<1> a, const float* x, const Partial2* partial,
                             const float* saved_mean, const float* saved_inv_std, float epsilon,
                             double* mean, double* inv_std)
{
    MIOPEN_CY_PER_GROUP(g, a)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        if(saved_mean != nullptr)
        {
            mean[g]    = saved_mean[goff[1]];
            inv_std[g] = saved_inv_std[goff[1]];
            continue;
        }
        double mu, var;
        Moments(a, x, partial, g, goff, mu, var);
        mean[g]    = mu;
        inv_std[g] = 1.0f / sqrtf(static_cast<float>(var) + epsilon);
    }
}

__global__ void BnBwdFinish(GroupArgs<1> a, const Partial2* partial, const double* mean,
                            const double* inv_std, const float* scale, float* dscale,
                            float* dbias, double alpha_data, float alpha_param, float beta_param,
                            BnCoef coef)
{
    const double inv_m = 1.0 / static_cast<double>(a.m);
    MIOPEN_CY_PER_GROUP(g, a)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        const int64_t p  = goff[1];
        const Partial2 t = SumPartials(partial, g, a.chunks);
        const double is  = inv_std[g];
        const double ds  = t.s2 * is;
        if(beta_param == 0.0f)
        {
            dscale[p] = alpha_param * static_cast<float>(ds);
            dbias[p]  = alpha_param * static_cast<float>(t.s1);
        }
        else
        {
            dscale[p] = alpha_param * static_cast<float>(ds) + beta_param * dscale[p];
            dbias[p]  = alpha_param * static_cast<float>(t.s1) + beta_param * dbias[p];
        }
        const double c1 = alpha_data * scale[p] * is;
        coef.m[g]       = static_cast<float>(mean[g]);
        coef.a[g]       = static_cast<float>(c1);
        coef.c[g]       = static_cast<float>(-c1 * is * ds * inv_m);
        coef.d[g]       = static_cast<float>(-c1 * t.s1 * inv_m);
    }
}

struct ApplyF
{
    __device__ float operator()(const float* v) const { return (v[0] - v[1]) * v[2] + v[3]; }
};

struct BwdApplyF
{
    __device__ float operator()(const float* v) const
    {
        return v[3] * v[0] + (v[4] * (v[1] - v[2]) + v[5]);
    }
};

} // namespace

void LaunchBnStats(const GroupArgs<1>& a, const Launch& l, const float* x, Partial2* partial)
{
    MIOPEN_CY_LAUNCH((GroupPartial<1, StatsAcc>), l, 0, a, StatsAcc{x, 0.0}, partial);
}

void LaunchBnTrainFinish(const GroupArgs<1>& a, const Launch& l, const float* x,
                         const Partial2* partial, const BnTrainArgs& t, BnCoef coef)
{
    MIOPEN_CY_LAUNCH(BnTrainFinish, l, 0, a, x, partial, t, coef);
}

void LaunchBnInferCoef(const GroupArgs<1>& a, const Launch& l, const float* scale,
                       const float* bias, const float* est_mean, const float* est_var,
                       float alpha, float epsilon, BnCoef coef)
{
    MIOPEN_CY_LAUNCH(BnInferCoef, l, 0, a, scale, bias, est_mean, est_var, alpha, epsilon, coef);
}

void LaunchBnApply(const MapArgs<4>& a, const Launch& l, bool read_out)
{
    LaunchMap(a, l, read_out, ApplyF{});
}

void LaunchBnBwdPrepare(const GroupArgs<1>& a, const Launch& l, const float* x,
                        const Partial2* partial, const float* saved_mean,
                        const float* saved_inv_std, float epsilon, double* mean, double* inv_std)
{
    MIOPEN_CY_LAUNCH(BnBwdPrepare, l, 0, a, x, partial, saved_mean, saved_inv_std, epsilon, mean,
                     inv_std);
}

void LaunchBnGradSums(const GroupArgs<2>& a, const Launch& l, const float* x, const float* dy,
                      const double* mean, Partial2* partial)
{
    MIOPEN_CY_LAUNCH((GroupPartial<2, GradAcc>), l, 0, a, GradAcc{x, dy, mean, 0.0}, partial);
}

void LaunchBnBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                       const double* mean, const double* inv_std, const float* scale,
                       float* dscale, float* dbias, double alpha_data, float alpha_param,
                       float beta_param, BnCoef coef)
{
    MIOPEN_CY_LAUNCH(BnBwdFinish, l, 0, a, partial, mean, inv_std, scale, dscale, dbias,
                     alpha_data, alpha_param, beta_param, coef);
}

void LaunchBnBwdApply(const MapArgs<6>& a, const Launch& l, bool read_out)
{
    LaunchMap(a, l, read_out, BwdApplyF{});
}

} // namespace miopen::gpu
