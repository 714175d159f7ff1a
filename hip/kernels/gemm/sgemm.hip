// fp32 strided-batched GEMM on the GPU: C[b] = opA(A[b]) * opB(B[b]) (sgemm.hpp has the exact
// contract), SIMT FFMA, for the GEMM convolution solvers and other users of a matrix product.
// A block owns a BM x BN tile of C; each thread an 8x8 micro-tile, as two 4-wide runs of rows
// (BM/2 apart) by two of columns (BN/2 apart), so that it reads A and B from shared memory as
// float4 without bank conflicts. Per step of BK = 8 or 16 (the launcher's choice), every thread fetches its share of the next
// step's A and B tiles into registers (float4 when the operand's layout allows it, checked by the
// launcher; else four scalar loads with bounds checks) while it computes on this step's shared
// stage; the registers then go to the other stage (double buffering: one barrier per step). A is
// stored k-major (transposed on store when A's rows run along k, rows padded by 4 floats so the
// transposing stores do not conflict); B is stored k-major too.
// Reduction range: the flattened sequence of (batch, k step) pairs. A plain batched GEMM gives
// block z the steps of batch z; a summed one (sum_batch) gives block z a contiguous part of all
// steps, in order: with one part the sum is in batch order, with several the parts go to a
// workspace that SgemmSplitReduce adds in part order. Deterministic either way. A folded GEMM
// (the batch as columns) may split its k range the same way: its parts are m x (batch * n)
// matrices that the reduction unfolds into the images.
// A convolution's fused epilogue (SgemmArgs::epilogue: C's rows its channels) is applied by the
// split's reduction only (in the tile kernel's store, with its parameter loads among the stores,
// it made the GEMM 2x slower on an H200, and its code slowed the plain GEMM by 6-10%).
// Variants: the tile (kSgemmTiles shapes) x the step (8, 16) x trans_a x trans_b x vectorised loads.
#include "kernels/common/device.hpp"
#include "kernels/common/epilogue.hpp"
#include "kernels/gemm/sgemm.hpp"
#include "core/errors.hpp"

#include <algorithm>

namespace miopen::gpu {
namespace {

constexpr int kBK  = 8;   // the short reduction step (LaunchSgemmTile picks 8 or 16)
constexpr int kPad = 4;   // floats of padding per shared-memory row

/// The kernel's arguments (the launcher's SgemmArgs plus the reduction plan).
struct SgemmK
{
    const float* a;
    const float* b;
    float* c;
    int64_t lda, sa, ldb, sb, ldc, sc;
    int m, n, k, batch;
    int ksteps;      // ceil(k / bk), at least 1
    int sum;         // 1: the steps of all batches are one reduction
    int64_t per;     // sum: steps per block z
    float* part;     // sum with several parts: part z's tile goes to part + z * m * n (ldc = n)
    int vc;          // C can take float4 stores (aligned, ldc, stride and n multiples of 4)
    int bk;          // the kernel's reduction step (8 or 16)
    int fold;        // > 0: the batch folded into the columns (A shared, B not transposed): column
                     // j is column j % fold of image j / fold (B and C offsets via sb and sc)
    int has_epi;     // a convolution's fused epilogue (rows: channels), applied by the split's
    ConvEpilogueK<float> epi;   // reduction (SgemmSplitReduce*)
};

/// Offset of column j in B (not transposed) or C: folded columns step to the next image.
__device__ inline int64_t ColumnOffset(int j, int fold, int64_t stride)
{
    if(fold <= 0)
        return j;
    const int img = j / fold;
    return img * stride + (j - img * fold);
}

/// Resident blocks asked of the compiler: a cap of about 128 registers for 256 threads, 168
/// for the smaller blocks (whose per-thread fetch state is larger; 128 made them spill).
template <int T>
constexpr int MinBlocks()
{
    return T >= 256 ? 2 : T >= 128 ? 3 : 6;
}

template <int BM, int BN, int BK, bool TA, bool TB, bool V>
__global__ void __launch_bounds__((BM / 8) * (BN / 8), MinBlocks<(BM / 8) * (BN / 8)>())
Sgemm(SgemmK p)
{
    constexpr int T  = (BM / 8) * (BN / 8);
    constexpr int LA = BM * BK / 4 / T;   // 4-vectors of A a thread fetches per step
    constexpr int LB = BN * BK / 4 / T;
    static_assert(LA >= 1 && LB >= 1 && BM * BK % (4 * T) == 0 && BN * BK % (4 * T) == 0,
                  "tile shape: every thread fetches whole 4-vectors of A and B");
    static_assert(BM % 64 == 0 && BN % 64 == 0, "tile shape: 8x8 micro-tiles in 4-wide runs");
    __shared__ __align__(16) float As[2][BK][BM + kPad];
    __shared__ __align__(16) float Bs[2][BK][BN + kPad];

    const int tid = threadIdx.x;
    const int m0  = blockIdx.y * BM;
    const int n0  = blockIdx.x * BN;

    // The thread's place in the grid of micro-tiles: patches of 8 (n) x 4 (m) neighbouring
    // threads, so a warp reads few distinct vectors of A and B per kk.
    constexpr int TXN = BN / 8, TYN = BM / 8;
    int tx, ty;
    if constexpr(TXN % 8 == 0 && TYN % 4 == 0)
    {
        const int q = tid / 32, l = tid % 32;
        tx          = (q % (TXN / 8)) * 8 + l % 8;
        ty          = (q / (TXN / 8)) * 4 + l / 8;
    }
    else
    {
        tx = tid % TXN;
        ty = tid / TXN;
    }

    // What each thread fetches: vector j of A is (row, k) = (ar[j], ak[j] .. +3) when A's rows
    // run along k (!TA), else (k, m) = (ak[j], ar[j] .. +3); the same for B with n for m.
    int ar[LA], ak[LA], br[LB], bk[LB];
#pragma unroll
    for(int j = 0; j < LA; ++j)
    {
        const int v = tid + j * T;
        if constexpr(!TA)
        {
            ar[j] = v / (BK / 4);
            ak[j] = v % (BK / 4) * 4;
        }
        else
        {
            ak[j] = v / (BM / 4);
            ar[j] = v % (BM / 4) * 4;
        }
    }
#pragma unroll
    for(int j = 0; j < LB; ++j)
    {
        const int v = tid + j * T;
        if constexpr(TB)
        {
            br[j] = v / (BK / 4);
            bk[j] = v % (BK / 4) * 4;
        }
        else
        {
            bk[j] = v / (BN / 4);
            br[j] = v % (BN / 4) * 4;
        }
    }

    // Column offsets of B's 4-vectors (not transposed: fixed for the whole reduction).
    int64_t bcol[LB];
#pragma unroll
    for(int j = 0; j < LB; ++j)
        bcol[j] = TB ? 0 : ColumnOffset(min(n0 + br[j], p.n - 1), p.fold, p.sb);

    float acc[8][8];
#pragma unroll
    for(int i = 0; i < 8; ++i)
#pragma unroll
        for(int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    // The reduction range of this block: steps [s, s_end) of the flattened (batch, k step).
    const int z = blockIdx.z;
    int64_t s, s_end;
    if(p.sum)
    {
        s     = z * p.per;
        s_end = min(s + p.per, static_cast<int64_t>(p.batch) * p.ksteps);
    }
    else
    {
        s     = static_cast<int64_t>(z) * p.ksteps;
        s_end = s + p.ksteps;
    }
    int bb = static_cast<int>(s / p.ksteps);                 // batch of the step being fetched
    int k0 = static_cast<int>(s - int64_t{bb} * p.ksteps) * BK;

    float4 ra[LA], rb[LB];
    auto fetch = [&]() {
        const float* a = p.a + bb * p.sa;
        const float* b = p.b + bb * p.sb;
#pragma unroll
        for(int j = 0; j < LA; ++j)
        {
            // (mm, kk) of the first element; the vector runs along k (!TA) or m (TA).
            const int mm = m0 + ar[j], kk = k0 + ak[j];
            const float* src = TA ? a + int64_t{kk} * p.lda + mm : a + int64_t{mm} * p.lda + kk;
            if constexpr(V)
            {
                const bool ok = TA ? (kk < p.k && mm < p.m) : (mm < p.m && kk < p.k);
                ra[j] = ok ? *reinterpret_cast<const float4*>(src) : make_float4(0.f, 0.f, 0.f, 0.f);
            }
            else
            {
                float e[4];
#pragma unroll
                for(int q = 0; q < 4; ++q)
                    e[q] = (TA ? (kk < p.k && mm + q < p.m) : (mm < p.m && kk + q < p.k)) ? src[q] : 0.0f;
                ra[j] = make_float4(e[0], e[1], e[2], e[3]);
            }
        }
#pragma unroll
        for(int j = 0; j < LB; ++j)
        {
            const int nn = n0 + br[j], kk = k0 + bk[j];
            const float* src = TB ? b + int64_t{nn} * p.ldb + kk : b + int64_t{kk} * p.ldb + bcol[j];
            if constexpr(V)
            {
                const bool ok = nn < p.n && kk < p.k;
                rb[j] = ok ? *reinterpret_cast<const float4*>(src) : make_float4(0.f, 0.f, 0.f, 0.f);
            }
            else
            {
                float e[4];
#pragma unroll
                for(int q = 0; q < 4; ++q)
                    e[q] = TB ? (nn < p.n && kk + q < p.k ? src[q] : 0.0f)
                              : (kk < p.k && nn + q < p.n
                                     ? b[int64_t{kk} * p.ldb + ColumnOffset(nn + q, p.fold, p.sb)]
                                     : 0.0f);
                rb[j] = make_float4(e[0], e[1], e[2], e[3]);
            }
        }
        k0 += BK;
        if(k0 >= p.k)
        {
            k0 = 0;
            ++bb;
        }
    };
    auto stash = [&](int st) {
#pragma unroll
        for(int j = 0; j < LA; ++j)
        {
            if constexpr(TA)
                *reinterpret_cast<float4*>(&As[st][ak[j]][ar[j]]) = ra[j];
            else
            {
                As[st][ak[j] + 0][ar[j]] = ra[j].x;
                As[st][ak[j] + 1][ar[j]] = ra[j].y;
                As[st][ak[j] + 2][ar[j]] = ra[j].z;
                As[st][ak[j] + 3][ar[j]] = ra[j].w;
            }
        }
#pragma unroll
        for(int j = 0; j < LB; ++j)
        {
            if constexpr(!TB)
                *reinterpret_cast<float4*>(&Bs[st][bk[j]][br[j]]) = rb[j];
            else
            {
                Bs[st][bk[j] + 0][br[j]] = rb[j].x;
                Bs[st][bk[j] + 1][br[j]] = rb[j].y;
                Bs[st][bk[j] + 2][br[j]] = rb[j].z;
                Bs[st][bk[j] + 3][br[j]] = rb[j].w;
            }
        }
    };

    int st = 0;
    if(s < s_end)
    {
        fetch();
        stash(0);
        __syncthreads();
    }
    for(; s < s_end; ++s)
    {
        const bool more = s + 1 < s_end;
        if(more)
            fetch();   // the next step's loads are in flight during this step's arithmetic
#pragma unroll
        for(int kk = 0; kk < BK; ++kk)
        {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[st][kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[st][kk][ty * 4 + BM / 2]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[st][kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[st][kk][tx * 4 + BN / 2]);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for(int i = 0; i < 8; ++i)
#pragma unroll
                for(int j = 0; j < 8; ++j)
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        if(more)
        {
            // The other stage was last read before the previous barrier.
            stash(st ^ 1);
            __syncthreads();
            st ^= 1;
        }
    }

    // The epilogue: rows ty*4 + i (+ BM/2), columns tx*4 + j (+ BN/2).
    float* out;
    int64_t ldc;
    if(!p.sum)
    {
        out = p.c + z * p.sc;
        ldc = p.ldc;
    }
    else if(p.part != nullptr)
    {
        // (Folded: the part is one m x (batch * n) matrix; SgemmSplitReduce unfolds it.)
        out = p.part + int64_t{z} * p.m * p.n;
        ldc = p.n;
    }
    else
    {
        out = p.c;
        ldc = p.ldc;
    }
    const bool vec  = p.vc != 0;
    const int ofold = p.part != nullptr ? 0 : p.fold;   // the columns' layout in `out`
#pragma unroll
    for(int i = 0; i < 8; ++i)
    {
        const int m = m0 + ty * 4 + (i & 3) + (i >> 2) * (BM / 2);
        if(m >= p.m)
            continue;
        float* row = out + int64_t{m} * ldc;
#pragma unroll
        for(int h = 0; h < 2; ++h)
        {
            const int n = n0 + tx * 4 + h * (BN / 2);
            if(vec)
            {
                // (Folded: the image's column count is a multiple of 4, so the run is in one image.)
                if(n < p.n)
                    *reinterpret_cast<float4*>(row + ColumnOffset(n, ofold, p.sc)) =
                        make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            }
            else
            {
#pragma unroll
                for(int q = 0; q < 4; ++q)
                    if(n + q < p.n)
                        row[ColumnOffset(n + q, ofold, p.sc)] = acc[i][4 * h + q];
            }
        }
    }
}

/// C[m][n] = sum over parts (in order) of part[z][m][n]; fold > 0: column j of the part is column
/// j % fold of image j / fold of C (images stride_c apart).
__global__ void SgemmSplitReduce(const float* part, int parts, int m, int n, float* c, int64_t ldc,
                                 int fold, int64_t stride_c, int has_epi, ConvEpilogueK<float> epi)
{
    const int64_t total = int64_t{m} * n;
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        float s = 0.0f;
        for(int z = 0; z < parts; ++z)
            s += part[z * total + e];
        const int64_t r   = e / n;
        const int j       = static_cast<int>(e - r * n);
        const int64_t off = r * ldc + ColumnOffset(j, fold, stride_c);
        if(has_epi)
            s = EpilogueApply(epi, s, static_cast<int>(r), static_cast<size_t>(off));
        c[off] = s;
    }
}

/// SgemmSplitReduce four columns a thread (n and fold multiples of 4, part and C 16-byte aligned,
/// ldc and stride_c multiples of 4): the same sums in the same order.
__global__ void SgemmSplitReduce4(const float4* part, int parts, int m, int n, float* c, int64_t ldc,
                                  int fold, int64_t stride_c, int has_epi, ConvEpilogueK<float> epi)
{
    const int n4        = n / 4;
    const int64_t total = int64_t{m} * n4;
    for(int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total;
        e += int64_t{gridDim.x} * blockDim.x)
    {
        float4 s = part[e];
        for(int z = 1; z < parts; ++z)
        {
            const float4 v = part[z * total + e];
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
        const int64_t r   = e / n4;
        const int j       = static_cast<int>(e - r * n4) * 4;
        const int64_t off = r * ldc + ColumnOffset(j, fold, stride_c);
        if(has_epi)
        {
            float v[4] = {s.x, s.y, s.z, s.w};
#pragma unroll
            for(int q = 0; q < 4; ++q)
                v[q] = EpilogueAffine(epi, v[q], static_cast<int>(r), static_cast<size_t>(off + q));
            EpilogueActivateN<float, 4>(epi, v);
            s = make_float4(v[0], v[1], v[2], v[3]);
        }
        *reinterpret_cast<float4*>(c + off) = s;
    }
}

template <int BM, int BN, bool TA, bool TB, bool V>
void RunTile(const SgemmK& k, int zs, void* stream)
{
    const dim3 grid((k.n + BN - 1) / BN, (k.m + BM - 1) / BM, zs);
    if(k.bk == 16)
        Sgemm<BM, BN, 16, TA, TB, V><<<grid, (BM / 8) * (BN / 8), 0, ToStream(stream)>>>(k);
    else
        Sgemm<BM, BN, kBK, TA, TB, V><<<grid, (BM / 8) * (BN / 8), 0, ToStream(stream)>>>(k);
}

template <int BM, int BN>
void RunShape(const SgemmK& k, bool ta, bool tb, bool v, int zs, void* stream)
{
    const int sel = (ta ? 4 : 0) + (tb ? 2 : 0) + (v ? 1 : 0);
    switch(sel)
    {
    case 0: RunTile<BM, BN, false, false, false>(k, zs, stream); break;
    case 1: RunTile<BM, BN, false, false, true>(k, zs, stream); break;
    case 2: RunTile<BM, BN, false, true, false>(k, zs, stream); break;
    case 3: RunTile<BM, BN, false, true, true>(k, zs, stream); break;
    case 4: RunTile<BM, BN, true, false, false>(k, zs, stream); break;
    case 5: RunTile<BM, BN, true, false, true>(k, zs, stream); break;
    case 6: RunTile<BM, BN, true, true, false>(k, zs, stream); break;
    default: RunTile<BM, BN, true, true, true>(k, zs, stream); break;
    }
}

bool Aligned16(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr) % 16 == 0; }

} // namespace

void SgemmTileShape(int tile, int& bm, int& bn)
{
    static const int shapes[kSgemmTiles][2] = {{128, 128}, {128, 64}, {64, 128}, {64, 64}};
    const int t = tile < 0 || tile >= kSgemmTiles ? 0 : tile;
    bm = shapes[t][0];
    bn = shapes[t][1];
}

void LaunchSgemmTile(const SgemmArgs& g, int tile, int splits, bool fold, float* workspace, void* stream,
                     bool reduce)
{
    if(g.m <= 0 || g.n <= 0 || g.batch <= 0)
        return;
    SgemmK k;
    k.a = g.a; k.b = g.b; k.c = g.c;
    k.lda = g.lda; k.sa = g.stride_a; k.ldb = g.ldb; k.sb = g.stride_b; k.ldc = g.ldc; k.sc = g.stride_c;
    k.m = g.m; k.n = g.n; k.k = g.k; k.batch = g.batch;
    // The reduction step: 16 (half the barriers and fetch rounds per FMA: 0.73 -> 0.79 of cuBLAS
    // on 4096^2, 1x1 forward and backward-data layers 2-10% faster on an H200) except where B is
    // transposed (the backward-weights GEMMs: both operands transposed on their way to shared
    // memory, 20-90% slower at 16) or the sum is split (short k ranges a block: 5-8% slower).
    const int bk = g.trans_b || (splits > 1 && workspace != nullptr) ? kBK : 16;
    k.bk     = bk;
    k.ksteps = g.k > 0 ? (g.k + bk - 1) / bk : 0;
    k.sum    = g.sum_batch || g.batch == 1 ? 1 : 0;
    k.part   = nullptr;
    k.per    = 0;
    k.fold   = 0;
    k.has_epi = g.epilogue != nullptr ? 1 : 0;
    k.epi     = EpilogueOf<float>(g.epilogue);
    if(fold && SgemmCanFold(g))
    {
        // One GEMM of batch * n columns over the shared A: no partly filled tile per image.
        k.fold  = g.n;
        k.n     = g.n * g.batch;
        k.batch = 1;
        k.sum   = 1;
        if(workspace == nullptr)
            splits = 1;
    }
    int zs;
    if(k.sum)
    {
        const int64_t total = int64_t{k.batch} * k.ksteps;
        const int parts     = splits > 1 && total > 1 ? static_cast<int>(std::min<int64_t>(splits, total)) : 1;
        k.per               = (total + parts - 1) / parts;
        zs                  = total > 0 ? static_cast<int>((total + k.per - 1) / k.per) : 1;
        if(zs > 1)
            k.part = workspace;
        if(k.ksteps == 0)   // k == 0: one block row of zeros
            k.ksteps = 1, k.batch = 0;
    }
    else
    {
        zs = g.batch;
        if(k.ksteps == 0)
            k.ksteps = 1, k.k = 0;
    }
    k.vc = Aligned16(g.c) && g.ldc % 4 == 0 && g.n % 4 == 0 &&
                   (k.fold > 0 || (!k.sum && g.batch > 1) ? g.stride_c % 4 == 0 : true)
               ? 1
               : 0;
    if(k.part != nullptr)
        k.vc = g.n % 4 == 0 && Aligned16(workspace) ? 1 : 0;
    // Vectorised loads: both operands' 4-runs whole and 16-byte aligned.
    const bool va = Aligned16(g.a) && g.lda % 4 == 0 && (g.batch == 1 || g.stride_a % 4 == 0) &&
                    (g.trans_a ? g.m % 4 == 0 : g.k % 4 == 0);
    const bool vb = Aligned16(g.b) && g.ldb % 4 == 0 && (g.batch == 1 || g.stride_b % 4 == 0) &&
                    (g.trans_b ? g.k % 4 == 0 : g.n % 4 == 0);
    const bool v = va && vb;
    switch(tile)
    {
    case 1: RunShape<128, 64>(k, g.trans_a, g.trans_b, v, zs, stream); break;
    case 2: RunShape<64, 128>(k, g.trans_a, g.trans_b, v, zs, stream); break;
    case 3: RunShape<64, 64>(k, g.trans_a, g.trans_b, v, zs, stream); break;
    default: RunShape<128, 128>(k, g.trans_a, g.trans_b, v, zs, stream); break;
    }
    if(k.has_epi && (k.part == nullptr || !reduce))
        ThrowBadParm("the SGEMM applies a fused epilogue in its split reduction only; this GEMM "
                     "runs unsplit (", g.m, " x ", g.n, ", k = ", g.k, ")");
    if(k.part != nullptr && reduce)
    {
        // (Folded: the part's k.n columns are the batch's images side by side.)
        const bool r4 = k.n % 4 == 0 && Aligned16(workspace) && Aligned16(g.c) && g.ldc % 4 == 0 &&
                        (k.fold == 0 || (k.fold % 4 == 0 && g.stride_c % 4 == 0));
        const int64_t total = int64_t{g.m} * k.n / (r4 ? 4 : 1);
        const int blocks    = static_cast<int>(std::min<int64_t>((total + 255) / 256, 4096));
        if(r4)
            SgemmSplitReduce4<<<blocks, 256, 0, ToStream(stream)>>>(
                reinterpret_cast<const float4*>(k.part), zs, g.m, k.n, g.c, g.ldc, k.fold, g.stride_c,
                k.has_epi, k.epi);
        else
            SgemmSplitReduce<<<blocks, 256, 0, ToStream(stream)>>>(k.part, zs, g.m, k.n, g.c, g.ldc,
                                                                   k.fold, g.stride_c, k.has_epi, k.epi);
    }
}

} // namespace miopen::gpu
