// softmax_fwd_rows_warp / softmax_bwd_rows_warp: the rows engine for short unit-stride rows, a
// group of G lanes of one warp per row (G a power of two up to 32, so a group never straddles a
// warp of 32 or a wavefront of 64): N x 1000 CHANNEL mode (the classifier's softmax, G = 32) and
// CHANNEL mode on NHWC tensors, whose rows are the C channels of one position (C = 64: G = 8).
// Lane l of its group loads vectors l, l + G, ... of its row (VEC elements each: 4 when the rows
// are whole, aligned groups of four, else 1), all loads in flight at once, so x (y and dy) leave
// DRAM once; the max and the sums fold by XOR shuffles within the group (a fixed tree,
// deterministic), and no block barrier stands between a group's loads and its stores. Templates on
// the storage type T: loads widen to fp32 (Load4: 8 bytes a lane for fp16/bf16), one rounding per
// output. Same formulas as softmax.hip:
//   y = alpha / sum * exp(x - m) (+ beta y)      LOG: y = alpha * x - alpha * (m + log sum)
//   dx = alpha * y * (dy - sum y dy) (+ beta dx)  LOG: dx = alpha * (dy - exp(y) sum dy)
// The loop over rows is uniform across a warp (a warp's groups take consecutive rows, and rows
// past the end are computed as masked rows), so every lane reaches every shuffle.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

/// v folded over the G lanes of this lane's group (XOR shuffles; every lane of the warp calls it).
template <int G, class Op>
__device__ inline float GroupReduce(float v, Op op)
{
#pragma unroll
    for(int m = G / 2; m > 0; m /= 2)
        v = op(v, WarpXor(v, m));
    return v;
}

template <class T, int VEC>
__device__ inline void LoadVec(const T* p, float* out)
{
    if constexpr(VEC == 4)
    {
        const float4 f = Load4(p);
        out[0]         = f.x;
        out[1]         = f.y;
        out[2]         = f.z;
        out[3]         = f.w;
    }
    else
        out[0] = LoadFloat(p);
}

template <class T, int VEC>
__device__ inline void StoreVec(T* p, const float* v)
{
    if constexpr(VEC == 4)
        Store4(p, make_float4(v[0], v[1], v[2], v[3]));
    else
        StoreFloat(p, v[0]);
}

/// A group of G lanes per row: this lane's place in its group, and the rows of the grid-stride
/// loop (a warp's groups take PerWarp() consecutive rows; the loop's bounds are the warp's).
template <int G>
struct Lanes
{
    __device__ static int Lane() { return static_cast<int>(threadIdx.x) % G; }
    __device__ static int64_t PerWarp() { return warpSize / G; }
    __device__ static int64_t First()
    {
        const int64_t warps = blockDim.x / warpSize;
        return (int64_t{blockIdx.x} * warps + threadIdx.x / warpSize) * PerWarp();
    }
    __device__ static int64_t Stride() { return int64_t{gridDim.x} * (blockDim.x / warpSize) * PerWarp(); }
    __device__ static int Sub() { return static_cast<int>(threadIdx.x % warpSize) / G; }
};

template <class T, int G, int P, int VEC>
__global__ void __launch_bounds__(kSoftmaxWarpThreads)
    SoftmaxGroupRowsFwd(SoftmaxArgs<2> a, int algorithm, const T* x, T* y)
{
    const bool fast     = algorithm == MIOPEN_SOFTMAX_FAST;
    const bool log      = algorithm == MIOPEN_SOFTMAX_LOG;
    const bool read_y   = a.beta != 0.0f;
    const int lane      = Lanes<G>::Lane();
    const int nv        = static_cast<int>(a.inner.numel / VEC);
    const int64_t rows  = a.outer.numel;
    for(int64_t base = Lanes<G>::First(); base < rows; base += Lanes<G>::Stride())
    {
        const int64_t g   = base + Lanes<G>::Sub();
        const bool active = g < rows;
        int64_t goff[2]   = {0, 0};
        if(active)
            Offsets(a.outer, g, goff);
        const T* xg = x + goff[0];
        T* yg       = y + goff[1];
        float v[P * VEC];
#pragma unroll
        for(int k = 0; k < P; ++k)
        {
            const int q = lane + k * G;
            if(active && q < nv)
                LoadVec<T, VEC>(xg + q * VEC, v + k * VEC);
            else
#pragma unroll
                for(int j = 0; j < VEC; ++j)
                    v[k * VEC + j] = 0.0f;
        }
        float m = 0.0f;
        if(!fast)
        {
            float t = -INFINITY;
#pragma unroll
            for(int k = 0; k < P; ++k)
                if(lane + k * G < nv)
#pragma unroll
                    for(int j = 0; j < VEC; ++j)
                        t = MaxNanOp{}(t, v[k * VEC + j]);
            m = GroupReduce<G>(t, MaxNanOp{});
        }
        float t = 0.0f;
#pragma unroll
        for(int k = 0; k < P; ++k)
        {
            float e[VEC];
#pragma unroll
            for(int j = 0; j < VEC; ++j)
                e[j] = expf(v[k * VEC + j] - m);
            if(lane + k * G < nv)
            {
                if constexpr(VEC == 4)
                    t += (e[0] + e[1]) + (e[2] + e[3]);
                else
                    t += e[0];
            }
            if(!log)
#pragma unroll
                for(int j = 0; j < VEC; ++j)
                    v[k * VEC + j] = e[j]; // v holds exp(x - m) from here (LOG keeps x)
        }
        const float sum   = GroupReduce<G>(t, SumOp<float>{});
        const float scale = a.alpha / sum;
        const float shift = -a.alpha * (m + logf(sum));
        if(!active)
            continue;
#pragma unroll
        for(int k = 0; k < P; ++k)
        {
            const int q = lane + k * G;
            if(q >= nv)
                continue;
            float r[VEC];
#pragma unroll
            for(int j = 0; j < VEC; ++j)
                r[j] = log ? a.alpha * v[k * VEC + j] + shift : scale * v[k * VEC + j];
            if(read_y)
            {
                float o[VEC];
                LoadVec<T, VEC>(yg + q * VEC, o);
#pragma unroll
                for(int j = 0; j < VEC; ++j)
                    r[j] += a.beta * o[j];
            }
            StoreVec<T, VEC>(yg + q * VEC, r);
        }
    }
}

template <class T, int G, int P, int VEC>
__global__ void __launch_bounds__(kSoftmaxWarpThreads)
    SoftmaxGroupRowsBwd(SoftmaxArgs<3> a, int algorithm, const T* y, const T* dy, T* dx)
{
    const bool log      = algorithm == MIOPEN_SOFTMAX_LOG;
    const bool read_dx  = a.beta != 0.0f;
    const int lane      = Lanes<G>::Lane();
    const int nv        = static_cast<int>(a.inner.numel / VEC);
    const int64_t rows  = a.outer.numel;
    for(int64_t base = Lanes<G>::First(); base < rows; base += Lanes<G>::Stride())
    {
        const int64_t g   = base + Lanes<G>::Sub();
        const bool active = g < rows;
        int64_t goff[3]   = {0, 0, 0};
        if(active)
            Offsets(a.outer, g, goff);
        const T* yg  = y + goff[0];
        const T* dyg = dy + goff[1];
        T* dxg       = dx + goff[2];
        float yv[P * VEC], dv[P * VEC];
#pragma unroll
        for(int k = 0; k < P; ++k)
        {
            const int q = lane + k * G;
            if(active && q < nv)
            {
                LoadVec<T, VEC>(yg + q * VEC, yv + k * VEC);
                LoadVec<T, VEC>(dyg + q * VEC, dv + k * VEC);
            }
            else
#pragma unroll
                for(int j = 0; j < VEC; ++j)
                    yv[k * VEC + j] = dv[k * VEC + j] = 0.0f;
        }
        float t = 0.0f;
#pragma unroll
        for(int k = 0; k < P * VEC; ++k)
            t += log ? dv[k] : yv[k] * dv[k];
        const float r = GroupReduce<G>(t, SumOp<float>{});
        if(!active)
            continue;
#pragma unroll
        for(int k = 0; k < P; ++k)
        {
            const int q = lane + k * G;
            if(q >= nv)
                continue;
            float o[VEC];
#pragma unroll
            for(int j = 0; j < VEC; ++j)
            {
                const float yj = yv[k * VEC + j], dj = dv[k * VEC + j];
                o[j] = log ? a.alpha * (dj - expf(yj) * r) : a.alpha * yj * (dj - r);
            }
            if(read_dx)
            {
                float old[VEC];
                LoadVec<T, VEC>(dxg + q * VEC, old);
#pragma unroll
                for(int j = 0; j < VEC; ++j)
                    o[j] += a.beta * old[j];
            }
            StoreVec<T, VEC>(dxg + q * VEC, o);
        }
    }
}

template <class T, int VEC>
void Fwd(const SoftmaxArgs<2>& a, const Launch& l, int group, int algorithm, const T* x, T* y)
{
    switch(group)
    {
    case 2: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsFwd<T, 2, 2, VEC>), l, 0, a, algorithm, x, y); break;
    case 4: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsFwd<T, 4, 2, VEC>), l, 0, a, algorithm, x, y); break;
    case 8: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsFwd<T, 8, 2, VEC>), l, 0, a, algorithm, x, y); break;
    case 16: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsFwd<T, 16, 2, VEC>), l, 0, a, algorithm, x, y); break;
    case 32: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsFwd<T, 32, 2, VEC>), l, 0, a, algorithm, x, y); break;
    default:
        MIOPEN_CY_LAUNCH((SoftmaxGroupRowsFwd<T, 32, kSoftmaxWarpPerLane, VEC>), l, 0, a, algorithm,
                         x, y);
        break;
    }
}

template <class T, int VEC>
void Bwd(const SoftmaxArgs<3>& a, const Launch& l, int group, int algorithm, const T* y,
         const T* dy, T* dx)
{
    switch(group)
    {
    case 2: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsBwd<T, 2, 2, VEC>), l, 0, a, algorithm, y, dy, dx); break;
    case 4: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsBwd<T, 4, 2, VEC>), l, 0, a, algorithm, y, dy, dx); break;
    case 8: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsBwd<T, 8, 2, VEC>), l, 0, a, algorithm, y, dy, dx); break;
    case 16: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsBwd<T, 16, 2, VEC>), l, 0, a, algorithm, y, dy, dx); break;
    case 32: MIOPEN_CY_LAUNCH((SoftmaxGroupRowsBwd<T, 32, 2, VEC>), l, 0, a, algorithm, y, dy, dx); break;
    default:
        MIOPEN_CY_LAUNCH((SoftmaxGroupRowsBwd<T, 32, kSoftmaxWarpPerLane, VEC>), l, 0, a, algorithm,
                         y, dy, dx);
        break;
    }
}

} // namespace

template <class T>
void LaunchSoftmaxWarpFwd(const SoftmaxArgs<2>& a, const Launch& l, const SoftmaxGroup& grp,
                          int algorithm, const T* x, T* y)
{
    const int group = grp.per_lane == 2 ? grp.lanes : 0;
    if(grp.vec == 4)
        Fwd<T, 4>(a, l, group, algorithm, x, y);
    else
        Fwd<T, 1>(a, l, group, algorithm, x, y);
}

template <class T>
void LaunchSoftmaxWarpBwd(const SoftmaxArgs<3>& a, const Launch& l, const SoftmaxGroup& grp,
                          int algorithm, const T* y, const T* dy, T* dx)
{
    const int group = grp.per_lane == 2 ? grp.lanes : 0;
    if(grp.vec == 4)
        Bwd<T, 4>(a, l, group, algorithm, y, dy, dx);
    else
        Bwd<T, 1>(a, l, group, algorithm, y, dy, dx);
}

#define MIOPEN_CY_SOFTMAX_INSTANCE(T)                                                              \
    template void LaunchSoftmaxWarpFwd<T>(const SoftmaxArgs<2>&, const Launch&,                    \
                                          const SoftmaxGroup&, int, const T*, T*);                 \
    template void LaunchSoftmaxWarpBwd<T>(const SoftmaxArgs<3>&, const Launch&,                    \
                                          const SoftmaxGroup&, int, const T*, const T*, T*);
MIOPEN_CY_SOFTMAX_INSTANCE(float)
MIOPEN_CY_SOFTMAX_INSTANCE(Half)
MIOPEN_CY_SOFTMAX_INSTANCE(BFloat16)
#undef MIOPEN_CY_SOFTMAX_INSTANCE

} // namespace miopen::gpu
