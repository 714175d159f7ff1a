// The RNN's element-wise kernels (rnn_kernels.hpp): grid-stride loops over fp32 data, with the
// user's storage type T (float, Half, BFloat16) only where rows are gathered, scattered or stored,
// loaded as fp32 and rounded once, and where the tensor-core products' 16-bit operand copies are
// written (rounded once from the fp32 value that is kept). The gate math is the CPU kernel's (cpu/rnn.cpp), one pass per
// step: vanilla h = act(a); LSTM gates i, f, o, c~ with c = f c_prev + i c~, h = o tanh(c); GRU
// gates z, r, c~ with c~ = tanh(a_c + r (R_c h + b)), h = (1 - z) c~ + z h_prev.
#include "kernels/common/device.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/rnn/rnn_kernels.hpp"

namespace miopen::gpu {
namespace {

constexpr int kRelu = 0, kTanh = 1, kLstm = 2, kGru = 3;

__device__ inline int64_t FirstIndex() { return int64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline int64_t GridStride() { return int64_t(gridDim.x) * blockDim.x; }
__device__ inline float Sigm(float v) { return 1.0f / (1.0f + expf(-v)); }

template <class T, class D>
__global__ void __launch_bounds__(kRnnThreads)
    RnnGather(const T* src, int width, const int64_t* io_row, int64_t rows, D* dst)
{
    const int64_t n = rows * width;
    for(int64_t i = FirstIndex(); i < n; i += GridStride())
    {
        const int64_t r = i / width, k = i - r * width;
        StoreFloat(dst + i, LoadFloat(src + io_row[r] * width + k));
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads)
    RnnScatter(const float* src, int width, const int64_t* io_row, int64_t rows, T* dst)
{
    const int64_t n = rows * width;
    for(int64_t i = FirstIndex(); i < n; i += GridStride())
    {
        const int64_t r = i / width, k = i - r * width;
        StoreFloat(dst + io_row[r] * width + k, src[i]);
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads) RnnFill(T* dst, int64_t n, float fill)
{
    for(int64_t i = FirstIndex(); i < n; i += GridStride())
        StoreFloat(dst + i, fill);
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads) RnnToFloat(const T* src, int64_t n, float* dst)
{
    for(int64_t i = FirstIndex(); i < n; i += GridStride())
        dst[i] = LoadFloat(src + i);
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads) RnnFromFloat(const float* src, int64_t n, T* dst)
{
    for(int64_t i = FirstIndex(); i < n; i += GridStride())
        StoreFloat(dst + i, src[i]);
}

__global__ void __launch_bounds__(kRnnThreads)
    RnnSkipInput(const float* x, int64_t rows, int h, int copies, float* G, int64_t Gw)
{
    const int64_t total = rows * copies * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t r = i / (int64_t(copies) * h);
        const int64_t c = i - r * copies * h; // g * h + k
        G[r * Gw + c]   = x[r * h + c % h];
    }
}

__global__ void __launch_bounds__(kRnnThreads)
    RnnSumGates(const float* dG, int64_t rows, int h, int copies, int64_t Gw, float* dx)
{
    const int64_t total = rows * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t r = i / h, k = i - r * h;
        float acc       = 0.0f;
        for(int g = 0; g < copies; ++g)
            acc += dG[r * Gw + int64_t(g) * h + k];
        dx[i] = acc;
    }
}

template <class T, class D>
__global__ void __launch_bounds__(kRnnThreads)
    RnnLoadInit(const T* hx, int li, int ub, const int32_t* perm, int h, D* init)
{
    const int64_t total = int64_t(ub) * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t j = i / h, k = i - j * h;
        StoreFloat(init + i, hx == nullptr ? 0.0f : LoadFloat(hx + (int64_t(li) * ub + perm[j]) * h + k));
    }
}

template <class D>
__global__ void __launch_bounds__(kRnnThreads)
    RnnGatherPrev(const D* m, int64_t ld, int col, const int32_t* prev, const int32_t* slot,
                  const D* init, int h, int64_t r0, int64_t rows, D* out)
{
    const int64_t total = rows * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t q = i / h, k = i - q * h;
        const int64_t r = r0 + q;
        const int32_t p = prev[r];
        out[i] = p >= 0 ? m[int64_t(p) * ld + col + k] : init[int64_t(slot[r]) * h + k];
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads)
    RnnGateForward(int mode, int h, int bt, int64_t r0, float* G, int64_t Gw, int gcol,
                   const float* R, int parts, int64_t pstride, const float* bin,
                   const float* bhid, float* Y, float* E, int64_t Hb, int ycol,
                   const int32_t* prev, const float* hinit, const float* cinit, T* Yh)
{
    const int ng        = mode == kLstm ? 4 : (mode == kRelu || mode == kTanh) ? 1 : 3;
    const int64_t total = int64_t(bt) * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t j = i / h, k = i - j * h;
        const int64_t row = r0 + j;
        float* g          = G + row * Gw + gcol;
        const float* r    = R + j * ng * h;
        float* y          = Y + row * Hb + ycol;
        float* e          = E + row * Hb + ycol;
        // h' into Y and, for the tensor-core products, its 16-bit copy
        auto put_h = [&](float v) {
            y[k] = v;
            if(Yh != nullptr)
                StoreFloat(Yh + row * Hb + ycol + k, v);
        };
        // the recurrent product: the split GEMM's parts added in part order (one: R itself), every
        // gate's at once (their loads independent)
        float rsum[4];
#pragma unroll
        for(int q = 0; q < 4; ++q)
            rsum[q] = q < ng ? r[int64_t(q) * h + k] : 0.0f;
        for(int z = 1; z < parts; ++z)
#pragma unroll
            for(int q = 0; q < 4; ++q)
                if(q < ng)
                    rsum[q] += r[z * pstride + int64_t(q) * h + k];
        auto rv = [&](int gate) {
            return rsum[gate] + (bhid ? bhid[int64_t(gate) * h + k] : 0.0f);
        };
        // the input side: the input product (or skip input) plus the input bias
        auto gin = [&](int gate) {
            const int64_t c = int64_t(gate) * h + k;
            return g[c] + (bin ? bin[c] : 0.0f);
        };
        if(mode == kRelu || mode == kTanh)
        {
            const float v = gin(0) + rv(0);
            const float o = mode == kRelu ? (v > 0.0f ? v : 0.0f) : tanhf(v);
            g[k]          = o;
            put_h(o);
        }
        else if(mode == kLstm)
        {
            const float ig = Sigm(gin(0) + rv(0));
            const float fg = Sigm(gin(1) + rv(1));
            const float og = Sigm(gin(2) + rv(2));
            const float cg = tanhf(gin(3) + rv(3));
            const int32_t p = prev[row];
            const float cp  = p >= 0 ? E[int64_t(p) * Hb + ycol + k] : cinit[i];
            const float c   = fg * cp + ig * cg;
            g[k]           = ig;
            g[h + k]       = fg;
            g[2 * h + k]   = og;
            g[3 * h + k]   = cg;
            e[k]           = c;
            put_h(og * tanhf(c));
        }
        else
        {
            const float z  = Sigm(gin(0) + rv(0));
            const float rr = Sigm(gin(1) + rv(1));
            const float rc = rv(2);
            const float n  = tanhf(gin(2) + rr * rc);
            g[k]           = z;
            g[h + k]       = rr;
            g[2 * h + k]   = n;
            e[k]           = rc;
            const int32_t p = prev[row];
            const float hp  = p >= 0 ? Y[int64_t(p) * Hb + ycol + k] : hinit[i];
            put_h((1.0f - z) * n + z * hp);
        }
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads)
    RnnGateBackward(int mode, int h, int bt, int64_t r0, const float* Gs, int64_t Gw, int gcol,
                    const float* Y, const float* E, int64_t Hb, int ycol, const float* dY,
                    const float* DH, const float* DHp, int dh_parts, int dh_rows, float* DHD,
                    float* DC, const int32_t* prev, const float* hinit, const float* cinit,
                    float* dG, float* dRc, float* dR, T* dGh, T* dRch, T* dRh)
{
    const int64_t total = int64_t(bt) * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t j = i / h, k = i - j * h;
        const int64_t row = r0 + j;
        const float* gs   = Gs + row * Gw + gcol;
        // a gate gradient into dG and, for the tensor-core products, its 16-bit copy
        auto put_g = [&](int gate, float v) {
            dG[row * Gw + gcol + int64_t(gate) * h + k] = v;
            if(dGh != nullptr)
                StoreFloat(dGh + row * Gw + gcol + int64_t(gate) * h + k, v);
        };
        const float yv    = Y[row * Hb + ycol + k];
        // E: LSTM's c, GRU's hidden c~ term (vanilla RNNs keep none: E has no room for them)
        const float ev    = (mode == kLstm || mode == kGru) ? E[row * Hb + ycol + k] : 0.0f;
        // the carried gradient: slots below dh_rows from the split GEMM's parts (in part order,
        // dh_rows x h each), the others (and all without parts) from DH
        float carried = 0.0f;
        if(dh_parts > 0 && j < dh_rows)
        {
            const int64_t pstride = int64_t(dh_rows) * h;
            carried               = DHp[i];
            for(int z = 1; z < dh_parts; ++z)
                carried += DHp[z * pstride + i];
        }
        else
            carried = DH[i];
        const float g_h   = dY[row * Hb + ycol + k] + carried + DHD[i];
        float direct      = 0.0f;
        if(mode == kRelu)
            put_g(0, yv > 0.0f ? g_h : 0.0f);
        else if(mode == kTanh)
            put_g(0, g_h * (1.0f - yv * yv));
        else if(mode == kLstm)
        {
            const float ig = gs[k], fg = gs[h + k], og = gs[2 * h + k], cg = gs[3 * h + k];
            const float tc  = tanhf(ev);
            const float dct = DC[i] + g_h * og * (1.0f - tc * tc);
            put_g(0, dct * cg * ig * (1.0f - ig));
            const int32_t p = prev[row];
            const float cp  = p >= 0 ? E[int64_t(p) * Hb + ycol + k] : cinit[i];
            put_g(1, dct * cp * fg * (1.0f - fg));
            put_g(2, g_h * tc * og * (1.0f - og));
            put_g(3, dct * ig * (1.0f - cg * cg));
            DC[i]           = dct * fg;
        }
        else
        {
            const float z = gs[k], rr = gs[h + k], n = gs[2 * h + k];
            const float dn = g_h * (1.0f - z) * (1.0f - n * n);
            const int32_t p = prev[row];
            const float hp = p >= 0 ? Y[int64_t(p) * Hb + ycol + k] : hinit[i];
            const float dz = g_h * (hp - n) * z * (1.0f - z);
            const float dr = dn * ev * rr * (1.0f - rr);
            put_g(0, dz);
            put_g(1, dr);
            put_g(2, dn);
            dRc[row * Hb + ycol + k] = dn * rr;
            float* drow    = dR + j * 3 * h;
            drow[k]        = dz;
            drow[h + k]    = dr;
            drow[2 * h + k] = dn * rr;
            if(dRh != nullptr)
            {
                StoreFloat(dRch + row * Hb + ycol + k, dn * rr);
                T* hrow = dRh + j * 3 * h;
                StoreFloat(hrow + k, dz);
                StoreFloat(hrow + h + k, dr);
                StoreFloat(hrow + 2 * h + k, dn * rr);
            }
            direct         = g_h * z;
        }
        DHD[i] = direct;
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads)
    RnnStartSlots(const T* dhy, const T* dcy, int li, int ub, const int32_t* perm, int from,
                  int to, int h, float* DH, float* DHD, float* DC)
{
    const int64_t total = int64_t(to - from) * h;
    for(int64_t q = FirstIndex(); q < total; q += GridStride())
    {
        const int64_t j = from + q / h, k = q % h;
        const int64_t i = j * h + k;
        const int64_t o = (int64_t(li) * ub + perm[j]) * h + k;
        DH[i]  = dhy ? LoadFloat(dhy + o) : 0.0f;
        DC[i]  = dcy ? LoadFloat(dcy + o) : 0.0f;
        DHD[i] = 0.0f;
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads)
    RnnRouteSlots(const float* DH, const float* DHD, const float* DC, int li, int ub,
                  const int32_t* perm, int from, int to, int h, T* dhx, T* dcx)
{
    const int64_t total = int64_t(to - from) * h;
    for(int64_t q = FirstIndex(); q < total; q += GridStride())
    {
        const int64_t j = from + q / h, k = q % h;
        const int64_t i = j * h + k;
        const int64_t o = (int64_t(li) * ub + perm[j]) * h + k;
        if(dhx)
            StoreFloat(dhx + o, DH[i] + DHD[i]);
        if(dcx)
            StoreFloat(dcx + o, DC[i]);
    }
}

template <class T>
__global__ void __launch_bounds__(kRnnThreads)
    RnnStoreState(const float* m, int64_t ld, int col, const int32_t* fin, const float* init,
                  int li, int ub, const int32_t* perm, int h, T* out)
{
    const int64_t total = int64_t(ub) * h;
    for(int64_t i = FirstIndex(); i < total; i += GridStride())
    {
        const int64_t j = i / h, k = i - j * h;
        const int32_t f = fin[j];
        const float v   = f >= 0 ? m[int64_t(f) * ld + col + k] : init[i];
        StoreFloat(out + (int64_t(li) * ub + perm[j]) * h + k, v);
    }
}

__global__ void __launch_bounds__(kRnnThreads)
    RnnApplyMask(float* m, const uint8_t* mask, int64_t n, float scale)
{
    for(int64_t i = FirstIndex(); i < n; i += GridStride())
        m[i] = mask[i] ? m[i] * scale : 0.0f;
}

/// A block per 32 columns: 8 lanes of rows per column (lane y sums rows y, y + 8, ...), then the
/// 8 partial sums folded in lane order (deterministic).
__global__ void __launch_bounds__(kRnnThreads)
    RnnColumnSum(const float* m, int64_t rows, int64_t ld, int n, float* out)
{
    __shared__ float part[kRnnColLanes][32];
    const int64_t c = int64_t(blockIdx.x) * 32 + threadIdx.x;
    float acc       = 0.0f;
    if(c < n)
        for(int64_t r = threadIdx.y; r < rows; r += kRnnColLanes)
            acc += m[r * ld + c];
    part[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if(threadIdx.y == 0 && c < n)
    {
        float s = 0.0f;
        for(int y = 0; y < kRnnColLanes; ++y)
            s += part[y][threadIdx.x];
        out[c] = s;
    }
}

} // namespace

template <class T, class D>
void LaunchRnnGather(const Launch& l, const T* src, int width, const int64_t* io_row, int64_t rows,
                     D* dst)
{
    MIOPEN_CY_LAUNCH((RnnGather<T, D>), l, 0, src, width, io_row, rows, dst);
}

template <class T>
void LaunchRnnScatter(const Launch& l, const float* src, int width, const int64_t* io_row,
                      int64_t rows, T* dst)
{
    MIOPEN_CY_LAUNCH(RnnScatter<T>, l, 0, src, width, io_row, rows, dst);
}

template <class T>
void LaunchRnnFill(const Launch& l, T* dst, int64_t n, float fill)
{
    MIOPEN_CY_LAUNCH(RnnFill<T>, l, 0, dst, n, fill);
}

template <class T>
void LaunchRnnToFloat(const Launch& l, const T* src, int64_t n, float* dst)
{
    MIOPEN_CY_LAUNCH(RnnToFloat<T>, l, 0, src, n, dst);
}

template <class T>
void LaunchRnnFromFloat(const Launch& l, const float* src, int64_t n, T* dst)
{
    MIOPEN_CY_LAUNCH(RnnFromFloat<T>, l, 0, src, n, dst);
}

void LaunchRnnSkipInput(const Launch& l, const float* x, int64_t rows, int h, int copies,
                        float* G, int64_t Gw)
{
    MIOPEN_CY_LAUNCH(RnnSkipInput, l, 0, x, rows, h, copies, G, Gw);
}

void LaunchRnnSumGates(const Launch& l, const float* dG, int64_t rows, int h, int copies,
                       int64_t Gw, float* dx)
{
    MIOPEN_CY_LAUNCH(RnnSumGates, l, 0, dG, rows, h, copies, Gw, dx);
}

template <class T, class D>
void LaunchRnnLoadInit(const Launch& l, const T* hx, int li, int ub, const int32_t* perm, int h,
                       D* init)
{
    MIOPEN_CY_LAUNCH((RnnLoadInit<T, D>), l, 0, hx, li, ub, perm, h, init);
}

template <class D>
void LaunchRnnGatherPrev(const Launch& l, const D* m, int64_t ld, int col,
                         const int32_t* prev, const int32_t* slot, const D* init, int h,
                         int64_t r0, int64_t rows, D* out)
{
    MIOPEN_CY_LAUNCH(RnnGatherPrev<D>, l, 0, m, ld, col, prev, slot, init, h, r0, rows, out);
}

template <class T>
void LaunchRnnGateForward(const Launch& l, int mode, int h, int bt, int64_t r0, float* G,
                          int64_t Gw, int gcol, const float* R, int parts, int64_t pstride,
                          const float* bin, const float* bhid, float* Y, float* E, int64_t Hb,
                          int ycol, const int32_t* prev, const float* hinit, const float* cinit,
                          T* Yh)
{
    MIOPEN_CY_LAUNCH(RnnGateForward<T>, l, 0, mode, h, bt, r0, G, Gw, gcol, R, parts, pstride, bin,
                     bhid, Y, E, Hb, ycol, prev, hinit, cinit, Yh);
}

template <class T>
void LaunchRnnGateBackward(const Launch& l, int mode, int h, int bt, int64_t r0,
                           const float* Gs, int64_t Gw, int gcol, const float* Y, const float* E,
                           int64_t Hb, int ycol, const float* dY, const float* DH,
                           const float* DHp, int dh_parts, int dh_rows, float* DHD, float* DC,
                           const int32_t* prev, const float* hinit, const float* cinit,
                           float* dG, float* dRc, float* dR, T* dGh, T* dRch, T* dRh)
{
    MIOPEN_CY_LAUNCH(RnnGateBackward<T>, l, 0, mode, h, bt, r0, Gs, Gw, gcol, Y, E, Hb, ycol, dY, DH,
                     DHp, dh_parts, dh_rows, DHD, DC, prev, hinit, cinit, dG, dRc, dR, dGh, dRch, dRh);
}

template <class T>
void LaunchRnnStartSlots(const Launch& l, const T* dhy, const T* dcy, int li, int ub,
                         const int32_t* perm, int from, int to, int h, float* DH, float* DHD,
                         float* DC)
{
    MIOPEN_CY_LAUNCH(RnnStartSlots<T>, l, 0, dhy, dcy, li, ub, perm, from, to, h, DH, DHD, DC);
}

template <class T>
void LaunchRnnRouteSlots(const Launch& l, const float* DH, const float* DHD, const float* DC,
                         int li, int ub, const int32_t* perm, int from, int to, int h, T* dhx,
                         T* dcx)
{
    MIOPEN_CY_LAUNCH(RnnRouteSlots<T>, l, 0, DH, DHD, DC, li, ub, perm, from, to, h, dhx, dcx);
}

template <class T>
void LaunchRnnStoreState(const Launch& l, const float* m, int64_t ld, int col, const int32_t* fin,
                         const float* init, int li, int ub, const int32_t* perm, int h, T* out)
{
    MIOPEN_CY_LAUNCH(RnnStoreState<T>, l, 0, m, ld, col, fin, init, li, ub, perm, h, out);
}

void LaunchRnnApplyMask(const Launch& l, float* m, const uint8_t* mask, int64_t n, float scale)
{
    MIOPEN_CY_LAUNCH(RnnApplyMask, l, 0, m, mask, n, scale);
}

void LaunchRnnColumnSum(const Launch& l, const float* m, int64_t rows, int64_t ld, int n,
                        float* out)
{
    MIOPEN_CY_LAUNCH(RnnColumnSum, l, 0, m, rows, ld, n, out);
}

#define MIOPEN_CY_RNN_KERNELS(T)                                                                 \
    template void LaunchRnnGather<T, float>(const Launch&, const T*, int, const int64_t*,        \
                                            int64_t, float*);                                    \
    template void LaunchRnnScatter<T>(const Launch&, const float*, int, const int64_t*, int64_t, \
                                      T*);                                                       \
    template void LaunchRnnFill<T>(const Launch&, T*, int64_t, float);                           \
    template void LaunchRnnToFloat<T>(const Launch&, const T*, int64_t, float*);                 \
    template void LaunchRnnFromFloat<T>(const Launch&, const float*, int64_t, T*);               \
    template void LaunchRnnLoadInit<T, float>(const Launch&, const T*, int, int, const int32_t*, \
                                              int, float*);                                      \
    template void LaunchRnnGatherPrev<T>(const Launch&, const T*, int64_t, int, const int32_t*,  \
                                         const int32_t*, const T*, int, int64_t, int64_t, T*);   \
    template void LaunchRnnGateForward<T>(const Launch&, int, int, int, int64_t, float*, int64_t, \
                                          int, const float*, int, int64_t, const float*,         \
                                          const float*, float*, float*, int64_t, int,            \
                                          const int32_t*, const float*, const float*, T*);       \
    template void LaunchRnnGateBackward<T>(const Launch&, int, int, int, int64_t, const float*,  \
                                           int64_t, int, const float*, const float*, int64_t,    \
                                           int, const float*, const float*, const float*, int,   \
                                           int, float*, float*, const int32_t*, const float*,    \
                                           const float*, float*, float*, float*, T*, T*, T*);    \
    template void LaunchRnnStartSlots<T>(const Launch&, const T*, const T*, int, int,            \
                                         const int32_t*, int, int, int, float*, float*, float*); \
    template void LaunchRnnRouteSlots<T>(const Launch&, const float*, const float*,              \
                                         const float*, int, int, const int32_t*, int, int, int,  \
                                         T*, T*);                                                \
    template void LaunchRnnStoreState<T>(const Launch&, const float*, int64_t, int,              \
                                         const int32_t*, const float*, int, int, const int32_t*, \
                                         int, T*);
MIOPEN_CY_RNN_KERNELS(float)
MIOPEN_CY_RNN_KERNELS(Half)
MIOPEN_CY_RNN_KERNELS(BFloat16)
#undef MIOPEN_CY_RNN_KERNELS
// The 16-bit operand copies of the tensor-core products.
#define MIOPEN_CY_RNN_KERNELS16(T)                                                               \
    template void LaunchRnnGather<T, T>(const Launch&, const T*, int, const int64_t*, int64_t,   \
                                        T*);                                                     \
    template void LaunchRnnLoadInit<T, T>(const Launch&, const T*, int, int, const int32_t*, int, \
                                          T*);
MIOPEN_CY_RNN_KERNELS16(Half)
MIOPEN_CY_RNN_KERNELS16(BFloat16)
#undef MIOPEN_CY_RNN_KERNELS16

} // namespace miopen::gpu
