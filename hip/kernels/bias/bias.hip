// bias_bwd: db[c] = alpha * sum of dy over N and the spatial dims + beta * db[c]. Two kernels:
// per-(channel, chunk) double sums by the group reduction (common/reduce.hpp), then one thread
// per channel adds its chunks in order (deterministic) and blends. The forward bias is OpTensor
// (tensor/tensor_op.hip), as in MIOpen.
#include "bias/bias_kernels.hpp"
#include "common/reduce.hpp"

namespace miopen::gpu {
namespace {

struct SumDy
{
    const float* dy;
    __device__ void Begin(int64_t, const int64_t (&)[2]) {}
    __device__ void Add(const int64_t (&off)[1], double& s1, double&) const { s1 += dy[off[0]]; }
};

__global__ void BiasBwdFinish(GroupArgs<1> a, const Partial2* partial, float* db, float alpha,
                              float beta)
{
    for(int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; g < a.groups;
        g += int64_t{gridDim.x} * blockDim.x)
    {
        int64_t goff[2];
        Offsets(a.g, g, goff);
        const float sum = static_cast<float>(SumPartials(partial, g, a.chunks).s1);
        float* out      = db + goff[1];
        *out            = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
    }
}

} // namespace

void LaunchBiasBwdPartial(const GroupArgs<1>& a, const Launch& l, const float* dy,
                          Partial2* partial)
{
    MIOPEN_CY_LAUNCH((GroupPartial<1, SumDy>), l, 0, a, SumDy{dy}, partial);
}

void LaunchBiasBwdFinish(const GroupArgs<1>& a, const Launch& l, const Partial2* partial,
                         float* db, float alpha, float beta)
{
    MIOPEN_CY_LAUNCH(BiasBwdFinish, l, 0, a, partial, db, alpha, beta);
}

} // namespace miopen::gpu
