// Host entry points of batchnorm.hip, called by batchnorm_launch.cpp (and the fast paths'
// launchers). Plain C++. Templated on the data's storage type T (float, Half, BFloat16: every one
// instantiated in batchnorm.hip); parameters and coefficients are fp32.
#pragma once

#include "core/storage.hpp"
#include "kernels/activation/activation_kernels.hpp"
#include "kernels/common/args.hpp"

namespace miopen::gpu {

/// The plain batch norm's activation (miopenActivationPASTHRU); another mode fuses that
/// activation into the training kernels (kernels/batchnorm/bn_activ.hpp).
constexpr ActivationMode kBnNoActivation{0, 0.0f, 0.0f, 0.0f};

/// Per-group coefficients in the handle's scratch, indexed by group number.
struct BnCoef
{
    float* m;  // forward: y = (x - m) * a + c;  backward: dx = c1 * dy + (c2 * (x - m) + c3)
    float* a;  // a or c1
    float* c;  // c or c2
    float* d;  // backward: c3
    float* e = nullptr; // fused backward: the activation's input u = (x - m) * e + f
    float* f = nullptr;
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
template <class T>
void LaunchBnStats(const GroupArgs<1>& a, const Launch& l, const T* x, Partial2* partial);
/// Batch statistics, running / saved statistics and the coefficients (one thread per group).
template <class T>
void LaunchBnTrainFinish(const GroupArgs<1>& a, const Launch& l, const T* x,
                         const Partial2* partial, const BnTrainArgs& t, BnCoef coef);
/// bn_infer_packed.hip: inference over packed x and y in planes of plane_q quads (4 elements)
/// (spatial NCHW: one (n, c) a plane, coefficients from the parameters at channel *
/// param_stride; per activation: one n a plane; spatial NHWC: one n a plane, C a multiple of 4;
/// the last two read coefficients coef_m/a/c of bn_infer_coef, non-null, at quad q % coef_q).
/// Grid: planes * chunks blocks of BnInferPackedThreads() threads, chunk_q quads of a plane each.
struct BnInferPackedArgs
{
    const void* x = nullptr; // T
    void* y       = nullptr; // T
    int64_t plane_q = 0, chunk_q = 0, chunks = 1, channels = 1, param_stride = 1;
    int64_t coef_q = 0; // quads of coefficients: plane_q per activation, C / 4 spatial NHWC
    // spatial NHWC only: coef_q divides BnInferPackedThreads() and chunk_q is a multiple of
    // coef_q, so a thread reads its channels' coefficients once
    bool coef_fixed = false;
    // elements a unit: 4 (quads), or 8 for 16-bit data (16-byte accesses; spatial NCHW and
    // coef_fixed only, the plane a multiple of 8 elements, C too channels-last); plane_q,
    // chunk_q and coef_q count units
    int vec = 4;
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
/// unroll: quads of x a thread keeps in flight (4 spatial, 2 with coefficient arrays; 8 and 4 for
/// 16-bit data; coef_fixed: 4, 8 for 16-bit data, as spatial).
template <class T>
void LaunchBnInferPacked(const BnInferPackedArgs& p, const Launch& l, int unroll);

/// Coefficients from the estimated statistics.
void LaunchBnInferCoef(const GroupArgs<1>& a, const Launch& l, const float* scale,
                       const float* bias, const float* est_mean, const float* est_var,
                       float alpha, float epsilon, BnCoef coef);
/// y = (x - m) * a + c + beta * y; in = {x, m, a, c} (fp32 data: the element-wise engine).
void LaunchBnApply(const MapArgs<4>& a, const Launch& l, bool read_out);
/// The same for any T, one thread per element over s = {x, group index, y}.
template <class T>
void LaunchBnApplyStrided(const StridedSpace<3>& s, const Launch& l, const T* x, T* y,
                          BnCoef coef, float beta, const ActivationMode& act = kBnNoActivation);

/// Backward: the mean and 1/sqrt(var + eps) per group into mean/inv_std, from the saved
/// statistics (saved_mean non-null) or from stats partials of x. With ue non-null (fused), also
/// the activation's input coefficients ue = scale * inv_std and uf = bias per group.
template <class T>
void LaunchBnBwdPrepare(const GroupArgs<1>& a, const Launch& l, const T* x,
                        const Partial2* partial, const float* saved_mean,
                        const float* saved_inv_std, float epsilon, double* mean, double* inv_std,
                        const float* scale = nullptr, const float* bias = nullptr,
                        float* ue = nullptr, float* uf = nullptr);
/// sum dy and sum dy * (x - mean) per (group, chunk); operands {x, dy}. Fused: act'(u) * dy for
/// dy, u = (x - mean) * ue + uf (LaunchBnBwdPrepare's).
template <class T>
void LaunchBnGradSums(const GroupArgs<2>& a, const Launch& l, const T* x, const T* dy,
                      const double* mean, Partial2* partial, const float* ue = nullptr,
                      const float* uf = nullptr, const ActivationMode& act = kBnNoActivation);
/// dscale and dbias (blended with alpha/beta_param) and the dx coefficients, per group.
void LaunchBnBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                       const double* mean, const double* inv_std, const float* scale,
                       float* dscale, float* dbias, double alpha_data, float alpha_param,
                       float beta_param, BnCoef coef);
/// dx = c1 * dy + (c2 * (x - m) + c3) + beta * dx; in = {dy, x, m, c1, c2, c3} (fp32 data).
void LaunchBnBwdApply(const MapArgs<6>& a, const Launch& l, bool read_out);
/// The same for any T, one thread per element over s = {dy, x, group index, dx}.
template <class T>
void LaunchBnBwdApplyStrided(const StridedSpace<4>& s, const Launch& l, const T* dy, const T* x,
                             T* dx, BnCoef coef, float beta,
                             const ActivationMode& act = kBnNoActivation);

/// Per-activation training forward on packed N x G data (G = C[D]HW groups, x and y with the
/// same packed strides, n <= kBnPeractTrainMaxN): a thread owns one group, stages its n values
/// in shared memory (n * kBnPeractThreads * sizeof(T) bytes a block, given by the launch
/// function), and writes the statistics, the running / saved statistics (parameters packed at
/// the group's index) and y: x is read once. Grid: ceil(G / kBnPeractThreads) blocks of
/// kBnPeractThreads.
constexpr int kBnPeractTrainMaxN = 64;
constexpr int kBnPeractThreads   = 64; // small blocks: many resident, loads of some overlap
template <class T>
void LaunchBnPeractTrain(const Launch& l, int64_t n, int64_t groups, const T* x, T* y,
                         const BnTrainArgs& t, float beta,
                         const ActivationMode& act = kBnNoActivation);

/// Per-activation backward on packed N x G data (x, dy, dx with the same packed strides, n <=
/// kBnPeractTrainMaxN, parameters packed at the group's index): a thread owns one group, x and
/// dy are read once (staged in shared memory, 2 * n * kBnPeractThreads * sizeof(T) bytes a
/// block). Grid: ceil(G / kBnPeractThreads) blocks of kBnPeractThreads.
struct BnPeractBwdArgs
{
    const float* scale;
    float* dscale;
    float* dbias;
    const float* saved_mean;    // both or neither: recomputed from x when null
    const float* saved_inv_std;
    double alpha_data;
    float beta_data, alpha_param, beta_param, epsilon;
    const float* bias   = nullptr; // fused (act not PASTHRU): the forward's bias
    ActivationMode act  = kBnNoActivation;
};
template <class T>
void LaunchBnPeractBwd(const Launch& l, int64_t n, int64_t groups, const T* x, const T* dy, T* dx,
                       const BnPeractBwdArgs& b);

/// Parameters of any type and strides to packed fp32 and back (s = {user, packed}).
template <class P>
void LaunchBnParamGather(const StridedSpace<2>& s, const Launch& l, const P* user, float* packed);
template <class P>
void LaunchBnParamScatter(const StridedSpace<2>& s, const Launch& l, const float* packed,
                          P* user);

} // namespace miopen::gpu
