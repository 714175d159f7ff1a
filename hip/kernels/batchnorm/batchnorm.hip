// Batch normalization, any strides, spatial and per-activation, data of any storage type T
// (loaded as fp32, results rounded once): statistics by the deterministic
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
//   bn_peract_train per activation, packed, n <= 64: statistics, finish and y in one kernel
//                   (the group's n values staged in shared memory; bn_peract_bwd the same)
//   bn_param_*      parameter tensors of any type and strides to packed fp32 and back
// The applies of fp32 data run on the element-wise engine; those of 16-bit data on the strided
// kernels here (one element a thread, LoadFloat / StoreFloat), and so do those fused with an
// activation (bn_activ.hpp: y = act(v) as stored; backward dy' = act'(u) * dy in the gradient
// sums, bn_peract_*, and the dx apply).
#include "kernels/batchnorm/batchnorm_kernels.hpp"
#include "kernels/batchnorm/bn_activ.hpp"
#include "kernels/batchnorm/bn_infer_coef.hpp"
#include "kernels/common/elementwise.hpp"
#include "kernels/common/reduce.hpp"
#include "kernels/common/storage_types.hpp"

namespace miopen::gpu {
namespace {

template <class T>
struct StatsAcc
{
    const T* x;
    double shift;
    __device__ void Begin(int64_t, const int64_t (&goff)[2]) { shift = LoadFloat(x + goff[0]); }
    __device__ void Add(const int64_t (&off)[1], double& s1, double& s2) const
    {
        const double d = static_cast<double>(LoadFloat(x + off[0])) - shift;
        s1 += d;
        s2 += d * d;
    }
};

template <class T, class Op = PassThru>
struct GradAcc
{
    const T* x;
    const T* dy;
    const double* mean;
    double mu;
    const float* ue = nullptr; // fused: the activation's input coefficients
    const float* uf = nullptr;
    Op op{};
    float mf = 0.0f, e = 0.0f, f = 0.0f;
    __device__ void Begin(int64_t g, const int64_t (&)[3])
    {
        mu = mean[g];
        if constexpr(kBnActive<Op>)
        {
            mf = static_cast<float>(mu);
            e  = ue[g];
            f  = uf[g];
        }
    }
    __device__ void Add(const int64_t (&off)[2], double& s1, double& s2) const
    {
        const float xv = LoadFloat(x + off[0]);
        const double g = BnActBack<T>(op, xv, mf, e, f, LoadFloat(dy + off[1]));
        s1 += g;
        s2 += g * (static_cast<double>(xv) - mu);
    }
};

/// Mean and biased variance of group g from its stats partials.
template <class T>
__device__ inline void Moments(const GroupArgs<1>& a, const T* x, const Partial2* partial,
                               int64_t g, const int64_t (&goff)[2], double& mean, double& var)
{
    const Partial2 t = SumPartials(partial, g, a.chunks);
    const double m   = static_cast<double>(a.m);
    const double d   = t.s1 / m;
    mean             = static_cast<double>(LoadFloat(x + goff[0])) + d;
    var              = t.s2 / m - d * d;
    if(!(var > 0.0))
        var = 0.0; // rounding can leave a constant group's variance a hair below 0
}

#define MIOPEN_CY_PER_GROUP(g, a)                                                       \
    for(int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; g < (a).groups; \
        g += int64_t{gridDim.x} * blockDim.x)

/// The finish of one group from its mean and biased variance (double): running and saved
/// statistics at parameter offset p, and the y coefficients m, a, c.
__device__ inline void TrainFinishGroup(const BnTrainArgs& t, double unbias, int64_t p,
                                        double mean, double var, float& cm, float& ca, float& cc)
{
    const double f      = t.exp_avg_factor;
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
    cm = static_cast<float>(mean);
    ca = static_cast<float>(static_cast<double>(t.alpha) * t.scale[p] * inv_std);
    cc = t.alpha * t.bias[p];
}

template <class T>
__global__ void BnTrainFinish(GroupArgs<1> a, const T* x, const Partial2* partial,
                              BnTrainArgs t, BnCoef coef)
{
    const double m      = static_cast<double>(a.m);
    const double unbias = a.m > 1 ? m / (m - 1.0) : 1.0;
    MIOPEN_CY_PER_GROUP(g, a)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        double mean, var;
        Moments(a, x, partial, g, goff, mean, var);
        TrainFinishGroup(t, unbias, goff[1], mean, var, coef.m[g], coef.a[g], coef.c[g]);
    }
}

/// The per-activation kernels' register cap. Their blocks are small (kBnPeractThreads) and
/// shared memory bounds how many an SM holds: at n = 64 about 25 (train, 16-bit: 8 KiB a
/// block, plus 1 KiB the runtime keeps a block, of an H100 / H200's 228 KiB), 13 (train fp32,
/// backward 16-bit), 6 (backward fp32). Registers must not bound it lower: 4331036 unrolled the
/// staging to 64 guarded loads a thread and ptxas gave the kernels 115-252 registers (32 before),
/// 4-6 blocks an SM; on an H200 that made the 16-bit forward and every backward 1.6-1.9x slower.
/// On CUDA the minimum blocks cap the registers (65536 / (64 * blocks)); HIP's second launch
/// bound means something else, and its wave64 blocks are one wave each, so it is left out.
#if defined(MIOPEN_CY_HAVE_CUDA)
#define MIOPEN_CY_BN_PERACT_BOUNDS(blocks) __launch_bounds__(kBnPeractThreads, blocks)
#else
#define MIOPEN_CY_BN_PERACT_BOUNDS(blocks) __launch_bounds__(kBnPeractThreads)
#endif
template <class T>
constexpr int kPeractTrainBlocks = sizeof(T) == 2 ? 25 : 13;
template <class T>
constexpr int kPeractBwdBlocks = sizeof(T) == 2 ? 13 : 6;

/// Loads of one operand a thread keeps in flight while staging (the backward stages x and dy
/// together: twice as many), within the register caps above (ptxas, sm_90: train 32 registers
/// for 16-bit data (16 loads; more only serialise under the cap of 40), 56 for fp32 (32 loads);
/// backward 72 for 16-bit data (2 x 32 loads, 57 issued before the first store), 96 for fp32
/// (2 x 32, all 64 before it)). Full steps are unguarded (guarded ones gave every load its own 64-bit address);
/// the rest of n goes in steps of kU / 2, kU / 4, ..., 1, each at most once, so a tail keeps
/// its loads in flight too.
template <class T>
constexpr int kPeractTrainLoads = sizeof(T) == 2 ? 16 : 32;
template <class T>
constexpr int kPeractBwdLoads = 32;

/// Rows [i, n) of this thread's group (rows r * groups of src) into its column of shared memory
/// (dst[r * kBnPeractThreads], as stored: T) in steps of kU rows, then of kU / 2, ... (Two: the
/// same for a second operand, src2 into dst2, its loads in flight with the first's). Each thread
/// reads back only its own column: no barrier.
template <int kU, bool Two, class T>
__device__ inline void PeractStageSteps(int64_t& i, int64_t n, int64_t groups, const T* src,
                                        T* dst, const T* src2, T* dst2)
{
    for(; i + kU <= n; i += kU)
    {
        T r[kU], r2[kU];
#pragma unroll
        for(int u = 0; u < kU; ++u)
        {
            r[u] = src[(i + u) * groups];
            if(Two)
                r2[u] = src2[(i + u) * groups];
        }
#pragma unroll
        for(int u = 0; u < kU; ++u)
        {
            dst[(i + u) * kBnPeractThreads] = r[u];
            if(Two)
                dst2[(i + u) * kBnPeractThreads] = r2[u];
        }
    }
    if constexpr(kU > 1)
        PeractStageSteps<kU / 2, Two>(i, n, groups, src, dst, src2, dst2);
}

/// x's n values of this thread's group into its column of shared memory, kU loads in flight.
template <int kU, class T>
__device__ inline void PeractStage(int64_t n, int64_t groups, const T* x, T* sh)
{
    int64_t i = 0;
    PeractStageSteps<kU, false>(i, n, groups, x, sh, static_cast<const T*>(nullptr),
                                static_cast<T*>(nullptr));
}

/// PeractStage of two operands at once (x into shx, dy into shg): kU loads of each in flight.
template <int kU, class T>
__device__ inline void PeractStage2(int64_t n, int64_t groups, const T* x, const T* dy, T* shx,
                                    T* shg)
{
    int64_t i = 0;
    PeractStageSteps<kU, true>(i, n, groups, x, shx, dy, shg);
}

/// One group per thread, its n values (n <= kBnPeractTrainMaxN) staged in shared memory (a
/// column of n stored elements a thread: registers held all 64 before, 206 of them, one block of
/// 256 an SM): the mean and M2 in double by two passes over them (the CPU's formulas), the
/// finish, then y. x is read once from global memory.
template <class T, bool ReadY, class Op>
__global__ void MIOPEN_CY_BN_PERACT_BOUNDS(kPeractTrainBlocks<T>)
    BnPeractTrain(int64_t n, int64_t groups, const T* x, T* y, BnTrainArgs t, float beta, Op op)
{
    extern __shared__ unsigned char bn_peract_smem[];
    const int64_t g = int64_t{blockIdx.x} * kBnPeractThreads + threadIdx.x;
    if(g >= groups)
        return;
    T* v = reinterpret_cast<T*>(bn_peract_smem) + threadIdx.x; // v[i * kBnPeractThreads]
    PeractStage<kPeractTrainLoads<T>>(n, groups, x + g, v);
    double s = 0.0;
#pragma unroll 4
    for(int64_t i = 0; i < n; ++i)
        s += DeviceToFloat(v[i * kBnPeractThreads]);
    const double m    = static_cast<double>(n);
    const double mean = s / m;
    double q          = 0.0;
#pragma unroll 4
    for(int64_t i = 0; i < n; ++i)
    {
        const double d = DeviceToFloat(v[i * kBnPeractThreads]) - mean;
        q += d * d;
    }
    const double unbias = n > 1 ? m / (m - 1.0) : 1.0;
    float cm, ca, cc;
    TrainFinishGroup(t, unbias, g, mean, q / m, cm, ca, cc);
    for(int64_t i = 0; i < n; ++i)
    {
        T* out  = y + i * groups + g;
        float r = (DeviceToFloat(v[i * kBnPeractThreads]) - cm) * ca + cc;
        if(ReadY)
            r += beta * LoadFloat(out);
        StoreFloat(out, BnActF<T>(op, r));
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
        BnInferCoefAt(scale, bias, est_mean, est_var, goff[1], alpha, epsilon, coef.m[g], coef.a[g],
                      coef.c[g]);
    }
}

/// Per-activation backward, one group per thread with its n values of x and dy staged in shared
/// memory (n <= kBnPeractTrainMaxN; x's column, then dy's, n rows of kBnPeractThreads each):
/// the statistics (saved, or recomputed as bn_bwd_prepare does), the sums, dscale / dbias and dx
/// by bn_bwd_finish's and bn_bwd_apply's formulas. x and dy are read once from global memory.
template <class T, bool ReadDx, class Op>
__global__ void MIOPEN_CY_BN_PERACT_BOUNDS(kPeractBwdBlocks<T>)
    BnPeractBwd(int64_t n, int64_t groups, const T* x, const T* dy, T* dx, BnPeractBwdArgs b,
                Op op)
{
    extern __shared__ unsigned char bn_peract_smem[];
    const int64_t g = int64_t{blockIdx.x} * kBnPeractThreads + threadIdx.x;
    if(g >= groups)
        return;
    T* vx = reinterpret_cast<T*>(bn_peract_smem) + threadIdx.x;
    T* vg = vx + n * kBnPeractThreads;
    PeractStage2<kPeractBwdLoads<T>>(n, groups, x + g, dy + g, vx, vg);
    const double m = static_cast<double>(n);
    double mean, inv_std;
    if(b.saved_mean != nullptr)
    {
        mean    = b.saved_mean[g];
        inv_std = b.saved_inv_std[g];
    }
    else
    {
        double s = 0.0;
        for(int64_t i = 0; i < n; ++i)
            s += DeviceToFloat(vx[i * kBnPeractThreads]);
        mean     = s / m;
        double q = 0.0;
        for(int64_t i = 0; i < n; ++i)
        {
            const double d = DeviceToFloat(vx[i * kBnPeractThreads]) - mean;
            q += d * d;
        }
        inv_std = 1.0f / sqrtf(static_cast<float>(q / m) + b.epsilon);
    }
    // fused: dy' = act'(u) * dy, u = (x - mean) * ue + uf (bn_activ.hpp)
    const float mf = static_cast<float>(mean);
    float ue = 0.0f, uf = 0.0f;
    if constexpr(kBnActive<Op>)
    {
        ue = static_cast<float>(b.scale[g] * inv_std);
        uf = b.bias[g];
    }
    double s1 = 0.0, s2 = 0.0;
    for(int64_t i = 0; i < n; ++i)
    {
        const float xv  = DeviceToFloat(vx[i * kBnPeractThreads]);
        const double gv = BnActBack<T>(op, xv, mf, ue, uf, DeviceToFloat(vg[i * kBnPeractThreads]));
        s1 += gv;
        s2 += gv * (static_cast<double>(xv) - mean);
    }
    const double ds = s2 * inv_std;
    if(b.beta_param == 0.0f)
    {
        b.dscale[g] = b.alpha_param * static_cast<float>(ds);
        b.dbias[g]  = b.alpha_param * static_cast<float>(s1);
    }
    else
    {
        b.dscale[g] = b.alpha_param * static_cast<float>(ds) + b.beta_param * b.dscale[g];
        b.dbias[g]  = b.alpha_param * static_cast<float>(s1) + b.beta_param * b.dbias[g];
    }
    const double inv_m = 1.0 / m;
    const double c1d   = b.alpha_data * b.scale[g] * inv_std;
    const float cm     = static_cast<float>(mean);
    const float c1     = static_cast<float>(c1d);
    const float c2     = static_cast<float>(-c1d * inv_std * ds * inv_m);
    const float c3     = static_cast<float>(-c1d * s1 * inv_m);
    for(int64_t i = 0; i < n; ++i)
    {
        T* out         = dx + i * groups + g;
        const float xv = DeviceToFloat(vx[i * kBnPeractThreads]);
        float r = c1 * BnActBack<T>(op, xv, mf, ue, uf, DeviceToFloat(vg[i * kBnPeractThreads])) +
                  (c2 * (xv - cm) + c3);
        if(ReadDx)
            r += b.beta_data * LoadFloat(out);
        StoreFloat(out, r);
    }
}

template <class T>
__global__ void BnBwdPrepare(GroupArgs<1> a, const T* x, const Partial2* partial,
                             const float* saved_mean, const float* saved_inv_std, float epsilon,
                             double* mean, double* inv_std, const float* scale,
                             const float* bias, float* ue, float* uf)
{
    MIOPEN_CY_PER_GROUP(g, a)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        double is;
        if(saved_mean != nullptr)
        {
            mean[g] = saved_mean[goff[1]];
            is      = saved_inv_std[goff[1]];
        }
        else
        {
            double mu, var;
            Moments(a, x, partial, g, goff, mu, var);
            mean[g] = mu;
            is      = 1.0f / sqrtf(static_cast<float>(var) + epsilon);
        }
        inv_std[g] = is;
        if(ue != nullptr)
        {
            ue[g] = static_cast<float>(scale[goff[1]] * is);
            uf[g] = bias[goff[1]];
        }
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

#define MIOPEN_CY_PER_ELEMENT(i, n)                                                     \
    for(int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < (n);            \
        i += int64_t{gridDim.x} * blockDim.x)

template <class T, class Op>
__global__ void BnApplyStrided(StridedSpace<3> s, const T* x, T* y, BnCoef coef, float beta, Op op)
{
    MIOPEN_CY_PER_ELEMENT(i, s.numel)
    {
        int64_t off[3];
        Offsets(s, i, off);
        const int64_t g = off[1];
        float r         = (LoadFloat(x + off[0]) - coef.m[g]) * coef.a[g] + coef.c[g];
        if(beta != 0.0f)
            r += beta * LoadFloat(y + off[2]);
        StoreFloat(y + off[2], BnActF<T>(op, r));
    }
}

template <class T, class Op>
__global__ void BnBwdApplyStrided(StridedSpace<4> s, const T* dy, const T* x, T* dx, BnCoef coef,
                                  float beta, Op op)
{
    MIOPEN_CY_PER_ELEMENT(i, s.numel)
    {
        int64_t off[4];
        Offsets(s, i, off);
        const int64_t g = off[2];
        const float xv  = LoadFloat(x + off[1]);
        const float m   = coef.m[g];
        float gv        = LoadFloat(dy + off[0]);
        if constexpr(kBnActive<Op>)
            gv = BnActBack<T>(op, xv, m, coef.e[g], coef.f[g], gv);
        float r = coef.a[g] * gv + (coef.c[g] * (xv - m) + coef.d[g]);
        if(beta != 0.0f)
            r += beta * LoadFloat(dx + off[3]);
        StoreFloat(dx + off[3], r);
    }
}

template <class P>
__global__ void BnParamGather(StridedSpace<2> s, const P* user, float* packed)
{
    MIOPEN_CY_PER_ELEMENT(i, s.numel)
    {
        int64_t off[2];
        Offsets(s, i, off);
        packed[off[1]] = LoadFloat(user + off[0]);
    }
}

template <class P>
__global__ void BnParamScatter(StridedSpace<2> s, const float* packed, P* user)
{
    MIOPEN_CY_PER_ELEMENT(i, s.numel)
    {
        int64_t off[2];
        Offsets(s, i, off);
        StoreFloat(user + off[0], packed[off[1]]);
    }
}

} // namespace

template <class T>
void LaunchBnStats(const GroupArgs<1>& a, const Launch& l, const T* x, Partial2* partial)
{
    MIOPEN_CY_LAUNCH((GroupPartial<1, StatsAcc<T>>), l, 0, a, StatsAcc<T>{x, 0.0}, partial);
}

template <class T>
void LaunchBnTrainFinish(const GroupArgs<1>& a, const Launch& l, const T* x,
                         const Partial2* partial, const BnTrainArgs& t, BnCoef coef)
{
    MIOPEN_CY_LAUNCH(BnTrainFinish<T>, l, 0, a, x, partial, t, coef);
}

template <class T>
void LaunchBnPeractTrain(const Launch& l, int64_t n, int64_t groups, const T* x, T* y,
                         const BnTrainArgs& t, float beta, const ActivationMode& act)
{
    const size_t sh = static_cast<size_t>(n) * kBnPeractThreads * sizeof(T); // <= 16 KiB
    WithMode(act, [&](auto op) {
        using Op = decltype(op);
        if(beta != 0.0f)
            MIOPEN_CY_LAUNCH((BnPeractTrain<T, true, Op>), l, sh, n, groups, x, y, t, beta, op);
        else
            MIOPEN_CY_LAUNCH((BnPeractTrain<T, false, Op>), l, sh, n, groups, x, y, t, beta, op);
    });
}

template <class T>
void LaunchBnPeractBwd(const Launch& l, int64_t n, int64_t groups, const T* x, const T* dy, T* dx,
                       const BnPeractBwdArgs& b)
{
    const size_t sh = 2 * static_cast<size_t>(n) * kBnPeractThreads * sizeof(T); // <= 32 KiB
    WithMode(b.act, [&](auto op) {
        using Op = decltype(op);
        if(b.beta_data != 0.0f)
            MIOPEN_CY_LAUNCH((BnPeractBwd<T, true, Op>), l, sh, n, groups, x, dy, dx, b, op);
        else
            MIOPEN_CY_LAUNCH((BnPeractBwd<T, false, Op>), l, sh, n, groups, x, dy, dx, b, op);
    });
}

template <class T>
void LaunchBnApplyStrided(const StridedSpace<3>& s, const Launch& l, const T* x, T* y,
                          BnCoef coef, float beta, const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        MIOPEN_CY_LAUNCH((BnApplyStrided<T, decltype(op)>), l, 0, s, x, y, coef, beta, op);
    });
}

template <class T>
void LaunchBnBwdApplyStrided(const StridedSpace<4>& s, const Launch& l, const T* dy, const T* x,
                             T* dx, BnCoef coef, float beta, const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        MIOPEN_CY_LAUNCH((BnBwdApplyStrided<T, decltype(op)>), l, 0, s, dy, x, dx, coef, beta, op);
    });
}

template <class P>
void LaunchBnParamGather(const StridedSpace<2>& s, const Launch& l, const P* user, float* packed)
{
    MIOPEN_CY_LAUNCH(BnParamGather<P>, l, 0, s, user, packed);
}

template <class P>
void LaunchBnParamScatter(const StridedSpace<2>& s, const Launch& l, const float* packed,
                          P* user)
{
    MIOPEN_CY_LAUNCH(BnParamScatter<P>, l, 0, s, packed, user);
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

template <class T>
void LaunchBnBwdPrepare(const GroupArgs<1>& a, const Launch& l, const T* x,
                        const Partial2* partial, const float* saved_mean,
                        const float* saved_inv_std, float epsilon, double* mean, double* inv_std,
                        const float* scale, const float* bias, float* ue, float* uf)
{
    MIOPEN_CY_LAUNCH(BnBwdPrepare<T>, l, 0, a, x, partial, saved_mean, saved_inv_std, epsilon, mean,
                     inv_std, scale, bias, ue, uf);
}

template <class T>
void LaunchBnGradSums(const GroupArgs<2>& a, const Launch& l, const T* x, const T* dy,
                      const double* mean, Partial2* partial, const float* ue, const float* uf,
                      const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        using Acc = GradAcc<T, decltype(op)>;
        MIOPEN_CY_LAUNCH((GroupPartial<2, Acc>), l, 0, a, Acc{x, dy, mean, 0.0, ue, uf, op},
                         partial);
    });
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

#define MIOPEN_CY_BN_KERNELS(T)                                                                 \
    template void LaunchBnStats<T>(const GroupArgs<1>&, const Launch&, const T*, Partial2*);    \
    template void LaunchBnTrainFinish<T>(const GroupArgs<1>&, const Launch&, const T*,          \
                                         const Partial2*, const BnTrainArgs&, BnCoef);          \
    template void LaunchBnPeractTrain<T>(const Launch&, int64_t, int64_t, const T*, T*,         \
                                         const BnTrainArgs&, float, const ActivationMode&);     \
    template void LaunchBnPeractBwd<T>(const Launch&, int64_t, int64_t, const T*, const T*, T*, \
                                       const BnPeractBwdArgs&);                                 \
    template void LaunchBnApplyStrided<T>(const StridedSpace<3>&, const Launch&, const T*, T*,  \
                                          BnCoef, float, const ActivationMode&);                \
    template void LaunchBnBwdApplyStrided<T>(const StridedSpace<4>&, const Launch&, const T*,   \
                                             const T*, T*, BnCoef, float,                       \
                                             const ActivationMode&);                            \
    template void LaunchBnBwdPrepare<T>(const GroupArgs<1>&, const Launch&, const T*,           \
                                        const Partial2*, const float*, const float*, float,     \
                                        double*, double*, const float*, const float*, float*,   \
                                        float*);                                                \
    template void LaunchBnGradSums<T>(const GroupArgs<2>&, const Launch&, const T*, const T*,   \
                                      const double*, Partial2*, const float*, const float*,     \
                                      const ActivationMode&);                                   \
    template void LaunchBnParamGather<T>(const StridedSpace<2>&, const Launch&, const T*,       \
                                         float*);                                               \
    template void LaunchBnParamScatter<T>(const StridedSpace<2>&, const Launch&, const float*,  \
                                          T*);
MIOPEN_CY_BN_KERNELS(float)
MIOPEN_CY_BN_KERNELS(Half)
MIOPEN_CY_BN_KERNELS(BFloat16)
#undef MIOPEN_CY_BN_KERNELS

} // namespace miopen::gpu
