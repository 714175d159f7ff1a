// ctc_loss: the CTC loss and its gradient (the recursions of ctc/ctc_args.hpp) in fp32 log space.
// A block per batch item b, the time loop inside it; the item's S = 2 L + 1 states spread over the
// block's threads (a thread owns states tid, tid + blockDim, ...), a barrier between time steps.
// Layouts: probs and gradients [T][N][C] with any strides; the workspace as CtcLayout says.
// Phases, each ending at a barrier:
//   1. softmax: logsumexp over the classes of each time step, a warp per time step -> lse[b][t];
//   2. the gradient of every class outside the label (exp(lp) or 0; 0 past the input length);
//   3. alpha for every time step -> alpha[b][t][s]; the loss from the last;
//   4. beta from the last time step back (two rows), at each step terms[s] = alpha + beta - lp,
//      then the blank's gradient (a block reduction over the even states) and each label class's
//      (the thread of its first occurrence adds the later ones in order), over phase 2's values.
// Every sum runs in a fixed order for the fixed block size: the same bits on every run.
// Storage types: T (float, Half) loaded as fp32; losses and gradients rounded once to T.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/ctc/ctc_kernels.hpp"

namespace miopen::gpu {
namespace {

__device__ inline float LogAddExp(float a, float b)
{
    const float hi = a > b ? a : b;
    const float lo = a > b ? b : a;
    if(hi == -INFINITY)
        return -INFINITY;
    return hi + log1pf(expf(lo - hi));
}

struct LogAddExpOp
{
    __device__ float operator()(float a, float b) const { return LogAddExp(a, b); }
};

template <class T>
__global__ void __launch_bounds__(kCtcThreads)
    CtcLossKernel(CtcArgs a, const T* __restrict__ probs, T* __restrict__ losses,
                  T* __restrict__ gradients, CtcWorkspace w)
{
    __shared__ float red[kMaxWarpsPerBlock];
    const int b   = blockIdx.x;
    const int tid = threadIdx.x;
    const int nth = blockDim.x;
    const int Tb  = w.input_len[b];
    const int L   = w.label_len[b];
    const int S   = 2 * L + 1;
    const int* label = w.labels + w.label_off[b];
    const int* next  = w.next;
    const int* head  = w.head + w.label_off[b];
    const int off    = w.label_off[b];
    const T* x       = probs + b * a.p_strides[1];
    T* g             = gradients + b * a.g_strides[1];
    float* lse       = w.lse + static_cast<int64_t>(b) * a.T;
    float* alpha     = w.alpha + static_cast<int64_t>(b) * a.T * a.S;
    float* beta      = w.beta + static_cast<int64_t>(b) * 2 * a.S;
    float* terms     = w.terms + static_cast<int64_t>(b) * a.S;

    auto X = [&](int t, int k) {
        return LoadFloat(x + t * a.p_strides[0] + k * a.p_strides[2]);
    };
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
    const bool narrow     = cells <= INT32_MAX; // 32-bit division is several times cheaper
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
        alpha[s] = s == 0 ? lp(0, a.blank) : s == 1 ? lp(0, label[0]) : -INFINITY;
    __syncthreads();
    for(int t = 1; t < Tb; ++t)
    {
        const float* prev = alpha + static_cast<int64_t>(t - 1) * a.S;
        float* cur        = alpha + static_cast<int64_t>(t) * a.S;
        for(int s = tid; s < S; s += nth)
        {
            float v = prev[s];
            if(s >= 1)
                v = LogAddExp(v, prev[s - 1]);
            if(skip(s))
                v = LogAddExp(v, prev[s - 2]);
            cur[s] = v == -INFINITY ? -INFINITY : v + lp(t, state(s));
        }
        __syncthreads();
    }
    const float* last = alpha + static_cast<int64_t>(Tb - 1) * a.S;
    const float logp  = S > 1 ? LogAddExp(last[S - 1], last[S - 2]) : last[0];
    if(tid == 0)
        StoreFloat(losses + b, -logp);

    // 4. beta and the gradients of the blank and the label classes.
    auto grad = [&](int t, int k, float gk) {
        const float l = lp(t, k);
        const float v = a.softmax ? expf(l) - expf(gk - logp) : -expf(gk - l - logp);
        StoreFloat(Gp(t, k), v);
    };
    for(int t = Tb - 1; t >= 0; --t)
    {
        float* cur        = beta + (t & 1) * a.S;
        const float* nxt  = beta + ((t + 1) & 1) * a.S;
        const float* al   = alpha + static_cast<int64_t>(t) * a.S;
        for(int s = tid; s < S; s += nth)
        {
            float v;
            if(t == Tb - 1)
                v = s >= S - 2 ? 0.0f : -INFINITY;
            else
            {
                v = nxt[s];
                if(s + 1 < S)
                    v = LogAddExp(v, nxt[s + 1]);
                if(s + 2 < S && skip(s + 2))
                    v = LogAddExp(v, nxt[s + 2]);
            }
            const float l = lp(t, state(s));
            const float bv = v == -INFINITY ? -INFINITY : v + l;
            cur[s]   = bv;
            terms[s] = (al[s] == -INFINITY || bv == -INFINITY) ? -INFINITY : al[s] + bv - l;
        }
        __syncthreads();
        // Label classes: the thread of each class's first state adds its later ones in order.
        for(int j = tid; j < L; j += nth)
        {
            if(!head[j])
                continue;
            float gk = terms[2 * j + 1];
            for(int n = next[off + j]; n >= 0; n = next[n])
                gk = LogAddExp(gk, terms[2 * (n - off) + 1]);
            grad(t, label[j], gk);
        }
        // The blank: its states are the even ones.
        float part = -INFINITY;
        for(int i = tid; i <= L; i += nth)
            part = LogAddExp(part, terms[2 * i]);
        const float gb = BlockReduce(part, LogAddExpOp{}, red);
        if(tid == 0)
            grad(t, a.blank, gb);
        __syncthreads(); // terms and this step's beta row are rewritten next step
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
