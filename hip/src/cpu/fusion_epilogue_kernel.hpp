// The epilogue pass's 16-bit rows in vector registers (cpu/fusion_epilogue.cpp): y = round(f(x * a
// + zc * z + b)) with f one of the piecewise-linear activations (PassThru, ReLU, clipped ReLU,
// leaky ReLU, Abs), each vector converted, transformed and rounded without leaving its register
// (a pass through fp32 stack buffers stores every element three times, which made the fp16 pass
// 3x slower than a copy of the same bytes). Written once over a few macros and included twice by
// fusion_epilogue.cpp, inside `#pragma GCC target` regions (AVX-512F, AVX2 + F16C + FMA), with
// EPI_NS, EPI_W (floats a vector), EPI_VEC, EPI_SET1, EPI_LOADF, EPI_FMA, EPI_MUL, EPI_LOAD16H /
// EPI_STORE16H (fp16), EPI_LOAD16B / EPI_STORE16B (bf16), EPI_SELECT_LT0 / EPI_SELECT_GT0 /
// EPI_SELECT_GT (blend by a comparison; NaN compares false) and EPI_ABS defined; it #undefs them
// at its end. The scalar
// tails use the activation op's functors (cpu/activation_functors.hpp), which give the same values.
// It includes nothing: everything it uses is included by fusion_epilogue.cpp before.

namespace miopen::cpu::EPI_NS {

enum Piecewise
{
    kPassThru,
    kRelu,
    kClippedRelu,
    kLeakyRelu,
    kAbs,
};

template <int M>
inline EPI_VEC ActV(EPI_VEC v, EPI_VEC alpha)
{
    const EPI_VEC zero = EPI_SET1(0.0f);
    if constexpr(M == kRelu)
        return EPI_SELECT_LT0(v, zero); // x < 0 ? 0 : x
    else if constexpr(M == kClippedRelu)
    {
        const EPI_VEC m = EPI_SELECT_LT0(v, zero);
        return EPI_SELECT_GT(m, alpha, alpha); // m > a ? a : m
    }
    else if constexpr(M == kLeakyRelu)
        return EPI_SELECT_GT0(v, EPI_MUL(alpha, v)); // x > 0 ? x : a * x
    else if constexpr(M == kAbs)
        return EPI_ABS(v);
    else
        return v;
}

template <int M>
inline float ActS(float v, float alpha)
{
    if constexpr(M == kRelu)
        return act::Relu{}(v);
    else if constexpr(M == kClippedRelu)
        return act::ClippedRelu{alpha}(v);
    else if constexpr(M == kLeakyRelu)
        return act::LeakyRelu{alpha}(v);
    else if constexpr(M == kAbs)
        return act::Abs{}(v);
    else
        return v;
}

template <class T>
inline EPI_VEC Load16(const T* p)
{
    if constexpr(std::is_same_v<T, Half>)
        return EPI_LOAD16H(p);
    else
        return EPI_LOAD16B(p);
}

template <class T>
inline void Store16(T* p, EPI_VEC v)
{
    if constexpr(std::is_same_v<T, Half>)
        EPI_STORE16H(p, v);
    else
        EPI_STORE16B(p, v);
}

/// n elements: one channel's run (period 0: a, b, zc scalars at [0]) or rows of `period` channels
/// (a, b, zc per channel).
template <class T, int M, bool Z>
void Rows(const T* x, const T* z, T* y, size_t n, size_t period, const float* a, const float* b,
          const float* zc, float alpha)
{
    const EPI_VEC va = EPI_SET1(alpha);
    if(period == 0)
    {
        const EPI_VEC ac = EPI_SET1(a[0]), bc = EPI_SET1(b[0]), zcc = EPI_SET1(zc[0]);
        size_t i = 0;
        for(; i + EPI_W <= n; i += EPI_W)
        {
            EPI_VEC v = EPI_FMA(Load16(x + i), ac, bc);
            if constexpr(Z)
                v = EPI_FMA(Load16(z + i), zcc, v);
            Store16(y + i, ActV<M>(v, va));
        }
        for(; i < n; ++i)
        {
            float v = ToFloat(x[i]) * a[0] + b[0];
            if constexpr(Z)
                v += zc[0] * ToFloat(z[i]);
            y[i] = FloatTo<T>(ActS<M>(v, alpha));
        }
        return;
    }
    for(size_t r = 0; r < n; r += period)
    {
        size_t c = 0;
        for(; c + EPI_W <= period; c += EPI_W)
        {
            EPI_VEC v = EPI_FMA(Load16(x + r + c), EPI_LOADF(a + c), EPI_LOADF(b + c));
            if constexpr(Z)
                v = EPI_FMA(Load16(z + r + c), EPI_LOADF(zc + c), v);
            Store16(y + r + c, ActV<M>(v, va));
        }
        for(; c < period; ++c)
        {
            float v = ToFloat(x[r + c]) * a[c] + b[c];
            if constexpr(Z)
                v += zc[c] * ToFloat(z[r + c]);
            y[r + c] = FloatTo<T>(ActS<M>(v, alpha));
        }
    }
}

/// Rows with the activation's mode and the residual chosen; false for a mode that is not
/// piecewise linear (those take the fp32 buffers' path).
template <class T>
bool RowsFor(miopenActivationMode_t mode, bool has_z, const T* x, const T* z, T* y, size_t n,
             size_t period, const float* a, const float* b, const float* zc, float alpha)
{
    auto run = [&](auto m) {
        constexpr int M = decltype(m)::value;
        if(has_z)
            Rows<T, M, true>(x, z, y, n, period, a, b, zc, alpha);
        else
            Rows<T, M, false>(x, z, y, n, period, a, b, zc, alpha);
        return true;
    };
    switch(mode)
    {
    case miopenActivationPASTHRU: return run(std::integral_constant<int, kPassThru>{});
    case miopenActivationRELU: return run(std::integral_constant<int, kRelu>{});
    case miopenActivationCLIPPEDRELU: return run(std::integral_constant<int, kClippedRelu>{});
    case miopenActivationLEAKYRELU: return run(std::integral_constant<int, kLeakyRelu>{});
    case miopenActivationABS: return run(std::integral_constant<int, kAbs>{});
    default: return false;
    }
}

} // namespace miopen::cpu::EPI_NS

// the includer's macros end with this inclusion
#undef EPI_NS
#undef EPI_W
#undef EPI_VEC
#undef EPI_SET1
#undef EPI_LOADF
#undef EPI_FMA
#undef EPI_MUL
#undef EPI_LOAD16H
#undef EPI_STORE16H
#undef EPI_LOAD16B
#undef EPI_STORE16B
#undef EPI_SELECT_LT0
#undef EPI_SELECT_GT0
#undef EPI_SELECT_GT
#undef EPI_ABS
