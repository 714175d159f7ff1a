// CTC loss: the problem (sizes, strides, the label chains) shared by the front door (ctc.cpp),
// the CPU kernel (cpu/ctc.cpp) and the GPU launcher (kernels/ctc/), and the GPU workspace layout.
//
// probs and gradients are [T max time steps, N batch, C classes] with any strides. Batch item b
// has inputLengths[b] time steps and labelLengths[b] labels, at labels[label_off[b] ...]. Its
// extended label has S = 2 L + 1 states (blank, l1, blank, l2, ..., blank). With lp_t(k) the log
// probability of class k at time t (x - logsumexp_k x when apply_softmax_layer, else x itself):
//   alpha_t(s) = lse(alpha_{t-1}(s), alpha_{t-1}(s-1), [alpha_{t-1}(s-2)]) + lp_t(l'_s)
//   beta_t(s)  = lse(beta_{t+1}(s), beta_{t+1}(s+1), [beta_{t+1}(s+2)]) + lp_t(l'_s)
// ([..] where l'_s is not blank and differs from l'_{s-2}, resp. l'_{s+2}); loss = -log P with
// log P = lse(alpha_{T-1}(S-1), alpha_{T-1}(S-2)). With G_t(k) = lse over the states s of class
// k of alpha_t(s) + beta_t(s) - lp_t(k):
//   apply_softmax_layer: grad = exp(lp_t(k)) - exp(G_t(k) - log P)   (d loss / d activation)
//   otherwise:           grad = -exp(G_t(k) - lp_t(k) - log P)       (d loss / d exp(x), MIOpen's)
// and 0 at t >= inputLengths[b]. The states of one class are summed in state order: the blank's
// are the even states; a label's, its occurrences, found through `next` from the first (`head`).
#pragma once

#include <cstddef>
#include <cstdint>

#if !defined(__CUDACC__) && !defined(__HIPCC__)
#include "core/handle.hpp"
#include <vector>
#endif

namespace miopen {

/// One CTC loss call. Strides in elements (probs' and gradients').
struct CtcArgs
{
    int T = 0;           // max time steps (probsDesc lens[0])
    int N = 0;           // batch
    int C = 0;           // classes, blank included
    int blank = 0;       // blank_label_id
    bool softmax = true; // apply_softmax_layer
    int max_label = 0;   // the longest label
    int S = 1;           // 2 * max_label + 1: the states of the longest label
    int64_t total_labels = 0;
    int64_t p_strides[3] = {0, 0, 1};
    int64_t g_strides[3] = {0, 0, 1};
};

/// The GPU workspace (offsets in bytes, each 16-byte aligned):
///   ints:   input_len[N], label_len[N], label_off[N], labels[total], next[total], head[total]
///   float:  lse[N][T] (per item and time step: logsumexp over classes, softmax only)
///   double: alpha[N][T][S] (row t becomes alpha + beta - lp once beta reaches t),
///           beta[N][2][S] (two time steps)
/// The log-space sums are kept in double (their exp and log1p in fp32): adding fp32 log
/// probabilities to an fp32 running sum of magnitude |log P| would lose about sqrt(T) ulps of
/// |log P|, and the gradient's exp(G - log P) would carry that error relative.
struct CtcWorkspaceLayout
{
    size_t ints = 0, lse = 0, alpha = 0, beta = 0, bytes = 0;
};

inline size_t CtcAlign16(size_t n) { return (n + 15) / 16 * 16; }

inline CtcWorkspaceLayout CtcLayout(const CtcArgs& a)
{
    const auto N = static_cast<size_t>(a.N), T = static_cast<size_t>(a.T),
               S = static_cast<size_t>(a.S), total = static_cast<size_t>(a.total_labels);
    CtcWorkspaceLayout l;
    l.ints  = 0;
    l.lse   = CtcAlign16((3 * N + 3 * total) * sizeof(int));
    l.alpha = l.lse + CtcAlign16(N * T * sizeof(float));
    l.beta  = l.alpha + CtcAlign16(N * T * S * sizeof(double));
    l.bytes = l.beta + CtcAlign16(N * 2 * S * sizeof(double));
    return l;
}

#if !defined(__CUDACC__) && !defined(__HIPCC__)
/// The labels of a call as the kernels read them, built on the host by the front door.
struct CtcLabels
{
    std::vector<int> input_len, label_len, label_off; // per batch item
    std::vector<int> labels;                          // all labels, concatenated
    std::vector<int> next; // per label: the index (into labels) of the next equal label of the
                           // same item, or -1
    std::vector<int> head; // per label: 1 for the first occurrence of its class in its item
};

namespace cpu {
/// Losses and gradients of every batch item on the CPU (float64 arithmetic).
template <class T>
void CtcLoss(const CtcArgs& a, const CtcLabels& lab, const T* probs, T* losses, T* gradients);
} // namespace cpu

namespace gpu {
/// The same on the handle's GPU: the labels are copied into the workspace (laid out as
/// CtcLayout says, workspace 16-byte aligned), then one kernel runs a block per batch item.
template <class T>
void CtcLoss(Handle& h, const CtcArgs& a, const CtcLabels& lab, const T* probs, T* losses,
             T* gradients, void* workspace);
} // namespace gpu
#endif

} // namespace miopen
