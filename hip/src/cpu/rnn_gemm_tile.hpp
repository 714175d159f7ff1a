// One register tile of the RNN's step products (cpu/rnn_gemm.cpp): MR rows x two vectors of
// columns of C = A * B [+ C], B read in place, one fused multiply-add chain over k per element.
// Written once over a few macros and included by rnn_gemm.cpp inside each `#pragma GCC target`
// region (AVX-512F, AVX2 + FMA) with RG_NS, RG_VEC, RG_W (floats a vector), RG_ZERO, RG_LOAD,
// RG_BCAST (a float at a pointer to every lane), RG_FMA, RG_ADD and RG_STORE defined; it #undefs
// them at its end. It includes nothing: rnn_gemm.cpp includes <immintrin.h> before.

namespace miopen::cpu::RG_NS {
namespace {
/// MR rows x 2 RG_W columns at C (two vectors a row).
template <int MR>
void Tile(int k, const float* A, int lda, const float* B, int ldb, bool accumulate, float* C,
          int ldc)
{
    // Two one-dimensional arrays, every loop over them unrolled: GCC then keeps them in registers
    // (a [MR][2] array was also stored to the stack at every k, one store per multiply-add).
    RG_VEC acc0[MR], acc1[MR];
#pragma GCC unroll 8
    for(int i = 0; i < MR; ++i)
        acc0[i] = acc1[i] = RG_ZERO();
    for(int kk = 0; kk < k; ++kk)
    {
        const RG_VEC b0 = RG_LOAD(B + long(kk) * ldb);
        const RG_VEC b1 = RG_LOAD(B + long(kk) * ldb + RG_W);
#pragma GCC unroll 8
        for(int i = 0; i < MR; ++i)
        {
            const RG_VEC a = RG_BCAST(A + long(i) * lda + kk);
            acc0[i]        = RG_FMA(a, b0, acc0[i]);
            acc1[i]        = RG_FMA(a, b1, acc1[i]);
        }
    }
#pragma GCC unroll 8
    for(int i = 0; i < MR; ++i)
    {
        float* c = C + long(i) * ldc;
        RG_STORE(c, accumulate ? RG_ADD(RG_LOAD(c), acc0[i]) : acc0[i]);
        RG_STORE(c + RG_W, accumulate ? RG_ADD(RG_LOAD(c + RG_W), acc1[i]) : acc1[i]);
    }
}
} // namespace
} // namespace miopen::cpu::RG_NS

#undef RG_NS
#undef RG_VEC
#undef RG_W
#undef RG_ZERO
#undef RG_LOAD
#undef RG_BCAST
#undef RG_FMA
#undef RG_ADD
#undef RG_STORE
