// ctc_loss: the CTC loss and its gradient (the recursions of ctc/ctc_args.hpp) in log space.
// A block per batch item b, the time loops inside it; the item's S = 2 L + 1 states spread over
// the block's threads (a thread owns states tid, tid + blockDim, ...), one barrier per time step.
// Layouts: probs and gradients [T][N][C] with any strides; the workspace as CtcLayout says.
// Phases, each ending at a barrier:
//   1. softmax: logsumexp over the classes of each time step, a warp per time step -> lse[b][t];
//   2. the gradient of every class as if outside the label (exp(lp) or 0; 0 past the input);
//   3. alpha for every time step -> alpha[b][t][s]; the loss from the last;
//   4. beta from the last time step back (two rows); alpha's row t becomes
//      terms_t(s) = alpha + beta - lp;
//   5. a warp per time step: the blank's gradient (its even states folded) and each label
//      class's (the lane of its first occurrence adds the later ones in order), over phase 2's.
// Only phases 3 and 4 are sequential in time. Precision: log probabilities in fp32; the running
// log-space sums (alpha, beta, terms) in fp64, their exp / log1p of differences in fp32 (see
// ctc_args.hpp). Every sum runs in a fixed order for the fixed block size: the same bits on
// every run.
// Storage types: T (float, Half) loaded as fp32; losses and gradients rounded once to T.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/ctc/ctc_kernels.hpp"

namespace miopen::gpu {
namespace {

constexpr double kNegInf = -INFINITY;

/// log(exp(a) + exp(b)); the correction log1p(exp(lo - hi)) <= log 2 in fp32.
__device__ inline double LogAddExp(double a, double b)
{
    const double hi = a > b ? a : b;
    const double lo = a > b ? b : a;
    if(hi == kNegInf)
        return kNegInf;
    return hi + static_cast<double>(log1pf(expf(static_cast<float>(lo - hi))));
}

struct LogAddExpOp
{
    __device__ double operator()(double a, double b) const { return LogAddExp(a, b); }
};

template <class T>
__global__ void __launch_bounds__(kCtcThreads)
    CtcLossKernel(CtcArgs a, const T* __restrict__ probs, T* __restrict__ losses,
                  T* __restrict__ gradients, CtcWorkspace w)
{
    const int b      = blockIdx.x;
    const int tid    = threadIdx.x;
    const int nth    = blockDim.x;
    const int Tb     = w.input_len[b];
    const int L      = w.label_len[b];
    const int S      = 2 * L + 1;
    const int off    = w.label_off[b];
    const int* label = w.labels + off;
    const int* head  = w.head + off;
    const int* next  = w.next; // indices into the whole labels array
    const T* x       = probs + b * a.p_strides[1];
    T* g             = gradients + b * a.g_strides[1];
    float* lse       = w.lse + static_cast<int64_t>(b) * a.T;
    double* alpha    = w.alpha + static_cast<int64_t>(b) * a.T * a.S;
    double* beta     = w.beta + static_cast<int64_t>(b) * 2 * a.S;

    auto X  = [&](int t, int k) { return LoadFloat(x + t * a.p_strides[0] + k * a.p_strides[2]); };
    auto Gp = [&](int t, int k) { return g + t * a.g_strides[0] + k * a.g_strides[2]; };

    // 1. lse[t] (softmax only; 0 otherwise, so lp = x).
    const int lane = tid % warpSize, warp = tid / warpSize, warps = nth / warpSize;
    for(int t = warp; t < Tb; t += warps)
    {
        float v = 0.0f;
        if(a.softmax)
        {
            float m = -INFINITY;
            for(int k = lane; k < a.C; k += warpSize)
                m = MaxNanOp{}(m, X(t, k));
            m = WarpReduce(m, MaxNanOp{});
            float s = 0.0f;
            if(m != -INFINITY)
                for(int k = lane; k < a.C; k += warpSize)
                    s += expf(X(t, k) - m);
            s = WarpReduce(s, SumOp<float>{});
            v = m == -INFINITY ? -INFINITY : m + logf(s);
        }
        if(lane == 0)
            lse[t] = v;
    }
    __syncthreads();
    auto lp    = [&](int t, int k) { return X(t, k) - lse[t]; };
    auto state = [&](int s) { return (s & 1) ? label[s >> 1] : a.blank; };
    auto skip  = [&](int s) { return (s & 1) && s >= 2 && label[s >> 1] != label[(s >> 1) - 1]; };

    // 2. Every class's gradient as if outside the label.
    const int64_t cells = static_cast<int64_t>(a.T) * a.C;
    const bool narrow   = cells <= INT32_MAX; // 32-bit division is several times cheaper
    for(int64_t i = tid; i < cells; i += nth)
    {
        int t, k;
        if(narrow)
        {
            const uint32_t u = static_cast<uint32_t>(i), c = static_cast<uint32_t>(a.C);
            t                = static_cast<int>(u / c);
            k                = static_cast<int>(u - static_cast<uint32_t>(t) * c);
        }
        else
        {
            t = static_cast<int>(i / a.C);
            k = static_cast<int>(i % a.C);
        }
        const float v = (t < Tb && a.softmax) ? expf(lp(t, k)) : 0.0f;
        StoreFloat(Gp(t, k), v);
    }
    if(Tb == 0) // then L == 0: the empty path, probability 1
    {
        if(tid == 0)
            StoreFloat(losses + b, 0.0f);
        return;
    }

    // 3. alpha.
    for(int s = tid; s < S; s += nth)
        alpha[s] = s == 0 ? lp(0, a.blank) : s == 1 ? lp(0, label[0]) : kNegInf;
    __syncthreads();
    for(int t = 1; t < Tb; ++t)
    {
        const double* prev = alpha + static_cast<int64_t>(t - 1) * a.S;
        double* cur        = alpha + static_cast<int64_t>(t) * a.S;
        for(int s = tid; s < S; s += nth)
        {
            double v = prev[s];
            if(s >= 1)
                v = LogAddExp(v, prev[s - 1]);
            if(skip(s))
                v = LogAddExp(v, prev[s - 2]);
            cur[s] = v == kNegInf ? kNegInf : v + lp(t, state(s));
        }
        __syncthreads();
    }
    const double* last = alpha + static_cast<int64_t>(Tb - 1) * a.S;
    const double logp  = S > 1 ? LogAddExp(last[S - 1], last[S - 2]) : last[0];
    if(tid == 0)
        StoreFloat(losses + b, static_cast<float>(-logp));
    __syncthreads(); // every thread has read the last row before step 4 overwrites it

    // 4. beta, one step at a time from the last; alpha_t(s) is not needed past step t, so its
    // row becomes terms_t(s) = alpha_t(s) + beta_t(s) - lp_t(l'_s).
    for(int t = Tb - 1; t >= 0; --t)
    {
        double* cur       = beta + (t & 1) * a.S;
        const double* nxt = beta + ((t + 1) & 1) * a.S;
        double* row       = alpha + static_cast<int64_t>(t) * a.S;
        for(int s = tid; s < S; s += nth)
        {
            double v;
            if(t == Tb - 1)
                v = s >= S - 2 ? 0.0 : kNegInf;
            else
            {
                v = nxt[s];
                if(s + 1 < S)
                    v = LogAddExp(v, nxt[s + 1]);
                if(s + 2 < S && skip(s + 2))
                    v = LogAddExp(v, nxt[s + 2]);
            }
            const double l  = lp(t, state(s));
            const double bv = v == kNegInf ? kNegInf : v + l;
            cur[s]          = bv;
            row[s] = (row[s] == kNegInf || bv == kNegInf) ? kNegInf : row[s] + bv - l;
        }
        __syncthreads();
    }

    // 5. The gradients of the blank and the label classes, a warp per time step: the blank's
    // states (the even ones) folded by each lane in order and across the warp by a fixed tree;
    // each label class by the lane of its first occurrence, adding the later ones in order.
    auto grad = [&](int t, int k, double gk) {
        const float l = lp(t, k);
        const float v = a.softmax ? expf(l) - expf(static_cast<float>(gk - logp))
                                  : -expf(static_cast<float>(gk - l - logp));
        StoreFloat(Gp(t, k), v);
    };
    for(int t = warp; t < Tb; t += warps)
    {
        const double* terms = alpha + static_cast<int64_t>(t) * a.S;
        double part         = kNegInf;
        for(int i = lane; i <= L; i += warpSize)
            part = LogAddExp(part, terms[2 * i]);
        part = WarpReduce(part, LogAddExpOp{});
        if(lane == 0)
            grad(t, a.blank, part);
        for(int j = lane; j < L; j += warpSize)
        {
            if(!head[j])
                continue;
            double gk = terms[2 * j + 1];
            for(int n = next[off + j]; n >= 0; n = next[n])
                gk = LogAddExp(gk, terms[2 * (n - off) + 1]);
            grad(t, label[j], gk);
        }
    }
}

} // namespace

template <class T>
void LaunchCtcLoss(const CtcArgs& a, const Launch& l, const T* probs, T* losses, T* gradients,
                   const CtcWorkspace& w)
{
    MIOPEN_CY_LAUNCH(CtcLossKernel<T>, l, 0, a, probs, losses, gradients, w);
}

template void LaunchCtcLoss<float>(const CtcArgs&, const Launch&, const float*, float*, float*,
                                   const CtcWorkspace&);
template void LaunchCtcLoss<Half>(const CtcArgs&, const Launch&, const Half*, Half*, Half*,
                                  const CtcWorkspace&);

} // namespace miopen::gpu
