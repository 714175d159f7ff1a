// Backward data for few input channels per group (C/G <= 4, 2-d, e.g. the C = 3 stem layer), as
// a direct gather: dx[b][c][ih][iw] = sum over k and the filter taps that reach (ih, iw) of
// dy[b][k][oh][ow] * w[k][c][fh][fw]. The implicit GEMM puts C in M, so with C = 3 most of its
// tile is idle; here each thread owns P input positions of one stride phase and all C/G channels.
// Stride phases (blockIdx.y = residue of ih mod stride_h x residue of iw mod stride_w): within a
// phase only the taps f0, f0 + step, ... reach an output position, at the output offset
// r0 - t * dr of the t-th tap, so no tap is tested and skipped. The positions of a phase, over all
// images, are numbered b * (posh * posw) + jh * posw + jw; a block's threads take consecutive
// numbers (dy reads of a warp along ow are coalesced) and a thread P of them spaced by the block
// size. The weights of a tap are the same for the whole block (uniform reads, cached).
// Layouts: any strides (x, w, y as in ConvKArgs). blockIdx.z = group. No workspace, no atomics.
//
// ConvBwdSmallCRows, the default where it applies (the filter's w taps of a phase a unit apart in
// dy: dilation_w divides stride_w; at most TW taps along w): a thread owns a strip of P
// consecutive positions of one phase row instead of P positions a block apart, so for each (k,
// filter row) it loads the P + TW - 1 dy values its strip's taps read once (the gather loads one
// per position and tap), and the filter row's taps once. Same loop order (k, then h taps, then w
// taps) and the same fused multiply-adds, zero for a dy element off the map: the gather kernel's
// bits. Elsewhere the gather runs.
#include "kernels/common/device.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::gpu {
namespace {

constexpr int kSmallCThreads = 256;
// Positions per thread: 4 keeps the kernel under 85 registers, 3 blocks per multiprocessor (its
// loads are L1 hits whose latency wants warps in flight; 8 positions held 2 blocks of 99 registers).
constexpr int kSmallCPositions = 4;

/// The 2-d geometry in 32-bit integers (h, w: the right-aligned dims 1 and 2 of ConvKArgs).
struct SmallC
{
    int n, kpg, cpg;
    int ih, iw, oh, ow, fh, fw, ph, pw, sh, sw, dh, dw;
    int xs0, xs1, xsh, xsw, ws0, ws1, wsh, wsw, ys0, ys1, ysh, ysw;
};

/// One spatial dim of a stride phase: the phase's residue, first tap, tap step and count, the
/// output displacement of the first tap and its decrement per tap, and the positions.
struct PhaseDim
{
    int res, f0, step, taps, r0, dr, pos;
};

__device__ inline PhaseDim MakePhaseDim(int res, int pad, int fil, int s, int dil, int in)
{
    PhaseDim d;
    d.res = res;
    int x = s, y = dil;   // step = s / gcd(s, dil)
    while(y != 0)
    {
        const int t = x % y;
        x           = y;
        y           = t;
    }
    d.step = s / x;
    d.f0   = -1;
    for(int f = 0; f < d.step && f < fil; ++f)
        if(((res + pad - f * dil) % s + s) % s == 0)
        {
            d.f0 = f;
            break;
        }
    d.taps = d.f0 < 0 ? 0 : (fil - d.f0 + d.step - 1) / d.step;
    // Exact divisions: the phase's taps make the numerators multiples of the stride.
    d.r0  = d.f0 < 0 ? 0 : (res + pad - d.f0 * dil) / s;
    d.dr  = d.step * dil / s;
    d.pos = res < in ? (in - res + s - 1) / s : 0;
    return d;
}

__device__ inline bool In(int i, int len) { return static_cast<unsigned>(i) < static_cast<unsigned>(len); }

template <int CPG, int P>
__global__ void __launch_bounds__(kSmallCThreads, P <= 4 ? 3 : 2)
ConvBwdSmallC(SmallC a, const float* __restrict__ w, const float* __restrict__ dy, float* __restrict__ dx)
{
    const int phase  = blockIdx.y;
    const int g      = blockIdx.z;
    const PhaseDim h = MakePhaseDim(phase / a.sw, a.ph, a.fh, a.sh, a.dh, a.ih);
    const PhaseDim v = MakePhaseDim(phase % a.sw, a.pw, a.fw, a.sw, a.dw, a.iw);
    const int psp    = h.pos * v.pos;
    const int npos   = a.n * psp;
    const int first  = blockIdx.x * (kSmallCThreads * P);
    if(first >= npos)   // a phase with fewer positions than the largest
        return;

    int jh[P], jw[P], yoff[P];
    bool ok[P];
#pragma unroll
    for(int p = 0; p < P; ++p)
    {
        const int q = first + threadIdx.x + p * kSmallCThreads;
        ok[p]       = q < npos;
        const int r = ok[p] ? q : 0;
        const int b = r / psp;
        const int j = r - b * psp;
        jh[p]       = j / v.pos;
        jw[p]       = j - jh[p] * v.pos;
        yoff[p]     = b * a.ys0 + g * a.kpg * a.ys1 + jh[p] * a.ysh + jw[p] * a.ysw;
    }

    float acc[CPG][P];
#pragma unroll
    for(int c = 0; c < CPG; ++c)
#pragma unroll
        for(int p = 0; p < P; ++p)
            acc[c][p] = 0.0f;

    const float* wg = w + g * a.kpg * a.ws0;
    for(int k = 0; k < a.kpg; ++k)
    {
        for(int th = 0; th < h.taps; ++th)
        {
            const int rh = h.r0 - th * h.dr;
            const int fh = h.f0 + th * h.step;
            bool rok[P];
#pragma unroll
            for(int p = 0; p < P; ++p)
                rok[p] = ok[p] & In(jh[p] + rh, a.oh);
            const int hoff    = k * a.ys1 + rh * a.ysh;
            const float* wkh  = wg + k * a.ws0 + fh * a.wsh;
            for(int tw = 0; tw < v.taps; ++tw)
            {
                const int rw   = v.r0 - tw * v.dr;
                const int fw   = v.f0 + tw * v.step;
                const int toff = hoff + rw * a.ysw;
                float wv[CPG];
#pragma unroll
                for(int c = 0; c < CPG; ++c)
                    wv[c] = wkh[c * a.ws1 + fw * a.wsw];
#pragma unroll
                for(int p = 0; p < P; ++p)
                {
                    // & (not &&): one predicate and a predicated load, no branch.
                    const float d = (rok[p] & In(jw[p] + rw, a.ow)) ? dy[yoff[p] + toff] : 0.0f;
#pragma unroll
                    for(int c = 0; c < CPG; ++c)
                        acc[c][p] = fmaf(wv[c], d, acc[c][p]);
                }
            }
        }
    }

#pragma unroll
    for(int p = 0; p < P; ++p)
    {
        if(!ok[p])
            continue;
        const int q   = first + threadIdx.x + p * kSmallCThreads;
        const int b   = q / psp;
        const int off = b * a.xs0 + g * CPG * a.xs1 + (h.res + jh[p] * a.sh) * a.xsh +
                        (v.res + jw[p] * a.sw) * a.xsw;
#pragma unroll
        for(int c = 0; c < CPG; ++c)
            dx[off + c * a.xs1] = acc[c][p];
    }
}

template <int CPG, int P, int TW>
__global__ void __launch_bounds__(kSmallCThreads)
ConvBwdSmallCRows(SmallC a, const float* __restrict__ w, const float* __restrict__ dy, float* __restrict__ dx)
{
    const int phase  = blockIdx.y;
    const int g      = blockIdx.z;
    const PhaseDim h = MakePhaseDim(phase / a.sw, a.ph, a.fh, a.sh, a.dh, a.ih);
    const PhaseDim v = MakePhaseDim(phase % a.sw, a.pw, a.fw, a.sw, a.dw, a.iw);
    const int strips = (v.pos + P - 1) / P;
    const int q      = blockIdx.x * kSmallCThreads + threadIdx.x;
    if(q >= a.n * h.pos * strips)   // also a phase with fewer positions than the largest
        return;
    const int row = q / strips;
    const int jw0 = (q - row * strips) * P;
    const int b   = row / h.pos;
    const int jh  = row - b * h.pos;
    // Tap tw of position p reads dy column jw0 + p + v.r0 - tw (v.dr == 1): window element
    // TW - 1 + p - tw of the columns c0, c0 + 1, ...
    const int c0 = jw0 + v.r0 - (TW - 1);

    float acc[CPG][P];
#pragma unroll
    for(int c = 0; c < CPG; ++c)
#pragma unroll
        for(int p = 0; p < P; ++p)
            acc[c][p] = 0.0f;

    const float* yb = dy + b * a.ys0 + g * a.kpg * a.ys1;
    const float* wg = w + g * a.kpg * a.ws0;
    for(int k = 0; k < a.kpg; ++k)
    {
        for(int th = 0; th < h.taps; ++th)
        {
            const int rh      = h.r0 - th * h.dr;
            const bool rok    = In(jh + rh, a.oh);
            const float* yrow = yb + k * a.ys1 + (jh + rh) * a.ysh;
            float d[P + TW - 1];
#pragma unroll
            for(int i = 0; i < P + TW - 1; ++i)
                d[i] = (rok & In(c0 + i, a.ow)) ? yrow[(c0 + i) * a.ysw] : 0.0f;
            const float* wkh = wg + k * a.ws0 + (h.f0 + th * h.step) * a.wsh;
#pragma unroll
            for(int tw = 0; tw < TW; ++tw)
            {
                // The window index must be a constant to keep d in registers: the loop must unroll.
                // nvcc unrolls it with a break (0.78 ms on the stem on an H200; 0.85 with the
                // continue); clang (AMD) does not unroll a loop with a break.
#if defined(MIOPEN_CY_HAVE_CUDA)
                if(tw >= v.taps)
                    break;
#else
                if(tw >= v.taps)
                    continue;
#endif
                const int fw = v.f0 + tw * v.step;
                float wv[CPG];
#pragma unroll
                for(int c = 0; c < CPG; ++c)
                    wv[c] = wkh[c * a.ws1 + fw * a.wsw];
#pragma unroll
                for(int p = 0; p < P; ++p)
#pragma unroll
                    for(int c = 0; c < CPG; ++c)
                        acc[c][p] = fmaf(wv[c], d[TW - 1 + p - tw], acc[c][p]);
            }
        }
    }

    const int off = b * a.xs0 + g * CPG * a.xs1 + (h.res + jh * a.sh) * a.xsh;
#pragma unroll
    for(int p = 0; p < P; ++p)
    {
        if(jw0 + p >= v.pos)
            break;
        const int o = off + (v.res + (jw0 + p) * a.sw) * a.xsw;
#pragma unroll
        for(int c = 0; c < CPG; ++c)
            dx[o + c * a.xs1] = acc[c][p];
    }
}

/// Taps along w of every phase (the same for all residues) and whether they are a unit apart in
/// dy (dilation divides stride), the conditions of ConvBwdSmallCRows.
int WTaps(const ConvKArgs& a, bool& unit)
{
    const int s = static_cast<int>(a.str[2]), dil = static_cast<int>(a.dil[2]);
    int x = s, y = dil;
    while(y != 0)
    {
        const int t = x % y;
        x           = y;
        y           = t;
    }
    const int step = s / x;
    unit           = step * dil / s == 1;
    return (static_cast<int>(a.fil[2]) + step - 1) / step;
}

// Positions a strip: 8 (0.78 ms on the stem's backward data on an H200) against 4 (0.89) and
// 16 (1.01); software-pipelining the steps over two register buffers measured no gain (0.77).
constexpr int kRowsP = 8;

template <int TW, int P>
void RunSmallCRows(const ConvKArgs& a, const SmallC& s, void* stream, float* dx, const float* w, const float* dy)
{
    // The grid covers the largest phase (residue 0 in both dims).
    const int64_t posw = (a.in[2] + a.str[2] - 1) / a.str[2];
    const int64_t most = a.n * ((a.in[1] + a.str[1] - 1) / a.str[1]) * ((posw + P - 1) / P);
    dim3 grid(static_cast<unsigned>((most + kSmallCThreads - 1) / kSmallCThreads),
              static_cast<unsigned>(a.str[1] * a.str[2]), static_cast<unsigned>(a.g));
    hipStream_t st = ToStream(stream);
    switch(a.cpg)
    {
    case 1: ConvBwdSmallCRows<1, P, TW><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    case 2: ConvBwdSmallCRows<2, P, TW><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    case 3: ConvBwdSmallCRows<3, P, TW><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    default: ConvBwdSmallCRows<4, P, TW><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    }
}

template <int P>
void RunSmallC(const ConvKArgs& a, const SmallC& s, void* stream, float* dx, const float* w, const float* dy)
{
    // The grid covers the largest phase (residue 0 in both dims).
    const int64_t most = a.n * ((a.in[1] + a.str[1] - 1) / a.str[1]) * ((a.in[2] + a.str[2] - 1) / a.str[2]);
    const int64_t per  = int64_t{kSmallCThreads} * P;
    dim3 grid(static_cast<unsigned>((most + per - 1) / per), static_cast<unsigned>(a.str[1] * a.str[2]),
              static_cast<unsigned>(a.g));
    hipStream_t st = ToStream(stream);
    switch(a.cpg)
    {
    case 1: ConvBwdSmallC<1, P><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    case 2: ConvBwdSmallC<2, P><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    case 3: ConvBwdSmallC<3, P><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    default: ConvBwdSmallC<4, P><<<grid, kSmallCThreads, 0, st>>>(s, w, dy, dx); break;
    }
}

} // namespace

bool ConvBwdSmallCApplies(const ConvKArgs& a)
{
    return a.cpg >= 1 && a.cpg <= kConvBwdSmallCMaxC && a.in[0] == 1 && a.out[0] == 1 && a.fil[0] == 1 &&
           a.g <= 65535 && a.str[1] * a.str[2] <= 65535;
}

void LaunchConvBwdSmallC(const ConvKArgs& a, void* stream, float* dx, const float* w, const float* dy)
{
    SmallC s;
    s.n = static_cast<int>(a.n); s.kpg = static_cast<int>(a.kpg); s.cpg = static_cast<int>(a.cpg);
    s.ih = static_cast<int>(a.in[1]);   s.iw = static_cast<int>(a.in[2]);
    s.oh = static_cast<int>(a.out[1]);  s.ow = static_cast<int>(a.out[2]);
    s.fh = static_cast<int>(a.fil[1]);  s.fw = static_cast<int>(a.fil[2]);
    s.ph = static_cast<int>(a.pad[1]);  s.pw = static_cast<int>(a.pad[2]);
    s.sh = static_cast<int>(a.str[1]);  s.sw = static_cast<int>(a.str[2]);
    s.dh = static_cast<int>(a.dil[1]);  s.dw = static_cast<int>(a.dil[2]);
    s.xs0 = static_cast<int>(a.xs[0]); s.xs1 = static_cast<int>(a.xs[1]);
    s.xsh = static_cast<int>(a.xs[3]); s.xsw = static_cast<int>(a.xs[4]);
    s.ws0 = static_cast<int>(a.ws[0]); s.ws1 = static_cast<int>(a.ws[1]);
    s.wsh = static_cast<int>(a.ws[3]); s.wsw = static_cast<int>(a.ws[4]);
    s.ys0 = static_cast<int>(a.ys[0]); s.ys1 = static_cast<int>(a.ys[1]);
    s.ysh = static_cast<int>(a.ys[3]); s.ysw = static_cast<int>(a.ys[4]);
    bool unit      = false;
    const int taps = WTaps(a, unit);
    if(unit && taps <= 4)
        RunSmallCRows<4, kRowsP>(a, s, stream, dx, w, dy);
    else if(unit && taps <= 8)
        RunSmallCRows<8, kRowsP>(a, s, stream, dx, w, dy);
    else
        RunSmallC<kSmallCPositions>(a, s, stream, dx, w, dy);
}

} // namespace miopen::gpu
