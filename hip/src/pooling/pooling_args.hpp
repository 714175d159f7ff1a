// Pooling: one pooling problem in 3 spatial dims, its strides and index workspace, and the entry
// points of the CPU kernels (cpu/pooling_*.cpp) and of the GPU launchers (kernels/pooling/).
// Device-neutral: the front door, the CPU kernels and the GPU launchers include it. The entry
// points are templates on the storage type T (float, Half, BFloat16: core/storage.hpp), explicitly
// instantiated for the three beside their definitions.
#pragma once

#include "core/handle.hpp"
#include "core/storage.hpp"
#include "core/tensor.hpp"

#include <array>
#include <cstdint>

namespace miopen {

/// One pooling problem in 3 spatial dims (2-d pooling: in[0] = out[0] = window[0] = stride[0] = 1,
/// pad[0] = 0). Strides are in elements, in N, C, D, H, W order.
struct PoolShape
{
    miopenPoolingMode_t mode = miopenPoolingMax;
    int64_t n = 0, c = 0;
    std::array<int64_t, 3> in{}, out{};
    std::array<int64_t, 3> window{}, pad{}, stride{};
};

using Strides5 = std::array<int64_t, 5>;

/// The strides of a 4-d (N, C, H, W: D stride 0) or 5-d tensor in N, C, D, H, W order.
inline Strides5 Strides5Of(const TensorDescriptor& d)
{
    const auto& s = d.Strides();
    if(d.NumDims() == 4)
        return {static_cast<int64_t>(s[0]), static_cast<int64_t>(s[1]), 0,
                static_cast<int64_t>(s[2]), static_cast<int64_t>(s[3])};
    return {static_cast<int64_t>(s[0]), static_cast<int64_t>(s[1]), static_cast<int64_t>(s[2]),
            static_cast<int64_t>(s[3]), static_cast<int64_t>(s[4])};
}

/// The index workspace: one index per output element, packed in y's logical (N, C, D, H, W)
/// order. Mask mode stores the max's position inside the window ((kd * R + kh) * S + kw, counted
/// from the unclipped window start); image mode its position in the input image
/// ((d * H + h) * W + w).
struct PoolIndex
{
    void* data = nullptr;                    // null: no indices
    miopenIndexType_t type = miopenIndexUint8;
    bool image = false;
};

namespace cpu {
/// y = alpha * pool(x) + beta * y (y is not read when beta == 0; y null: only the indices).
/// Arithmetic in fp32, one rounding to T per output.
template <class T>
void PoolForward(const PoolShape& s, float alpha, const T* x, const Strides5& xs, float beta,
                 T* y, const Strides5& ys, const PoolIndex& index);

/// dx = alpha * pool'(dy) + beta * dx, written by gather (one write per dx element). Max mode
/// reads the argmax from `index` (which must be given).
template <class T>
void PoolBackward(const PoolShape& s, float alpha, const T* dy, const Strides5& dys,
                  const PoolIndex& index, float beta, T* dx, const Strides5& dxs);

} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/pooling/), queued on its stream.
template <class T>
void PoolForward(const Handle& h, const PoolShape& s, float alpha, const T* x,
                 const Strides5& xs, float beta, T* y, const Strides5& ys,
                 const PoolIndex& index);
/// Max mode with index.data null finds the argmax again from x.
template <class T>
void PoolBackward(Handle& h, const PoolShape& s, float alpha, const T* dy,
                  const Strides5& dys, const PoolIndex& index, const T* x,
                  const TensorDescriptor& xDesc, float beta, T* dx, const Strides5& dxs);
} // namespace gpu

} // namespace miopen
