// Implicit-GEMM convolution on tensor cores (NVIDIA mma.sync, AMD MFMA: kernels/common/mma.hpp),
// fp16 / bf16 storage, fp32 accumulation, packed channels-last tensors. One source for both types
// and both vendors.
//
// Forward, per group g: C[m][n] = sum over kk of A[m][kk] * B[n][kk], with
//   m  = (batch, output position)                        M = N * Do * Ho * Wo
//   n  = the group's output channel                      N = K / G
//   kk = (filter z, y, x, input channel c), c fastest   R = Z * Y * X * C / G
//   A[m][kk] = x at (batch, output position * stride - pad + filter position * dilation, g, c),
//              zero in the padding; B[n][kk] = w[g * K/G + n][z][y][x][c] (w's rows are contiguous).
// When C / G is a multiple of 8, 8 consecutive kk never leave one filter position: every global
// access is one 16-byte vector of 8 channels. Otherwise (the stem's C = 3: the narrow kernel) a
// chunk's 8 kk span taps and each is loaded on its own, 2 bytes at a time.
// Backward data, the same by stride phase: the input positions i with i % stride = res (per
// dim; grid z holds the str[0] * str[1] * str[2] phases) are rows (batch, i), columns the group's
// C/G input channels, kk = (the phase's filter taps z, y, x, output channel k), k fastest (K / G a
// multiple of 8). Only the taps f with (res + pad - f * dilation) % stride == 0 reach dy from
// such an i, an arithmetic progression f0 + t * fs (fs = stride / gcd(stride, dilation)); at tap t
// dy's position is q + e0 - t * ddil (i = res + stride * q, exact: no division in the loop), so
// A[m][kk] = dy there where it lies in dy, else zero; B[n][kk] = w[g * K/G + k][f][n], gathered 2
// bytes at a time (filter taps * C/G elements apart; w is small and stays in the cache). A row's
// dx offset is kept in shared memory for the stores. Stride 1 is the one phase of every tap.
//
// A block of 256 threads owns a 128 x 128 tile of C and steps through R by 32: each thread
// copies two 8-element chunks of A and two of B (rows tid / 4 and tid / 4 + 64, kk offset
// 8 * (tid % 4)) into a ring of mma::kStages shared-memory stages (dynamic shared memory), the
// stage kStages - 1 ahead of the one the warps multiply, one barrier a step. The copies are
// mma::ChunkCopy's: on NVIDIA asynchronous 16-byte cp.async (zero-filled for padding and bounds)
// four stages deep; on AMD staged through registers and stored after the multiply, two stages.
// Backward data's B (w, contiguous along the tile's columns) goes as 16-byte chunks into a
// transposed tile [kk][n] where C/G is a multiple of 8 (BT). What cannot go as aligned 16-byte
// chunks (backward data's B otherwise, gathered 2 bytes at a time; any operand of a launch whose
// pointers are not 16-byte aligned) goes through registers on both vendors, stored after the
// multiply into the stage's buffer. The position
// of a thread's chunk in the filter (z, y, x, channel) advances by carries, with no division in
// the loop (backward data divides by the stride); a row's base offset and input corner are
// decoded once. Bounds: rows past M, columns past N and kk past R are zero-filled (loads) or
// skipped (stores). Indices are 32-bit (the solvers require every tensor to hold fewer than 2^31
// elements). An A source (or forward's w) not 16-byte aligned (a user's offset pointer) takes
// eight 2-byte loads a chunk instead of one vector load: the same values, the same sums.
// The unsplit store goes through shared memory when the output allows (16-byte aligned, its pitch
// and the group's columns multiples of 8): the tile is rounded into the free ring, then written
// as 16-byte row chunks instead of one 2-byte store a value.
// Split reduction (forward and backward data, when the output tiles alone would leave most
// multiprocessors idle): grid z = G * splits (* phases), split s sums kk in [s * per_split,
// (s + 1) * per_split) (per_split: the group's or phase's reduction in `splits` whole steps) and
// writes its fp32 partial tile into the workspace in the output's own packed order (split-major);
// ConvIgemmMmaSplitReduce adds the splits in order and rounds once (deterministic).
// Fused epilogue (forward, Epi: a fusion plan's residual, bias, batch norm and activation,
// kernels/common/epilogue.hpp): applied to each fp32 sum before its one rounding, in the unsplit
// store (both forms) or, split, in ConvIgemmMmaSplitReduce; Epi false compiles the plain store.
#include "kernels/common/device.hpp"
#include "kernels/common/epilogue.hpp"
#include "kernels/common/mma.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/conv/conv_igemm_mma.hpp"

#include <algorithm>

namespace miopen::gpu {
namespace {

constexpr int BM = kIgemmMmaBM, BN = kIgemmMmaBN, BK = kIgemmMmaBK;
/// Shared-memory row pitch in elements: 80 bytes, so that the 8 rows an ldmatrix reads fall in
/// distinct 16-byte bank groups.
constexpr int LDS = BK + 8;
constexpr int kWarpsM = BM / mma::kWarpM;
constexpr int kWarpsN = BN / mma::kWarpN;
constexpr int kThreads = kWarpsM * kWarpsN * mma::kLanes;
constexpr int kChunksK = BK / 8;                  // 16-byte chunks along a row's step
constexpr int kRowsPerPass = kThreads / kChunksK; // rows one pass of the block fetches
constexpr int kPasses = BM / kRowsPerPass;
static_assert(kThreads == 256, "the tile assumes 256 threads");
static_assert(BM == BN && BM % kRowsPerPass == 0, "A and B are fetched with the same passes");
static_assert(BK % mma::kStepK == 0, "a step is a whole number of mma steps");
/// NVIDIA: two blocks a multiprocessor, so at most 128 registers a thread (uncapped, backward
/// data took 155). AMD keeps the plain bound: HIP's second argument counts waves per execution
/// unit, another limit.
#if defined(MIOPEN_CY_HAVE_HIP)
#define MIOPEN_CY_IGEMM_MMA_BOUNDS __launch_bounds__(kThreads)
#else
#define MIOPEN_CY_IGEMM_MMA_BOUNDS __launch_bounds__(kThreads, 2)
#endif
/// One stage of the shared-memory ring: the A tile, then the B tile.
constexpr int kStageElems = (BM + BN) * LDS;
// Transposed tiles ([kk][rows], the rows' 16-byte chunks contiguous): backward weights' A and B,
// backward data's B where C/G is a multiple of 8.
constexpr int LDT = BM + 8;                        // transposed tile row pitch (elements)
constexpr int kStageElemsT = BK * (BM + BN + 16);  // a stage: A [BK][LDT], then B [BK][BN + 8]
constexpr int kRingBytesT = mma::kStages * kStageElemsT * 2;
constexpr int kChunksRowT = BM / 8;                // 16-byte chunks along a tile row
constexpr int kRowsPerPassT = kThreads / kChunksRowT;
constexpr int kPassesT = BK / kRowsPerPassT;
static_assert(BM == BN && BK % kRowsPerPassT == 0, "A and B are fetched with the same passes");
static_assert(BK * LDT <= BN * LDS, "a transposed B tile fits the stage's B tile");
/// The output tile staged for 16-byte stores: [BM][LDO] in the ring.
constexpr int LDO = BN + 8;
static_assert(BM * LDO <= mma::kStages * kStageElems, "the output tile fits the ring");
static_assert(BM * (BN / 8) % kThreads == 0, "the output tile's chunks divide among the threads");
static_assert(kPassesT == kPasses, "backward data's B copies (ChunkCopy<kPasses>) match the transposed passes");
/// The forward / backward data kernel's dynamic shared memory: kStages stages.
constexpr int kRingBytes = mma::kStages * kStageElems * 2;
/// A fused epilogue's output tile staged in fp32 ([kEpiRows][LDOF] floats in the ring), so that
/// the epilogue runs in the 16-byte pass, where a thread's 8 channels are the same in every
/// chunk: the whole tile at once where the ring holds it (NVIDIA's 4 stages), else in passes of
/// rows (AMD's smaller ring: two).
constexpr int LDOF       = BN + 4;
constexpr int kEpiPasses = (BM * LDOF * 4 + kRingBytes - 1) / kRingBytes;
constexpr int kEpiRows   = BM / kEpiPasses;
static_assert(BM % kEpiPasses == 0 && kEpiRows * LDOF * 4 <= kRingBytes,
              "the fp32 output tile's passes fit the ring");
static_assert(kEpiRows * (BN / 8) % kThreads == 0, "a pass's chunks divide among the threads");

struct Args
{
    int M;        // GEMM rows: N * output positions (forward), N * input positions (backward data)
    int cols;     // GEMM columns a group: K/G (forward), C/G (backward data)
    int inner;    // the reduction's channels a filter tap: C/G (forward), K/G (backward data)
    int red;      // the reduction a group: filter taps * inner
    int cpg, kpg, ctot, ktot;
    int rlen[3];  // the spatial lengths the rows run over: out (forward), in (backward data)
    int in[3], out[3], fil[3], pad[3], str[3], dil[3];
    int xs[5], ws[5], ys[5];
    int n;        // batch
    int total;    // the output's elements (y forward, dx backward data): a split partial's size
    int splits;     // parts of the reduction (grid z = G * splits * phases); 1: the kernel rounds and stores
    int phases;     // backward data: the stride phases, str[0] * str[1] * str[2]; forward 1
    bool vec;     // the A source (and forward's w) 16-byte aligned: one vector load a chunk
    bool vec_out; // the output 16-byte aligned, its pitch and the group's columns multiples of 8
};

__device__ inline bool In(int i, int len) { return static_cast<unsigned>(i) < static_cast<unsigned>(len); }

/// The 8 elements at p: one 16-byte load when `vec` (p 16-byte aligned), else eight 2-byte loads.
__device__ inline uint4 Load8(const uint16_t* p, bool vec)
{
    if(vec)
        return *reinterpret_cast<const uint4*>(p);
    uint32_t u[4];
#pragma unroll
    for(int i = 0; i < 4; ++i)
        u[i] = uint32_t{p[2 * i]} | (uint32_t{p[2 * i + 1]} << 16);
    return make_uint4(u[0], u[1], u[2], u[3]);
}

/// The 8 elements p[0], p[stride], ..., p[7 * stride].
__device__ inline uint4 Gather8(const uint16_t* p, int stride)
{
    uint32_t u[4];
#pragma unroll
    for(int i = 0; i < 4; ++i)
        u[i] = uint32_t{p[2 * i * stride]} | (uint32_t{p[(2 * i + 1) * stride]} << 16);
    return make_uint4(u[0], u[1], u[2], u[3]);
}

/// The position of kk in (filter z, y, x, channel), advanced by carries.
struct RedPos
{
    int c, fx, fy, fz;
    __device__ void Advance(int by, int inner, const int (&fil)[3])
    {
        c += by;
        while(c >= inner)
        {
            c -= inner;
            if(++fx == fil[2])
            {
                fx = 0;
                if(++fy == fil[1])
                {
                    fy = 0;
                    ++fz;
                }
            }
        }
    }
};

/// Forward (Bwd false): src = x, y = out. Backward data (Bwd true): src = dy, out = dx; grid z
/// = (group, split, stride phase), a row is an input position i of the phase, and its taps t read
/// dy at o = (i + pad - f * dil) / stride, exact for the phase's taps, where that lies in the
/// output (zero otherwise); w is read across filters (K/G apart), 2 bytes at a time.
/// Narrow (forward with C/G not a multiple of 8, the stem's C = 3): a chunk's 8 kk span filter
/// taps, so each element is decoded (by carries from the chunk's first) and loaded on its own,
/// 2 bytes at a time, through registers (the launch clears `vec`).
/// BT (backward data with C/G a multiple of 8 and w 16-byte aligned): B goes as 16-byte chunks of
/// 8 channels of w at one (filter, tap) into a transposed tile [kk][n] (WarpMma::StepAB<false,
/// true>) instead of the 2-byte gather: the same fragments, the same bits.
template <class T, bool Bwd, bool Narrow, bool BT, bool Epi>
__global__ void MIOPEN_CY_IGEMM_MMA_BOUNDS
    ConvIgemmMmaKernel(Args a, const uint16_t* __restrict__ src, const uint16_t* __restrict__ w,
                       uint16_t* __restrict__ out, float* __restrict__ part, ConvEpilogueK<T> epi)
{
    static_assert(!(Epi && Bwd), "the fused epilogue is forward's");
    extern __shared__ __align__(16) uint16_t smem[];   // kStages x (A tile, B tile)
    __shared__ int s_row[BM];   // backward data: a row's element offset in dx, -1 past the phase's rows

    const int tid   = static_cast<int>(threadIdx.x);
    const int phase = static_cast<int>(blockIdx.z) % a.phases;
    const int gs    = static_cast<int>(blockIdx.z) / a.phases;
    const int g     = gs / a.splits;
    const int split = gs - g * a.splits;
    const int m0    = static_cast<int>(blockIdx.x) * BM;
    const int n0    = static_cast<int>(blockIdx.y) * BN;
    const int kc    = (tid % kChunksK) * 8;
    const int lr    = tid / kChunksK;

    // The rows' spatial lengths and the reduction's taps. Forward: every output position, every
    // tap. Backward data, the phase's: input positions i = res + str * q (q < rlen), and the taps
    // f = f0 + fs * t (t < ntap) whose (res + pad - f * dil) the stride divides, the only ones
    // that reach dy from i; there dy's position is q + e0 - t * ddil (e0 = (res + pad - f0 * dil) /
    // str, ddil = fs * dil / str), and the tap's w offset wtap0 + t * wstep.
    int rlen[3], ntap[3], res[3], e0[3], ddil[3], wstep[3], wtap0 = 0;
    int M = a.M;
    if constexpr(!Bwd)
    {
#pragma unroll
        for(int j = 0; j < 3; ++j)
        {
            rlen[j] = a.rlen[j];
            ntap[j] = a.fil[j];
        }
    }
    else
    {
        int q = phase;
#pragma unroll
        for(int j = 2; j >= 0; --j)
        {
            res[j] = q % a.str[j];
            q /= a.str[j];
        }
        M = a.n;
#pragma unroll
        for(int j = 0; j < 3; ++j)
        {
            const int s = a.str[j], d = a.dil[j];
            rlen[j]     = (a.in[j] - res[j] + s - 1) / s;   // 0 when the input is shorter than res + 1
            M *= rlen[j];
            int f0 = 0;
            while(f0 < s && (res[j] + a.pad[j] - f0 * d) % s != 0)
                ++f0;
            int fs = 1;   // the taps' period, s / gcd(s, d)
            while((fs * d) % s != 0)
                ++fs;
            const bool any = f0 < s && f0 < a.fil[j];
            ntap[j]  = any ? (a.fil[j] - f0 + fs - 1) / fs : 0;
            e0[j]    = any ? (res[j] + a.pad[j] - f0 * d) / s : 0;
            ddil[j]  = fs * d / s;
            wtap0 += any ? f0 * a.ws[2 + j] : 0;
            wstep[j] = fs * a.ws[2 + j];
        }
    }
    if(m0 >= M)
        return;   // past the phase's rows (the whole block)
    // The reduction a group and a split's part of it (whole steps; the last parts may be short or
    // empty: an empty part still writes its zeros).
    const int red      = Bwd ? ntap[0] * ntap[1] * ntap[2] * a.inner : a.red;
    const int per_split = (((red + BK - 1) / BK + a.splits - 1) / a.splits) * BK;
    const int kbeg     = split * per_split;
    const int kend     = min(red, kbeg + per_split);
    const int pitch    = Bwd ? a.ctot : a.ktot;

    // Each A row: forward, its input corner (output position * stride - pad); backward data, its
    // dy position at the phase's first tap (q + e0). And its base offset.
    int a_off[kPasses], a_d[kPasses], a_h[kPasses], a_w[kPasses];
    bool a_ok[kPasses];
    int b_off[kPasses];
    bool b_ok[kPasses];
#pragma unroll
    for(int p = 0; p < kPasses; ++p)
    {
        const int m = m0 + lr + p * kRowsPerPass;
        a_ok[p]     = m < M;
        int t       = a_ok[p] ? m : 0;
        const int pw = t % rlen[2];
        t /= rlen[2];
        const int ph = t % rlen[1];
        t /= rlen[1];
        const int pd = t % rlen[0];
        const int b  = t / rlen[0];
        const int n  = n0 + lr + p * kRowsPerPass;
        b_ok[p]      = n < a.cols;
        const int nn = b_ok[p] ? n : 0;
        if constexpr(!Bwd)
        {
            a_d[p]   = pd * a.str[0] - a.pad[0];
            a_h[p]   = ph * a.str[1] - a.pad[1];
            a_w[p]   = pw * a.str[2] - a.pad[2];
            a_off[p] = b * a.xs[0] + g * a.cpg * a.xs[1] + a_d[p] * a.xs[2] + a_h[p] * a.xs[3] + a_w[p] * a.xs[4];
            b_off[p] = (g * a.kpg + nn) * a.red;   // w's row: (z, y, x, c), c fastest
        }
        else
        {
            a_d[p]   = pd + e0[0];
            a_h[p]   = ph + e0[1];
            a_w[p]   = pw + e0[2];
            a_off[p] = b * a.ys[0] + g * a.kpg * a.ys[1];
            b_off[p] = g * a.kpg * a.ws[0] + nn * a.ws[1] + wtap0;
            if(kc == 0)
            {
                const int row = ((b * a.in[0] + res[0] + a.str[0] * pd) * a.in[1] + res[1] + a.str[1] * ph) * a.in[2] +
                                res[2] + a.str[2] * pw;
                s_row[lr + p * kRowsPerPass] = a_ok[p] ? row * pitch : -1;
            }
        }
    }

    // The chunk's first kk (the split's start + kc) as (filter z, y, x, channel); then by carries.
    // Backward data: the tap indices t of the phase's list (not filter positions). None when the
    // part is empty (a phase may have no taps).
    auto decode = [&](int t, RedPos& q) {
        q.c  = t % a.inner;
        t /= a.inner;
        q.fx = t % ntap[2];
        t /= ntap[2];
        q.fy = t % ntap[1];
        q.fz = t / ntap[1];
    };
    int kk = kbeg + kc;
    RedPos pos{0, 0, 0, 0};
    if(kend > kbeg)
        decode(kk, pos);
    // BT: the thread's B chunk, channels n0 + mcb + 0..7 (all in or all out), at kk rows
    // kkb + 0, kRowsPerPassT (their (tap, k) by carries as pos).
    const int mcb    = (tid % kChunksRowT) * 8;
    const bool bt_ok = n0 + mcb < a.cols;
    const int bt_off = g * a.kpg * a.ws[0] + wtap0 + n0 + mcb;
    int kkb          = kbeg + tid / kChunksRowT;
    RedPos posb[BT ? kPassesT : 1];
    if constexpr(BT)
    {
#pragma unroll
        for(int p = 0; p < kPassesT; ++p)
        {
            posb[p] = RedPos{0, 0, 0, 0};
            if(kend > kbeg)
                decode(kkb + p * kRowsPerPassT, posb[p]);
        }
    }
    auto advance = [&]() {
        kk += BK;
        pos.Advance(BK, a.inner, ntap);
        if constexpr(BT)
        {
            kkb += BK;
#pragma unroll
            for(int p = 0; p < kPassesT; ++p)
                posb[p].Advance(BK, a.inner, ntap);
        }
    };

    // A stage's chunks: started as async copies where the source is 16-byte aligned (`vec`:
    // A always; B forward only), else gathered into registers (ra, rb) and stored by land()
    // after the warps' multiply, when the stage's buffer is free.
    uint4 ra[kPasses], rb[kPasses];
    mma::ChunkCopy<kPasses> ca, cb;
    const uint4 zero = make_uint4(0, 0, 0, 0);
    auto fetch = [&](int buf) {
        uint16_t* const da = smem + buf * kStageElems + lr * LDS + kc;
        uint16_t* const db = da + BM * LDS;
        const bool kin = kk < kend;
        if constexpr(Narrow)
        {
            (void)kin;
            uint32_t ua[kPasses][4], ub[kPasses][4];
            RedPos q = pos;
#pragma unroll
            for(int e = 0; e < 8; ++e)
            {
                const bool ein = kk + e < kend;
                const int dd = q.fz * a.dil[0], dh = q.fy * a.dil[1], dw = q.fx * a.dil[2];
                const int koff = dd * a.xs[2] + dh * a.xs[3] + dw * a.xs[4] + q.c * a.xs[1];
#pragma unroll
                for(int p = 0; p < kPasses; ++p)
                {
                    const bool ok = ein & a_ok[p] & In(a_d[p] + dd, a.in[0]) & In(a_h[p] + dh, a.in[1]) &
                                    In(a_w[p] + dw, a.in[2]);
                    const uint32_t va = ok ? uint32_t{src[a_off[p] + koff]} : 0u;
                    const uint32_t vb = (ein & b_ok[p]) ? uint32_t{w[b_off[p] + kk + e]} : 0u;
                    if(e % 2 == 0)
                    {
                        ua[p][e / 2] = va;
                        ub[p][e / 2] = vb;
                    }
                    else
                    {
                        ua[p][e / 2] |= va << 16;
                        ub[p][e / 2] |= vb << 16;
                    }
                }
                q.Advance(1, a.inner, ntap);
            }
#pragma unroll
            for(int p = 0; p < kPasses; ++p)
            {
                ra[p] = make_uint4(ua[p][0], ua[p][1], ua[p][2], ua[p][3]);
                rb[p] = make_uint4(ub[p][0], ub[p][1], ub[p][2], ub[p][3]);
            }
        }
        else if constexpr(!Bwd)
        {
            const int dd = pos.fz * a.dil[0], dh = pos.fy * a.dil[1], dw = pos.fx * a.dil[2];
            const int koff = dd * a.xs[2] + dh * a.xs[3] + dw * a.xs[4] + pos.c * a.xs[1];
#pragma unroll
            for(int p = 0; p < kPasses; ++p)
            {
                const bool ok = kin & a_ok[p] & In(a_d[p] + dd, a.in[0]) & In(a_h[p] + dh, a.in[1]) &
                                In(a_w[p] + dw, a.in[2]);
                const bool okb = kin & b_ok[p];
                if(a.vec)
                {
                    ca.Start(p, da + p * kRowsPerPass * LDS, ok ? src + a_off[p] + koff : src, ok);
                    cb.Start(p, db + p * kRowsPerPass * LDS, okb ? w + b_off[p] + kk : w, okb);
                }
                else
                {
                    ra[p] = ok ? Load8(src + a_off[p] + koff, false) : zero;
                    rb[p] = okb ? Load8(w + b_off[p] + kk, false) : zero;
                }
            }
        }
        else
        {
            const int tap = pos.fz * wstep[0] + pos.fy * wstep[1] + pos.fx * wstep[2] + pos.c * a.ws[0];
            const int dd = pos.fz * ddil[0], dh = pos.fy * ddil[1], dw = pos.fx * ddil[2];
#pragma unroll
            for(int p = 0; p < kPasses; ++p)
            {
                const int od = a_d[p] - dd, oh = a_h[p] - dh, ow = a_w[p] - dw;
                const bool ok = kin & a_ok[p] & In(od, a.out[0]) & In(oh, a.out[1]) & In(ow, a.out[2]);
                const uint16_t* const sp =
                    ok ? src + a_off[p] + od * a.ys[2] + oh * a.ys[3] + ow * a.ys[4] + pos.c * a.ys[1] : src;
                if(a.vec)
                    ca.Start(p, da + p * kRowsPerPass * LDS, sp, ok);
                else
                    ra[p] = ok ? Load8(sp, false) : zero;
                if constexpr(!BT)
                    rb[p] = (kin & b_ok[p]) ? Gather8(w + b_off[p] + tap, a.ws[0]) : zero;
            }
            if constexpr(BT)
            {
                uint16_t* const dbt = smem + buf * kStageElems + BM * LDS + (tid / kChunksRowT) * LDT + mcb;
#pragma unroll
                for(int p = 0; p < kPassesT; ++p)
                {
                    const RedPos& q = posb[p];
                    const bool ok   = (kkb + p * kRowsPerPassT < kend) & bt_ok;
                    const int off   = bt_off + q.c * a.ws[0] + q.fz * wstep[0] + q.fy * wstep[1] + q.fx * wstep[2];
                    cb.Start(p, dbt + p * kRowsPerPassT * LDT, ok ? w + off : w, ok);
                }
            }
        }
    };
    auto land = [&](int buf) {
        uint16_t* const da = smem + buf * kStageElems + lr * LDS + kc;
        uint16_t* const db = da + BM * LDS;
        if(a.vec)
            ca.Land();
        else
#pragma unroll
            for(int p = 0; p < kPasses; ++p)
                *reinterpret_cast<uint4*>(da + p * kRowsPerPass * LDS) = ra[p];
        if(BT || (!Bwd && a.vec))
            cb.Land();
        else
#pragma unroll
            for(int p = 0; p < kPasses; ++p)
                *reinterpret_cast<uint4*>(db + p * kRowsPerPass * LDS) = rb[p];
    };

    using Mma = mma::WarpMma<T>;
    typename Mma::Acc acc;
    Mma::Zero(acc);
    const int warp = tid / mma::kLanes, lane = tid % mma::kLanes;
    const int wm = warp % kWarpsM, wn = warp / kWarpsM;

    // The ring: stage t of the reduction lives in buffer t % kStages. The first kStages - 1 are
    // started ahead; step s waits for stage s (its own copies, then the barrier for everyone's,
    // which also frees buffer (s - 1) % kStages = the one stage s + kStages - 1 fills), starts
    // that stage, multiplies stage s and lands what went through registers. One commit group a
    // stage, empty past the end, so that Wait's count stays exact.
    const int steps = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;
#pragma unroll
    for(int t = 0; t < mma::kStages - 1; ++t)
    {
        if(t < steps)
        {
            fetch(t);
            land(t);
            advance();
        }
        mma::ChunkCopy<kPasses>::Commit();
    }
    for(int s = 0; s < steps; ++s)
    {
        mma::ChunkCopy<kPasses>::Wait<mma::kStages - 2>();
        __syncthreads();
        const int t     = s + mma::kStages - 1;
        const bool more = t < steps;
        if(more)
            fetch(t % mma::kStages);
        mma::ChunkCopy<kPasses>::Commit();
        const uint16_t* const cur = smem + (s % mma::kStages) * kStageElems;
#pragma unroll
        for(int k = 0; k < BK; k += mma::kStepK)
        {
            if constexpr(BT)
                Mma::template StepAB<false, true>(acc, cur + wm * mma::kWarpM * LDS + k, LDS,
                                                  cur + BM * LDS + k * LDT + wn * mma::kWarpN, LDT, lane);
            else
                Mma::Step(acc, cur + wm * mma::kWarpM * LDS + k, cur + BM * LDS + wn * mma::kWarpN * LDS + k, LDS,
                          lane);
        }
        if(more)
        {
            land(t % mma::kStages);
            advance();
        }
    }

    // The output is packed channels-last: forward, row m's channels start at m * K; backward
    // data, at the phase row's s_row (written before the loop, which may have had no barrier).
    if constexpr(Bwd)
        __syncthreads();
    const int mt = wm * mma::kWarpM, nw = n0 + wn * mma::kWarpN;
    const int first = g * a.cols;
    auto row_at = [&](int r) { return Bwd ? s_row[mt + r] : (m0 + mt + r < M ? (m0 + mt + r) * pitch : -1); };
    if(a.splits == 1 && a.vec_out)
    {
        // Through shared memory (the ring is free once every warp has multiplied its last stage;
        // only empty copy groups are in flight): the tile rounded into [BM][LDO], then each row's
        // 128 channels written as 16-byte stores (channels all in or all out: cols % 8 == 0).
        if constexpr(!Bwd)
            __syncthreads();
        const int ntile = wn * mma::kWarpN;
        if constexpr(Epi)
        {
            // The fused epilogue: the fp32 tile through shared memory; a thread's chunks all
            // start at column cj, so its 8 channels' scale and shift are read once, and the
            // activation's mode is switched on once a chunk (per element, in the fragments'
            // order, the parameter loads serialised with the stores: 3-4x the kernel's time).
            float* const sf = reinterpret_cast<float*>(smem);
            static_assert(kThreads % (BN / 8) == 0, "a thread's chunks share their columns");
            const int cj    = (tid % (BN / 8)) * 8;
            const bool cols = n0 + cj < a.cols;
            const int ch    = first + n0 + cj;
            float sc[8], sh[8];
#pragma unroll
            for(int j = 0; j < 8; ++j)
            {
                sc[j] = cols && epi.scale != nullptr ? epi.scale[ch + j] : 1.0f;
                sh[j] = cols && epi.shift != nullptr ? epi.shift[ch + j] : 0.0f;
            }
#pragma unroll
            for(int pass = 0; pass < kEpiPasses; ++pass)
            {
                const int r0 = pass * kEpiRows;
                if(pass > 0)
                    __syncthreads(); // the previous pass's rows are read
                Mma::Store(acc, lane, [&](int r, int c, float v) {
                    const int rp = mt + r - r0;
                    if(kEpiPasses == 1 || (rp >= 0 && rp < kEpiRows))
                        sf[rp * LDOF + ntile + c] = v;
                });
                __syncthreads();
#pragma unroll
                for(int i = 0; i < kEpiRows * (BN / 8) / kThreads; ++i)
                {
                    const int r  = (tid + i * kThreads) / (BN / 8);
                    const int ro = m0 + r0 + r < M ? (m0 + r0 + r) * pitch : -1;
                    if(ro < 0 || !cols)
                        continue;
                    float v[8];
                    const float4 lo = *reinterpret_cast<const float4*>(sf + r * LDOF + cj);
                    const float4 hi = *reinterpret_cast<const float4*>(sf + r * LDOF + cj + 4);
                    v[0] = lo.x, v[1] = lo.y, v[2] = lo.z, v[3] = lo.w;
                    v[4] = hi.x, v[5] = hi.y, v[6] = hi.z, v[7] = hi.w;
#pragma unroll
                    for(int j = 0; j < 8; ++j)
                    {
                        float t = epi.alpha * v[j];
                        if(epi.z != nullptr)
                            t = fmaf(epi.alpha2, LoadFloat(epi.z + ro + ch + j), t);
                        v[j] = fmaf(sc[j], t, sh[j]);
                    }
                    EpilogueActivateN<T, 8>(epi, v);
                    StoreVec<T, 8>(reinterpret_cast<T*>(out + ro + ch), v);
                }
            }
            return;
        }
        uint16_t* const so = smem;
        Mma::Store(acc, lane, [&](int r, int c, float v) {
            so[(mt + r) * LDO + ntile + c] = DeviceFloatTo<T>(v).bits;
        });
        __syncthreads();
#pragma unroll
        for(int i = 0; i < BM * (BN / 8) / kThreads; ++i)
        {
            const int chunk = tid + i * kThreads;
            const int r = chunk / (BN / 8), cj = (chunk % (BN / 8)) * 8;
            const int ro = Bwd ? s_row[r] : (m0 + r < M ? (m0 + r) * pitch : -1);
            if(ro >= 0 && n0 + cj < a.cols)
                *reinterpret_cast<uint4*>(out + ro + first + n0 + cj) =
                    *reinterpret_cast<const uint4*>(so + r * LDO + cj);
        }
        return;
    }
    if(a.splits == 1)
    {
        Mma::Store(acc, lane, [&](int r, int c, float v) {
            const int ro = row_at(r), n = nw + c;
            if(ro >= 0 && n < a.cols)
            {
                if constexpr(Epi)
                    v = EpilogueApply(epi, v, first + n, static_cast<size_t>(ro) + first + n);
                out[ro + first + n] = DeviceFloatTo<T>(v).bits;
            }
        });
        return;
    }
    // The split's fp32 partial, in the output's packed order (an empty split writes its zeros).
    float* const dst = part + static_cast<int64_t>(split) * a.total;
    Mma::Store(acc, lane, [&](int r, int c, float v) {
        const int ro = row_at(r), n = nw + c;
        if(ro >= 0 && n < a.cols)
            dst[ro + first + n] = v;
    });
}

/// Backward weights, per group g and split z: P[z][g][m][n] = sum over kk in the split's range of
/// dy[kk][g * K/G + m] * x at (kk's batch, kk's output position * stride - pad + tap * dilation,
/// g * C/G + c), with m the group's output channel, n = (tap, c) (c fastest: w's own order) and kk
/// the position (batch, output position). Both operands are read 2 bytes at a time (their
/// contiguous dimension is the tile's rows, not the reduction): across a warp the rows are
/// consecutive channels, so each load instruction still reads contiguous memory. Partials are
/// fp32; ConvIgemmMmaWrwReduce adds them in split order and rounds once (deterministic).
struct WrwArgs
{
    int kpg, cols, cpg, ktot, ctot, g;
    int npos;       // the reduction: N * output positions
    int per_split;  // reduction positions a split (a multiple of BK)
    int splits;
    int in[3], out[3], fil[3], pad[3], str[3], dil[3];
    int xs[5];
};

template <class T>
__global__ void __launch_bounds__(kThreads)
    ConvIgemmMmaWrwKernel(WrwArgs a, const uint16_t* __restrict__ x, const uint16_t* __restrict__ dy,
                          float* __restrict__ part)
{
    __shared__ __align__(16) uint16_t sa[2][BM * LDS];
    __shared__ __align__(16) uint16_t sb[2][BN * LDS];

    const int tid   = static_cast<int>(threadIdx.x);
    const int g     = static_cast<int>(blockIdx.z) / a.splits;
    const int split = static_cast<int>(blockIdx.z) - g * a.splits;
    const int m0    = static_cast<int>(blockIdx.x) * BM;
    const int n0    = static_cast<int>(blockIdx.y) * BN;
    const int kc    = (tid % kChunksK) * 8;
    const int lr    = tid / kChunksK;
    const int kbeg  = split * a.per_split;
    const int kend  = min(a.npos, kbeg + a.per_split);

    int a_off[kPasses];
    bool a_ok[kPasses];
    int b_d[kPasses], b_h[kPasses], b_w[kPasses], b_off[kPasses];
    bool b_ok[kPasses];
#pragma unroll
    for(int p = 0; p < kPasses; ++p)
    {
        const int m = m0 + lr + p * kRowsPerPass;
        a_ok[p]     = m < a.kpg;
        a_off[p]    = g * a.kpg + (a_ok[p] ? m : 0);
        const int n = n0 + lr + p * kRowsPerPass;
        b_ok[p]     = n < a.cols;
        int t       = b_ok[p] ? n : 0;
        const int c = t % a.cpg;
        t /= a.cpg;
        const int fx = t % a.fil[2];
        t /= a.fil[2];
        const int fy = t % a.fil[1];
        const int fz = t / a.fil[1];
        b_d[p]       = fz * a.dil[0] - a.pad[0];
        b_h[p]       = fy * a.dil[1] - a.pad[1];
        b_w[p]       = fx * a.dil[2] - a.pad[2];
        b_off[p]     = g * a.cpg + c;
    }

    // The chunk's first position kk as (batch, od, oh, ow), advanced by carries.
    int kk = kbeg + kc;
    int pb, pd, ph, pw;
    {
        int t = kk;
        pw    = t % a.out[2];
        t /= a.out[2];
        ph = t % a.out[1];
        t /= a.out[1];
        pd = t % a.out[0];
        pb = t / a.out[0];
    }
    auto advance = [&](int by) {
        pw += by;
        while(pw >= a.out[2])
        {
            pw -= a.out[2];
            if(++ph == a.out[1])
            {
                ph = 0;
                if(++pd == a.out[0])
                {
                    pd = 0;
                    ++pb;
                }
            }
        }
    };

    uint4 ra[kPasses], rb[kPasses];
    auto fetch = [&]() {
        uint32_t ua[kPasses][4], ub[kPasses][4];
        int qb = pb, qd = pd, qh = ph, qw = pw;
#pragma unroll
        for(int j = 0; j < 8; ++j)
        {
            const bool kin = kk + j < kend;
#pragma unroll
            for(int p = 0; p < kPasses; ++p)
            {
                const uint32_t va = (kin & a_ok[p]) ? uint32_t{dy[(kk + j) * a.ktot + a_off[p]]} : 0u;
                const int id = qd * a.str[0] + b_d[p], ih = qh * a.str[1] + b_h[p], iw = qw * a.str[2] + b_w[p];
                const bool ok = kin & b_ok[p] & In(id, a.in[0]) & In(ih, a.in[1]) & In(iw, a.in[2]);
                const uint32_t vb =
                    ok ? uint32_t{x[qb * a.xs[0] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4] + b_off[p]]} : 0u;
                if(j % 2 == 0)
                {
                    ua[p][j / 2] = va;
                    ub[p][j / 2] = vb;
                }
                else
                {
                    ua[p][j / 2] |= va << 16;
                    ub[p][j / 2] |= vb << 16;
                }
            }
            if(++qw == a.out[2])
            {
                qw = 0;
                if(++qh == a.out[1])
                {
                    qh = 0;
                    if(++qd == a.out[0])
                    {
                        qd = 0;
                        ++qb;
                    }
                }
            }
        }
#pragma unroll
        for(int p = 0; p < kPasses; ++p)
        {
            ra[p] = make_uint4(ua[p][0], ua[p][1], ua[p][2], ua[p][3]);
            rb[p] = make_uint4(ub[p][0], ub[p][1], ub[p][2], ub[p][3]);
        }
    };
    auto stash = [&](int buf) {
#pragma unroll
        for(int p = 0; p < kPasses; ++p)
        {
            *reinterpret_cast<uint4*>(&sa[buf][(lr + p * kRowsPerPass) * LDS + kc]) = ra[p];
            *reinterpret_cast<uint4*>(&sb[buf][(lr + p * kRowsPerPass) * LDS + kc]) = rb[p];
        }
    };

    using Mma = mma::WarpMma<T>;
    typename Mma::Acc acc;
    Mma::Zero(acc);
    const int warp = tid / mma::kLanes, lane = tid % mma::kLanes;
    const int wm = warp % kWarpsM, wn = warp / kWarpsM;

    const int steps = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;
    if(steps > 0)
    {
        fetch();
        stash(0);
    }
    __syncthreads();
    for(int s = 0; s < steps; ++s)
    {
        const int cur  = s & 1;
        const bool more = s + 1 < steps;
        if(more)
        {
            kk += BK;
            advance(BK);
            fetch();
        }
#pragma unroll
        for(int k = 0; k < BK; k += mma::kStepK)
            Mma::Step(acc, &sa[cur][wm * mma::kWarpM * LDS + k], &sb[cur][wn * mma::kWarpN * LDS + k], LDS, lane);
        if(more)
            stash(cur ^ 1);
        __syncthreads();
    }

    // An empty split (none when the host sizes them) still writes its zeros.
    float* const out = part + (static_cast<int64_t>(split) * a.g + g) * a.kpg * a.cols;
    const int mw = m0 + wm * mma::kWarpM, nw = n0 + wn * mma::kWarpN;
    Mma::Store(acc, lane, [&](int r, int c, float v) {
        const int m = mw + r, n = nw + c;
        if(m < a.kpg && n < a.cols)
            out[m * a.cols + n] = v;
    });
}

/// Backward weights with K/G and C/G multiples of 8 and 16-byte aligned x and dy: the same GEMM
/// and partials as ConvIgemmMmaWrwKernel, its operands copied as 16-byte chunks of 8 channels
/// (dy: 8 filters at one position; x: 8 channels of one tap at one position, zero-filled in the
/// padding) into transposed tiles ([kk][m], [kk][n], rows padded by 16 bytes: ldmatrix.trans
/// stays conflict-free) of the mma::ChunkCopy ring, multiplied by WarpMma::StepT. The same
/// products in the same order as the 2-byte kernel, so the same bits.

template <class T>
__global__ void MIOPEN_CY_IGEMM_MMA_BOUNDS
    ConvIgemmMmaWrwVecKernel(WrwArgs a, const uint16_t* __restrict__ x, const uint16_t* __restrict__ dy,
                             float* __restrict__ part)
{
    extern __shared__ __align__(16) uint16_t smem[];   // kStages x (A [BK][LDT], B [BK][LDT])

    const int tid   = static_cast<int>(threadIdx.x);
    const int g     = static_cast<int>(blockIdx.z) / a.splits;
    const int split = static_cast<int>(blockIdx.z) - g * a.splits;
    const int m0    = static_cast<int>(blockIdx.x) * BM;
    const int n0    = static_cast<int>(blockIdx.y) * BN;
    const int mc    = (tid % kChunksRowT) * 8;   // the thread's chunk along the tile's rows
    const int kr    = tid / kChunksRowT;         // its first kk row of a stage (then + kRowsPerPassT)
    const int kbeg  = split * a.per_split;
    const int kend  = min(a.npos, kbeg + a.per_split);

    // The A chunk: filters g * K/G + m0 + mc + 0..7 (all in or all out: K/G is a multiple of 8).
    const bool a_ok = m0 + mc < a.kpg;
    const int a_col = g * a.kpg + m0 + mc;
    // The B chunk: columns (tap, c) n0 + mc + 0..7, one tap (C/G is a multiple of 8).
    const int n     = n0 + mc;
    const bool b_ok = n < a.cols;
    int bd, bh, bw, b_col;
    {
        int t        = b_ok ? n : 0;
        const int c  = t % a.cpg;
        t /= a.cpg;
        const int fx = t % a.fil[2];
        t /= a.fil[2];
        const int fy = t % a.fil[1];
        const int fz = t / a.fil[1];
        bd           = fz * a.dil[0] - a.pad[0];
        bh           = fy * a.dil[1] - a.pad[1];
        bw           = fx * a.dil[2] - a.pad[2];
        b_col        = g * a.cpg + c;
    }

    // Each pass's position kk as (batch, od, oh, ow), advanced by carries.
    int kk[kPassesT], pb[kPassesT], pd[kPassesT], ph[kPassesT], pw[kPassesT];
#pragma unroll
    for(int p = 0; p < kPassesT; ++p)
    {
        kk[p] = kbeg + kr + p * kRowsPerPassT;
        int t = kk[p];
        pw[p] = t % a.out[2];
        t /= a.out[2];
        ph[p] = t % a.out[1];
        t /= a.out[1];
        pd[p] = t % a.out[0];
        pb[p] = t / a.out[0];
    }
    auto advance = [&]() {
#pragma unroll
        for(int p = 0; p < kPassesT; ++p)
        {
            kk[p] += BK;
            pw[p] += BK;
            while(pw[p] >= a.out[2])
            {
                pw[p] -= a.out[2];
                if(++ph[p] == a.out[1])
                {
                    ph[p] = 0;
                    if(++pd[p] == a.out[0])
                    {
                        pd[p] = 0;
                        ++pb[p];
                    }
                }
            }
        }
    };

    mma::ChunkCopy<kPassesT> ca, cb;
    auto fetch = [&](int buf) {
        uint16_t* const sa = smem + buf * kStageElemsT;
        uint16_t* const sb = sa + BK * LDT;
#pragma unroll
        for(int p = 0; p < kPassesT; ++p)
        {
            const int row  = kr + p * kRowsPerPassT;
            const bool kin = kk[p] < kend;
            const bool oka = kin & a_ok;
            ca.Start(p, sa + row * LDT + mc, oka ? dy + kk[p] * a.ktot + a_col : dy, oka);
            const int id = pd[p] * a.str[0] + bd, ih = ph[p] * a.str[1] + bh, iw = pw[p] * a.str[2] + bw;
            const bool okb = kin & b_ok & In(id, a.in[0]) & In(ih, a.in[1]) & In(iw, a.in[2]);
            cb.Start(p, sb + row * LDT + mc,
                     okb ? x + pb[p] * a.xs[0] + id * a.xs[2] + ih * a.xs[3] + iw * a.xs[4] + b_col : x, okb);
        }
    };

    using Mma = mma::WarpMma<T>;
    typename Mma::Acc acc;
    Mma::Zero(acc);
    const int warp = tid / mma::kLanes, lane = tid % mma::kLanes;
    const int wm = warp % kWarpsM, wn = warp / kWarpsM;

    // The ring, as ConvIgemmMmaKernel's.
    const int steps = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;
#pragma unroll
    for(int t = 0; t < mma::kStages - 1; ++t)
    {
        if(t < steps)
        {
            fetch(t);
            ca.Land();
            cb.Land();
            advance();
        }
        mma::ChunkCopy<kPassesT>::Commit();
    }
    for(int s = 0; s < steps; ++s)
    {
        mma::ChunkCopy<kPassesT>::Wait<mma::kStages - 2>();
        __syncthreads();
        const int t     = s + mma::kStages - 1;
        const bool more = t < steps;
        if(more)
            fetch(t % mma::kStages);
        mma::ChunkCopy<kPassesT>::Commit();
        const uint16_t* const cur = smem + (s % mma::kStages) * kStageElemsT;
#pragma unroll
        for(int k = 0; k < BK; k += mma::kStepK)
            Mma::StepT(acc, cur + k * LDT + wm * mma::kWarpM, cur + (BK + k) * LDT + wn * mma::kWarpN, LDT, lane);
        if(more)
        {
            ca.Land();
            cb.Land();
            advance();
        }
    }

    float* const out = part + (static_cast<int64_t>(split) * a.g + g) * a.kpg * a.cols;
    const int mw = m0 + wm * mma::kWarpM, nw = n0 + wn * mma::kWarpN;
    Mma::Store(acc, lane, [&](int r, int c, float v) {
        const int m = mw + r, nn = nw + c;
        if(m < a.kpg && nn < a.cols)
            out[m * a.cols + nn] = v;
    });
}

/// dw[e] = the sum over splits, in order, of part[split][e], rounded once (e over the output's
/// `total` elements in its own packed order: dw for backward weights, y or dx for a split forward
/// or backward data).
/// Epi (a split forward with a fused epilogue): the epilogue applied to the sum before the
/// rounding, its channel e % channels (y packed channels-last).
template <class T, bool Epi>
__global__ void ConvIgemmMmaSplitReduce(const float* __restrict__ part, uint16_t* __restrict__ dw, int64_t total,
                                        int splits, ConvEpilogueK<T> epi, int channels)
{
    for(int64_t e = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; e < total; e += int64_t{gridDim.x} * blockDim.x)
    {
        float s = 0.0f;
        for(int z = 0; z < splits; ++z)
            s += part[z * total + e];
        if constexpr(Epi)
            s = EpilogueApply(epi, s, static_cast<int>(e % channels), static_cast<size_t>(e));
        dw[e] = DeviceFloatTo<T>(s).bits;
    }
}

Args ToArgs(const ConvKArgs& k, bool bwd)
{
    Args a;
    a.cpg  = static_cast<int>(k.cpg);
    a.kpg  = static_cast<int>(k.kpg);
    a.ctot = static_cast<int>(k.c);
    a.ktot = static_cast<int>(k.k);
    int fsp = 1, rsp = 1;
    for(int i = 0; i < 3; ++i)
    {
        a.in[i]   = static_cast<int>(k.in[i]);
        a.out[i]  = static_cast<int>(k.out[i]);
        a.fil[i]  = static_cast<int>(k.fil[i]);
        a.pad[i]  = static_cast<int>(k.pad[i]);
        a.str[i]  = static_cast<int>(k.str[i]);
        a.dil[i]  = static_cast<int>(k.dil[i]);
        a.rlen[i] = bwd ? a.in[i] : a.out[i];
        fsp *= a.fil[i];
        rsp *= a.rlen[i];
    }
    for(int i = 0; i < 5; ++i)
    {
        a.xs[i] = static_cast<int>(k.xs[i]);
        a.ws[i] = static_cast<int>(k.ws[i]);
        a.ys[i] = static_cast<int>(k.ys[i]);
    }
    a.n      = static_cast<int>(k.n);
    a.cols   = bwd ? a.cpg : a.kpg;
    a.inner  = bwd ? a.kpg : a.cpg;
    a.red    = fsp * a.inner;
    a.total  = a.n * rsp * (bwd ? a.ctot : a.ktot);
    a.phases = 1;
    a.M      = a.n * rsp;
    if(bwd)
    {
        // The grid's rows: the largest phase's (phase 0, ceil(in / stride) positions a dim).
        a.M = a.n;
        for(int i = 0; i < 3; ++i)
        {
            a.phases *= a.str[i];
            a.M *= (a.in[i] + a.str[i] - 1) / a.str[i];
        }
    }
    return a;
}

template <class T, bool Bwd, bool Narrow, bool BT, bool Epi = false>
void RunIgemmMmaT(const Args& a, const dim3& grid, void* stream, const uint16_t* sp, const uint16_t* wp,
                  uint16_t* op, float* part, const ConvEpilogueK<T>& epi = {})
{
    if constexpr(Epi)
    {
        // Unsplit: the epilogue in the kernel's store. Split: the kernel writes its plain fp32
        // partials and the reduction applies the epilogue.
        if(a.splits == 1)
        {
#if defined(MIOPEN_CY_HAVE_CUDA)
            (void)cudaFuncSetAttribute(ConvIgemmMmaKernel<T, Bwd, Narrow, BT, true>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytes);
#endif
            ConvIgemmMmaKernel<T, Bwd, Narrow, BT, true>
                <<<grid, kThreads, kRingBytes, ToStream(stream)>>>(a, sp, wp, op, part, epi);
            return;
        }
    }
#if defined(MIOPEN_CY_HAVE_CUDA)
    // Over 48 KB of dynamic shared memory needs the kernel's limit raised (per device: set at
    // every launch, a cheap call). Its error, if any, surfaces as the launch's.
    (void)cudaFuncSetAttribute(ConvIgemmMmaKernel<T, Bwd, Narrow, BT, false>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytes);
#endif
    ConvIgemmMmaKernel<T, Bwd, Narrow, BT, false>
        <<<grid, kThreads, kRingBytes, ToStream(stream)>>>(a, sp, wp, op, part, ConvEpilogueK<T>{});
    if(a.splits > 1)
    {
        const int64_t total   = a.total;
        const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((total + 255) / 256, 65535));
        if constexpr(Epi)
            ConvIgemmMmaSplitReduce<T, true>
                <<<blocks, 256, 0, ToStream(stream)>>>(part, op, total, a.splits, epi, a.ktot);
        else
            ConvIgemmMmaSplitReduce<T, false>
                <<<blocks, 256, 0, ToStream(stream)>>>(part, op, total, a.splits, ConvEpilogueK<T>{}, 1);
    }
}

template <class T>
void RunWrwVec(const WrwArgs& a, const dim3& grid, void* stream, const uint16_t* xp, const uint16_t* dp, float* part)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    (void)cudaFuncSetAttribute(ConvIgemmMmaWrwVecKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytesT);
#endif
    ConvIgemmMmaWrwVecKernel<T><<<grid, kThreads, kRingBytesT, ToStream(stream)>>>(a, xp, dp, part);
}

template <bool Bwd>
void RunIgemmMma(const ConvKArgs& k, void* stream, bool bf16, int splits, const void* src, const void* w,
                 void* out, float* workspace, const ConvEpilogueParams* epi = nullptr)
{
    Args a      = ToArgs(k, Bwd);
    a.vec       = reinterpret_cast<uintptr_t>(src) % 16 == 0 && (Bwd || reinterpret_cast<uintptr_t>(w) % 16 == 0);
    a.splits    = std::max(splits, 1);
    a.vec_out   = reinterpret_cast<uintptr_t>(out) % 16 == 0 && (Bwd ? a.ctot : a.ktot) % 8 == 0 && a.cols % 8 == 0;
    const dim3 grid(static_cast<unsigned>((a.M + BM - 1) / BM), static_cast<unsigned>((a.cols + BN - 1) / BN),
                    static_cast<unsigned>(k.g * a.splits * a.phases));
    const auto* sp = static_cast<const uint16_t*>(src);
    const auto* wp = static_cast<const uint16_t*>(w);
    auto* op       = static_cast<uint16_t*>(out);
    // Forward with C/G not a multiple of 8: the element-wise (narrow) fetch, through registers.
    const bool narrow = !Bwd && a.cpg % 8 != 0;
    if(narrow)
        a.vec = false;
    // Backward data with C/G a multiple of 8 and w 16-byte aligned: B as 16-byte chunks (BT).
    const bool bt = Bwd && a.cpg % 8 == 0 && reinterpret_cast<uintptr_t>(w) % 16 == 0;
    if constexpr(!Bwd)
    {
        // A fusion plan's epilogue in the store (or in the split reduction).
        if(epi != nullptr)
        {
            if(bf16)
            {
                const auto e = EpilogueOf<BFloat16>(epi);
                if(narrow)
                    RunIgemmMmaT<BFloat16, false, true, false, true>(a, grid, stream, sp, wp, op, workspace, e);
                else
                    RunIgemmMmaT<BFloat16, false, false, false, true>(a, grid, stream, sp, wp, op, workspace, e);
            }
            else
            {
                const auto e = EpilogueOf<Half>(epi);
                if(narrow)
                    RunIgemmMmaT<Half, false, true, false, true>(a, grid, stream, sp, wp, op, workspace, e);
                else
                    RunIgemmMmaT<Half, false, false, false, true>(a, grid, stream, sp, wp, op, workspace, e);
            }
            return;
        }
    }
    if(bf16)
    {
        if(narrow)
            RunIgemmMmaT<BFloat16, false, true, false>(a, grid, stream, sp, wp, op, workspace);
        else if(bt)
            RunIgemmMmaT<BFloat16, true, false, true>(a, grid, stream, sp, wp, op, workspace);
        else
            RunIgemmMmaT<BFloat16, Bwd, false, false>(a, grid, stream, sp, wp, op, workspace);
    }
    else
    {
        if(narrow)
            RunIgemmMmaT<Half, false, true, false>(a, grid, stream, sp, wp, op, workspace);
        else if(bt)
            RunIgemmMmaT<Half, true, false, true>(a, grid, stream, sp, wp, op, workspace);
        else
            RunIgemmMmaT<Half, Bwd, false, false>(a, grid, stream, sp, wp, op, workspace);
    }
}

} // namespace

void LaunchConvIgemmMmaFwd(const ConvKArgs& k, void* stream, bool bf16, int splits, const void* x, const void* w,
                           void* y, float* workspace, const ConvEpilogueParams* epilogue)
{
    RunIgemmMma<false>(k, stream, bf16, splits, x, w, y, workspace, epilogue);
}

void LaunchConvIgemmMmaBwd(const ConvKArgs& k, void* stream, bool bf16, int splits, void* dx, const void* w,
                           const void* dy, float* workspace)
{
    RunIgemmMma<true>(k, stream, bf16, splits, dy, w, dx, workspace);
}

int IgemmMmaWrwPerSplit(const ConvKArgs& k, int splits)
{
    const int64_t npos  = k.n * k.out[0] * k.out[1] * k.out[2];
    const int64_t steps = (npos + BK - 1) / BK;
    return static_cast<int>((steps + splits - 1) / splits * BK);
}

void LaunchConvIgemmMmaWrw(const ConvKArgs& k, void* stream, bool bf16, int splits, const void* x, void* dw,
                           const void* dy, float* workspace)
{
    WrwArgs a;
    a.kpg  = static_cast<int>(k.kpg);
    a.cpg  = static_cast<int>(k.cpg);
    a.ktot = static_cast<int>(k.k);
    a.ctot = static_cast<int>(k.c);
    a.g    = static_cast<int>(k.g);
    int fsp = 1;
    for(int i = 0; i < 3; ++i)
    {
        a.in[i]  = static_cast<int>(k.in[i]);
        a.out[i] = static_cast<int>(k.out[i]);
        a.fil[i] = static_cast<int>(k.fil[i]);
        a.pad[i] = static_cast<int>(k.pad[i]);
        a.str[i] = static_cast<int>(k.str[i]);
        a.dil[i] = static_cast<int>(k.dil[i]);
        fsp *= a.fil[i];
    }
    for(int i = 0; i < 5; ++i)
        a.xs[i] = static_cast<int>(k.xs[i]);
    a.cols      = fsp * a.cpg;
    a.npos      = static_cast<int>(k.n) * a.out[0] * a.out[1] * a.out[2];
    a.splits    = splits;
    a.per_split = IgemmMmaWrwPerSplit(k, splits);
    const dim3 grid(static_cast<unsigned>((a.kpg + BM - 1) / BM), static_cast<unsigned>((a.cols + BN - 1) / BN),
                    static_cast<unsigned>(a.g * splits));
    const auto* xp = static_cast<const uint16_t*>(x);
    const auto* dp = static_cast<const uint16_t*>(dy);
    auto* wp       = static_cast<uint16_t*>(dw);
    const int64_t total = int64_t{a.g} * a.kpg * a.cols;
    const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((total + 255) / 256, 65535));
    // 16-byte chunks where both channel counts are multiples of 8 and both pointers aligned.
    const bool vec = a.kpg % 8 == 0 && a.cpg % 8 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                     reinterpret_cast<uintptr_t>(dy) % 16 == 0;
    if(bf16)
    {
        if(vec)
            RunWrwVec<BFloat16>(a, grid, stream, xp, dp, workspace);
        else
            ConvIgemmMmaWrwKernel<BFloat16><<<grid, kThreads, 0, ToStream(stream)>>>(a, xp, dp, workspace);
        ConvIgemmMmaSplitReduce<BFloat16, false>
            <<<blocks, 256, 0, ToStream(stream)>>>(workspace, wp, total, splits, ConvEpilogueK<BFloat16>{}, 1);
    }
    else
    {
        if(vec)
            RunWrwVec<Half>(a, grid, stream, xp, dp, workspace);
        else
            ConvIgemmMmaWrwKernel<Half><<<grid, kThreads, 0, ToStream(stream)>>>(a, xp, dp, workspace);
        ConvIgemmMmaSplitReduce<Half, false>
            <<<blocks, 256, 0, ToStream(stream)>>>(workspace, wp, total, splits, ConvEpilogueK<Half>{}, 1);
    }
}

} // namespace miopen::gpu
