// PoolingDescriptor (the object behind miopenPoolingDescriptor_t) and the front door of
// miopenPoolingForward / miopenPoolingBackward: validation of descriptors, tensors and the index
// workspace, then the kernels of the handle's device (cpu/pooling_*.cpp, kernels/pooling/),
// which see one 3-d problem (2-d pooling is 3-d pooling with depth 1).
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "pooling/pooling_args.hpp"

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

void PoolingForward(Handle& handle, const PoolingDescriptor& pool, const void* alpha,
                    const TensorDescriptor& xDesc, const void* x, const void* beta,
                    const TensorDescriptor& yDesc, void* y, bool do_backward, void* workSpace,
                    size_t workSpaceSize);

void PoolingBackward(Handle& handle, const PoolingDescriptor& pool, const void* alpha,
                     const TensorDescriptor& yDesc, const void* y, const TensorDescriptor& dyDesc,
                     const void* dy, const TensorDescriptor& xDesc, const void* x, const void* beta,
                     const TensorDescriptor& dxDesc, void* dx, const void* workSpace);

} // namespace miopen
