// RNNDescriptor and SeqTensorDescriptor, and the front doors of the RNN calls: every check first
// (nothing is written on a bad call), then the backend of the handle's device. The weight layout
// and the reserve / workspace layouts are in rnn_args.hpp.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "rnn/rnn_args.hpp"

#include <miopen/miopen.h>

#include <string>
#include <vector>

namespace miopen {

class DropoutDescriptor;

class RNNDescriptor : public miopenRNNDescriptor
{
public:
    /// Validates and sets; on error the descriptor is left unchanged. dropout may be null.
    void Set(int hsize, int nlayers, miopenDropoutDescriptor_t dropout, int in_mode, int direction,
             int rnn_mode, int bias_mode, int algo, int data_type);

    bool IsSet() const { return set_; }
    int Hidden() const { return hsize_; }
    int Layers() const { return layers_; }
    miopenRNNMode_t Mode() const { return mode_; }
    miopenRNNInputMode_t InputMode() const { return in_mode_; }
    miopenRNNDirectionMode_t Direction() const { return dir_; }
    miopenRNNBiasMode_t BiasMode() const { return bias_mode_; }
    miopenRNNAlgo_t Algo() const { return algo_; }
    miopenDataType_t Type() const { return type_; }
    miopenDropoutDescriptor_t Dropout() const { return dropout_; }
    miopenRNNPaddingMode_t Padding() const { return padding_; }
    void SetPadding(miopenRNNPaddingMode_t p) { padding_ = p; }
    int Bi() const { return dir_ == miopenRNNbidirection ? 2 : 1; }
    int Gates() const { return mode_ == miopenLSTM ? 4 : mode_ == miopenGRU ? 3 : 1; }

    /// The stack's shape for inputs of `in` values per row (checks skip mode's in == hidden).
    RnnShape Shape(size_t in, const char* x_name) const;
    /// The dropout rate between layers (0 without a dropout descriptor).
    float DropoutRate() const;

private:
    bool set_                     = false;
    int hsize_                    = 0;
    int layers_                   = 0;
    miopenRNNMode_t mode_         = miopenRNNTANH;
    miopenRNNInputMode_t in_mode_ = miopenRNNlinear;
    miopenRNNDirectionMode_t dir_ = miopenRNNunidirection;
    miopenRNNBiasMode_t bias_mode_ = miopenRNNNoBias;
    miopenRNNAlgo_t algo_         = miopenRNNdefault;
    miopenDataType_t type_        = miopenFloat;
    miopenDropoutDescriptor_t dropout_ = nullptr;
    miopenRNNPaddingMode_t padding_ = miopenRNNIONotPadded;
};

class SeqTensorDescriptor : public miopenSeqTensorDescriptor
{
public:
    void Set(int type, int layout, int max_seq, int batch, int vec, const int* lens,
             const void* padding_marker);
    bool IsSet() const { return set_; }
    miopenDataType_t Type() const { return type_; }
    miopenRNNBaseLayout_t Layout() const { return layout_; }
    int MaxSeq() const { return max_seq_; }
    int Batch() const { return batch_; }
    int Vec() const { return vec_; }
    const std::vector<int>& Lens() const { return lens_; }
    bool HasMarker() const { return has_marker_; }
    const unsigned char* Marker() const { return marker_; }
    /// Bytes of data the descriptor describes.
    size_t NumBytes() const;

private:
    bool set_                      = false;
    miopenDataType_t type_         = miopenFloat;
    miopenRNNBaseLayout_t layout_  = miopenRNNDataSeqMajorNotPadded;
    int max_seq_ = 0, batch_ = 0, vec_ = 0;
    std::vector<int> lens_;
    bool has_marker_ = false;
    unsigned char marker_[8] = {};
};

RNNDescriptor& DerefRNN(miopenRNNDescriptor_t desc, const char* name);
SeqTensorDescriptor& DerefSeq(miopenSeqTensorDescriptor_t desc, const char* name);

// ---- sizes and parameters ------------------------------------------------------------------

/// The per-step descriptors of the packed API: sequenceLen >= 1 live 2-d descriptors of the
/// RNN's type, the same second length, non-increasing first lengths (the first one > 0).
std::vector<const TensorDescriptor*> StepDescs(const RNNDescriptor& r, int seqLen,
                                               const miopenTensorDescriptor_t* descs,
                                               const char* name);

size_t RnnWorkspaceSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc);
size_t RnnReserveSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc);
void RnnTempSpaceSizes(const RNNDescriptor& r, const SeqTensorDescriptor& x, int fwdMode,
                       size_t* ws, size_t* rs);
size_t RnnParamsSize(const RNNDescriptor& r, const TensorDescriptor& xDesc, int dtype);
void RnnParamsDescriptor(const RNNDescriptor& r, const TensorDescriptor& xDesc,
                         TensorDescriptor& wDesc, int dtype);
size_t RnnInputTensorSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc);
size_t RnnHiddenTensorSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc);

/// A weight matrix (bias false) or a bias (bias true) of layer index `layer` (l * bi + d) and
/// id: its descriptor and its element offset in the parameters. Throws on a bad layer / id.
size_t RnnLayerPiece(const RNNDescriptor& r, int layer, const TensorDescriptor& xDesc, int id,
                     bool bias, TensorDescriptor* desc);
/// Copies a piece out of (get) or into (set) the parameters w (wDesc: the params descriptor).
void RnnCopyPiece(Handle& handle, const RNNDescriptor& r, int layer, const TensorDescriptor& xDesc,
                  const TensorDescriptor& wDesc, void* w, int id, bool bias,
                  const TensorDescriptor* pieceDesc, void* piece, bool set);

// ---- the calls -------------------------------------------------------------------------------

/// The packed API (legacy): xDesc / yDesc arrays of seqLen step descriptors.
RnnArgs RnnArgsPacked(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc,
                      const char* x_name, const miopenTensorDescriptor_t* yDesc,
                      const char* y_name);
/// The sequence-tensor API.
RnnArgs RnnArgsSeq(const RNNDescriptor& r, const SeqTensorDescriptor& x, const char* x_name,
                   const SeqTensorDescriptor& y, const char* y_name);

enum class RnnCall
{
    ForwardTraining,
    ForwardInference,
    BackwardData,
    BackwardWeights,
};

struct RnnBuffers
{
    const void* x = nullptr;
    const void* y = nullptr; // unused by the math (MIOpen passes it)
    void* yout = nullptr;
    const void* dy = nullptr;
    void* dx = nullptr;
    const void* hx = nullptr;
    const void* cx = nullptr;
    void* hy = nullptr;
    void* cy = nullptr;
    const void* dhy = nullptr;
    const void* dcy = nullptr;
    void* dhx = nullptr;
    void* dcx = nullptr;
    const void* w = nullptr;
    void* dw = nullptr;
    size_t w_bytes = 0;
    void* workspace = nullptr;
    size_t ws_bytes = 0;
    void* reserve = nullptr;
    size_t rs_bytes = 0;
    // descriptors of the hidden states (null where the call has none)
    const TensorDescriptor* hx_desc = nullptr;
    const TensorDescriptor* cx_desc = nullptr;
    const TensorDescriptor* hy_desc = nullptr;
    const TensorDescriptor* cy_desc = nullptr;
    const TensorDescriptor* dhy_desc = nullptr;
    const TensorDescriptor* dcy_desc = nullptr;
    const TensorDescriptor* dhx_desc = nullptr;
    const TensorDescriptor* dcx_desc = nullptr;
    const TensorDescriptor* w_desc = nullptr;
};

/// Checks everything, then runs. `args` from RnnArgsPacked / RnnArgsSeq.
void RnnRun(Handle& handle, const RNNDescriptor& r, RnnCall call, RnnArgs args,
            const RnnBuffers& b);

} // namespace miopen
