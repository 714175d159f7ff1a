// MIOpen's integer arithmetic of the tensor calls on miopenInt8 and miopenInt32 storage, shared by
// the CPU kernels (cpu/tensor_ops.cpp) and the GPU kernels (kernels/tensor/tensor_op.hip). MIOpen
// runs these calls in the tensor's own integer type (its kernels' MIOPEN_TYPE is char or int):
// every product and sum wraps modulo 2^8 or 2^32 (two's complement), each scaled operand is
// stored in the type before min/max compare it, and nothing saturates or rounds. The scaling
// factors are integers (the front door refuses others); computed here in 64-bit unsigned
// arithmetic, whose low bits are the wrapped result, so no signed overflow is ever evaluated.
#pragma once

#include <miopen/miopen.h>

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MIOPEN_CY_INT_HD __host__ __device__
#else
#define MIOPEN_CY_INT_HD
#endif

namespace miopen {

/// v modulo 2^(8 sizeof(T)) as T (two's complement).
template <class T>
MIOPEN_CY_INT_HD inline T WrapTo(uint64_t v)
{
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(v));
}

template <class T>
MIOPEN_CY_INT_HD inline uint64_t Widen(T v)
{
    return static_cast<uint64_t>(static_cast<int64_t>(v));
}

/// alpha * x stored in T.
template <class T>
MIOPEN_CY_INT_HD inline T ScaleInt(int64_t alpha, T x)
{
    return WrapTo<T>(static_cast<uint64_t>(alpha) * Widen(x));
}

/// op(a, b) stored in T; op a miopenTensorOp_t value.
template <class T>
MIOPEN_CY_INT_HD inline T OpInt(int op, T a, T b)
{
    if(op == miopenTensorOpAdd)
        return WrapTo<T>(Widen(a) + Widen(b));
    if(op == miopenTensorOpMul)
        return WrapTo<T>(Widen(a) * Widen(b));
    if(op == miopenTensorOpMin)
        return b < a ? b : a;
    return a < b ? b : a;
}

/// r + beta * c stored in T (the blend; the caller skips it when beta == 0, so c is not read).
template <class T>
MIOPEN_CY_INT_HD inline T BlendInt(T r, int64_t beta, T c)
{
    return WrapTo<T>(Widen(r) + static_cast<uint64_t>(beta) * Widen(c));
}

} // namespace miopen
