// Launcher of miopenReduceTensor: the plan's grid (ceil(outputs / gx) x chunks blocks of
// kReduceThreads) and, for a split plan, the finishing kernel's (ReduceFinishLanes lanes per
// output) over the workspace's partial results. Plain C++.
#include "kernels/common/launch_common.hpp"
#include "kernels/reduce/reduce_kernels.hpp"
#include "reduce/reduce_args.hpp"

namespace miopen::gpu {

template <class T, class Acc>
void ReduceTensor(const Handle& h, const ReducePlan& p, double alpha, const T* a, double beta,
                  T* c, int32_t* indices, void* workspace)
{
    size_t index_offset = 0;
    ReducePartialBytes(p, sizeof(Acc), &index_offset);
    Acc* part_v     = p.chunks > 1 ? static_cast<Acc*>(workspace) : nullptr;
    int32_t* part_i = p.chunks > 1 && p.want_indices
                          ? reinterpret_cast<int32_t*>(static_cast<char*>(workspace) + index_offset)
                          : nullptr;
    const Launch partial =
        On(h, D2(CeilDiv(p.outputs, p.gx), static_cast<unsigned>(p.chunks)), D1(kReduceThreads));
    const Launch finish =
        On(h, D1(CeilDiv(p.outputs, kReduceThreads / ReduceFinishLanes(p.chunks))),
           D1(kReduceThreads));
    LaunchReduce<T, Acc>(p, partial, finish, alpha, a, beta, c, p.want_indices ? indices : nullptr,
                         part_v, part_i);
    CheckLaunch("miopenReduceTensor");
}

#define MIOPEN_REDUCE_INSTANCE(T, Acc)                                                     \
    template void ReduceTensor<T, Acc>(const Handle&, const ReducePlan&, double, const T*, \
                                       double, T*, int32_t*, void*);
MIOPEN_REDUCE_INSTANCE(float, float)
MIOPEN_REDUCE_INSTANCE(float, double)
MIOPEN_REDUCE_INSTANCE(Half, float)
MIOPEN_REDUCE_INSTANCE(Half, double)
MIOPEN_REDUCE_INSTANCE(BFloat16, float)
MIOPEN_REDUCE_INSTANCE(BFloat16, double)
MIOPEN_REDUCE_INSTANCE(double, double)
MIOPEN_REDUCE_INSTANCE(int8_t, double)
MIOPEN_REDUCE_INSTANCE(int32_t, double)
#undef MIOPEN_REDUCE_INSTANCE

} // namespace miopen::gpu
