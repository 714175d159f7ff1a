// ConvolutionDescriptor: mode, pads, strides, dilations, groups, transpose output padding and the
// attributes of one convolution layer, as MIOpen has them. A new descriptor is a valid 2-d
// convolution with zero pads and unit strides and dilations (MIOpen's default).
#pragma once

#include "core/tensor.hpp"

#include <miopen/miopen.h>

#include <string>
#include <vector>

namespace miopen {

class ConvolutionDescriptor : public miopenConvolutionDescriptor
{
public:
    ConvolutionDescriptor();

    /// Validates and sets (pads >= 0, strides >= 1, dilations >= 1, 1 to 3 spatial dims); on
    /// error nothing changes.
    void Init(miopenConvolutionMode_t mode,
              const std::vector<int>& pads,
              const std::vector<int>& strides,
              const std::vector<int>& dilations);
    void SetGroupCount(int groups);
    void SetTransposeOutputPadding(const std::vector<int>& adj);
    void SetAttribute(int attr, int value);
    int GetAttribute(int attr) const;

    miopenConvolutionMode_t Mode() const { return mode_; }
    bool IsTranspose() const { return mode_ == miopenTranspose; }
    int SpatialDims() const { return static_cast<int>(pads_.size()); }
    const std::vector<int>& Pads() const { return pads_; }
    const std::vector<int>& Strides() const { return strides_; }
    const std::vector<int>& Dilations() const { return dilations_; }
    const std::vector<int>& TransposeOutputPadding() const { return adj_; }
    int GroupCount() const { return groups_; }
    /// The deterministic attribute, overridden (as in MIOpen) by MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC.
    bool Deterministic() const { return DeterministicValue() == 1; }

    /// Lengths of the forward output for input x and weights w (BadParm naming the mismatch).
    std::vector<size_t> ForwardOutputLens(const TensorDescriptor& x, const TensorDescriptor& w) const;
    std::string ToString() const;

private:
    int DeterministicValue() const;

    miopenConvolutionMode_t mode_ = miopenConvolution;
    std::vector<int> pads_, strides_, dilations_, adj_;
    int groups_ = 1;
    int deterministic_ = 0;
    int fp16_alt_impl_ = -1;
};

ConvolutionDescriptor& DerefConv(miopenConvolutionDescriptor_t desc, const char* name = "convDesc");

} // namespace miopen
