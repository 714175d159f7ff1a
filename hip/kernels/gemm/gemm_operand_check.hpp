// The operand checks that the GEMM launchers share (sgemm_launch.cpp, gemm_mma_launch.cpp): a
// product's A and B present and their leading dimensions long enough for op(A) m x k and op(B)
// k x n. G is SgemmArgs or GemmMmaArgs (the same field names); `type` names it in the message.
#pragma once

#include "core/errors.hpp"

#include <cstdint>

namespace miopen::gpu {

template <class G>
void CheckGemmOperands(const G& g, const char* type)
{
    if(g.a == nullptr)
        ThrowBadParm(type, ".a is null");
    if(g.b == nullptr)
        ThrowBadParm(type, ".b is null");
    const int64_t min_lda = g.trans_a ? g.m : g.k;
    if(g.lda < min_lda)
        ThrowBadParm(type, ".lda is ", g.lda, "; expected >= ", min_lda);
    const int64_t min_ldb = g.trans_b ? g.k : g.n;
    if(g.ldb < min_ldb)
        ThrowBadParm(type, ".ldb is ", g.ldb, "; expected >= ", min_ldb);
}

} // namespace miopen::gpu
