// The tensor-core GEMM (gemm_mma.hpp): C (fp32) = opA(A) opB(B), A and B fp16 or bf16, fp32
// accumulation, on the matrix-multiply-accumulate layer of kernels/common/mma.hpp. One source for
// both types, both vendors and every operand layout.
//
// A block of 256 threads owns a 128 x 128 tile of C and steps through its k range by 32. Each
// operand's tile is kept in shared memory the way the operand is stored: rows of the tile (m for
// A, n for B) holding k contiguously ([r][k], the layout of A untransposed and of B transposed),
// or rows of k holding the tile's rows contiguously ([k][r]); WarpMma::StepAB reads either. A
// thread copies two 16-byte chunks of each tile a step into a ring of mma::kStages stages
// (mma::ChunkCopy: cp.async on NVIDIA, staged through registers on AMD), the stage kStages - 1
// ahead of the one the warps multiply, one barrier a step: the pattern of the implicit-GEMM
// convolution (conv_igemm_mma.hip). An operand whose rows are not 16-byte aligned, or whose
// contiguous extent is not a multiple of 8, is instead loaded element by element (2 bytes, bounds
// checked per element) and stored into the stage at once: the stage being filled is the one the
// warps finished multiplying before the step's barrier, so no one reads it. Out-of-range rows and
// k are zeros.
// Split k (grid z = parts): part z sums k in [z * per, (z + 1) * per) (per: whole steps) and
// writes its fp32 m x n product to part + z * m * n; GemmMmaReduce adds the parts in order
// (deterministic), or the caller does (the RNN's gate kernels).
#include "kernels/common/device.hpp"
#include "kernels/common/mma.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/gemm/gemm_mma.hpp"

#include <algorithm>

namespace miopen::gpu {
namespace {

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int LDS = BK + 8; // [r][k] tile pitch: 80 bytes, ldmatrix's 8 rows in distinct bank groups
constexpr int LDT = BM + 8; // [k][r] tile pitch: 272 bytes, likewise
constexpr int kTileElems  = BM * LDS > BK * LDT ? BM * LDS : BK * LDT;
constexpr int kStageElems = 2 * kTileElems; // the A tile, then the B tile
constexpr int kRingBytes  = mma::kStages * kStageElems * 2;
constexpr int kWarpsM     = BM / mma::kWarpM;
constexpr int kWarpsN     = BN / mma::kWarpN;
constexpr int kThreads    = kWarpsM * kWarpsN * mma::kLanes;
static_assert(kThreads == 256, "the tile assumes 256 threads");
static_assert(BM == BN, "A and B tiles are fetched alike");
/// 16-byte chunks a thread copies of one tile a step: [r][k] chunks at row tid / 4 (+ 64), k
/// 8 * (tid % 4); [k][r] chunks at k row tid / 16 (+ 16), rows 8 * (tid % 16).
constexpr int kChunks = BM * BK / 8 / kThreads;
static_assert(kChunks == 2, "two chunks a thread a tile");
#if defined(MIOPEN_CY_HAVE_HIP)
#define MIOPEN_CY_GEMM_MMA_BOUNDS __launch_bounds__(kThreads)
#else
#define MIOPEN_CY_GEMM_MMA_BOUNDS __launch_bounds__(kThreads, 2)
#endif

struct Args
{
    int M, N, K;
    const uint16_t* a;
    int64_t lda;
    const uint16_t* b;
    int64_t ldb;
    float* c;
    int64_t ldc;
    float* part; // parts > 1: the parts' products, m x n each
    int per;     // k elements a part (a multiple of BK)
    bool vec_a, vec_b;
};

/// One operand's tile fetch: rows [r0, r0 + 128) of an operand with R rows, stored k-contiguous
/// (KC: element (r, k) at p[r * ld + k]) or row-contiguous (p[k * ld + r]).
template <bool KC>
struct Operand
{
    const uint16_t* p;
    int64_t ld;
    int R, r0;
    bool vec;

    /// The thread's chunk i of the step at k (k range end kend) into the tile at `tile`.
    template <class Copy>
    __device__ void Fetch(Copy& cp, int i, uint16_t* tile, int tid, int k, int kend) const
    {
        int r, kk;
        uint16_t* dst;
        if constexpr(KC)
        {
            const int lr = tid / 4 + i * (kThreads / 4), lk = 8 * (tid % 4);
            r   = r0 + lr;
            kk  = k + lk;
            dst = tile + lr * LDS + lk;
        }
        else
        {
            const int lk = tid / 16 + i * (kThreads / 16), lr = 8 * (tid % 16);
            r   = r0 + lr;
            kk  = k + lk;
            dst = tile + lk * LDT + lr;
        }
        if(vec)
        {
            // the chunk is all in or all out (the contiguous extent a multiple of 8)
            const bool ok = r < R && kk < kend;
            cp.Start(i, dst, ok ? p + (KC ? int64_t(r) * ld + kk : int64_t(kk) * ld + r) : p, ok);
            return;
        }
        uint32_t u[4];
#pragma unroll
        for(int e = 0; e < 8; ++e)
        {
            const int re = KC ? r : r + e, ke = KC ? kk + e : kk;
            const uint32_t v =
                (re < R && ke < kend) ? uint32_t{p[KC ? int64_t(re) * ld + ke : int64_t(ke) * ld + re]} : 0u;
            u[e / 2] = e % 2 == 0 ? v : (u[e / 2] | (v << 16));
        }
        *reinterpret_cast<uint4*>(dst) = make_uint4(u[0], u[1], u[2], u[3]);
    }
    /// The warp's first row (wr) at k within the tile, and the tile's pitch.
    __device__ static const uint16_t* At(const uint16_t* tile, int wr, int k)
    {
        return KC ? tile + wr * LDS + k : tile + k * LDT + wr;
    }
    static constexpr int kPitch = KC ? LDS : LDT;
};

/// KCA: A stored [m][k] (not transposed); KCB: B stored [n][k] (transposed).
template <class T, bool KCA, bool KCB>
__global__ void MIOPEN_CY_GEMM_MMA_BOUNDS GemmMmaKernel(Args a)
{
    extern __shared__ __align__(16) uint16_t smem[]; // kStages x (A tile, B tile)
    const int tid  = static_cast<int>(threadIdx.x);
    const int m0   = static_cast<int>(blockIdx.x) * BM;
    const int n0   = static_cast<int>(blockIdx.y) * BN;
    const int z    = static_cast<int>(blockIdx.z);
    const int kbeg = z * a.per;
    const int kend = min(a.K, kbeg + a.per);
    const Operand<KCA> A{a.a, a.lda, a.M, m0, a.vec_a};
    const Operand<KCB> B{a.b, a.ldb, a.N, n0, a.vec_b};
    mma::ChunkCopy<kChunks> ca, cb;
    int k = kbeg;
    auto fetch = [&](int buf) {
        uint16_t* const ta = smem + buf * kStageElems;
#pragma unroll
        for(int i = 0; i < kChunks; ++i)
        {
            A.Fetch(ca, i, ta, tid, k, kend);
            B.Fetch(cb, i, ta + kTileElems, tid, k, kend);
        }
    };
    auto land = [&]() {
        if(a.vec_a)
            ca.Land();
        if(a.vec_b)
            cb.Land();
    };

    using Mma = mma::WarpMma<T>;
    typename Mma::Acc acc;
    Mma::Zero(acc);
    const int warp = tid / mma::kLanes, lane = tid % mma::kLanes;
    const int wm = (warp % kWarpsM) * mma::kWarpM, wn = (warp / kWarpsM) * mma::kWarpN;
    // A warp whose tile lies wholly past C's edge (a product of fewer than 128 rows, as the RNN's
    // steps of 64) only fetches: its products would be of zeros.
    const bool live = m0 + wm < a.M && n0 + wn < a.N;

    // The ring (conv_igemm_mma.hip's): stage t in buffer t % kStages; one commit group a stage,
    // empty past the end, so that Wait's count stays exact.
    const int steps = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;
#pragma unroll
    for(int t = 0; t < mma::kStages - 1; ++t)
    {
        if(t < steps)
        {
            fetch(t);
            land();
            k += BK;
        }
        mma::ChunkCopy<kChunks>::Commit();
    }
    for(int s = 0; s < steps; ++s)
    {
        mma::ChunkCopy<kChunks>::Wait<mma::kStages - 2>();
        __syncthreads();
        const int t     = s + mma::kStages - 1;
        const bool more = t < steps;
        if(more)
            fetch(t % mma::kStages);
        mma::ChunkCopy<kChunks>::Commit();
        const uint16_t* const cur = smem + (s % mma::kStages) * kStageElems;
        if(live)
        {
#pragma unroll
            for(int kk = 0; kk < BK; kk += mma::kStepK)
                Mma::template StepAB<!KCA, !KCB>(acc, Operand<KCA>::At(cur, wm, kk), Operand<KCA>::kPitch,
                                                 Operand<KCB>::At(cur + kTileElems, wn, kk),
                                                 Operand<KCB>::kPitch, lane);
        }
        if(more)
        {
            land();
            k += BK;
        }
    }

    // Unsplit: C itself; split: the part's m x n product (an empty part writes its zeros).
    float* const dst = gridDim.z == 1 ? a.c : a.part + int64_t(z) * a.M * a.N;
    const int64_t ld = gridDim.z == 1 ? a.ldc : a.N;
    Mma::Store(acc, lane, [&](int r, int c, float v) {
        const int m = m0 + wm + r, n = n0 + wn + c;
        if(m < a.M && n < a.N)
            dst[int64_t(m) * ld + n] = v;
    });
}

/// C[m][n] = the parts' sum at (m, n), in part order.
__global__ void __launch_bounds__(256)
    GemmMmaReduce(const float* part, int parts, int M, int N, float* c, int64_t ldc)
{
    const int64_t mn = int64_t(M) * N;
    for(int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < mn; i += int64_t(gridDim.x) * blockDim.x)
    {
        float s = part[i];
        for(int z = 1; z < parts; ++z)
            s += part[z * mn + i];
        const int64_t m = i / N;
        c[m * ldc + (i - m * N)] = s;
    }
}

/// Whether an operand goes as 16-byte chunks: rows 16-byte aligned, its contiguous extent a
/// multiple of 8.
bool Vec(const void* p, int64_t ld, int extent)
{
    return reinterpret_cast<uintptr_t>(p) % 16 == 0 && ld % 8 == 0 && extent % 8 == 0;
}

template <class T, bool KCA, bool KCB>
void Run(const Args& a, const dim3& grid, void* stream)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    // Over 48 KB of dynamic shared memory needs the kernel's limit raised (a cheap call; its
    // error, if any, surfaces as the launch's).
    (void)cudaFuncSetAttribute(GemmMmaKernel<T, KCA, KCB>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               kRingBytes);
#endif
    GemmMmaKernel<T, KCA, KCB><<<grid, kThreads, kRingBytes, ToStream(stream)>>>(a);
}

template <class T>
void RunLayout(const Args& a, bool kca, bool kcb, const dim3& grid, void* stream)
{
    if(kca)
        kcb ? Run<T, true, true>(a, grid, stream) : Run<T, true, false>(a, grid, stream);
    else
        kcb ? Run<T, false, true>(a, grid, stream) : Run<T, false, false>(a, grid, stream);
}

} // namespace

void LaunchGemmMmaKernels(const GemmMmaArgs& g, int parts, float* part, bool reduce, void* stream)
{
    Args a;
    a.M   = g.m;
    a.N   = g.n;
    a.K   = g.k;
    a.a   = static_cast<const uint16_t*>(g.a);
    a.lda = g.lda;
    a.b   = static_cast<const uint16_t*>(g.b);
    a.ldb = g.ldb;
    a.c   = g.c;
    a.ldc = g.ldc;
    a.part = part;
    const int steps = (std::max(g.k, 0) + BK - 1) / BK;
    parts           = std::max(1, parts);
    a.per           = parts > 1 ? (steps + parts - 1) / parts * BK : std::max(steps, 1) * BK;
    // KC: the operand's k contiguous (A untransposed, B transposed); its contiguous extent is
    // then k, else its rows.
    const bool kca = !g.trans_a, kcb = g.trans_b;
    a.vec_a = Vec(g.a, g.lda, kca ? g.k : g.m);
    a.vec_b = Vec(g.b, g.ldb, kcb ? g.k : g.n);
    const dim3 grid(static_cast<unsigned>((g.m + BM - 1) / BM), static_cast<unsigned>((g.n + BN - 1) / BN),
                    static_cast<unsigned>(parts));
    if(g.bf16)
        RunLayout<BFloat16>(a, kca, kcb, grid, stream);
    else
        RunLayout<Half>(a, kca, kcb, grid, stream);
    if(parts > 1 && reduce)
    {
        const int64_t mn      = int64_t(g.m) * g.n;
        const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((mn + 255) / 256, 65535));
        GemmMmaReduce<<<blocks, 256, 0, ToStream(stream)>>>(part, parts, g.m, g.n, g.c, g.ldc);
    }
}

} // namespace miopen::gpu
