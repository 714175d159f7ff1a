// The matrix-multiply-accumulate layer of the tensor-core kernels: the only vendor-specific code
// they use, pitched at one warp's (wave's) tile of a block's shared-memory tiles.
//
// Shared-memory contract (both vendors): the block keeps its A tile as rows of M, its B tile as
// rows of N, each row holding the reduction (k) contiguously as the 16 stored bits of T (Half or
// BFloat16), rows `ld` elements apart (ld a multiple of 8, so that every row starts on 16 bytes).
// A warp owns a kM x kN sub-tile of the block's output; WarpMma<T>::Step adds the product of its
// kM rows of A and kN rows of B over 16 consecutive k (A[m][k] * B[n][k]) to the accumulator, in
// fp32. Store hands each accumulated value to f(row, col, value) in warp-tile coordinates.
// StepT is Step on transposed tiles: A kept as rows of k holding M contiguously, B as rows of k
// holding N (the layout of operands whose contiguous dimension is the tile's rows, as backward
// weights' dy and x), rows `ld` elements apart (a multiple of 8); the same products, the same sums.
// StepAB<TA, TB> takes each operand either way, with its own pitch (backward data's B: [k][n]).
//
//   NVIDIA sm_80+: ldmatrix.x4 fragments and mma.sync.m16n8k16 (f16 / bf16 in, f32 accumulate);
//                  32 lanes, warp tile 64 x 32 (4 x 4 mma tiles): 8 warps make a 128 x 128 block.
//   AMD gfx908/gfx90a: MFMA 32x32x8 (f16; bf16_1k on gfx90a, two 32x32x4bf16 on gfx908); 64 lanes,
//                  wave tile 64 x 64 (2 x 2 MFMA tiles): 4 waves make a 128 x 128 block.
// Elsewhere (an older NVIDIA target, gfx906, the host pass) Step traps: the solvers are not
// applicable there, so it never runs.
//
// Tile copies (ChunkCopy): a thread's 16-byte chunks from global into shared memory, started for
// a stage of the block's shared-memory ring ahead of its use.
//   NVIDIA sm_80+: cp.async.cg.shared.global (16 bytes, L2 only; a chunk outside the tensor is
//                  zero-filled through the src-size operand, reading nothing), completed in
//                  commit groups: Wait<n> returns once at most n of the thread's groups are in
//                  flight; kStages stages (the ring) deep.
//   Elsewhere (AMD, older NVIDIA): staged through registers: Start loads into registers, Land
//                  (after the warps' multiply of the current stage) stores them; two stages, as
//                  the kernels staged before (Commit, Wait: nothing).
// Either way the caller's pattern is: per step, Wait<kStages - 2>, a barrier, Start the stage
// kStages - 1 ahead, Commit, multiply the current stage, Land.
#pragma once

#include "core/storage.hpp"
#include "gpu/compat.hpp"

#include <cstdint>
#include <type_traits>

namespace miopen::gpu::mma {

#if defined(MIOPEN_CY_HAVE_HIP)
inline constexpr int kLanes = 64;   // gfx9 waves
inline constexpr int kWarpM = 64;
inline constexpr int kWarpN = 64;
#else
inline constexpr int kLanes = 32;
inline constexpr int kWarpM = 64;
inline constexpr int kWarpN = 32;
#endif
/// The reduction one Step consumes.
inline constexpr int kStepK = 16;
/// Shared-memory stages of the tile ring (ChunkCopy): the same in the host and device passes of
/// one vendor, so the host sizes the dynamic shared memory the kernel indexes.
#if defined(MIOPEN_CY_HAVE_HIP)
inline constexpr int kStages = 2;
#else
inline constexpr int kStages = 4;
#endif

#if defined(MIOPEN_CY_HAVE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define MIOPEN_CY_MMA_NV 1
#elif defined(MIOPEN_CY_HAVE_HIP) && (defined(__gfx908__) || defined(__gfx90a__))
#define MIOPEN_CY_MMA_AMD 1
#endif

/// Whether this compilation pass has the instructions (device passes only).
#if defined(MIOPEN_CY_MMA_NV) || defined(MIOPEN_CY_MMA_AMD)
inline constexpr bool kHaveMma = true;
#else
inline constexpr bool kHaveMma = false;
#endif

#if defined(MIOPEN_CY_HAVE_HIP)
// ---- AMD: MFMA 32x32x8, wave tile 2 x 2 of them -------------------------------------------------
// Operand layouts (32x32x8): lane l holds A[l % 32][4 * (l / 32) + 0..3] and B[4 * (l / 32) + 0..3]
// [l % 32]; the 16 results of lane l are D[8 * (i / 4) + 4 * (l / 32) + i % 4][l % 32], i = 0..15.
typedef float MfmaAcc __attribute__((ext_vector_type(16)));
typedef _Float16 MfmaHalf4 __attribute__((ext_vector_type(4)));
typedef short MfmaShort4 __attribute__((ext_vector_type(4)));
typedef short MfmaShort2 __attribute__((ext_vector_type(2)));

template <class T>
struct WarpMma
{
    static constexpr int kMI = kWarpM / 32, kNI = kWarpN / 32;
    struct Acc
    {
        MfmaAcc v[kMI][kNI];
    };

    __device__ static void Zero(Acc& acc)
    {
#pragma unroll
        for(int i = 0; i < kMI; ++i)
#pragma unroll
            for(int j = 0; j < kNI; ++j)
#pragma unroll
                for(int e = 0; e < 16; ++e)
                    acc.v[i][j][e] = 0.0f;
    }

    /// acc += A[0:kM][0:16] * B[0:kN][0:16]^T. A kept as [m][k] (TA false: sa at the warp's first
    /// row, at k0) or [k][m] (TA true: sa at row k0, the warp's first m), rows lda elements
    /// apart; B likewise as [n][k] or [k][n] (TB), ldb.
    template <bool TA, bool TB>
    __device__ static void StepAB(Acc& acc, const uint16_t* sa, int lda, const uint16_t* sb, int ldb, int lane)
    {
#if defined(MIOPEN_CY_MMA_AMD)
        const int r = lane % 32, kq = 4 * (lane / 32);
#pragma unroll
        for(int ks = 0; ks < kStepK; ks += 8)
        {
            uint2 a[kMI], b[kNI];
#pragma unroll
            for(int i = 0; i < kMI; ++i)
                a[i] = TA ? Column4(sa + (ks + kq) * lda + 32 * i + r, lda)
                          : *reinterpret_cast<const uint2*>(sa + (32 * i + r) * lda + ks + kq);
#pragma unroll
            for(int j = 0; j < kNI; ++j)
                b[j] = TB ? Column4(sb + (ks + kq) * ldb + 32 * j + r, ldb)
                          : *reinterpret_cast<const uint2*>(sb + (32 * j + r) * ldb + ks + kq);
#pragma unroll
            for(int i = 0; i < kMI; ++i)
#pragma unroll
                for(int j = 0; j < kNI; ++j)
                    acc.v[i][j] = Mfma(a[i], b[j], acc.v[i][j]);
        }
#else
        (void)acc; (void)sa; (void)lda; (void)sb; (void)ldb; (void)lane;
        __builtin_trap();
#endif
    }
    /// acc += A[0:kM][0:16] * B[0:kN][0:16]^T; sa, sb point at the warp's first row, at k0.
    __device__ static void Step(Acc& acc, const uint16_t* sa, const uint16_t* sb, int ld, int lane)
    {
        StepAB<false, false>(acc, sa, ld, sb, ld, lane);
    }
    /// Step on transposed tiles ([k][m], [k][n]).
    __device__ static void StepT(Acc& acc, const uint16_t* sa, const uint16_t* sb, int ld, int lane)
    {
        StepAB<true, true>(acc, sa, ld, sb, ld, lane);
    }

    /// f(row, col, value) for every accumulated value of the lane (warp-tile coordinates).
    template <class F>
    __device__ static void Store(const Acc& acc, int lane, F f)
    {
        const int col = lane % 32, rq = 4 * (lane / 32);
#pragma unroll
        for(int i = 0; i < kMI; ++i)
#pragma unroll
            for(int j = 0; j < kNI; ++j)
#pragma unroll
                for(int e = 0; e < 16; ++e)
                    f(32 * i + 8 * (e / 4) + rq + e % 4, 32 * j + col, acc.v[i][j][e]);
    }

private:
#if defined(MIOPEN_CY_MMA_AMD)
    /// p[0], p[ld], p[2 ld], p[3 ld] packed as Step's four k values.
    __device__ static uint2 Column4(const uint16_t* p, int ld)
    {
        return make_uint2(uint32_t{p[0]} | (uint32_t{p[ld]} << 16), uint32_t{p[2 * ld]} | (uint32_t{p[3 * ld]} << 16));
    }
    /// One 32x32x8 product of 4 k values a lane (a, b: four 16-bit values each).
    __device__ static MfmaAcc Mfma(uint2 a, uint2 b, MfmaAcc c)
    {
        if constexpr(std::is_same_v<T, Half>)
        {
            MfmaHalf4 av, bv;
            __builtin_memcpy(&av, &a, 8);
            __builtin_memcpy(&bv, &b, 8);
            return __builtin_amdgcn_mfma_f32_32x32x8f16(av, bv, c, 0, 0, 0);
        }
        else
        {
#if defined(__gfx90a__)
            MfmaShort4 av, bv;
            __builtin_memcpy(&av, &a, 8);
            __builtin_memcpy(&bv, &b, 8);
            return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(av, bv, c, 0, 0, 0);
#else
            // gfx908: 32x32x4bf16 takes 2 k values a lane (k = 2 * (l / 32) + 0..1). The lane's
            // four values k = 4 * (l / 32) + 0..3 are split into two products whose k sets
            // together cover the 8: the first takes each lane's first pair, the second its
            // second pair (a permutation of the reduction, the same for A and B).
            MfmaShort2 a0, a1, b0, b1;
            __builtin_memcpy(&a0, &a.x, 4);
            __builtin_memcpy(&a1, &a.y, 4);
            __builtin_memcpy(&b0, &b.x, 4);
            __builtin_memcpy(&b1, &b.y, 4);
            c = __builtin_amdgcn_mfma_f32_32x32x4bf16(a0, b0, c, 0, 0, 0);
            return __builtin_amdgcn_mfma_f32_32x32x4bf16(a1, b1, c, 0, 0, 0);
#endif
        }
    }
#endif
};

#else
// ---- NVIDIA: mma.sync m16n8k16, warp tile 4 x 4 of them ------------------------------------------
// Fragments (g = lane / 4, t = lane % 4): A a0 (g, 2t..2t+1), a1 (g+8, 2t..), a2 (g, 2t+8..),
// a3 (g+8, 2t+8..); B b0 (k 2t..2t+1, n g), b1 (k 2t+8.., n g); C c0,c1 (g, 2t..2t+1), c2,c3
// (g+8, 2t..2t+1). ldmatrix.x4 loads four 8x8 matrices, lanes 8i..8i+7 giving the row
// addresses of matrix i; lane l receives row l / 4, columns 2 (l % 4) + 0..1 of each.
template <class T>
struct WarpMma
{
    static constexpr int kMI = kWarpM / 16, kNI = kWarpN / 8;
    struct Acc
    {
        float v[kMI][kNI][4];
    };

    __device__ static void Zero(Acc& acc)
    {
#pragma unroll
        for(int i = 0; i < kMI; ++i)
#pragma unroll
            for(int j = 0; j < kNI; ++j)
#pragma unroll
                for(int e = 0; e < 4; ++e)
                    acc.v[i][j][e] = 0.0f;
    }

    /// acc += A[0:kM][0:16] * B[0:kN][0:16]^T. A kept as [m][k] (TA false: sa at the warp's first
    /// row, at k0) or [k][m] (TA true: sa at row k0, the warp's first m), rows lda elements
    /// apart; B likewise as [n][k] or [k][n] (TB), ldb. Transposed tiles load by ldmatrix.trans:
    /// lane l receives stored rows 2 (l % 4) + 0..1, column l / 4 of each 8x8 matrix, the very
    /// fragments the plain loads give from untransposed tiles; lanes 8i..8i+7 address matrix i's
    /// 8 stored k rows.
    template <bool TA, bool TB>
    __device__ static void StepAB(Acc& acc, const uint16_t* sa, int lda, const uint16_t* sb, int ldb, int lane)
    {
#if defined(MIOPEN_CY_MMA_NV)
        uint32_t a[kMI][4], b[kNI][2];
        const int mi = lane >> 3, r = lane & 7;
        // A: matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15).
#pragma unroll
        for(int i = 0; i < kMI; ++i)
        {
            if constexpr(TA)
                LdMatrix4T(a[i], sa + (r + 8 * (mi >> 1)) * lda + 16 * i + 8 * (mi & 1));
            else
                LdMatrix4(a[i], sa + (16 * i + (lane & 15)) * lda + (lane >> 4) * 8);
        }
        // B: matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15): b0, b1
        // of the first n8 tile, then of the second.
#pragma unroll
        for(int j = 0; j < kNI; j += 2)
        {
            uint32_t q[4];
            if constexpr(TB)
                LdMatrix4T(q, sb + (r + 8 * (mi & 1)) * ldb + 8 * j + 8 * (mi >> 1));
            else
                LdMatrix4(q, sb + (8 * j + (lane & 7) + ((lane >> 4) << 3)) * ldb + ((lane >> 3) & 1) * 8);
            b[j][0]     = q[0];
            b[j][1]     = q[1];
            b[j + 1][0] = q[2];
            b[j + 1][1] = q[3];
        }
#pragma unroll
        for(int i = 0; i < kMI; ++i)
#pragma unroll
            for(int j = 0; j < kNI; ++j)
                Mma(acc.v[i][j], a[i], b[j]);
#else
        (void)acc; (void)sa; (void)lda; (void)sb; (void)ldb; (void)lane;
        __trap();
#endif
    }
    /// acc += A[0:kM][0:16] * B[0:kN][0:16]^T; sa, sb point at the warp's first row, at k0.
    __device__ static void Step(Acc& acc, const uint16_t* sa, const uint16_t* sb, int ld, int lane)
    {
        StepAB<false, false>(acc, sa, ld, sb, ld, lane);
    }
    /// Step on transposed tiles ([k][m], [k][n]).
    __device__ static void StepT(Acc& acc, const uint16_t* sa, const uint16_t* sb, int ld, int lane)
    {
        StepAB<true, true>(acc, sa, ld, sb, ld, lane);
    }

    /// f(row, col, value) for every accumulated value of the lane (warp-tile coordinates).
    template <class F>
    __device__ static void Store(const Acc& acc, int lane, F f)
    {
        const int g = lane >> 2, t = lane & 3;
#pragma unroll
        for(int i = 0; i < kMI; ++i)
#pragma unroll
            for(int j = 0; j < kNI; ++j)
            {
                f(16 * i + g, 8 * j + 2 * t, acc.v[i][j][0]);
                f(16 * i + g, 8 * j + 2 * t + 1, acc.v[i][j][1]);
                f(16 * i + g + 8, 8 * j + 2 * t, acc.v[i][j][2]);
                f(16 * i + g + 8, 8 * j + 2 * t + 1, acc.v[i][j][3]);
            }
    }

private:
#if defined(MIOPEN_CY_MMA_NV)
    __device__ static void LdMatrix4(uint32_t (&r)[4], const uint16_t* p)
    {
        const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(p));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    }
    __device__ static void LdMatrix4T(uint32_t (&r)[4], const uint16_t* p)
    {
        const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(p));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    }
    __device__ static void Mma(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
    {
        if constexpr(std::is_same_v<T, Half>)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                         : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        else
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                         : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
#endif
};
#endif

/// A thread's kN 16-byte chunk copies of one stage (see the header comment). `dst` in shared
/// memory and `src` 16-byte aligned; `src` is not read when !valid (the chunk is zeros), so it
/// may then point anywhere.
template <int kN>
struct ChunkCopy
{
#if defined(MIOPEN_CY_MMA_NV)
    __device__ void Start(int, uint16_t* dst, const uint16_t* src, bool valid)
    {
        const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 16 : 0)
                     : "memory");
    }
    __device__ static void Commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
    template <int kPending>
    __device__ static void Wait()
    {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
    }
    __device__ void Land() {}
#else
    uint4 v[kN];
    uint16_t* d[kN];
    __device__ void Start(int i, uint16_t* dst, const uint16_t* src, bool valid)
    {
        v[i] = valid ? *reinterpret_cast<const uint4*>(src) : make_uint4(0, 0, 0, 0);
        d[i] = dst;
    }
    __device__ static void Commit() {}
    template <int kPending>
    __device__ static void Wait()
    {
    }
    __device__ void Land()
    {
#pragma unroll
        for(int i = 0; i < kN; ++i)
            *reinterpret_cast<uint4*>(d[i]) = v[i];
    }
#endif
};

} // namespace miopen::gpu::mma
