// Launcher of the CTC loss: the labels, lengths and label chains copied into the workspace (the
// copy waits: the host arrays are the caller's), then ctc_loss, a block per batch item.
#include "ctc/ctc_args.hpp"
#include "kernels/common/launch_common.hpp"
#include "kernels/ctc/ctc_kernels.hpp"

#include <cstdint>
#include <vector>

namespace miopen::gpu {

template <class T>
void CtcLoss(Handle& h, const CtcArgs& a, const CtcLabels& lab, const T* probs, T* losses,
             T* gradients, void* workspace)
{
    auto* base = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(workspace) + 15) &
                                         ~static_cast<uintptr_t>(15));
    const CtcWorkspaceLayout l = CtcLayout(a);
    std::vector<int> ints;
    ints.reserve(3 * static_cast<size_t>(a.N) + 3 * static_cast<size_t>(a.total_labels));
    for(const auto* v : {&lab.input_len, &lab.label_len, &lab.label_off, &lab.labels, &lab.next,
                         &lab.head})
        ints.insert(ints.end(), v->begin(), v->end());
    Copy(base + l.ints, ints.data(), ints.size() * sizeof(int), h.Stream());
    const int* p = reinterpret_cast<const int*>(base + l.ints);
    const size_t N = static_cast<size_t>(a.N), total = static_cast<size_t>(a.total_labels);
    CtcWorkspace w;
    w.input_len = p;
    w.label_len = p + N;
    w.label_off = p + 2 * N;
    w.labels    = p + 3 * N;
    w.next      = p + 3 * N + total;
    w.head      = p + 3 * N + 2 * total;
    w.lse       = reinterpret_cast<float*>(base + l.lse);
    w.alpha     = reinterpret_cast<double*>(base + l.alpha);
    w.beta      = reinterpret_cast<double*>(base + l.beta);
    LaunchCtcLoss<T>(a, On(h, D1(static_cast<unsigned>(a.N)), D1(kCtcThreads)), probs, losses,
                     gradients, w);
    CheckLaunch("miopenCTCLoss");
}

template void CtcLoss<float>(Handle&, const CtcArgs&, const CtcLabels&, const float*, float*,
                             float*, void*);
template void CtcLoss<Half>(Handle&, const CtcArgs&, const CtcLabels&, const Half*, Half*, Half*,
                            void*);

} // namespace miopen::gpu
