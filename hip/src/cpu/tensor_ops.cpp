// CPU kernels of the whole-tensor ops. All go through ForEachRow (cpu/elementwise.hpp); each
// inner loop has a unit-stride branch that the compiler vectorises.
#include "cpu/elementwise.hpp"
#include "tensor/tensor_args.hpp"

#include <algorithm>

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

template <miopenTensorOp_t Op>
void OpTensorBeta(float alpha1, const TensorDescriptor& aDesc, const float* A, float alpha2,
                  const size_t* bStrides, const float* B, float beta,
                  const TensorDescriptor& cDesc, float* C)
{
    if(beta == 0.0f)
        OpTensorRows<Op, false>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
    else
        OpTensorRows<Op, true>(alpha1, aDesc, A, alpha2, bStrides, B, beta, cDesc, C);
}

} // namespace

void OpTensor(miopenTensorOp_t op, float alpha1, const TensorDescriptor& aDesc, const float* A,
              float alpha2, const size_t* bStrides, const float* B, float beta,
              const TensorDescriptor& cDesc, float* C)
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

void Axpby(float alpha, const TensorDescriptor& xDesc, const float* x, float beta,
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

void Fill(const TensorDescriptor& yDesc, float* y, float value)
{
    const auto loop = MakeLoop<1>(yDesc.NumDims(), yDesc.Lens().data(), {StridesOf(yDesc)});
    ForEachRow(loop, [&](const auto& off, size_t n, const auto& s) {
        float* yr = y + off[0];
        if(s[0] == 1)
            std::fill(yr, yr + n, value);
        else
            for(size_t i = 0; i < n; ++i)
                yr[i * s[0]] = value;
    });
}

} // namespace miopen::cpu
