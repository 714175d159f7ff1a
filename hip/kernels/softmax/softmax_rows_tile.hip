// softmax_fwd_rows_tile / softmax_bwd_rows_tile: the rows engine for short rows that lie end to
// end in every operand (CHANNEL mode on packed NHWC with a short C that is not whole aligned
// groups of four, e.g. segmentation's C = 21): a block owns a tile of R consecutive rows, i.e.
// R * len consecutive elements of each operand. Its threads load the tile flat (thread t takes
// elements t, t + R, ...: every load of a warp is one coalesced run, and all of a thread's loads
// are in flight before the first lands in shared memory), then thread r computes row r alone from
// shared memory, and the tile leaves flat as it came. softmax_rows_warp.hip's groups of lanes
// instead hold 2 elements a lane for such rows (a 16-lane group for C = 21: 4 bytes of fp16 in
// flight a thread, and the reductions by shuffles). Rows in shared memory at an odd stride (len
// | 1), so that the row-per-thread reads fall in distinct banks; the element's row by a multiply
// (RowOf). Templates on the storage type T; fp32 arithmetic, one rounding per output, the formulas
// of softmax_rows_warp.hip (sums in element order instead of its lane tree):
//   y = alpha / sum * exp(x - m) (+ beta y)      LOG: y = alpha * x - alpha * (m + log sum)
//   dx = alpha * y * (dy - sum y dy) (+ beta dx)  LOG: dx = alpha * (dy - exp(y) sum dy)
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

constexpr int kMaxLen = kSoftmaxTileMaxLen;
constexpr int kLd     = kMaxLen + 1; // room for a row at its odd stride

/// The row of flat element e of a tile: e / len as the high half of e * magic, magic =
/// ceil(2^32 / len) (exact for e < 2^32 / len; a tile holds at most 256 * 32 elements).
__device__ inline int RowOf(int e, uint32_t magic)
{
    return static_cast<int>(__umulhi(static_cast<uint32_t>(e), magic));
}

template <class T, int R>
__global__ void __launch_bounds__(R)
    SoftmaxTileRowsFwd(SoftmaxTileArgs a, int algorithm, const T* __restrict__ x,
                       T* __restrict__ y)
{
    __shared__ float sh[R * kLd];
    const bool fast   = algorithm == MIOPEN_SOFTMAX_FAST;
    const bool log    = algorithm == MIOPEN_SOFTMAX_LOG;
    const bool read_y = a.beta != 0.0f;
    const int len     = a.len;
    const int ld      = len | 1;
    const int tid     = static_cast<int>(threadIdx.x);
    for(int64_t row0 = int64_t{blockIdx.x} * R; row0 < a.rows; row0 += int64_t{gridDim.x} * R)
    {
        const int rows = static_cast<int>(a.rows - row0 < R ? a.rows - row0 : R);
        const int n    = rows * len;
        const T* xt    = x + row0 * len;
        float buf[kMaxLen];
#pragma unroll
        for(int k = 0; k < kMaxLen; ++k)
        {
            const int e = tid + k * R;
            buf[k]      = e < n ? LoadFloat(xt + e) : 0.0f;
        }
#pragma unroll
        for(int k = 0; k < kMaxLen; ++k)
        {
            const int e = tid + k * R;
            if(e < n)
            {
                const int r             = RowOf(e, a.magic);
                sh[r * ld + (e - r * len)] = buf[k];
            }
        }
        __syncthreads();
        if(tid < rows)
        {
            float* v = sh + tid * ld;
            float m  = 0.0f;
            if(!fast)
            {
                float t = -INFINITY;
                for(int j = 0; j < len; ++j)
                    t = MaxNanOp{}(t, v[j]);
                m = t;
            }
            float sum = 0.0f;
            for(int j = 0; j < len; ++j)
            {
                const float e = expf(v[j] - m);
                sum += e;
                if(!log)
                    v[j] = e;
            }
            const float scale = a.alpha / sum;
            const float shift = -a.alpha * (m + logf(sum));
            for(int j = 0; j < len; ++j)
                v[j] = log ? a.alpha * v[j] + shift : scale * v[j];
        }
        __syncthreads();
        T* yt = y + row0 * len;
#pragma unroll
        for(int k = 0; k < kMaxLen; ++k)
        {
            const int e = tid + k * R;
            if(e < n)
            {
                const int r = RowOf(e, a.magic);
                float o     = sh[r * ld + (e - r * len)];
                if(read_y)
                    o += a.beta * LoadFloat(yt + e);
                StoreFloat(yt + e, o);
            }
        }
        __syncthreads(); // the next tile overwrites sh
    }
}

template <class T, int R>
__global__ void __launch_bounds__(R)
    SoftmaxTileRowsBwd(SoftmaxTileArgs a, int algorithm, const T* __restrict__ y,
                       const T* __restrict__ dy, T* __restrict__ dx)
{
    __shared__ float sy[R * kLd];
    __shared__ float sd[R * kLd];
    const bool log     = algorithm == MIOPEN_SOFTMAX_LOG;
    const bool read_dx = a.beta != 0.0f;
    const int len      = a.len;
    const int ld       = len | 1;
    const int tid      = static_cast<int>(threadIdx.x);
    for(int64_t row0 = int64_t{blockIdx.x} * R; row0 < a.rows; row0 += int64_t{gridDim.x} * R)
    {
        const int rows = static_cast<int>(a.rows - row0 < R ? a.rows - row0 : R);
        const int n    = rows * len;
        const T* yt    = y + row0 * len;
        const T* dyt   = dy + row0 * len;
        float by[kMaxLen], bd[kMaxLen];
#pragma unroll
        for(int k = 0; k < kMaxLen; ++k)
        {
            const int e = tid + k * R;
            by[k]       = e < n ? LoadFloat(yt + e) : 0.0f;
            bd[k]       = e < n ? LoadFloat(dyt + e) : 0.0f;
        }
#pragma unroll
        for(int k = 0; k < kMaxLen; ++k)
        {
            const int e = tid + k * R;
            if(e < n)
            {
                const int r  = RowOf(e, a.magic);
                const int at = r * ld + (e - r * len);
                sy[at]       = by[k];
                sd[at]       = bd[k];
            }
        }
        __syncthreads();
        if(tid < rows)
        {
            const float* yv = sy + tid * ld;
            float* dv       = sd + tid * ld;
            float t         = 0.0f;
            for(int j = 0; j < len; ++j)
                t += log ? dv[j] : yv[j] * dv[j];
            for(int j = 0; j < len; ++j)
                dv[j] = log ? a.alpha * (dv[j] - expf(yv[j]) * t) : a.alpha * yv[j] * (dv[j] - t);
        }
        __syncthreads();
        T* dxt = dx + row0 * len;
#pragma unroll
        for(int k = 0; k < kMaxLen; ++k)
        {
            const int e = tid + k * R;
            if(e < n)
            {
                const int r = RowOf(e, a.magic);
                float o     = sd[r * ld + (e - r * len)];
                if(read_dx)
                    o += a.beta * LoadFloat(dxt + e);
                StoreFloat(dxt + e, o);
            }
        }
        __syncthreads();
    }
}

} // namespace

template <class T>
void LaunchSoftmaxTileFwd(const SoftmaxTileArgs& a, const Launch& l, int algorithm, const T* x,
                          T* y)
{
    MIOPEN_CY_LAUNCH((SoftmaxTileRowsFwd<T, kSoftmaxTileRowsFwd>), l, 0, a, algorithm, x, y);
}

template <class T>
void LaunchSoftmaxTileBwd(const SoftmaxTileArgs& a, const Launch& l, int algorithm, const T* y,
                          const T* dy, T* dx)
{
    MIOPEN_CY_LAUNCH((SoftmaxTileRowsBwd<T, kSoftmaxTileRowsBwd>), l, 0, a, algorithm, y, dy, dx);
}

#define MIOPEN_CY_SOFTMAX_INSTANCE(T)                                                              \
    template void LaunchSoftmaxTileFwd<T>(const SoftmaxTileArgs&, const Launch&, int, const T*,    \
                                          T*);                                                     \
    template void LaunchSoftmaxTileBwd<T>(const SoftmaxTileArgs&, const Launch&, int, const T*,    \
                                          const T*, T*);
MIOPEN_CY_SOFTMAX_INSTANCE(float)
MIOPEN_CY_SOFTMAX_INSTANCE(Half)
MIOPEN_CY_SOFTMAX_INSTANCE(BFloat16)
#undef MIOPEN_CY_SOFTMAX_INSTANCE

} // namespace miopen::gpu
