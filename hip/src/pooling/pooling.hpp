// PoolingDescriptor (the object behind miopenPoolingDescriptor_t) and the front door of
// miopenPoolingForward / miopenPoolingBackward: validation of descriptors, tensors and the index
// workspace, then the CPU kernels (cpu/pooling.cpp), which see one 3-d problem (2-d pooling is
// 3-d pooling with depth 1).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace miopen {

class PoolingDescriptor : public miopenPoolingDescriptor
{
public:
    PoolingDescriptor() = default;

    /// Validates and sets (nbDims spatial dims, 2 or 3); on error the descriptor is unchanged.
    /// As in MIOpen, setting replaces the whole descriptor: the index type goes back to
    /// miopenIndexUint8 and the index mode to Mask (2-d) or Image (3-d). Errors name the 2-d
    /// call's parameters (windowHeight, pad_h, ...) when names2d, else the N-d call's arrays.
    void Set(int mode, int nbDims, const int* window, const int* pads, const int* strides,
             bool names2d);
    void SetIndexType(int type);
    void SetIndexMode(int index_mode);

    bool IsSet() const { return !window_.empty(); }
    miopenPoolingMode_t Mode() const { return mode_; }
    int NumSpatialDims() const { return static_cast<int>(window_.size()); }
    const std::vector<int>& Window() const { return window_; }
    const std::vector<int>& Pads() const { return pads_; }
    const std::vector<int>& Strides() const { return strides_; }
    miopenIndexType_t IndexType() const { return index_type_; }
    miopenPoolingWorkspaceIndexMode_t IndexMode() const { return index_mode_; }

    /// Output lengths for input `x` (named `x_name` in errors): N, C, then
    /// floor((in + 2 * pad - window) / stride) + 1 per spatial dim. BadParm when x has not
    /// 2 + NumSpatialDims() dims or a window does not fit in the padded input.
    std::vector<size_t> OutputLens(const TensorDescriptor& x, const char* x_name) const;
    /// Bytes of the index workspace for output `y`: numel(y) * sizeof(index type) in max mode,
    /// 0 otherwise (MIOpen's miopenPoolingGetWorkSpaceSizeV2).
    size_t WorkSpaceSize(const TensorDescriptor& y) const;
    /// BadParm naming the index type when it cannot hold every index the forward may write
    /// (its largest value is reserved, as in MIOpen).
    void CheckIndexRange(const TensorDescriptor& x) const;

    std::string ToString() const;

private:
    miopenPoolingMode_t mode_ = miopenPoolingMax;
    std::vector<int> window_;
    std::vector<int> pads_;
    std::vector<int> strides_;
    miopenIndexType_t index_type_                 = miopenIndexUint8;
    miopenPoolingWorkspaceIndexMode_t index_mode_ = miopenPoolingWorkspaceIndexMask;
};

/// The live descriptor behind a C pointer (set or not); BadParm naming the parameter otherwise.
PoolingDescriptor& DerefPoolingObject(miopenPoolingDescriptor_t desc, const char* name);
/// The live, set descriptor; BadParm naming the parameter otherwise.
const PoolingDescriptor& DerefPooling(miopenPoolingDescriptor_t desc, const char* name);

size_t IndexTypeSize(miopenIndexType_t type);

void PoolingForward(Handle& handle,
                    const PoolingDescriptor& pool,
                    const void* alpha,
                    const TensorDescriptor& xDesc,
                    const void* x,
                    const void* beta,
                    const TensorDescriptor& yDesc,
                    void* y,
                    bool do_backward,
                    void* workSpace,
                    size_t workSpaceSize);

void PoolingBackward(Handle& handle,
                     const PoolingDescriptor& pool,
                     const void* alpha,
                     const TensorDescriptor& yDesc,
                     const void* y,
                     const TensorDescriptor& dyDesc,
                     const void* dy,
                     const TensorDescriptor& xDesc,
                     const void* x,
                     const void* beta,
                     const TensorDescriptor& dxDesc,
                     void* dx,
                     const void* workSpace);

namespace cpu {

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

/// y = alpha * pool(x) + beta * y (y is not read when beta == 0; y null: only the indices).
void PoolForward(const PoolShape& s, float alpha, const float* x, const Strides5& xs, float beta,
                 float* y, const Strides5& ys, const PoolIndex& index);

/// dx = alpha * pool'(dy) + beta * dx, written by gather (one write per dx element). Max mode
/// reads the argmax from `index` (which must be given).
void PoolBackward(const PoolShape& s, float alpha, const float* dy, const Strides5& dys,
                  const PoolIndex& index, float beta, float* dx, const Strides5& dxs);

} // namespace cpu

namespace gpu {
/// The same on the handle's GPU (kernels/pooling/pooling.hip), queued on its stream.
void PoolForward(const Handle& h, const cpu::PoolShape& s, float alpha, const float* x,
                 const cpu::Strides5& xs, float beta, float* y, const cpu::Strides5& ys,
                 const cpu::PoolIndex& index);
/// Max mode with index.data null finds the argmax again from x.
void PoolBackward(Handle& h, const cpu::PoolShape& s, float alpha, const float* dy,
                  const cpu::Strides5& dys, const cpu::PoolIndex& index, const float* x,
                  const TensorDescriptor& xDesc, float beta, float* dx, const cpu::Strides5& dxs);
} // namespace gpu

} // namespace miopen
