// TensorDescriptor: data type, lengths and strides (in elements) of one tensor, as MIOpen has it.
// Lengths are in logical order (N, C, [D,] H, W for 4-d/5-d); strides may describe any layout.
#pragma once

#include <miopen/miopen.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace miopen {

constexpr int kMaxTensorDims = 8;

size_t DataTypeSize(miopenDataType_t type);
const char* DataTypeName(miopenDataType_t type);
/// BadParm naming `name` when `type` is not a miopenDataType_t value.
void CheckDataType(int type, const char* name);

class TensorDescriptor : public miopenTensorDescriptor
{
public:
    TensorDescriptor() = default;

    /// Validates and sets; on error the descriptor is left unchanged. Empty strides = packed.
    void Set(miopenDataType_t type,
             const std::vector<size_t>& lens,
             const std::vector<size_t>& strides,
             miopenTensorLayout_t layout = miopenTensorNCHW);

    bool IsSet() const { return !lens_.empty(); }
    miopenDataType_t Type() const { return type_; }
    int NumDims() const { return static_cast<int>(lens_.size()); }
    const std::vector<size_t>& Lens() const { return lens_; }
    const std::vector<size_t>& Strides() const { return strides_; }
    size_t ElementSize() const { return numel_; }     // number of elements
    size_t ElementSpace() const { return space_; }    // largest offset + 1
    size_t NumBytes() const { return space_ * DataTypeSize(type_); }
    bool IsPacked() const;                            // dense row-major (NCHW-like)
    std::string ToString() const;                     // "miopenFloat, lens=(..), strides=(..)"

    bool operator==(const TensorDescriptor& o) const
    {
        return type_ == o.type_ && lens_ == o.lens_ && strides_ == o.strides_;
    }
    bool SameLens(const TensorDescriptor& o) const { return lens_ == o.lens_; }

private:
    miopenDataType_t type_ = miopenFloat;
    std::vector<size_t> lens_;
    std::vector<size_t> strides_;
    size_t numel_ = 0;
    size_t space_ = 0;
};

/// The live, set descriptor behind a C pointer; BadParm naming the parameter otherwise.
const TensorDescriptor& DerefTensor(miopenTensorDescriptor_t desc, const char* name);

/// Packed strides for `lens` (row-major).
std::vector<size_t> PackedStrides(const std::vector<size_t>& lens);
/// Packed channels-last strides for `lens` given as (N, C, spatial...), at least 3 of them.
std::vector<size_t> ChannelsLastStrides(const std::vector<size_t>& lens);

// ---- checks shared by the op front doors -------------------------------------------------

/// BadParm unless a and b have the same lengths.
void CheckSameLens(const TensorDescriptor& a, const char* a_name,
                   const TensorDescriptor& b, const char* b_name);
/// BadParm unless a and b have the same data type.
void CheckSameType(const TensorDescriptor& a, const char* a_name,
                   const TensorDescriptor& b, const char* b_name);
/// NotImplemented unless the data type is one the CPU kernels implement (miopenFloat).
void CheckComputeType(const TensorDescriptor& d, const char* name);
/// BadParm unless the descriptor has between lo and hi dimensions.
void CheckNumDims(const TensorDescriptor& d, const char* name, int lo, int hi);
/// Reads a host scalar (alpha/beta); BadParm if null.
double ReadScalar(const void* p, miopenDataType_t type, const char* name);

} // namespace miopen
