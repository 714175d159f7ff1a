// Grouped and depthwise convolution on the GPU for few channels per group (C/G, K/G <= 32), 2-d,
// packed NCHW: direct kernels at memory speed, where the implicit GEMM leaves its tiles idle.
// Forward: a block per (image, group, chunk of KB output channels) x tile of output positions; a
// thread owns RUN neighbouring outputs of one row for all KB channels of its chunk, so each input
// value loaded feeds KB * (taps reaching it) products. Backward data: the same with the roles of
// C and K swapped (a gather over the output positions a tap reaches: stride tests, no atomics).
// Backward weights: a warp per (k, c) filter pair and split of the output positions (image rows);
// its 32 lanes take consecutive positions (coalesced reads), hold every tap in registers, and add
// the lanes by a fixed xor tree; with several splits the partials go to the workspace and a second
// kernel adds them in split order. Deterministic, no atomics. All indices 32-bit (Fits32).
// Backward weights with 16-256 (k, c) pairs per group and a 1x1 or 3x3 filter (GpWrwTile): a
// block per (group, split of the image rows) stages a band of the group's x rows and dy rows in
// shared memory, and every thread owns one (k, c) pair of the group and a fixed share of the
// band's positions, so each x value loaded from memory feeds all K/G filters of its channel;
// the shares are added in a fixed order, the splits as above (deterministic, no atomics).
#include "kernels/common/device.hpp"
#include "kernels/conv/conv_kernels.hpp"


namespace miopen::gpu {
namespace {

constexpr int kGpRun  = 4;    // outputs per thread along the row
constexpr int kGpWarps = 8;   // warps per block of the backward-weights kernel

__device__ inline float ShflXor(float v, int mask)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    return __shfl_xor_sync(0xffffffffu, v, mask, 32);
#else
    return __shfl_xor(v, mask, 32);   // groups of 32 lanes also on 64-wide wavefronts
#endif
}

struct Gp
{
    int n, g, cpg, kpg, h, w, r, s, ho, wo, ph, pw, sh, sw, dh, dw;
};

Gp ToGp(const ConvKArgs& a)
{
    Gp d;
    d.n = static_cast<int>(a.n); d.g = static_cast<int>(a.g);
    d.cpg = static_cast<int>(a.cpg); d.kpg = static_cast<int>(a.kpg);
    d.h = static_cast<int>(a.in[1]); d.w = static_cast<int>(a.in[2]);
    d.r = static_cast<int>(a.fil[1]); d.s = static_cast<int>(a.fil[2]);
    d.ho = static_cast<int>(a.out[1]); d.wo = static_cast<int>(a.out[2]);
    d.ph = static_cast<int>(a.pad[1]); d.pw = static_cast<int>(a.pad[2]);
    d.sh = static_cast<int>(a.str[1]); d.sw = static_cast<int>(a.str[2]);
    d.dh = static_cast<int>(a.dil[1]); d.dw = static_cast<int>(a.dil[2]);
    return d;
}

// blockIdx.x = (image * G + group) * chunks + chunk; blockIdx.y * blockDim.x + threadIdx.x = the
// thread's run (output row, run along the row).
template <int KB, int FS>
__global__ void GpFwd(Gp d, const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y)
{
    const int runs  = (d.wo + kGpRun - 1) / kGpRun;
    const int q     = blockIdx.y * blockDim.x + threadIdx.x;
    if(q >= d.ho * runs)
        return;
    const int chunks = (d.kpg + KB - 1) / KB;
    const int plane  = blockIdx.x;
    const int kc     = plane % chunks;
    const int ng     = plane / chunks;             // image * G + group
    const int grp    = ng % d.g;
    const int img    = ng / d.g;
    const int oh     = q / runs;
    const int ow0    = (q - oh * runs) * kGpRun;
    const int k0     = kc * KB;
    const int taps   = d.r * d.s;
    float acc[KB][kGpRun];
#pragma unroll
    for(int j = 0; j < KB; ++j)
#pragma unroll
        for(int i = 0; i < kGpRun; ++i)
            acc[j][i] = 0.0f;
    const int hw = d.h * d.w;
    const float* xg = x + (img * d.g + grp) * d.cpg * hw;
    const float* wg = w + (grp * d.kpg + k0) * d.cpg * taps;
    const int wk    = d.cpg * taps;   // weight stride between output channels
    for(int c = 0; c < d.cpg; ++c)
    {
        const float* xc = xg + c * hw;
        const float* wc = wg + c * taps;
        for(int fh = 0; fh < d.r; ++fh)
        {
            const int ih = oh * d.sh - d.ph + fh * d.dh;
            if(ih < 0 || ih >= d.h)
                continue;
            const float* xr = xc + ih * d.w;
            if constexpr(FS > 0)
            {
                // Unit stride and dilation along w, FS taps: one window of the row per run.
                constexpr int span = kGpRun + FS - 1;
                const int iwb = ow0 - d.pw;
                float win[span];
#pragma unroll
                for(int u = 0; u < span; ++u)
                {
                    const int iw = iwb + u;
                    win[u] = (iw >= 0 && iw < d.w) ? xr[iw] : 0.0f;
                }
#pragma unroll
                for(int fw = 0; fw < FS; ++fw)
#pragma unroll
                    for(int j = 0; j < KB; ++j)
                    {
                        const float wv = (k0 + j < d.kpg) ? wc[j * wk + fh * FS + fw] : 0.0f;
#pragma unroll
                        for(int i = 0; i < kGpRun; ++i)
                            acc[j][i] = fmaf(wv, win[i + fw], acc[j][i]);
                    }
            }
            else   // any filter width, stride and dilation
                for(int fw = 0; fw < d.s; ++fw)
            {
                const int iw0 = ow0 * d.sw - d.pw + fw * d.dw;
                float xv[kGpRun];
#pragma unroll
                for(int i = 0; i < kGpRun; ++i)
                {
                    const int iw = iw0 + i * d.sw;
                    xv[i] = (iw >= 0 && iw < d.w) ? xr[iw] : 0.0f;
                }
#pragma unroll
                for(int j = 0; j < KB; ++j)
                {
                    const float wv = (k0 + j < d.kpg) ? wc[j * wk + fh * d.s + fw] : 0.0f;
#pragma unroll
                    for(int i = 0; i < kGpRun; ++i)
                        acc[j][i] = fmaf(wv, xv[i], acc[j][i]);
                }
            }
        }
    }
    const int ohw = d.ho * d.wo;
    float* yr = y + ((img * d.g + grp) * d.kpg + k0) * ohw + oh * d.wo + ow0;
#pragma unroll
    for(int j = 0; j < KB; ++j)
    {
#pragma unroll
        for(int i = 0; i < kGpRun; ++i)
            if(k0 + j < d.kpg && ow0 + i < d.wo)
                yr[j * ohw + i] = acc[j][i];
    }
}

// Backward data: blockIdx.x = (image * G + group) * chunks + chunk of KB input channels; a thread
// owns kGpRun neighbouring input positions of one row. Unit = both strides 1 (no stride tests).
template <int KB, bool Unit, int FS>
__global__ void GpBwd(Gp d, float* __restrict__ dx, const float* __restrict__ w, const float* __restrict__ dy)
{
    const int runs  = (d.w + kGpRun - 1) / kGpRun;
    const int q     = blockIdx.y * blockDim.x + threadIdx.x;
    if(q >= d.h * runs)
        return;
    const int chunks = (d.cpg + KB - 1) / KB;
    const int plane  = blockIdx.x;
    const int cc     = plane % chunks;
    const int ng     = plane / chunks;
    const int grp    = ng % d.g;
    const int img    = ng / d.g;
    const int ih     = q / runs;
    const int iw0    = (q - ih * runs) * kGpRun;
    const int c0     = cc * KB;
    const int taps   = d.r * d.s;
    float acc[KB][kGpRun];
#pragma unroll
    for(int j = 0; j < KB; ++j)
#pragma unroll
        for(int i = 0; i < kGpRun; ++i)
            acc[j][i] = 0.0f;
    const int ohw = d.ho * d.wo;
    const float* yg = dy + (img * d.g + grp) * d.kpg * ohw;
    const float* wg = w + (grp * d.kpg * d.cpg + c0) * taps;
    for(int k = 0; k < d.kpg; ++k)
    {
        const float* yk = yg + k * ohw;
        const float* wk = wg + k * d.cpg * taps;
        for(int fh = 0; fh < d.r; ++fh)
        {
            const int th = ih + d.ph - fh * d.dh;
            if(th < 0)
                continue;
            const int oh = Unit ? th : th / d.sh;
            if(oh >= d.ho || (!Unit && oh * d.sh != th))
                continue;
            const float* yr = yk + oh * d.wo;
            if constexpr(FS > 0)
            {
                // Unit strides and dilation along w, FS taps: tap fw reads ow = iw + pw - fw, so
                // one window ow in [iw0 + pw - FS + 1, iw0 + pw + run) serves every tap.
                constexpr int span = kGpRun + FS - 1;
                const int owb = iw0 + d.pw - (FS - 1);
                float win[span];
#pragma unroll
                for(int u = 0; u < span; ++u)
                {
                    const int ow = owb + u;
                    win[u] = (ow >= 0 && ow < d.wo) ? yr[ow] : 0.0f;
                }
#pragma unroll
                for(int fw = 0; fw < FS; ++fw)
#pragma unroll
                    for(int j = 0; j < KB; ++j)
                    {
                        const float wv = (c0 + j < d.cpg) ? wk[j * taps + fh * FS + fw] : 0.0f;
#pragma unroll
                        for(int i = 0; i < kGpRun; ++i)
                            acc[j][i] = fmaf(wv, win[i + FS - 1 - fw], acc[j][i]);
                    }
            }
            else   // any filter width, stride and dilation
                for(int fw = 0; fw < d.s; ++fw)
            {
                float yv[kGpRun];
#pragma unroll
                for(int i = 0; i < kGpRun; ++i)
                {
                    const int tw = iw0 + i + d.pw - fw * d.dw;
                    const int ow = Unit ? tw : (tw >= 0 ? tw / d.sw : -1);
                    const bool ok = tw >= 0 && ow < d.wo && (Unit || ow * d.sw == tw);
                    yv[i] = ok ? yr[ow] : 0.0f;
                }
#pragma unroll
                for(int j = 0; j < KB; ++j)
                {
                    const float wv = (c0 + j < d.cpg) ? wk[j * taps + fh * d.s + fw] : 0.0f;
#pragma unroll
                    for(int i = 0; i < kGpRun; ++i)
                        acc[j][i] = fmaf(wv, yv[i], acc[j][i]);
                }
            }
        }
    }
    const int hw = d.h * d.w;
    float* xr = dx + ((img * d.g + grp) * d.cpg + c0) * hw + ih * d.w + iw0;
#pragma unroll
    for(int j = 0; j < KB; ++j)
    {
#pragma unroll
        for(int i = 0; i < kGpRun; ++i)
            if(c0 + j < d.cpg && iw0 + i < d.w)
                xr[j * hw + i] = acc[j][i];
    }
}

// Backward weights: warp (blockIdx.x * kGpWarps + warp) = filter pair k * cpg + c (k over all K);
// blockIdx.y = split of the n * ho output rows. out = partial[split][pair][tap], or dw itself
// with one split (the same layout: dw is k, c, r, s).
template <int R, int S, int U>
__global__ void __launch_bounds__(kGpWarps * 32, U > 1 ? 2 : 1) GpWrw(Gp d, const float* __restrict__ x,
                                                      const float* __restrict__ dy, float* __restrict__ out)
{
    constexpr int taps = R * S;
    const int lane  = threadIdx.x & 31;
    const int pair  = blockIdx.x * kGpWarps + (threadIdx.x >> 5);
    const int k     = pair / d.cpg;
    if(k >= d.g * d.kpg)
        return;   // whole warps only: no block barrier below
    const int c     = pair - k * d.cpg;
    const int grp   = k / d.kpg;
    const int rows  = d.n * d.ho;
    const int split = blockIdx.y;
    const int row0  = static_cast<int>(int64_t{rows} * split / gridDim.y);
    const int row1  = static_cast<int>(int64_t{rows} * (split + 1) / gridDim.y);
    float acc[taps];
#pragma unroll
    for(int t = 0; t < taps; ++t)
        acc[t] = 0.0f;
    const int hw = d.h * d.w, ohw = d.ho * d.wo;
    const int xplane = d.g * d.cpg * hw;   // x image stride
    const int yplane = d.g * d.kpg * ohw;
    const float* __restrict__ xc = x + (grp * d.cpg + c) * hw;
    const float* __restrict__ yk = dy + k * ohw;
    // Position q = row * wo + ow over the split's rows, lane-strided; (ow, oh, img) advanced
    // incrementally (no division per position).
    const int end = row1 * d.wo;
    int q   = row0 * d.wo + lane;
    int img = row0 / d.ho;
    int oh  = row0 - img * d.ho;
    int ow  = lane;
    while(ow >= d.wo && q < end)
    {
        ow -= d.wo;
        if(++oh == d.ho)
        {
            oh = 0;
            ++img;
        }
    }
    // U positions per lane and step (q, q + 32, ...): their loads are all in flight at once.
    for(; q < end; q += 32 * U)
    {
        float gv[U];
        int xo[U], ihb[U], iwb[U];
        bool ok[U];
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            ok[u]  = q + 32 * u < end;
            gv[u]  = ok[u] ? yk[img * yplane + oh * d.wo + ow] : 0.0f;
            xo[u]  = img * xplane;
            ihb[u] = oh * d.sh - d.ph;
            iwb[u] = ow * d.sw - d.pw;
            ow += 32;
            while(ow >= d.wo)
            {
                ow -= d.wo;
                if(++oh == d.ho)
                {
                    oh = 0;
                    ++img;
                }
            }
        }
#pragma unroll
        for(int fh = 0; fh < R; ++fh)
        {
#pragma unroll
            for(int fw = 0; fw < S; ++fw)
            {
#pragma unroll
                for(int u = 0; u < U; ++u)
                {
                    const int ih = ihb[u] + fh * d.dh;
                    const int iw = iwb[u] + fw * d.dw;
                    if(ok[u] && ih >= 0 && ih < d.h && iw >= 0 && iw < d.w)
                        acc[fh * S + fw] = fmaf(gv[u], xc[xo[u] + ih * d.w + iw], acc[fh * S + fw]);
                }
            }
        }
    }
    // Fixed xor tree over the 32 lanes (the same order on every run).
#pragma unroll
    for(int t = 0; t < taps; ++t)
    {
        float v = acc[t];
#pragma unroll
        for(int m = 16; m > 0; m >>= 1)
            v += ShflXor(v, m);
        acc[t] = v;
    }
    if(lane == 0)
    {
        float* o = out + (int64_t{split} * d.g * d.kpg * d.cpg + pair) * taps;
#pragma unroll
        for(int t = 0; t < taps; ++t)
            o[t] = acc[t];
    }
}

__global__ void GpWrwFinish(int elems, int splits, const float* __restrict__ partial, float* __restrict__ dw)
{
    for(int e = blockIdx.x * blockDim.x + threadIdx.x; e < elems; e += gridDim.x * blockDim.x)
    {
        float s = 0.0f;
        for(int p = 0; p < splits; ++p)
            s += partial[int64_t{p} * elems + e];
        dw[e] = s;
    }
}

constexpr int kGpTileThreads    = 256;     // threads per block of GpWrwTile (at most)
constexpr int kGpTileSmemFloats = 12288;   // 48 KB of shared memory per block

int OddUp(int v) { return v | 1; }   // odd plane strides: the planes of a warp's lanes differ in bank

// The tile plan of a backward-weights problem: rows of output per band (th), the padded x row
// width (xw) and plane strides (xs, ys), threads per block; false where GpWrwTile does not apply
// (the warp kernel GpWrw runs there).
struct WrwTile
{
    int th, xw, xs, ys, threads, smem_floats;
};

bool PlanWrwTile(const Gp& d, WrwTile& t)
{
    const int pairs = d.kpg * d.cpg;
    if(d.r != d.s || (d.r != 1 && d.r != 3) || pairs < 16 || pairs > kGpTileThreads)
        return false;
    const int parts = kGpTileThreads / pairs;
    t.threads = pairs * parts;
    t.xw = (d.wo - 1) * d.sw + (d.s - 1) * d.dw + 1;
    const int red = t.threads * d.r * d.s;   // the shares' sums at the end
    for(int th = d.ho; th >= 1; th = th > 8 ? th * 3 / 4 : th - 1)
    {
        const int xh = (th - 1) * d.sh + (d.r - 1) * d.dh + 1;
        const int xs = OddUp(xh * t.xw);
        const int ys = OddUp(th * d.wo);
        const int64_t need = int64_t{d.cpg} * xs + int64_t{d.kpg} * ys;
        if(need <= kGpTileSmemFloats)
        {
            t.th = th;
            t.xs = xs;
            t.ys = ys;
            t.smem_floats = static_cast<int>(need > red ? need : red);
            return t.smem_floats <= kGpTileSmemFloats;
        }
    }
    return false;
}

// blockIdx.x = group, blockIdx.y = split of the n * ho output rows; thread = share * pairs + pair
// (pair = k * cpg + c within the group). The split's rows go through shared memory in bands of at
// most th rows of one image. out = partial[split][pair][tap] as GpWrw's.
template <int R>
__global__ void __launch_bounds__(kGpTileThreads) GpWrwTile(Gp d, WrwTile tp, const float* __restrict__ x,
                                                            const float* __restrict__ dy, float* __restrict__ out)
{
    extern __shared__ float sm[];
    constexpr int taps = R * R;
    const int pairs = d.kpg * d.cpg;
    const int parts = blockDim.x / pairs;
    const int t     = threadIdx.x;
    const int pl    = t % pairs;
    const int part  = t / pairs;
    const int kl    = pl / d.cpg;
    const int c     = pl - kl * d.cpg;
    const int grp   = blockIdx.x;
    const int split = blockIdx.y;
    const int rows  = d.n * d.ho;
    const int row0  = static_cast<int>(int64_t{rows} * split / gridDim.y);
    const int row1  = static_cast<int>(int64_t{rows} * (split + 1) / gridDim.y);
    const int hw = d.h * d.w, ohw = d.ho * d.wo;
    float* xsm = sm;
    float* ysm = sm + d.cpg * tp.xs;
    float acc[taps];
#pragma unroll
    for(int i = 0; i < taps; ++i)
        acc[i] = 0.0f;
    for(int row = row0; row < row1;)
    {
        const int img = row / d.ho;
        const int oh0 = row - img * d.ho;
        int cnt       = d.ho - oh0;
        cnt           = cnt < tp.th ? cnt : tp.th;
        cnt           = cnt < row1 - row ? cnt : row1 - row;
        const int xh  = (cnt - 1) * d.sh + (R - 1) * d.dh + 1;
        const int ih0 = oh0 * d.sh - d.ph;
        __syncthreads();   // the previous band's readers are done
        const float* xg = x + (img * d.g + grp) * d.cpg * hw;
        const int xband = xh * tp.xw;
        for(int e = t; e < d.cpg * xband; e += blockDim.x)
        {
            const int cc  = e / xband;
            const int rem = e - cc * xband;
            const int rr  = rem / tp.xw;
            const int col = rem - rr * tp.xw;
            const int ih  = ih0 + rr;
            const int iw  = col - d.pw;
            xsm[cc * tp.xs + rem] = (ih >= 0 && ih < d.h && iw >= 0 && iw < d.w) ? xg[cc * hw + ih * d.w + iw] : 0.0f;
        }
        const float* yg = dy + (img * d.g + grp) * d.kpg * ohw + oh0 * d.wo;
        const int npos  = cnt * d.wo;
        for(int e = t; e < d.kpg * npos; e += blockDim.x)
        {
            const int kk = e / npos;
            const int q  = e - kk * npos;
            ysm[kk * tp.ys + q] = yg[kk * ohw + q];
        }
        __syncthreads();
        const float* xp = xsm + c * tp.xs;
        const float* yp = ysm + kl * tp.ys;
        int r  = 0;
        int ow = part;
        for(int q = part; q < npos; q += parts)
        {
            while(ow >= d.wo)
            {
                ow -= d.wo;
                ++r;
            }
            const float gv  = yp[q];
            const float* xb = xp + r * d.sh * tp.xw + ow * d.sw;
#pragma unroll
            for(int fh = 0; fh < R; ++fh)
#pragma unroll
                for(int fw = 0; fw < R; ++fw)
                    acc[fh * R + fw] = fmaf(gv, xb[fh * d.dh * tp.xw + fw * d.dw], acc[fh * R + fw]);
            ow += parts;
        }
        row += cnt;
    }
    // The shares of each pair added in share order (fixed).
    __syncthreads();
#pragma unroll
    for(int i = 0; i < taps; ++i)
        sm[(part * pairs + pl) * taps + i] = acc[i];
    __syncthreads();
    float* o = out + (int64_t{split} * d.g + grp) * pairs * taps;
    for(int e = t; e < pairs * taps; e += blockDim.x)
    {
        float s = 0.0f;
        for(int p = 0; p < parts; ++p)
            s += sm[p * pairs * taps + e];
        o[e] = s;
    }
}

int Pow2Chunk(int per_group)
{
    return per_group <= 1 ? 1 : per_group <= 2 ? 2 : per_group <= 4 ? 4 : 8;
}

unsigned PosThreads(int positions)
{
    const int t = (positions + 31) / 32 * 32;
    return static_cast<unsigned>(t < 256 ? t : 256);
}

} // namespace

bool ConvGroupedApplies(const ConvKArgs& a, int direction)
{
    if(a.in[0] != 1 || a.out[0] != 1 || a.fil[0] != 1 || a.cpg > kConvGroupedMaxPerGroup ||
       a.kpg > kConvGroupedMaxPerGroup)
        return false;
    const Gp d = ToGp(a);
    if(direction == 0 || direction == 1)
    {
        const int per    = direction == 0 ? d.kpg : d.cpg;
        const int kb     = Pow2Chunk(per);
        const int64_t planes = int64_t{d.n} * d.g * ((per + kb - 1) / kb);
        const int64_t pos = direction == 0 ? int64_t{d.ho} * ((d.wo + kGpRun - 1) / kGpRun)
                                           : int64_t{d.h} * ((d.w + kGpRun - 1) / kGpRun);
        return planes < (int64_t{1} << 31) && (pos + 255) / 256 <= 65535;
    }
    return d.r == d.s && (d.r == 1 || d.r == 3 || d.r == 5 || d.r == 7);
}

int ConvGroupedWrwSplits(const ConvKArgs& a, int sms)
{
    const Gp d = ToGp(a);
    WrwTile tp;
    if(PlanWrwTile(d, tp))
    {
        // GpWrwTile: about 4 blocks per multiprocessor, at most one split per output row.
        int64_t splits = (int64_t{sms} * 4 + d.g - 1) / d.g;
        const int64_t rows = int64_t{d.n} * d.ho;
        splits = splits < rows ? splits : rows;
        splits = splits < 65535 ? splits : 65535;
        return static_cast<int>(splits < 1 ? 1 : splits);
    }
    const int64_t pairs  = int64_t{d.g} * d.kpg * d.cpg;
    const int64_t blocks = (pairs + kGpWarps - 1) / kGpWarps;
    // About one wave of 4 blocks per multiprocessor, at least 16 positions per lane, at most
    // one split per output row.
    int64_t splits = int64_t{sms} * 4 / blocks;
    const int64_t rows    = int64_t{d.n} * d.ho;
    const int64_t by_work = (rows * d.wo) / (32 * 16);
    splits = splits < by_work ? splits : by_work;
    splits = splits < rows ? splits : rows;
    if(splits > 65535)
        splits = 65535;
    return static_cast<int>(splits < 1 ? 1 : splits);
}

void LaunchConvGroupedFwd(const ConvKArgs& a, void* stream, const float* x, const float* w, float* y)
{
    const Gp d = ToGp(a);
    const int kb = Pow2Chunk(d.kpg);
    const unsigned chunks = static_cast<unsigned>((d.kpg + kb - 1) / kb);
    const int pos = d.ho * ((d.wo + kGpRun - 1) / kGpRun);
    const unsigned threads = PosThreads(pos);
    const dim3 grid(static_cast<unsigned>(d.n * d.g) * chunks, (pos + threads - 1) / threads);
    auto st = ToStream(stream);
    const bool fs3 = d.s == 3 && d.sw == 1 && d.dw == 1;
#define MIOPEN_CY_GP_FWD(KB)                                                                       \
    if(fs3)                                                                                        \
        GpFwd<KB, 3><<<grid, threads, 0, st>>>(d, x, w, y);                                        \
    else                                                                                           \
        GpFwd<KB, 0><<<grid, threads, 0, st>>>(d, x, w, y)
    switch(kb)
    {
    case 1: { MIOPEN_CY_GP_FWD(1); } break;
    case 2: { MIOPEN_CY_GP_FWD(2); } break;
    case 4: { MIOPEN_CY_GP_FWD(4); } break;
    default: { MIOPEN_CY_GP_FWD(8); } break;
    }
#undef MIOPEN_CY_GP_FWD
}

void LaunchConvGroupedBwd(const ConvKArgs& a, void* stream, float* dx, const float* w, const float* dy)
{
    const Gp d = ToGp(a);
    const int kb = Pow2Chunk(d.cpg);
    const unsigned chunks = static_cast<unsigned>((d.cpg + kb - 1) / kb);
    const int pos = d.h * ((d.w + kGpRun - 1) / kGpRun);
    const unsigned threads = PosThreads(pos);
    const dim3 grid(static_cast<unsigned>(d.n * d.g) * chunks, (pos + threads - 1) / threads);
    auto st = ToStream(stream);
    const bool unit = d.sh == 1 && d.sw == 1;
    const bool fs3 = unit && d.s == 3 && d.dw == 1;
#define MIOPEN_CY_GP_BWD(KB)                                                                       \
    if(fs3)                                                                                        \
        GpBwd<KB, true, 3><<<grid, threads, 0, st>>>(d, dx, w, dy);                                \
    else if(unit)                                                                                  \
        GpBwd<KB, true, 0><<<grid, threads, 0, st>>>(d, dx, w, dy);                                \
    else                                                                                           \
        GpBwd<KB, false, 0><<<grid, threads, 0, st>>>(d, dx, w, dy)
    switch(kb)
    {
    case 1: { MIOPEN_CY_GP_BWD(1); } break;
    case 2: { MIOPEN_CY_GP_BWD(2); } break;
    case 4: { MIOPEN_CY_GP_BWD(4); } break;
    default: { MIOPEN_CY_GP_BWD(8); } break;
    }
#undef MIOPEN_CY_GP_BWD
}

void LaunchConvGroupedWrw(const ConvKArgs& a, void* stream, int splits, const float* x, float* dw,
                          const float* dy, float* workspace)
{
    const Gp d = ToGp(a);
    const int pairs = d.g * d.kpg * d.cpg;
    float* out = splits > 1 ? workspace : dw;
    auto st = ToStream(stream);
    WrwTile tp;
    if(PlanWrwTile(d, tp))
    {
        const dim3 tgrid(static_cast<unsigned>(d.g), static_cast<unsigned>(splits));
        const size_t smem = size_t(tp.smem_floats) * sizeof(float);
        if(d.r == 1)
            GpWrwTile<1><<<tgrid, tp.threads, smem, st>>>(d, tp, x, dy, out);
        else
            GpWrwTile<3><<<tgrid, tp.threads, smem, st>>>(d, tp, x, dy, out);
        if(splits > 1)
        {
            const int elems = pairs * d.r * d.s;
            GpWrwFinish<<<(elems + 255) / 256, 256, 0, st>>>(elems, splits, workspace, dw);
        }
        return;
    }
    const dim3 grid(static_cast<unsigned>((pairs + kGpWarps - 1) / kGpWarps), static_cast<unsigned>(splits));
    // Positions per lane and step: 4 (2 for 5x5, 1 for 7x7).
    switch(d.r)
    {
    case 1: GpWrw<1, 1, 4><<<grid, kGpWarps * 32, 0, st>>>(d, x, dy, out); break;
    case 3: GpWrw<3, 3, 4><<<grid, kGpWarps * 32, 0, st>>>(d, x, dy, out); break;
    case 5: GpWrw<5, 5, 2><<<grid, kGpWarps * 32, 0, st>>>(d, x, dy, out); break;
    default: GpWrw<7, 7, 1><<<grid, kGpWarps * 32, 0, st>>>(d, x, dy, out); break;
    }
    if(splits > 1)
    {
        const int elems = pairs * d.r * d.s;
        GpWrwFinish<<<(elems + 255) / 256, 256, 0, st>>>(elems, splits, workspace, dw);
    }
}

} // namespace miopen::gpu
