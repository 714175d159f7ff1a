// CPU kernels of the whole-tensor ops. fp32 goes through ForEachRow (cpu/elementwise.hpp) with a
// unit-stride branch in each inner loop that the compiler vectorises; fp16 and bf16 through
// MapTyped (blocks converted to fp32, the same arithmetic, one rounding on store). Fill copies
// the value's bits, so it serves every storage type. int8 and int32 arithmetic (OpTensorInt,
// AxpbyInt) is MIOpen's wrapping integer arithmetic (tensor/int_arith.hpp), element by element.
#include "cpu/elementwise.hpp"
#include "tensor/int_arith.hpp"
#include "tensor/tensor_args.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace miopen::cpu {
namespace {

template <miopenTensorOp_t Op>
inline float Apply(float a, float b)
{
    if constexpr(Op == miopenTensorOpAdd)
        return a + b;
    else if constexpr(Op == miopenTensorOpMul)
        return a * b;
    else if constexpr(Op == miopenTensorOpMin)
        return std::min(a, b);
    else
        return std::max(a, b);
}

template <miopenTensorOp_t Op, bool ReadC>
void OpTensorRows(float alpha1, const TensorDescriptor& aDesc, const float* A, float alpha2,
                  const size_t* bStrides, const float* B, float beta,
                  const TensorDescriptor& cDesc, float* C)
{
    const auto loop = MakeLoop<3>(cDesc.NumDims(), cDesc.Lens().data(),
                                  {StridesOf(aDesc), bStrides, StridesOf(cDesc)});
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        const float* a = A + off[0];
        const float* b = B + off[1];
        float* c       = C + off[2];
        auto one       = [&](float av, float bv, float& cv) {
            const float v = Apply<Op>(alpha1 * av, alpha2 * bv);
            cv            = ReadC ? v + beta * cv : v;
        };
        if(s[0] == 1 && s[1] == 1 && s[2] == 1)
        {
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                one(a[i], b[i], c[i]);
        }
        else if(s[0] == 1 && s[1] == 0 && s[2] == 1)
        {
            const float bv = b[0];
#pragma omp simd
            for(size_t i = 0; i < n; ++i)
                one(a[i], bv, c[i]);
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
                one(a[i * s[0]], b[i * s[1]], c[i * s[2]]);
        }
    });
}

/// OpTensor on 16-bit storage: the same expression per element as OpTensorRows.
template <miopenTensorOp_t Op, class T>
void OpTensorTyped(float alpha1, const TensorDescriptor& aDesc, const T* A, float alpha2,
                   const size_t* bStrides, const T* B, float beta, const TensorDescriptor& cDesc,
                   T* C)
{
    MapTyped<T, 2>(cDesc, {StridesOf(aDesc), bStrides, StridesOf(cDesc)}, {A, B}, C, beta,
                   [alpha1, alpha2](const float* const* v, float* r, size_t m, size_t) {
                       const float a1 = alpha1; // local copies: r must not alias them
                       const float a2 = alpha2;
                       const float* a = v[0];
                       const float* b = v[1];
#pragma omp simd
                       for(size_t i = 0; i < m; ++i)
                           r[i] = Apply<Op>(a1 * a[i], a2 * b[i]);
                   });
}

template <miopenTensorOp_t Op, class T>
void OpTensorBeta(float alpha1, const TensorDescriptor& aDesc, const T* A, float alpha2,
                  const size_t* bStrides, const T* B, float beta,
                  const TensorDescriptor& cDesc, T* C)
{
    if constexpr(!std::is_same_v<T, float>)
        return OpTensorTyped<Op>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    else if(beta == 0.0f)
        OpTensorRows<Op, false>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    else
        OpTensorRows<Op, true>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
}

void AxpbyRows(float alpha, const TensorDescriptor& xDesc, const float* x, float beta,
               const TensorDescriptor& yDesc, float* y)
{
    const auto loop = MakeLoop<2>(yDesc.NumDims(), yDesc.Lens().data(),
                                  {StridesOf(xDesc), StridesOf(yDesc)});
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        const float* xr = x + off[0];
        float* yr       = y + off[1];
        if(s[0] == 1 && s[1] == 1)
        {
            if(beta == 0.0f)
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                    yr[i] = alpha * xr[i];
            }
            else
            {
#pragma omp simd
                for(size_t i = 0; i < n; ++i)
                    yr[i] = alpha * xr[i] + beta * yr[i];
            }
        }
        else
        {
            for(size_t i = 0; i < n; ++i)
                Blend(yr[i * s[1]], xr[i * s[0]], alpha, beta);
        }
    });
}

} // namespace

template <class T>
void OpTensor(miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc, const T* A,
              float alpha2, const size_t* bStrides, const T* B, float beta,
              const TensorDescriptor& cDesc, T* C)
{
    switch(op)
    {
    case miopenTensorOpAdd:
        return OpTensorBeta<miopenTensorOpAdd>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    case miopenTensorOpMul:
        return OpTensorBeta<miopenTensorOpMul>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    case miopenTensorOpMin:
        return OpTensorBeta<miopenTensorOpMin>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    case miopenTensorOpMax:
        return OpTensorBeta<miopenTensorOpMax>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    }
}

template <class T>
void Axpby(float alpha, const TensorDescriptor& xDesc, const T* x, float beta,
           const TensorDescriptor& yDesc, T* y)
{
    if constexpr(!std::is_same_v<T, float>)
    {
        MapTyped<T, 1>(yDesc, {StridesOf(xDesc), StridesOf(yDesc)}, {x}, y, beta,
                       [alpha](const float* const* v, float* r, size_t m, size_t) {
                           const float a   = alpha; // a local copy: r must not alias it
                           const float* xv = v[0];
#pragma omp simd
                           for(size_t i = 0; i < m; ++i)
                               r[i] = a * xv[i];
                       });
    }
    else
        AxpbyRows(alpha, xDesc, x, beta, yDesc, y);
}

template <class T>
void Fill(const TensorDescriptor& yDesc, T* y_in, T value_in)
{
    // As the unsigned integer of the element's size: the compiler vectorises a fill of those,
    // not of the 16-bit structs.
    using U = std::conditional_t<sizeof(T) == 1, uint8_t,
                                 std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>>;
    static_assert(sizeof(U) == sizeof(T), "Fill: 1, 2 or 4-byte elements");
    U value;
    std::memcpy(&value, &value_in, sizeof(U));
    U* y            = reinterpret_cast<U*>(y_in);
    const auto loop = MakeLoop<1>(yDesc.NumDims(), yDesc.Lens().data(), {StridesOf(yDesc)});
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        U* yr = y + off[0];
        if(s[0] == 1)
            std::fill(yr, yr + n, value);
        else
            for(size_t i = 0; i < n; ++i)
                yr[i * s[0]] = value;
    });
}

template <class T>
void OpTensorInt(miopenTensorOp_t op, int64_t alpha1, const TensorDescriptor& aDesc, const T* A,
                 int64_t alpha2, const size_t* bStrides, const T* B, int64_t beta,
                 const TensorDescriptor& cDesc, T* C)
{
    const auto loop = MakeLoop<3>(cDesc.NumDims(), cDesc.Lens().data(),
                                  {StridesOf(aDesc), bStrides, StridesOf(cDesc)});
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        const T* a = A + off[0];
        const T* b = B + off[1];
        T* c       = C + off[2];
        for(size_t i = 0; i < n; ++i)
        {
            const T r = OpInt<T>(op, ScaleInt(alpha1, a[i * s[0]]), ScaleInt(alpha2, b[i * s[1]]));
            T& out    = c[i * s[2]];
            out       = beta == 0 ? r : BlendInt(r, beta, out);
        }
    });
}

template <class T>
void AxpbyInt(int64_t alpha, const TensorDescriptor& xDesc, const T* x, int64_t beta,
              const TensorDescriptor& yDesc, T* y)
{
    const auto loop = MakeLoop<2>(yDesc.NumDims(), yDesc.Lens().data(),
                                  {StridesOf(xDesc), StridesOf(yDesc)});
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        const T* xr = x + off[0];
        T* yr       = y + off[1];
        for(size_t i = 0; i < n; ++i)
        {
            const T r = ScaleInt(alpha, xr[i * s[0]]);
            T& out    = yr[i * s[1]];
            out       = beta == 0 ? r : BlendInt(r, beta, out);
        }
    });
}

#define MIOPEN_CY_TENSOR_INT_OPS(T)                                                               \
    template void OpTensorInt<T>(miopenTensorOp_t, int64_t, const TensorDescriptor&, const T*,    \
                                 int64_t, const size_t*, const T*, int64_t,                       \
                                 const TensorDescriptor&, T*);                                    \
    template void AxpbyInt<T>(int64_t, const TensorDescriptor&, const T*, int64_t,                \
                              const TensorDescriptor&, T*);
MIOPEN_CY_TENSOR_INT_OPS(int8_t)
MIOPEN_CY_TENSOR_INT_OPS(int32_t)
#undef MIOPEN_CY_TENSOR_INT_OPS

#define MIOPEN_CY_TENSOR_OPS(T)                                                                  \
    template void OpTensor<T>(miopenTensorOp_t, float, const TensorDescriptor&, const T*, float, \
                              const size_t*, const T*, float, const TensorDescriptor&, T*);      \
    template void Axpby<T>(float, const TensorDescriptor&, const T*, float,                     \
                           const TensorDescriptor&, T*);
MIOPEN_CY_TENSOR_OPS(float)
MIOPEN_CY_TENSOR_OPS(Half)
MIOPEN_CY_TENSOR_OPS(BFloat16)
#undef MIOPEN_CY_TENSOR_OPS
template void Fill<float>(const TensorDescriptor&, float*, float);
template void Fill<Half>(const TensorDescriptor&, Half*, Half);
template void Fill<BFloat16>(const TensorDescriptor&, BFloat16*, BFloat16);
template void Fill<int8_t>(const TensorDescriptor&, int8_t*, int8_t);
template void Fill<int32_t>(const TensorDescriptor&, int32_t*, int32_t);

} // namespace miopen::cpu
