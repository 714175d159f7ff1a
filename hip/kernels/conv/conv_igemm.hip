// Implicit-GEMM convolution on the GPU (no im2col buffer): one tiled GEMM kernel with
// shared-memory tiles and register blocking, and three views that present a direction as a GEMM
// per group, C[m][n] = sum over kk of A[m][kk] * B[kk][n]:
//   forward          m = k,  n = (batch, output position),  kk = (c, filter position)
//   backward data    m = c,  n = (batch, input position),   kk = (k, filter position)
//   backward weights m = k,  n = (c, filter position),      kk = (batch, output position)
// A block owns a BM x BN tile of C; per step of BK, BK threads (spread over the warps) decode the
// kk values of the step after next into a shared ring of tables (offsets and filter/output
// displacements), all threads fetch the next step's A and B elements into registers (zeros
// outside the tensors and the padding), and accumulate TM x TN outputs each from this step's
// shared-memory stage (two stages, one barrier per step).
// A thread's m (A) and n (B) indices are fixed for the whole k loop, so their decoding happens
// once. Backward weights may split the kk range over blockIdx.z: partial tiles go to the
// workspace and ConvIgemmWrwReduce adds them in split order (deterministic). Indices are 32-bit:
// the solvers only apply when every tensor holds fewer than 2^31 elements.
#include "kernels/common/device.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::gpu {
namespace {

/// The geometry in 32-bit integers.
struct G32
{
    int n, c, k, g, cpg, kpg;
    int in[3], out[3], fil[3], pad[3], str[3], dil[3];
    int xs[5], ws[5], ys[5];
    int fsp, osp, isp;
};

G32 To32(const ConvKArgs& a)
{
    G32 g;
    g.n = static_cast<int>(a.n); g.c = static_cast<int>(a.c); g.k = static_cast<int>(a.k);
    g.g = static_cast<int>(a.g); g.cpg = static_cast<int>(a.cpg); g.kpg = static_cast<int>(a.kpg);
    for(int i = 0; i < 3; ++i)
    {
        g.in[i] = static_cast<int>(a.in[i]);   g.out[i] = static_cast<int>(a.out[i]);
        g.fil[i] = static_cast<int>(a.fil[i]); g.pad[i] = static_cast<int>(a.pad[i]);
        g.str[i] = static_cast<int>(a.str[i]); g.dil[i] = static_cast<int>(a.dil[i]);
    }
    for(int i = 0; i < 5; ++i)
    {
        g.xs[i] = static_cast<int>(a.xs[i]); g.ws[i] = static_cast<int>(a.ws[i]);
        g.ys[i] = static_cast<int>(a.ys[i]);
    }
    g.fsp = g.fil[0] * g.fil[1] * g.fil[2];
    g.osp = g.out[0] * g.out[1] * g.out[2];
    g.isp = g.in[0] * g.in[1] * g.in[2];
    return g;
}

/// One decoded kk of a step: two offsets and three displacements (their meaning is the view's).
/// The fields a B load reads come first and the struct is 32 bytes, so they are one 16-byte
/// shared-memory read.
struct alignas(16) Row
{
    int o1, d, h, w, o0, pad0, pad1, pad2;
};

__device__ inline bool In(int i, int len) { return static_cast<unsigned>(i) < static_cast<unsigned>(len); }

__device__ inline void SplitFilter(const G32& a, int f, int& fd, int& fh, int& fw)
{
    fw = f % a.fil[2];
    f /= a.fil[2];
    fh = f % a.fil[1];
    fd = f / a.fil[1];
}

__device__ inline void SplitOut(const G32& a, int o, int& od, int& oh, int& ow)
{
    ow = o % a.out[2];
    o /= a.out[2];
    oh = o % a.out[1];
    od = o / a.out[1];
}

// ---- forward: A = w[k][c, f], B = x at (c, f) for column (batch, output position) -------------
struct FwdView
{
    G32 a;
    const float* x;
    const float* w;
    float* y;
    int M, N, K;
    static constexpr bool kAKFast = true;    // w rows are contiguous in kk
    static constexpr bool kBKFast = false;   // x is contiguous along n (output width)
    __device__ void Setup(int z, int splits, int& g, int& split, int& ksplits) const
    {
        g       = z / splits;
        split   = z - g * splits;
        ksplits = splits;
    }

    struct ACtx { int off; bool ok; };
    struct BCtx { int off, d, h, w; bool ok; };

    __device__ Row MakeRow(int g, int kk) const
    {
        const int cl = kk / a.fsp;
        int fd, fh, fw;
        SplitFilter(a, kk - cl * a.fsp, fd, fh, fw);
        Row r{};
        r.d  = fd * a.dil[0];
        r.h  = fh * a.dil[1];
        r.w  = fw * a.dil[2];
        r.o0 = cl * a.ws[1] + fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4];
        r.o1 = cl * a.xs[1] + r.d * a.xs[2] + r.h * a.xs[3] + r.w * a.xs[4];
        return r;
    }
    __device__ ACtx AOuter(int g, int m) const { return {(g * a.kpg + m) * a.ws[0], m < M}; }
    __device__ float ALoad(const ACtx& c, const Row& r, bool pre) const { return (pre & c.ok) ? w[c.off + r.o0] : 0.0f; }
    __device__ BCtx BOuter(int g, int n) const
    {
        BCtx c;
        c.ok = n < N;
        const int b = c.ok ? n / a.osp : 0;
        int od, oh, ow;
        SplitOut(a, c.ok ? n - b * a.osp : 0, od, oh, ow);
        c.d   = od * a.str[0] - a.pad[0];
        c.h   = oh * a.str[1] - a.pad[1];
        c.w   = ow * a.str[2] - a.pad[2];
        c.off = b * a.xs[0] + g * a.cpg * a.xs[1] + c.d * a.xs[2] + c.h * a.xs[3] + c.w * a.xs[4];
        return c;
    }
    // The bounds tests are combined with & (not &&): one predicate, one predicated load.
    __device__ float BLoad(const BCtx& c, const Row& r, bool pre) const
    {
        const bool ok = pre & c.ok & In(c.d + r.d, a.in[0]) & In(c.h + r.h, a.in[1]) & In(c.w + r.w, a.in[2]);
        return ok ? x[c.off + r.o1] : 0.0f;
    }
    // The output offset of (m, n) is MPart(m) + NPart(n): the epilogue decodes each once.
    __device__ float* Out(int) const { return y; }
    __device__ int64_t MPart(int g, int, int m) const { return (g * a.kpg + m) * a.ys[1]; }
    __device__ int NPart(int, int, int n) const
    {
        const int b = n / a.osp;
        int od, oh, ow;
        SplitOut(a, n - b * a.osp, od, oh, ow);
        return b * a.ys[0] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4];
    }
};

// ---- backward data by stride phases: the input positions are split by their residue modulo
// ---- the stride (blockIdx.z = group * phases + phase); in one phase only the filter taps
// ---- f0, f0 + step, ... reach an output position, so the GEMM has no zero terms:
// ---- A = w[k][c, f] for m = c, kk = (k, tap); B = dy at od = j + (r + pad - f * dil) / s ------
struct BwdView
{
    G32 a;
    float* dx;
    const float* w;
    const float* dy;
    int M, N, K;
    int phases;
    // Set per block by Setup: the phase's residues, first tap, tap step, tap count and positions.
    int res[3], f0[3], step[3], taps[3], pos[3];
    static constexpr bool kAKFast = true;
    static constexpr bool kBKFast = false;

    struct ACtx { int off; bool ok; };
    struct BCtx { int off, d, h, w; bool ok; };

    __device__ void Setup(int z, int, int& g, int& split, int& ksplits)
    {
        g       = z / phases;
        int ph  = z - g * phases;
        split   = 0;
        ksplits = 1;
        for(int i = 2; i >= 0; --i)
        {
            const int s = a.str[i];
            res[i]      = ph % s;
            ph /= s;
            int x = s, y = a.dil[i];   // step = s / gcd(s, dil)
            while(y != 0)
            {
                const int t = x % y;
                x = y;
                y = t;
            }
            step[i] = s / x;
            f0[i]   = -1;
            for(int f = 0; f < step[i] && f < a.fil[i]; ++f)
                if(((res[i] + a.pad[i] - f * a.dil[i]) % s + s) % s == 0)
                {
                    f0[i] = f;
                    break;
                }
            taps[i] = f0[i] < 0 ? 0 : (a.fil[i] - f0[i] + step[i] - 1) / step[i];
            pos[i]  = res[i] < a.in[i] ? (a.in[i] - res[i] + s - 1) / s : 0;
        }
        N = a.n * pos[0] * pos[1] * pos[2];
        K = a.kpg * taps[0] * taps[1] * taps[2];
    }
    __device__ Row MakeRow(int g, int kk) const
    {
        const int tsp = taps[0] * taps[1] * taps[2];
        const int kl  = kk / tsp;
        int t         = kk - kl * tsp;
        const int tw  = t % taps[2];
        t /= taps[2];
        const int th = t % taps[1];
        const int td = t / taps[1];
        const int fd = f0[0] + td * step[0], fh = f0[1] + th * step[1], fw = f0[2] + tw * step[2];
        Row r{};
        // Exact divisions: the phase's taps make the numerators multiples of the stride.
        r.d  = (res[0] + a.pad[0] - fd * a.dil[0]) / a.str[0];
        r.h  = (res[1] + a.pad[1] - fh * a.dil[1]) / a.str[1];
        r.w  = (res[2] + a.pad[2] - fw * a.dil[2]) / a.str[2];
        r.o0 = kl * a.ws[0] + fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4];
        r.o1 = kl * a.ys[1];
        return r;
    }
    __device__ ACtx AOuter(int g, int m) const { return {g * a.kpg * a.ws[0] + m * a.ws[1], m < M}; }
    __device__ float ALoad(const ACtx& c, const Row& r, bool pre) const { return (pre & c.ok) ? w[c.off + r.o0] : 0.0f; }
    __device__ void SplitPos(int n, int& b, int& jd, int& jh, int& jw) const
    {
        const int psp = pos[0] * pos[1] * pos[2];
        b             = n / psp;
        int j         = n - b * psp;
        jw            = j % pos[2];
        j /= pos[2];
        jh = j % pos[1];
        jd = j / pos[1];
    }
    __device__ BCtx BOuter(int g, int n) const
    {
        BCtx c;
        c.ok = n < N;
        int b = 0, jd = 0, jh = 0, jw = 0;
        if(c.ok)
            SplitPos(n, b, jd, jh, jw);
        c.d   = jd;
        c.h   = jh;
        c.w   = jw;
        c.off = b * a.ys[0] + g * a.kpg * a.ys[1];
        return c;
    }
    __device__ float BLoad(const BCtx& c, const Row& r, bool pre) const
    {
        const int od = c.d + r.d, oh = c.h + r.h, ow = c.w + r.w;
        const bool ok = pre & c.ok & In(od, a.out[0]) & In(oh, a.out[1]) & In(ow, a.out[2]);
        return ok ? dy[c.off + r.o1 + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4]] : 0.0f;
    }
    __device__ float* Out(int) const { return dx; }
    __device__ int64_t MPart(int g, int, int m) const { return (g * a.cpg + m) * a.xs[1]; }
    __device__ int NPart(int, int, int n) const
    {
        int b, jd, jh, jw;
        SplitPos(n, b, jd, jh, jw);
        const int id = res[0] + jd * a.str[0], ih = res[1] + jh * a.str[1], iw = res[2] + jw * a.str[2];
        return b * a.xs[0] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4];
    }
};

// ---- backward weights: A = dy[k] at kk = (batch, output position), B = x at (c, f) reached from
// ---- that output position; split-K partial tiles in the workspace when splits > 1 ------------
struct WrwView
{
    G32 a;
    const float* x;
    float* dw;
    const float* dy;
    float* part;   // splits x groups x M x N, when splits > 1
    int M, N, K;
    static constexpr bool kAKFast = true;   // dy is contiguous along kk (output width)
    static constexpr bool kBKFast = true;   // x too
    __device__ void Setup(int z, int splits, int& g, int& split, int& ksplits) const
    {
        g       = z / splits;
        split   = z - g * splits;
        ksplits = splits;
    }

    struct ACtx { int off; bool ok; };
    struct BCtx { int off, d, h, w; bool ok; };

    __device__ Row MakeRow(int g, int kk) const
    {
        const int b = kk / a.osp;
        int od, oh, ow;
        SplitOut(a, kk - b * a.osp, od, oh, ow);
        Row r{};
        r.d  = od * a.str[0] - a.pad[0];
        r.h  = oh * a.str[1] - a.pad[1];
        r.w  = ow * a.str[2] - a.pad[2];
        r.o0 = b * a.ys[0] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4];
        r.o1 = b * a.xs[0];
        return r;
    }
    __device__ ACtx AOuter(int g, int m) const { return {(g * a.kpg + m) * a.ys[1], m < M}; }
    __device__ float ALoad(const ACtx& c, const Row& r, bool pre) const { return (pre & c.ok) ? dy[c.off + r.o0] : 0.0f; }
    __device__ BCtx BOuter(int g, int n) const
    {
        BCtx c;
        c.ok         = n < N;
        const int cl = c.ok ? n / a.fsp : 0;
        int fd, fh, fw;
        SplitFilter(a, c.ok ? n - cl * a.fsp : 0, fd, fh, fw);
        c.d   = fd * a.dil[0];
        c.h   = fh * a.dil[1];
        c.w   = fw * a.dil[2];
        c.off = (g * a.cpg + cl) * a.xs[1];
        return c;
    }
    __device__ float BLoad(const BCtx& c, const Row& r, bool pre) const
    {
        const int id = r.d + c.d, ih = r.h + c.h, iw = r.w + c.w;
        const bool ok = pre & c.ok & In(id, a.in[0]) & In(ih, a.in[1]) & In(iw, a.in[2]);
        return ok ? x[c.off + r.o1 + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4]] : 0.0f;
    }
    __device__ void StoreWeight(int g, int m, int n, float v) const
    {
        const int cl = n / a.fsp;
        int fd, fh, fw;
        SplitFilter(a, n - cl * a.fsp, fd, fh, fw);
        dw[(g * a.kpg + m) * a.ws[0] + cl * a.ws[1] + fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4]] = v;
    }
    __device__ float* Out(int) const { return part == nullptr ? dw : part; }
    __device__ int64_t MPart(int g, int split, int m) const
    {
        return part == nullptr ? int64_t{(g * a.kpg + m) * a.ws[0]}
                               : ((static_cast<int64_t>(split) * a.g + g) * M + m) * N;
    }
    __device__ int NPart(int, int, int n) const
    {
        if(part != nullptr)
            return n;
        const int cl = n / a.fsp;
        int fd, fh, fw;
        SplitFilter(a, n - cl * a.fsp, fd, fh, fw);
        return cl * a.ws[1] + fd * a.ws[2] + fh * a.ws[3] + fw * a.ws[4];
    }
};

// Blocks per multiprocessor asked of the compiler (a register cap): 2 for the 8x8 and 8x4
// micro-tiles of 256 threads, 3 for 4x4, 4 for blocks of 128 threads or fewer.
template <int T, int TM, int TN>
constexpr int IgemmMinBlocks()
{
    return T <= 128 ? 4 : TM * TN >= 32 ? 2 : 3;
}

template <int BM, int BN, int BK, int TM, int TN, int MinBlocks, class View>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), MinBlocks)
ConvIgemm(View view, int splits)
{
    constexpr int T  = (BM / TM) * (BN / TN);
    constexpr int LA = BM * BK / T;
    constexpr int LB = BN * BK / T;
    static_assert(BM * BK % T == 0 && BN * BK % T == 0 && T % BK == 0 &&
                      (View::kAKFast || T % BM == 0) && (View::kBKFast || T % BN == 0),
                  "tile shape: each thread keeps its m and n indices for the whole k loop");
    // Two stages of A and B: a step stores its tiles into one while the other may still be read,
    // so one barrier per step suffices.
    // A tile whose global reads run along kk is stored transposed (consecutive threads write
    // down a column): rows padded by 4 floats put the BK column entries in distinct banks (BK 8:
    // conflict-free, BK 16: 2-way instead of 16-way) and keep the rows 16-byte aligned.
    constexpr int PA = View::kAKFast ? 4 : 0;
    constexpr int PB = View::kBKFast ? 4 : 0;
    __shared__ __align__(16) float As[2][BK][BM + PA];
    __shared__ __align__(16) float Bs[2][BK][BN + PB];
    // A thread's i-th row of the tile: with TM a multiple of 4, runs of 4 neighbours (one float4
    // read from shared memory) spaced BM/TM*4 apart; else single rows spaced BM/TM apart. Either
    // way a warp's reads are conflict-free (broadcasts along m, consecutive along n).
    auto MOff = [](int t, int i) {
        return TM % 4 == 0 ? t * 4 + (i & 3) + (i >> 2) * (BM / TM * 4) : t + i * (BM / TM);
    };
    auto NOff = [](int t, int j) {
        return TN % 4 == 0 ? t * 4 + (j & 3) + (j >> 2) * (BN / TN * 4) : t + j * (BN / TN);
    };
    // The decoded kk of three steps (a ring): step s + 2 is decoded while step s + 1 is fetched
    // and step s computed, so the decoding is off the barrier's path.
    __shared__ Row rows[3][BK];

    View v = view;
    int g, split, ksplits;
    v.Setup(blockIdx.z, splits, g, split, ksplits);   // the group, the split of kk, per block
    const int tid = threadIdx.x;
    const int m0  = blockIdx.y * BM;
    const int n0  = blockIdx.x * BN;
    if(n0 >= v.N)   // a backward-data phase with fewer positions than the largest
        return;
    const int per  = ((v.K + ksplits - 1) / ksplits + BK - 1) / BK * BK;
    const int kbeg  = split * per;
    const int kend  = min(v.K, kbeg + per);
    // The threads that decode kk rows are spread over the block (thread r * T / BK decodes row
    // r), so no single warp carries the divisions of a whole step.
    constexpr int kRowStride = T / BK;
    const bool row_thread    = tid % kRowStride == 0;
    const int row_index      = tid / kRowStride;

    // A thread's tile coordinates of its j-th A and B element are base + j * step (the shapes
    // make T a multiple of BK and of the fast-free dim), so they cost no registers per j. A view
    // whose index along the slow dim is fixed for the thread needs a single context.
    constexpr int kAStepK = View::kAKFast ? 0 : T / BM, kAStepM = View::kAKFast ? T / BK : 0;
    constexpr int kBStepK = View::kBKFast ? 0 : T / BN, kBStepN = View::kBKFast ? T / BK : 0;
    const int akl0 = View::kAKFast ? tid % BK : tid / BM;
    const int aml0 = View::kAKFast ? tid / BK : tid % BM;
    const int bkl0 = View::kBKFast ? tid % BK : tid / BN;
    const int bnl0 = View::kBKFast ? tid / BK : tid % BN;
    constexpr int NA = View::kAKFast ? LA : 1, NB = View::kBKFast ? LB : 1;
    typename View::ACtx actx[NA];
#pragma unroll
    for(int j = 0; j < NA; ++j)
        actx[j] = v.AOuter(g, m0 + aml0 + j * kAStepM);
    typename View::BCtx bctx[NB];
#pragma unroll
    for(int j = 0; j < NB; ++j)
        bctx[j] = v.BOuter(g, n0 + bnl0 + j * kBStepN);

    float acc[TM][TN];
#pragma unroll
    for(int i = 0; i < TM; ++i)
#pragma unroll
        for(int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;
    // The thread's place in the grid of BM/TM x BN/TN micro-tiles: patches of 4 x 8 consecutive
    // threads, so a warp (or wavefront) reads few distinct A and B vectors from shared memory
    // per kk (fewer shared-memory wavefronts per FMA). Any thread permutation is correct.
    constexpr int TXN = BN / TN, TYN = BM / TM;
    int tx, ty;
    if constexpr(TXN % 8 == 0 && TYN % 4 == 0)
    {
        const int p = tid / 32, l = tid % 32;
        tx          = (p % (TXN / 8)) * 8 + l % 8;
        ty          = (p / (TXN / 8)) * 4 + l / 8;
    }
    else
    {
        tx = tid % TXN;
        ty = tid / TXN;
    }

    // Software pipeline: the global loads of step k0 + BK are issued into registers before the
    // arithmetic of step k0, so their latency hides behind it.
    float pa[LA], pb[LB];
    auto fetch = [&](int k0, int slot) {
#pragma unroll
        for(int j = 0; j < LA; ++j)
        {
            const int kl = akl0 + j * kAStepK;
            // Rows past kend hold stale data: their addresses are formed but never read.
            pa[j] = v.ALoad(actx[NA == 1 ? 0 : j], rows[slot][kl], k0 + kl < kend);
        }
#pragma unroll
        for(int j = 0; j < LB; ++j)
        {
            const int kl = bkl0 + j * kBStepK;
            pb[j] = v.BLoad(bctx[NB == 1 ? 0 : j], rows[slot][kl], k0 + kl < kend);
        }
    };
    int slot = 0;   // the ring slot of step k0's rows
    int st   = 0;   // the A/B stage of step k0
    if(kbeg < kend)
    {
        if(row_thread && kbeg + row_index < kend)
            rows[0][row_index] = v.MakeRow(g, kbeg + row_index);
        if(row_thread && kbeg + BK + row_index < kend)
            rows[1][row_index] = v.MakeRow(g, kbeg + BK + row_index);
        __syncthreads();
        fetch(kbeg, 0);
    }
    for(int k0 = kbeg; k0 < kend; k0 += BK)
    {
#pragma unroll
        for(int j = 0; j < LA; ++j)
            As[st][akl0 + j * kAStepK][aml0 + j * kAStepM] = pa[j];
#pragma unroll
        for(int j = 0; j < LB; ++j)
            Bs[st][bkl0 + j * kBStepK][bnl0 + j * kBStepN] = pb[j];
        // The barrier publishes this stage and the rows of step k0 + BK (decoded last step); the
        // other stage and the ring slot written next were last read before the previous barrier.
        __syncthreads();
        const int next  = k0 + BK;
        const int slot1 = slot == 2 ? 0 : slot + 1;
        const int slot2 = slot1 == 2 ? 0 : slot1 + 1;
        if(next < kend)
            fetch(next, slot1);
        if(row_thread && next + BK + row_index < kend)
            rows[slot2][row_index] = v.MakeRow(g, next + BK + row_index);
#pragma unroll
        for(int kk = 0; kk < BK; ++kk)
        {
            float ra[TM], rb[TN];
            if constexpr(TM % 4 == 0)
            {
#pragma unroll
                for(int q = 0; q < TM / 4; ++q)
                {
                    const float4 v4 = *reinterpret_cast<const float4*>(&As[st][kk][MOff(ty, 4 * q)]);
                    ra[4 * q] = v4.x; ra[4 * q + 1] = v4.y; ra[4 * q + 2] = v4.z; ra[4 * q + 3] = v4.w;
                }
            }
            else
            {
#pragma unroll
                for(int i = 0; i < TM; ++i)
                    ra[i] = As[st][kk][MOff(ty, i)];
            }
            if constexpr(TN % 4 == 0)
            {
#pragma unroll
                for(int q = 0; q < TN / 4; ++q)
                {
                    const float4 v4 = *reinterpret_cast<const float4*>(&Bs[st][kk][NOff(tx, 4 * q)]);
                    rb[4 * q] = v4.x; rb[4 * q + 1] = v4.y; rb[4 * q + 2] = v4.z; rb[4 * q + 3] = v4.w;
                }
            }
            else
            {
#pragma unroll
                for(int j = 0; j < TN; ++j)
                    rb[j] = Bs[st][kk][NOff(tx, j)];
            }
#pragma unroll
            for(int i = 0; i < TM; ++i)
#pragma unroll
                for(int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        st ^= 1;
        slot = slot1;
    }
    // The epilogue: each column's and each row's part of the output offset is decoded once.
    float* out = v.Out(split);
    int npart[TN];
    bool nok[TN];
#pragma unroll
    for(int j = 0; j < TN; ++j)
    {
        const int n = n0 + NOff(tx, j);
        nok[j]      = n < v.N;
        npart[j]    = nok[j] ? v.NPart(g, split, n) : 0;
    }
#pragma unroll
    for(int i = 0; i < TM; ++i)
    {
        const int m = m0 + MOff(ty, i);
        if(m >= v.M)
            continue;
        const int64_t mpart = v.MPart(g, split, m);
#pragma unroll
        for(int j = 0; j < TN; ++j)
            if(nok[j])
                out[mpart + npart[j]] = acc[i][j];
    }
}

__global__ void ConvIgemmWrwReduce(WrwView v, int splits)
{
    const int64_t total = static_cast<int64_t>(v.a.g) * v.M * v.N;
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        float s = 0.0f;
        for(int p = 0; p < splits; ++p)
            s += v.part[p * total + e];
        const int n = static_cast<int>(e % v.N);
        const int64_t r = e / v.N;
        const int m = static_cast<int>(r % v.M);
        const int g = static_cast<int>(r / v.M);
        v.StoreWeight(g, m, n, s);
    }
}

template <int BM, int BN, int BK, int TM, int TN, class View,
          int MinBlocks = IgemmMinBlocks<(BM / TM) * (BN / TN), TM, TN>()>
void Run(const View& v, int groups, int splits, void* stream)
{
    dim3 grid((v.N + BN - 1) / BN, (v.M + BM - 1) / BM, groups * splits);
    ConvIgemm<BM, BN, BK, TM, TN, MinBlocks, View>
        <<<grid, (BM / TM) * (BN / TN), 0, ToStream(stream)>>>(v, splits);
}

/// Row `Row` of kIgemmTiles (conv/conv_args.hpp).
template <int Row, class View>
void RunRow(const View& v, int groups, int splits, void* stream)
{
    constexpr IgemmTile t = kIgemmTiles[Row];
    Run<t.bm, t.bn, t.bk, t.tm, t.tn>(v, groups, splits, stream);
}

template <class View>
void RunVariant(const View& v, int variant, int groups, int splits, void* stream)
{
    static_assert(kIgemmVariants == 6, "one case per row of kIgemmTiles");
    switch(variant)
    {
    case 0: RunRow<0>(v, groups, splits, stream); break;
    case 1: RunRow<1>(v, groups, splits, stream); break;
    case 2: RunRow<2>(v, groups, splits, stream); break;
    case 3: RunRow<3>(v, groups, splits, stream); break;
    case 4: RunRow<4>(v, groups, splits, stream); break;
    default: RunRow<5>(v, groups, splits, stream); break;
    }
}

} // namespace

void LaunchConvIgemmFwd(const ConvKArgs& a, void* stream, int variant, const float* x,
                        const float* w, float* y)
{
    FwdView v;
    v.a = To32(a);
    v.x = x; v.w = w; v.y = y;
    v.M = v.a.kpg;
    v.N = v.a.n * v.a.osp;
    v.K = v.a.cpg * v.a.fsp;
    RunVariant(v, variant, v.a.g, 1, stream);
}

void LaunchConvIgemmBwd(const ConvKArgs& a, void* stream, int variant, float* dx, const float* w,
                        const float* dy)
{
    BwdView v;
    v.a = To32(a);
    v.dx = dx; v.w = w; v.dy = dy;
    v.M      = v.a.cpg;
    v.phases = v.a.str[0] * v.a.str[1] * v.a.str[2];
    // The grid covers the largest phase (residue 0); Setup sets N and K per phase.
    v.N = v.a.n * ((v.a.in[0] + v.a.str[0] - 1) / v.a.str[0]) * ((v.a.in[1] + v.a.str[1] - 1) / v.a.str[1]) *
          ((v.a.in[2] + v.a.str[2] - 1) / v.a.str[2]);
    v.K = 0;
    RunVariant(v, variant, v.a.g, v.phases, stream);
}

void LaunchConvIgemmWrw(const ConvKArgs& a, void* stream, int variant, int splits, const float* x,
                        float* dw, const float* dy, float* workspace)
{
    WrwView v;
    v.a = To32(a);
    v.x = x; v.dw = dw; v.dy = dy;
    v.part = splits > 1 ? workspace : nullptr;
    v.M = v.a.kpg;
    v.N = v.a.cpg * v.a.fsp;
    v.K = v.a.n * v.a.osp;
    RunVariant(v, variant, v.a.g, splits, stream);
    if(splits > 1)
    {
        const int64_t total = static_cast<int64_t>(v.a.g) * v.M * v.N;
        const int64_t blocks = (total + 255) / 256;
        ConvIgemmWrwReduce<<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), 256, 0,
                             ToStream(stream)>>>(v, splits);
    }
}

} // namespace miopen::gpu
