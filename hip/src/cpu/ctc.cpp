// CTC loss on the CPU: the alpha / beta recursions of ctc/ctc_args.hpp in log space, in float64,
// one batch item per OpenMP task (each item's arithmetic in a fixed order on one thread, so the
// results do not depend on the thread count). Per item: logsumexp over the classes of each time
// step (softmax), alpha for every time step, then beta one step at a time from the last, each
// step's gradient row written as beta reaches it.
#include "ctc/ctc_args.hpp"
#include "core/storage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace miopen::cpu {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

inline double LogAddExp(double a, double b)
{
    const double hi = a > b ? a : b;
    const double lo = a > b ? b : a;
    if(hi == kNegInf)
        return kNegInf;
    return hi + std::log1p(std::exp(lo - hi));
}

template <class T>
void CtcItem(const CtcArgs& a, const CtcLabels& lab, int b, const T* probs, T* losses,
             T* gradients, std::vector<double>& lse, std::vector<double>& alpha,
             std::vector<double>& beta, std::vector<double>& terms)
{
    const int Tb = lab.input_len[b], L = lab.label_len[b], S = 2 * L + 1;
    const int* label = lab.labels.data() + lab.label_off[b];
    const T* x = probs + b * a.p_strides[1];
    T* g       = gradients + b * a.g_strides[1];
    auto X = [&](int t, int k) {
        return static_cast<double>(ToFloat(x[t * a.p_strides[0] + k * a.p_strides[2]]));
    };
    auto G = [&](int t, int k) -> T& { return g[t * a.g_strides[0] + k * a.g_strides[2]]; };
    const T zero = FloatTo<T>(0.0f);
    for(int t = Tb; t < a.T; ++t)
        for(int k = 0; k < a.C; ++k)
            G(t, k) = zero;
    if(Tb == 0) // then L == 0: the empty path, probability 1
    {
        losses[b] = zero;
        return;
    }
    // lp(t, k): the log probability of class k at time t.
    lse.assign(Tb, 0.0);
    if(a.softmax)
        for(int t = 0; t < Tb; ++t)
        {
            double m = kNegInf;
            for(int k = 0; k < a.C; ++k)
                m = std::max(m, X(t, k));
            double s = 0.0;
            for(int k = 0; k < a.C; ++k)
                s += std::exp(X(t, k) - m);
            lse[t] = m + std::log(s);
        }
    auto lp    = [&](int t, int k) { return X(t, k) - lse[t]; };
    auto state = [&](int s) { return (s & 1) ? label[s >> 1] : a.blank; };
    // skip[s]: whether alpha(s) takes alpha(s - 2) (beta(s - 2) takes beta(s)).
    auto skip = [&](int s) { return (s & 1) && s >= 2 && label[s >> 1] != label[(s >> 1) - 1]; };

    alpha.assign(static_cast<size_t>(Tb) * S, kNegInf);
    alpha[0] = lp(0, a.blank);
    if(S > 1)
        alpha[1] = lp(0, label[0]);
    for(int t = 1; t < Tb; ++t)
    {
        const double* prev = alpha.data() + static_cast<size_t>(t - 1) * S;
        double* cur        = alpha.data() + static_cast<size_t>(t) * S;
        for(int s = 0; s < S; ++s)
        {
            double v = prev[s];
            if(s >= 1)
                v = LogAddExp(v, prev[s - 1]);
            if(skip(s))
                v = LogAddExp(v, prev[s - 2]);
            cur[s] = v == kNegInf ? kNegInf : v + lp(t, state(s));
        }
    }
    const double* last = alpha.data() + static_cast<size_t>(Tb - 1) * S;
    const double logp  = S > 1 ? LogAddExp(last[S - 1], last[S - 2]) : last[0];
    losses[b]          = FloatTo<T>(static_cast<float>(-logp));

    beta.assign(2 * static_cast<size_t>(S), kNegInf);
    terms.assign(S, kNegInf);
    for(int t = Tb - 1; t >= 0; --t)
    {
        double* cur        = beta.data() + static_cast<size_t>(t & 1) * S;
        const double* next = beta.data() + static_cast<size_t>((t + 1) & 1) * S;
        const double* al   = alpha.data() + static_cast<size_t>(t) * S;
        for(int s = 0; s < S; ++s)
        {
            double v;
            if(t == Tb - 1)
                v = s >= S - 2 ? 0.0 : kNegInf;
            else
            {
                v = next[s];
                if(s + 1 < S)
                    v = LogAddExp(v, next[s + 1]);
                if(s + 2 < S && skip(s + 2))
                    v = LogAddExp(v, next[s + 2]);
            }
            cur[s] = v == kNegInf ? kNegInf : v + lp(t, state(s));
            // alpha and beta both hold lp(t, l'_s) once: terms = alpha * beta / y.
            terms[s] = (al[s] == kNegInf || cur[s] == kNegInf) ? kNegInf
                                                               : al[s] + cur[s] - lp(t, state(s));
        }
        // The gradient row: classes outside the label first, then the blank and the labels.
        auto grad = [&](int k, double gk) {
            const double l = lp(t, k);
            const double v = a.softmax ? std::exp(l) - std::exp(gk - logp)
                                       : -std::exp(gk - l - logp);
            G(t, k) = FloatTo<T>(static_cast<float>(v));
        };
        for(int k = 0; k < a.C; ++k)
            G(t, k) = FloatTo<T>(a.softmax ? static_cast<float>(std::exp(lp(t, k))) : 0.0f);
        double gb = kNegInf;
        for(int s = 0; s < S; s += 2)
            gb = LogAddExp(gb, terms[s]);
        grad(a.blank, gb);
        const int off = lab.label_off[b];
        for(int j = 0; j < L; ++j)
        {
            if(!lab.head[off + j])
                continue;
            double gk = terms[2 * j + 1];
            for(int n = lab.next[off + j]; n >= 0; n = lab.next[n])
                gk = LogAddExp(gk, terms[2 * (n - off) + 1]);
            grad(label[j], gk);
        }
    }
}

} // namespace

template <class T>
void CtcLoss(const CtcArgs& a, const CtcLabels& lab, const T* probs, T* losses, T* gradients)
{
#pragma omp parallel
    {
        std::vector<double> lse, alpha, beta, terms;
#pragma omp for schedule(dynamic, 1)
        for(int b = 0; b < a.N; ++b)
            CtcItem<T>(a, lab, b, probs, losses, gradients, lse, alpha, beta, terms);
    }
}

template void CtcLoss<float>(const CtcArgs&, const CtcLabels&, const float*, float*, float*);
template void CtcLoss<Half>(const CtcArgs&, const CtcLabels&, const Half*, Half*, Half*);

} // namespace miopen::cpu
