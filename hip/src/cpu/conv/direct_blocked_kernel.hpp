// The micro-kernels of the blocked direct convolution (direct_blocked.hpp), written once over
// a few vector macros and compiled twice: direct_blocked_avx512.cpp and _avx2.cpp define
// DBLK_V, DBLK_VEC, DBLK_ZERO, DBLK_LOAD, DBLK_BCAST, DBLK_FMA, DBLK_STORE, DBLK_HSUM (the sum of
// a vector's lanes at a pointer, in a fixed order), DBLK_PIN (keeps a value in a register),
// DBLK_FLAT_UNROLL (the flat kernel's channel unroll), DBLK_FLAT_CCH (its input channels a chunk),
// DBLK_WCHUNK_BYTES (the direct kernel's weights a chunk of channel blocks)
// and the entry names, and include this file.
// It includes no standard headers, so nothing compiled here with the wider ISA can be picked by the linker for code that runs on any CPU (inline functions are shared
// across translation units). Everything but the entry point sits in an anonymous namespace.
//
// Layouts (all packed, padding written out as zeros):
//   xp  [n][group][cb][hp][wp][vc]          vc = DBLK_V, or the channel count when smaller
//   wp  [group][kg][cb][r][s][vc][kt]       kt = NKV * DBLK_V output channels per tile
// One work item is (image, group, channel tile, output row); its output row is covered by tiles
// of UR_W columns, each computed in UR_W x NKV vector accumulators over (cb, r, s, c) and written
// to y through a small per-thread buffer (the unpack to y's own layout), where a fusion plan's
// epilogue (KernelArgs::epi) runs on it first.
#include "cpu/conv/direct_blocked_args.hpp"

#define DBLK_PRAGMA(x) _Pragma(#x)
#define DBLK_UNROLL(n) DBLK_PRAGMA(GCC unroll n)

namespace miopen::cpu::dblk {
namespace {

// One input channel's step of a forward tile: UR x NKV FMAs of UR broadcasts of x (xq, xq + xsw,
// ...) by NKV weight vectors (wq, wq + V, ...), in the order that needs fewer live registers:
// with more weight vectors than columns (3x4 on AVX2: 12 accumulators), the UR broadcasts are
// held and each weight vector is loaded once and used UR times (oneDNN's AVX2 order: 12 + 3 + 1
// registers); otherwise the NKV weight vectors are held and each broadcast used NKV times (12 +
// 2 + 1 for 6x2). Holding the wider side spilled with 16 ymm registers (3x4 ran at 0.45x).
template <int UR, int NKV>
inline __attribute__((always_inline)) void StepFma(DBLK_VEC (&acc)[UR][NKV], const float* __restrict xq, long xsw,
                                                   const float* __restrict wq)
{
    if constexpr(UR < NKV)
    {
        DBLK_VEC xb[UR];
#pragma GCC unroll 32
        for(int u = 0; u < UR; ++u)
            xb[u] = DBLK_BCAST(xq + u * xsw);
#pragma GCC unroll 8
        for(int j = 0; j < NKV; ++j)
        {
            const DBLK_VEC wv = DBLK_LOAD(wq + j * DBLK_V);
#pragma GCC unroll 32
            for(int u = 0; u < UR; ++u)
                acc[u][j] = DBLK_FMA(xb[u], wv, acc[u][j]);
        }
    }
    else
    {
        DBLK_VEC wv[NKV];
#pragma GCC unroll 8
        for(int j = 0; j < NKV; ++j)
            wv[j] = DBLK_LOAD(wq + j * DBLK_V);
#pragma GCC unroll 32
        for(int u = 0; u < UR; ++u)
        {
            const DBLK_VEC xb = DBLK_BCAST(xq + u * xsw);
#pragma GCC unroll 8
            for(int j = 0; j < NKV; ++j)
                acc[u][j] = DBLK_FMA(xb, wv[j], acc[u][j]);
        }
    }
}

// FIRST: the accumulators start at zero, else from tmp (the sum over earlier channel blocks).
template <int UR, int NKV, bool FULLV, bool FIRST>
inline void TileKernel(const float* __restrict x, const float* __restrict w, long cb_n, long vc, long xcb,
                       long xdh, long rn, long sn, long xdw, long xsw, float* __restrict tmp)
{
    constexpr long KT = NKV * DBLK_V;
    const long nc = FULLV ? DBLK_V : vc;
    DBLK_VEC acc[UR][NKV];
#pragma GCC unroll 32
    for(int u = 0; u < UR; ++u)
#pragma GCC unroll 4
        for(int j = 0; j < NKV; ++j)
            acc[u][j] = FIRST ? DBLK_ZERO() : DBLK_LOAD(tmp + u * KT + j * DBLK_V);
    for(long cb = 0; cb < cb_n; ++cb)
    {
        for(long r = 0; r < rn; ++r)
        {
            const float* xr = x + cb * xcb + r * xdh;
            const float* wr = w + (cb * rn + r) * sn * nc * KT;
            for(long s = 0; s < sn; ++s)
            {
                const float* xq = xr + s * xdw;
                const float* wq = wr + s * nc * KT;
#define DBLK_TILE_STEP StepFma<UR, NKV>(acc, xq + c, xsw, wq + c * KT);
                // Whole vectors: unrolled by 2, not 16 (more unrolling made GCC spill accumulators
                // of the 28-register tiles, 14x2 and 7x4, to the stack). Fewer channels than a
                // vector (grouped, the stem): by 16 as before (by 2 they run 1.1x slower).
                if constexpr(FULLV)
                {
#pragma GCC unroll 2
                    for(long c = 0; c < nc; ++c)
                        DBLK_TILE_STEP
                }
                else
                {
#pragma GCC unroll 16
                    for(long c = 0; c < nc; ++c)
                        DBLK_TILE_STEP
                }
#undef DBLK_TILE_STEP
            }
        }
    }
#pragma GCC unroll 32
    for(int u = 0; u < UR; ++u)
#pragma GCC unroll 4
        for(int j = 0; j < NKV; ++j)
            DBLK_STORE(tmp + u * KT + j * DBLK_V, acc[u][j]);
}

// 1x1 stride 1 without padding, straight from x: positions u of the tile are adjacent in x, the
// channels a plane (xc) apart. One pointer per channel instead of one per column. FIRST: the
// accumulators start at zero, else from tmp (the sum over an earlier chunk of channels).
template <int UR, int NKV, bool FIRST>
inline void TileKernelFlat(const float* __restrict x, const float* __restrict w, long cin, long xc,
                           float* __restrict tmp)
{
    constexpr long KT = NKV * DBLK_V;
    DBLK_VEC acc[UR][NKV];
#pragma GCC unroll 32
    for(int u = 0; u < UR; ++u)
#pragma GCC unroll 4
        for(int j = 0; j < NKV; ++j)
            acc[u][j] = FIRST ? DBLK_ZERO() : DBLK_LOAD(tmp + u * KT + j * DBLK_V);
    // AVX-512 not unrolled (by 4, GCC spilled accumulators of the 7x4 tile: 33 live vectors);
    // AVX2 by 4 (its tiles of 8-12 FMAs an iteration run 1.3-1.7x slower without).
    DBLK_UNROLL(DBLK_FLAT_UNROLL)
    for(long c = 0; c < cin; ++c)
    {
        StepFma<UR, NKV>(acc, x + c * xc, 1, w + c * KT);
    }
#pragma GCC unroll 32
    for(int u = 0; u < UR; ++u)
#pragma GCC unroll 4
        for(int j = 0; j < NKV; ++j)
            DBLK_STORE(tmp + u * KT + j * DBLK_V, acc[u][j]);
}

template <int UR, int NKV>
void DriverFlat(const KernelArgs& a)
{
    constexpr long KT = NKV * DBLK_V;
    const long cin = a.cb * a.vc;
    const long wtile = cin * KT;
    const long owt = (a.ow + UR - 1) / UR;
    // Items: (image, group, channel tile, block of column tiles); blocks of ~8 tiles keep the
    // tile's weights in L1/L2 while x streams, with enough items for the threads.
    constexpr long tb = 8;
    const long nblk = (owt + tb - 1) / tb;
    const long items = a.n * a.groups * nblk * a.kg;
    // Input channels in chunks of DBLK_FLAT_CCH, each run over the block's tiles (partial sums
    // kept in part): the chunk's weights (CCH x KT) and x (CCH x tb x UR) stay in L1. Without, a
    // tile streamed the whole cin x KT weights from L2 (98 KiB for c1024 with 24 channels of
    // AVX2), and the kernel ran at 0.6x on 7x7 and 14x14 images.
    const long cch = DBLK_FLAT_CCH < cin ? DBLK_FLAT_CCH : cin;
#pragma omp parallel
    {
        alignas(64) float part[tb * UR * KT];
        float* tail = nullptr;   // the last, partial column tile, copied with zeros past the end
        long tail_of = -1;       // the (image, group) whose tile it holds (kept across channel tiles)
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            long rest = item;
            const long kgi = rest % a.kg;
            rest /= a.kg;
            const long blk = rest % nblk;
            rest /= nblk;
            const long grp = rest % a.groups;
            const long n = rest / a.groups;
            const float* xb = a.xp + n * a.xn + grp * cin * a.xc;
            const float* wb = a.wp + (grp * a.kg + kgi) * wtile;
            const long kvalid = a.kout - kgi * KT < KT ? a.kout - kgi * KT : KT;
            float* yb = a.y + n * a.ys[0] + (grp * a.kout + kgi * KT) * a.ys[1];
            const long tb0 = blk * tb;
            const long t1 = tb0 + tb < owt ? tb0 + tb : owt;
            const long nlast = a.ow - (owt - 1) * UR;   // columns of the row's last tile
            if(t1 == owt && nlast < UR && tail_of != n * a.groups + grp)
            {
                tail_of = n * a.groups + grp;
                if(tail == nullptr)
                    tail = new float[cin * UR];
                const long ow0 = (owt - 1) * UR;
                for(long c = 0; c < cin; ++c)
                    for(long u = 0; u < UR; ++u)
                        tail[c * UR + u] = u < nlast ? xb[c * a.xc + ow0 + u] : 0.0f;
            }
            for(long c0 = 0; c0 < cin; c0 += cch)
            {
                const long cn = cin - c0 < cch ? cin - c0 : cch;
                for(long t = tb0; t < t1; ++t)
                {
                    const long ow0 = t * UR;
                    const bool whole = a.ow - ow0 >= UR;
                    const float* xs = whole ? xb + c0 * a.xc + ow0 : tail + c0 * UR;
                    const long xc = whole ? a.xc : UR;
                    float* tt = part + (t - tb0) * UR * KT;
                    if(c0 == 0)
                        TileKernelFlat<UR, NKV, true>(xs, wb + c0 * KT, cn, xc, tt);
                    else
                        TileKernelFlat<UR, NKV, false>(xs, wb + c0 * KT, cn, xc, tt);
                }
            }
            for(long t = tb0; t < t1; ++t)
            {
                const long ow0 = t * UR;
                const long nw = a.ow - ow0 < UR ? a.ow - ow0 : UR;
                float* tmp = part + (t - tb0) * UR * KT;
                float* yt = yb + ow0;
                if(a.epi != nullptr)
                    a.epi(a.epi_ctx, tmp, KT, nw, kvalid, grp * a.kout + kgi * KT, yt - a.y);
                for(long k = 0; k < kvalid; ++k)
                    for(long u = 0; u < nw; ++u)
                        yt[k * a.ys[1] + u] = tmp[u * KT + k];
            }
        }
        delete[] tail;
    }
}

template <int UR, int NKV, bool FULLV>
void Driver(const KernelArgs& a)
{
    constexpr long KT = NKV * DBLK_V;
    const long xh = a.wpw * a.vc, xcb = a.hp * xh;
    const long wcb = a.r * a.s * a.vc * KT;   // one channel block's weights in the tile
    const long wtile = a.cb * wcb;
    const long items = a.n * a.groups * a.kg * a.oh;
    // Channel blocks in chunks of about DBLK_WCHUNK_BYTES of weights, each run over the row's
    // tiles (partial sums kept in part): the chunk's weights stay in L1 across the row. Without,
    // every tile streamed the whole cb x R x S x VC x KT weights from L2 (74 KiB for c128 3x3 with
    // 16 channels of AVX2).
    const long fit = DBLK_WCHUNK_BYTES / (wcb * 4);
    const long cbch = fit < 1 ? 1 : fit < a.cb ? fit : a.cb;
#pragma omp parallel
    {
        float* part = new float[a.owt * UR * KT];
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            long rest = item;
            const long oh = rest % a.oh;
            rest /= a.oh;
            const long kgi = rest % a.kg;
            rest /= a.kg;
            const long grp = rest % a.groups;
            const long n = rest / a.groups;
            const float* xb = a.xp + ((n * a.groups + grp) * a.cb) * xcb + oh * a.sh * xh;
            const float* wb = a.wp + (grp * a.kg + kgi) * wtile;
            const long kvalid = a.kout - kgi * KT < KT ? a.kout - kgi * KT : KT;
            float* yb = a.y + n * a.ys[0] + (grp * a.kout + kgi * KT) * a.ys[1] + oh * a.ys[2];
            for(long c0 = 0; c0 < a.cb; c0 += cbch)
            {
                const long cn = a.cb - c0 < cbch ? a.cb - c0 : cbch;
                for(long t = 0; t < a.owt; ++t)
                {
                    const float* xt = xb + c0 * xcb + t * UR * a.sw * a.vc;
                    if(c0 == 0)
                        TileKernel<UR, NKV, FULLV, true>(xt, wb + c0 * wcb, cn, a.vc, xcb, a.dh * xh, a.r, a.s,
                                                         a.dw * a.vc, a.sw * a.vc, part + t * UR * KT);
                    else
                        TileKernel<UR, NKV, FULLV, false>(xt, wb + c0 * wcb, cn, a.vc, xcb, a.dh * xh, a.r, a.s,
                                                          a.dw * a.vc, a.sw * a.vc, part + t * UR * KT);
                }
            }
            for(long t = 0; t < a.owt; ++t)
            {
                float* tmp = part + t * UR * KT;
                const long ow0 = t * UR;
                const long nw = a.ow - ow0 < UR ? a.ow - ow0 : UR;
                float* yt = yb + ow0 * a.ys[3];
                if(a.epi != nullptr)   // on the fp32 tile while it is in L1, before the store
                    a.epi(a.epi_ctx, tmp, KT, nw, kvalid, grp * a.kout + kgi * KT, yt - a.y);
                if(a.ys[3] == 1 && nw == UR)
                {
                    for(long k = 0; k < kvalid; ++k)
#pragma GCC unroll 32
                        for(int u = 0; u < UR; ++u)
                            yt[k * a.ys[1] + u] = tmp[u * KT + k];
                }
                else
                {
                    for(long k = 0; k < kvalid; ++k)
                        for(long u = 0; u < nw; ++u)
                            yt[k * a.ys[1] + u * a.ys[3]] = tmp[u * KT + k];
                }
            }
        }
        delete[] part;
    }
}

template <int UR, int NKV>
bool Dispatch(const KernelArgs& a)
{
    if(a.flat)
        DriverFlat<UR, NKV>(a);
    else if(a.vc == DBLK_V)
        Driver<UR, NKV, true>(a);
    else
        Driver<UR, NKV, false>(a);
    return true;
}

// ---- backward weights --------------------------------------------------------------------------
// One work item is (group, channel tile, input channel block): it owns dw for those channels and
// every tap, so the sum over images and positions runs in one fixed order (deterministic). Rows
// of output are taken `rows` at a time; for each tap and UC-channel slice the accumulators are
// loaded from the item's dw buffer, run over the rows' positions, and stored back, so the rows'
// x and dy stay in L1/L2 across the taps.
template <int UC, int NKV>
void WrwDriver(const WrwArgs& a)
{
    constexpr long KT = NKV * DBLK_V;
    const long xh = a.wpw * a.vc, xcb = a.hp * xh;
    const long items = a.groups * a.kg * a.cb;
    const long taps = a.r * a.s;
#pragma omp parallel
    {
        float* buf = new float[taps * a.vc * KT];
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            const long b = item % a.cb;
            const long kgi = (item / a.cb) % a.kg;
            const long grp = item / (a.cb * a.kg);
            for(long i = 0; i < taps * a.vc * KT; ++i)
                buf[i] = 0.0f;
            for(long n = 0; n < a.n; ++n)
            {
                const float* xb = a.xp + ((n * a.groups + grp) * a.cb + b) * xcb;
                const float* db = a.dyp + ((n * a.groups + grp) * a.kg + kgi) * a.oh * a.ow * KT;
                for(long oh0 = 0; oh0 < a.oh; oh0 += a.rows)
                {
                    const long oh1 = oh0 + a.rows < a.oh ? oh0 + a.rows : a.oh;
                    for(long r = 0; r < a.r; ++r)
                        for(long s = 0; s < a.s; ++s)
                            for(long c0 = 0; c0 < a.vc; c0 += UC)
                            {
                                float* acc_p = buf + ((r * a.s + s) * a.vc + c0) * KT;
                                DBLK_VEC acc[UC][NKV];
#pragma GCC unroll 16
                                for(int u = 0; u < UC; ++u)
#pragma GCC unroll 4
                                    for(int j = 0; j < NKV; ++j)
                                        acc[u][j] = DBLK_LOAD(acc_p + u * KT + j * DBLK_V);
                                for(long oh = oh0; oh < oh1; ++oh)
                                {
                                    const float* xq = xb + (oh * a.sh + r * a.dh) * xh + s * a.dw_ * a.vc + c0;
                                    const float* dq = db + oh * a.ow * KT;
                                    const long xstep = a.sw * a.vc;
                                    for(long ow = 0; ow < a.ow; ++ow)
                                    {
                                        DBLK_VEC dv[NKV];
#pragma GCC unroll 4
                                        for(int j = 0; j < NKV; ++j)
                                        {
                                            // One load each, not one per FMA: tuned for Zen
                                            // (-march=native), GCC folded the loads into every
                                            // FMA (16 loads a 12 FMAs, 1.6x slower on AVX2).
                                            dv[j] = DBLK_LOAD(dq + ow * KT + j * DBLK_V);
                                            DBLK_PIN(dv[j]);
                                        }
                                        const float* xo = xq + ow * xstep;
#pragma GCC unroll 16
                                        for(int u = 0; u < UC; ++u)
                                        {
                                            const DBLK_VEC xv = DBLK_BCAST(xo + u);
#pragma GCC unroll 4
                                            for(int j = 0; j < NKV; ++j)
                                                acc[u][j] = DBLK_FMA(xv, dv[j], acc[u][j]);
                                        }
                                    }
                                }
#pragma GCC unroll 16
                                for(int u = 0; u < UC; ++u)
#pragma GCC unroll 4
                                    for(int j = 0; j < NKV; ++j)
                                        DBLK_STORE(acc_p + u * KT + j * DBLK_V, acc[u][j]);
                            }
                }
            }
            // Unpack the item's valid channels into dw.
            const long kvalid = a.kout - kgi * KT < KT ? a.kout - kgi * KT : KT;
            const long cvalid = a.cin - b * a.vc < a.vc ? a.cin - b * a.vc : a.vc;
            if(taps == 1)
            {
                // 1x1: a plain transpose (the general loop below costs as much as the sums on
                // 7x7 images, whose dw is large next to their work).
                const long ws0 = a.ws[0], ws1 = a.ws[1];
                float* d0 = a.dw + (grp * a.kout + kgi * KT) * ws0 + b * a.vc * ws1;
                for(long k = 0; k < kvalid; ++k)
                    for(long c = 0; c < cvalid; ++c)
                        d0[k * ws0 + c * ws1] = buf[c * KT + k];
            }
            else if(a.ws[3] == 1 && a.ws[2] == a.s)
            {
                // Taps adjacent in dw (a dense filter): one short contiguous run per (k, c).
                for(long k = 0; k < kvalid; ++k)
                    for(long c = 0; c < cvalid; ++c)
                    {
                        float* d = a.dw + (grp * a.kout + kgi * KT + k) * a.ws[0] + (b * a.vc + c) * a.ws[1];
                        const float* src = buf + c * KT + k;
                        for(long t = 0; t < taps; ++t)
                            d[t] = src[t * a.vc * KT];
                    }
            }
            else
                for(long k = 0; k < kvalid; ++k)
                    for(long c = 0; c < cvalid; ++c)
                    {
                        float* d = a.dw + (grp * a.kout + kgi * KT + k) * a.ws[0] + (b * a.vc + c) * a.ws[1];
                        for(long r = 0; r < a.r; ++r)
                            for(long s = 0; s < a.s; ++s)
                                d[r * a.ws[2] + s * a.ws[3]] = buf[((r * a.s + s) * a.vc + c) * KT + k];
                    }
        }
        delete[] buf;
    }
}

// ---- backward weights as a GEMM over positions (WrwPosArgs) ------------------------------------
// One work item is (group, block of kb output channels, block of cbs columns): it owns dw for that
// block, so each element is one thread's sum in a fixed order (images, chunks, rows, vector steps,
// then the lanes): the same bits on every run, whatever the thread count. Within a chunk the KR
// rows of dy stay in L1 across the block's column tiles; x's chunk rows in L2.
template <int KR, int CR>
void WrwPosDriver(const WrwPosArgs& a)
{
    constexpr long V = DBLK_V;
    constexpr long TILE = KR * CR * V;
    const long nkb = (a.kout + a.kb - 1) / a.kb, ncb = (a.ncols + a.cbs - 1) / a.cbs;
    const long items = a.groups * nkb * ncb;
    const long tiles = (a.kb / KR) * ((a.cbs + CR - 1) / CR);
    // Chunks: whole rows while they are shorter than pc, else pieces of one row.
    const long rpc = a.rowlen >= a.pc ? 1 : a.pc / a.rowlen;
    const long ppc = a.rowlen >= a.pc ? a.pc : a.rowlen;
#pragma omp parallel
    {
        float* vb = new float[tiles * TILE];
#pragma omp for schedule(static)
        for(long item = 0; item < items; ++item)
        {
            const long cbi = item % ncb, kbi = (item / ncb) % nkb, grp = item / (ncb * nkb);
            const long k0 = kbi * a.kb, k1 = k0 + a.kb < a.kout ? k0 + a.kb : a.kout;
            const long c0 = cbi * a.cbs, c1 = c0 + a.cbs < a.ncols ? c0 + a.cbs : a.ncols;
            const long ktn = (k1 - k0 + KR - 1) / KR, ctn = (c1 - c0 + CR - 1) / CR;
            for(long i = 0; i < ktn * ctn * TILE; ++i)
                vb[i] = 0.0f;
            for(long n = 0; n < a.nimg; ++n)
            {
                const float* xb = a.x + n * a.xn + grp * a.xg;
                const float* db = a.dy + n * a.dn + grp * a.dg;
                for(long r0 = 0; r0 < a.nrows; r0 += rpc)
                {
                    const long r1 = r0 + rpc < a.nrows ? r0 + rpc : a.nrows;
                    for(long p0 = 0; p0 < a.rowlen; p0 += ppc)
                    {
                        const long np = a.rowlen - p0 < ppc ? a.rowlen - p0 : ppc;
                        for(long kt = 0; kt < ktn; ++kt)
                        {
                            // Rows past the block repeat its last row; their sums are not written.
                            const float* dq[KR];
#pragma GCC unroll 8
                            for(int i = 0; i < KR; ++i)
                            {
                                const long k = k0 + kt * KR + i;
                                dq[i] = db + (k < k1 ? k : k1 - 1) * a.dk + p0;
                            }
                            for(long ct = 0; ct < ctn; ++ct)
                            {
                                const float* xq[CR];
#pragma GCC unroll 8
                                for(int j = 0; j < CR; ++j)
                                {
                                    const long c = c0 + ct * CR + j;
                                    xq[j] = xb + a.xcol[c < c1 ? c : c1 - 1] + p0;
                                }
                                float* t = vb + (kt * ctn + ct) * TILE;
                                DBLK_VEC acc[KR][CR];
#pragma GCC unroll 8
                                for(int i = 0; i < KR; ++i)
#pragma GCC unroll 8
                                    for(int j = 0; j < CR; ++j)
                                        acc[i][j] = DBLK_LOAD(t + (i * CR + j) * V);
                                for(long r = r0; r < r1; ++r)
                                {
                                    const long xo = r * a.xrs, dof = r * a.drs;
                                    for(long p = 0; p < np; p += V)
                                    {
                                        DBLK_VEC xv[CR];
#pragma GCC unroll 8
                                        for(int j = 0; j < CR; ++j)
                                        {
                                            xv[j] = DBLK_LOAD(xq[j] + xo + p);
                                            DBLK_PIN(xv[j]);   // one load each, not one per FMA
                                        }
#pragma GCC unroll 8
                                        for(int i = 0; i < KR; ++i)
                                        {
                                            DBLK_VEC d = DBLK_LOAD(dq[i] + dof + p);
                                            DBLK_PIN(d);
#pragma GCC unroll 8
                                            for(int j = 0; j < CR; ++j)
                                                acc[i][j] = DBLK_FMA(d, xv[j], acc[i][j]);
                                        }
                                    }
                                }
#pragma GCC unroll 8
                                for(int i = 0; i < KR; ++i)
#pragma GCC unroll 8
                                    for(int j = 0; j < CR; ++j)
                                        DBLK_STORE(t + (i * CR + j) * V, acc[i][j]);
                            }
                        }
                    }
                }
            }
            for(long kt = 0; kt < ktn; ++kt)
                for(int i = 0; i < KR; ++i)
                {
                    const long k = k0 + kt * KR + i;
                    if(k >= k1)
                        break;
                    float* d = a.dw + (grp * a.kout + k) * a.ws0;
                    for(long ct = 0; ct < ctn; ++ct)
                        for(int j = 0; j < CR; ++j)
                        {
                            const long c = c0 + ct * CR + j;
                            if(c < c1)
                                d[a.wcol[c]] = DBLK_HSUM(vb + (kt * ctn + ct) * TILE + (i * CR + j) * V);
                        }
                }
        }
        delete[] vb;
    }
}

} // namespace

bool DBLK_WRWPOS_ENTRY(const WrwPosArgs& a)
{
#define DBLK_WRWPOS_TILE(KR_, CR_)                                                                 \
    if(a.kr == (KR_) && a.cr == (CR_) && a.kb % (KR_) == 0)                                        \
        return WrwPosDriver<KR_, CR_>(a), true;
    DBLK_WRWPOS_TILES
#undef DBLK_WRWPOS_TILE
    return false;
}

bool DBLK_WRW_ENTRY(const WrwArgs& a)
{
#define DBLK_WRW_TILE(UC_, NKV_)                                                                   \
    if(a.uc == (UC_) && a.nkv == (NKV_) && a.vc % (UC_) == 0)                                      \
        return WrwDriver<UC_, NKV_>(a), true;
    DBLK_WRW_TILES
#undef DBLK_WRW_TILE
    return false;
}

bool DBLK_ENTRY(const KernelArgs& a)
{
#define DBLK_TILE(UR_, NKV_)                                                                       \
    if(a.ur_w == (UR_) && a.nkv == (NKV_))                                                         \
        return Dispatch<UR_, NKV_>(a);
    DBLK_TILES
#undef DBLK_TILE
    return false;
}

} // namespace miopen::cpu::dblk
