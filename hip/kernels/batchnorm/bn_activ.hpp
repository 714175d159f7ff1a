// The fused activation of the batch-norm training kernels (the fusion plan's
// BnFwdTrgActivationFused and BnBwdTrgActivationFused): the kernels take the functor of the
// mode (kernels/activation/activation_functors.hpp, the one activation.hip applies) as a template
// argument, PassThru for the plain batch norm, so the plain kernels are unchanged.
//   forward:  y = act(v), v the normalised (and blended) value, where y is stored;
//   backward: dy' = act'(u) * dy in place of dy, u = (x - mean) * e + f (e = scale * inv_std,
//             f = bias, per group: BnCoef's e and f), in the gradient sums and in dx.
// 16-bit data take the fast forms (FastF / FastBack), as the unfused activation does.
// Device code: include from .hip files only.
#pragma once

#include "kernels/activation/activation_functors.hpp"

#include <type_traits>

namespace miopen::gpu {

template <class Op>
constexpr bool kBnActive = !std::is_same_v<Op, PassThru>;

template <class T, class Op>
__device__ inline float BnActF(const Op& op, float v)
{
    if constexpr(!kBnActive<Op>)
        return v;
    else if constexpr(sizeof(T) == 2)
        return FastF(op, v);
    else
        return op.F(v);
}

/// act'(u) * dy, u = (x - m) * e + f; dy itself for PassThru (x, e, f unused).
template <class T, class Op>
__device__ inline float BnActBack(const Op& op, float x, float m, float e, float f, float dy)
{
    if constexpr(!kBnActive<Op>)
        return dy;
    else if constexpr(sizeof(T) == 2)
        return FastBack(op, (x - m) * e + f, dy);
    else
        return op.Back((x - m) * e + f, dy);
}

} // namespace miopen::gpu
