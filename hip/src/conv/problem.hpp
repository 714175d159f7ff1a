// ConvProblem: one convolution to solve, immutable, in canonical (non-transposed) terms:
// x (N, C, spatial...) and y (N, K, out spatial...) are the convolution's input and output,
// w (K, C/groups, filter...) its weights, whatever the user's direction and mode. A transposed
// convolution is reduced to its canonical problem by MakeConvProblem (see there); solvers only
// ever see canonical problems.
#pragma once

#include "conv/conv_descriptor.hpp"
#include "core/tensor.hpp"

#include <array>
#include <string>

namespace miopen {

enum class ConvDirection
{
    Forward         = 0,   // y = conv(x, w)
    BackwardData    = 1,   // dx = conv_bwd_data(dy, w): written into x
    BackwardWeights = 2,   // dw = conv_bwd_weights(dy, x): written into w
};

/// What the user called, before the transpose reduction.
enum class UserDirection
{
    Forward,
    BackwardData,
    BackwardWeights,
};

/// The memory order shared by x, w and y (MakeConvProblem refuses two packed orders mixed).
enum class ConvLayout
{
    ChannelsFirst,   // all packed N,C,[D,]H,W (w: K,C,[Z,]Y,X): MIOpen's NCHW / NCDHW
    ChannelsLast,    // all packed N,[D,]H,W,C (w: K,[Z,]Y,X,C): MIOpen's NHWC / NDHWC
    Strided,         // some tensor packed in neither order: the strided solvers only
};

class ConvProblem
{
public:
    ConvDirection direction;
    TensorDescriptor x, w, y;     // canonical roles
    miopenDataType_t type = miopenFloat;   // of x, w and y alike (accumulation is fp32)
    ConvLayout layout = ConvLayout::ChannelsFirst;
    int dims = 2;                 // spatial dims
    int groups = 1;
    std::array<int, 3> pads{}, strides{}, dilations{};
    size_t n = 0, c = 0, k = 0;   // batch, input channels, output channels
    std::array<size_t, 3> in{}, filter{}, out{};   // spatial lengths (1 beyond dims)
    bool deterministic = false;

    bool IsForward() const { return direction == ConvDirection::Forward; }
    bool IsBackwardData() const { return direction == ConvDirection::BackwardData; }
    bool IsBackwardWeights() const { return direction == ConvDirection::BackwardWeights; }
    /// All three tensors packed in N, C, spatial order (the layout of the fast solvers).
    bool IsPackedNCHW() const { return layout == ConvLayout::ChannelsFirst; }
    /// All three tensors packed channels-last: N, spatial, C (w: K, filter spatial, C/groups).
    bool IsPackedNHWC() const { return layout == ConvLayout::ChannelsLast; }
    bool Is1x1() const;                          // every filter length 1
    bool IsUnitStrideNoPad() const;              // strides 1, pads 0, dilations 1
    size_t InSpatial() const { return in[0] * in[1] * in[2]; }
    size_t OutSpatial() const { return out[0] * out[1] * out[2]; }
    size_t FilterSpatial() const { return filter[0] * filter[1] * filter[2]; }
    /// Multiply-adds of the convolution (the same in every direction).
    double Macs() const;

    /// The stable text key (MIOpen's network config vocabulary), used by the find-db and caches:
    /// C-H-W-RxS-K-Ho-Wo-N-PadhxPadw-StridehxStridew-DilhxDilw-G-LAYOUT-TYPE-DIR, where LAYOUT
    /// is NCHW / NCDHW, NHWC-NHWC-NHWC / NDHWC-NDHWC-NDHWC (MIOpen writes the three tensors'
    /// layouts when they are not the default) or STRIDED, and TYPE is FP32, FP16 or BF16.
    std::string Key() const;
};

/// Builds the canonical problem of a user call and validates every descriptor against the
/// convolution (ranks, channels, groups, output lengths, data types): BadParm naming the
/// parameter. For miopenTranspose the reduction is:
///   user Forward(x -> y)          = canonical BackwardData(dy := x, dx := y)
///   user BackwardData(dy -> dx)   = canonical Forward(x := dy, y := dx)
///   user BackwardWeights(dy, x)   = canonical BackwardWeights(dy := x, x := dy)
/// xLike/yLike are the user's x-side and y-side descriptors, with their parameter names.
/// Layout: all three packed channels-first, all packed channels-last, or (any tensor packed in
/// neither order) strided; a channels-first tensor beside a channels-last one is BadParm naming
/// both.
ConvProblem MakeConvProblem(UserDirection direction,
                            const ConvolutionDescriptor& conv,
                            const TensorDescriptor& xLike, const char* x_name,
                            const TensorDescriptor& w, const char* w_name,
                            const TensorDescriptor& yLike, const char* y_name);

/// NotImplemented naming `name` unless its type is one convolution computes: miopenFloat,
/// miopenHalf or miopenBFloat16 (fp32 accumulation in every type).
void CheckConvType(const TensorDescriptor& d, const char* name);

/// The key's name of a data type: "FP32", "FP16", "BF16" (MIOpen's GetDataTypeName).
const char* ConvTypeKeyName(miopenDataType_t type);

} // namespace miopen
