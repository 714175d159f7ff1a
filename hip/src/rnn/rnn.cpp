// RNN front doors: the descriptors, the sizes, the per-layer parameter calls and the four
// compute calls of both APIs (the packed per-step descriptors and the sequence tensors), every
// check before anything is written. Types: fp32, fp16 and bf16 (MIOpen: fp32 and fp16), fp32
// arithmetic with one rounding to the storage type, on the CPU (cpu/rnn.cpp) or the GPU
// (kernels/rnn/rnn_launch.cpp).
#include "rnn/rnn.hpp"
#include "core/api.hpp"
#include "core/object.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"
#include "dropout/dropout.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace miopen {

RNNDescriptor& DerefRNN(miopenRNNDescriptor_t desc, const char* name)
{
    return Deref<RNNDescriptor>(desc, name);
}

SeqTensorDescriptor& DerefSeq(miopenSeqTensorDescriptor_t desc, const char* name)
{
    return Deref<SeqTensorDescriptor>(desc, name);
}

void RNNDescriptor::Set(int hsize, int nlayers, miopenDropoutDescriptor_t dropout, int in_mode,
                        int direction, int rnn_mode, int bias_mode, int algo, int data_type)
{
    if(hsize <= 0)
        ThrowBadParm("hsize = ", hsize, " is not a positive hidden size");
    if(nlayers <= 0)
        ThrowBadParm("nlayers = ", nlayers, " is not a positive number of layers");
    if(in_mode != miopenRNNlinear && in_mode != miopenRNNskip)
        ThrowBadParm("inMode = ", in_mode, " is not a miopenRNNInputMode_t value");
    if(direction != miopenRNNunidirection && direction != miopenRNNbidirection)
        ThrowBadParm("direction = ", direction, " is not a miopenRNNDirectionMode_t value");
    if(rnn_mode < miopenRNNRELU || rnn_mode > miopenGRU)
        ThrowBadParm("rnnMode = ", rnn_mode, " is not a miopenRNNMode_t value");
    if(bias_mode != miopenRNNNoBias && bias_mode != miopenRNNwithBias)
        ThrowBadParm("biasMode = ", bias_mode, " is not a miopenRNNBiasMode_t value");
    if(algo != miopenRNNdefault && algo != miopenRNNfundamental)
        ThrowBadParm("algo = ", algo, " is not a miopenRNNAlgo_t value");
    CheckDataType(data_type, "dataType");
    if(data_type != miopenFloat && data_type != miopenHalf && data_type != miopenBFloat16)
        ThrowBadParm("dataType = ", DataTypeName(static_cast<miopenDataType_t>(data_type)),
                     "; RNNs take miopenFloat, miopenHalf or miopenBFloat16");
    if(dropout != nullptr)
    {
        const auto& d = DerefDropout(dropout, "dropoutDesc");
        if(!d.IsSet())
            ThrowBadParm("dropoutDesc is not set (miopenSetDropoutDescriptor)");
    }
    hsize_     = hsize;
    layers_    = nlayers;
    dropout_   = dropout;
    in_mode_   = static_cast<miopenRNNInputMode_t>(in_mode);
    dir_       = static_cast<miopenRNNDirectionMode_t>(direction);
    mode_      = static_cast<miopenRNNMode_t>(rnn_mode);
    bias_mode_ = static_cast<miopenRNNBiasMode_t>(bias_mode);
    algo_      = static_cast<miopenRNNAlgo_t>(algo);
    type_      = static_cast<miopenDataType_t>(data_type);
    set_       = true;
}

RnnShape RNNDescriptor::Shape(size_t in, const char* x_name) const
{
    if(!set_)
        ThrowBadParm("rnnDesc is not set (miopenSetRNNDescriptor)");
    if(in == 0 || in > (1u << 30))
        ThrowBadParm(x_name, ": input vector length ", in, " is not valid");
    if(in_mode_ == miopenRNNskip && in != size_t(hsize_))
        ThrowBadParm(x_name, ": the input vector length ", in, " must equal the hidden size ",
                     hsize_, " in skip-input mode (miopenRNNskip)");
    RnnShape s;
    s.mode   = mode_;
    s.n_gate = Gates();
    s.h      = hsize_;
    s.layers = layers_;
    s.bi     = Bi();
    s.in     = static_cast<int>(in);
    s.skip   = in_mode_ == miopenRNNskip;
    s.bias   = bias_mode_ == miopenRNNwithBias;
    return s;
}

float RNNDescriptor::DropoutRate() const
{
    if(dropout_ == nullptr || layers_ < 2)
        return 0.0f;
    return DerefDropout(dropout_, "the dropout descriptor of rnnDesc").Rate();
}

void SeqTensorDescriptor::Set(int type, int layout, int max_seq, int batch, int vec,
                              const int* lens, const void* padding_marker)
{
    CheckDataType(type, "dataType");
    if(type != miopenFloat && type != miopenHalf && type != miopenBFloat16)
        ThrowBadParm("dataType = ", DataTypeName(static_cast<miopenDataType_t>(type)),
                     "; RNN sequence tensors take miopenFloat, miopenHalf or miopenBFloat16");
    if(layout != miopenRNNDataSeqMajorNotPadded && layout != miopenRNNDataSeqMajorPadded &&
       layout != miopenRNNDataBatchMajorPadded)
        ThrowBadParm("layout = ", layout, " is not a known miopenRNNBaseLayout_t value");
    if(max_seq <= 0)
        ThrowBadParm("maxSequenceLen = ", max_seq, " is not positive");
    if(batch <= 0)
        ThrowBadParm("batchSize = ", batch, " is not positive");
    if(vec <= 0)
        ThrowBadParm("vectorSize = ", vec, " is not positive");
    if(lens == nullptr)
        ThrowBadParm("sequenceLenArray is a null pointer");
    std::vector<int> l(lens, lens + batch);
    for(int i = 0; i < batch; ++i)
    {
        if(l[i] < 0 || l[i] > max_seq)
            ThrowBadParm("sequenceLenArray[", i, "] = ", l[i], " is not in [0, maxSequenceLen = ",
                         max_seq, "]");
        if(layout == miopenRNNDataSeqMajorNotPadded && i > 0 && l[i] > l[i - 1])
            ThrowBadParm("sequenceLenArray[", i, "] = ", l[i], " > sequenceLenArray[", i - 1,
                         "] = ", l[i - 1],
                         ": miopenRNNDataSeqMajorNotPadded takes non-increasing lengths");
    }
    if(*std::max_element(l.begin(), l.end()) == 0)
        ThrowBadParm("sequenceLenArray: every sequence is empty");
    type_    = static_cast<miopenDataType_t>(type);
    layout_  = static_cast<miopenRNNBaseLayout_t>(layout);
    max_seq_ = max_seq;
    batch_   = batch;
    vec_     = vec;
    lens_    = std::move(l);
    has_marker_ = padding_marker != nullptr;
    std::memset(marker_, 0, sizeof marker_);
    if(has_marker_)
        std::memcpy(marker_, padding_marker, DataTypeSize(type_));
    set_ = true;
}

size_t SeqTensorDescriptor::NumBytes() const
{
    size_t rows = 0;
    if(layout_ == miopenRNNDataSeqMajorNotPadded)
        rows = std::accumulate(lens_.begin(), lens_.end(), size_t{0});
    else
        rows = size_t(max_seq_) * batch_;
    return rows * vec_ * DataTypeSize(type_);
}

// ---- sizes -------------------------------------------------------------------------------------

std::vector<const TensorDescriptor*> StepDescs(const RNNDescriptor& r, int seqLen,
                                               const miopenTensorDescriptor_t* descs,
                                               const char* name)
{
    if(!r.IsSet())
        ThrowBadParm("rnnDesc is not set (miopenSetRNNDescriptor)");
    if(seqLen <= 0)
        ThrowBadParm("sequenceLen = ", seqLen, " is not positive");
    if(descs == nullptr)
        ThrowBadParm(name, " is a null pointer (an array of sequenceLen descriptors)");
    std::vector<const TensorDescriptor*> out;
    for(int t = 0; t < seqLen; ++t)
    {
        const std::string n = Concat(name, "[", t, "]");
        const auto& d = DerefTensor(descs[t], n.c_str());
        if(d.NumDims() != 2)
            ThrowBadParm(n, " is ", d.ToString(), "; a step descriptor is 2-d (batch, vector)");
        if(d.Type() != r.Type())
            ThrowBadParm(n, " has data type ", DataTypeName(d.Type()), "; rnnDesc has ",
                         DataTypeName(r.Type()));
        if(t == 0 && d.Lens()[0] == 0)
            ThrowBadParm(n, " has batch 0; the first step's batch must be positive");
        if(t > 0)
        {
            if(d.Lens()[0] > out.back()->Lens()[0])
                ThrowBadParm(n, " has batch ", d.Lens()[0], " > ", out.back()->Lens()[0],
                             " of the step before: batch sizes must not increase");
            if(d.Lens()[1] != out.front()->Lens()[1])
                ThrowBadParm(n, " has vector length ", d.Lens()[1], "; ", name, "[0] has ",
                             out.front()->Lens()[1]);
        }
        out.push_back(&d);
    }
    return out;
}

namespace {

RnnBatches BatchesFromSteps(const std::vector<const TensorDescriptor*>& steps, bool padded)
{
    RnnBatches b;
    b.steps      = static_cast<int>(steps.size());
    b.user_batch = static_cast<int>(steps[0]->Lens()[0]);
    size_t off   = 0;
    for(const auto* d : steps)
    {
        b.bt.push_back(static_cast<int>(d->Lens()[0]));
        b.off.push_back(padded ? size_t(b.off.size()) * b.user_batch : off);
        off += d->Lens()[0];
    }
    // trailing empty steps are dropped from the math (their rows do not exist)
    while(b.steps > 0 && b.bt[b.steps - 1] == 0)
    {
        --b.steps;
        b.bt.pop_back();
        b.off.pop_back();
    }
    b.rows = std::accumulate(b.bt.begin(), b.bt.end(), size_t{0});
    b.perm.resize(b.user_batch);
    std::iota(b.perm.begin(), b.perm.end(), 0);
    b.len.assign(b.user_batch, 0);
    for(int t = 0; t < b.steps; ++t)
        for(int j = 0; j < b.bt[t]; ++j)
            b.len[j] = t + 1;
    return b;
}

RnnBatches BatchesFromLens(const SeqTensorDescriptor& x)
{
    RnnBatches b;
    const auto& lens = x.Lens();
    b.user_batch     = x.Batch();
    b.perm.resize(b.user_batch);
    std::iota(b.perm.begin(), b.perm.end(), 0);
    std::stable_sort(b.perm.begin(), b.perm.end(),
                     [&](int p, int q) { return lens[p] > lens[q]; });
    for(int j = 0; j < b.user_batch; ++j)
        b.len.push_back(lens[b.perm[j]]);
    b.steps = b.len[0];
    size_t off = 0;
    for(int t = 0; t < b.steps; ++t)
    {
        int n = 0;
        while(n < b.user_batch && b.len[n] > t)
            ++n;
        b.bt.push_back(n);
        b.off.push_back(off);
        off += n;
    }
    b.rows = off;
    return b;
}

RnnSpace SpaceOf(const RnnShape& s, size_t rows, size_t b0, bool dropout, miopenDataType_t type)
{
    RnnSpace sp;
    sp.rows    = rows;
    sp.b0      = b0;
    sp.s       = s;
    sp.dropout = dropout;
    sp.wf      = type == miopenFloat ? 0 : s.ParamCount();
    sp.ops16   = type != miopenFloat;
    return sp;
}

void ReadDropoutState(const Handle& handle, const void* states, DropoutState& st)
{
    if(handle.IsGpu())
    {
        gpu::DeviceScope scope(handle.Ordinal());
        gpu::Copy(&st, states, sizeof st, handle.Stream());
    }
    else
        std::memcpy(&st, states, sizeof st);
}

void WriteDropoutState(const Handle& handle, void* states, const DropoutState& st)
{
    if(handle.IsGpu())
    {
        gpu::DeviceScope scope(handle.Ordinal());
        gpu::Copy(states, &st, sizeof st, handle.Stream());
    }
    else
        std::memcpy(states, &st, sizeof st);
}

size_t Rows(const std::vector<const TensorDescriptor*>& steps)
{
    size_t n = 0;
    for(const auto* d : steps)
        n += d->Lens()[0];
    return n;
}

} // namespace

size_t RnnWorkspaceSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc)
{
    const auto steps = StepDescs(r, seqLen, xDesc, "xDesc");
    const auto s     = r.Shape(steps[0]->Lens()[1], "xDesc");
    return SpaceOf(s, Rows(steps), steps[0]->Lens()[0], r.DropoutRate() > 0, r.Type())
        .WorkspaceBytes();
}

size_t RnnReserveSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc)
{
    const auto steps = StepDescs(r, seqLen, xDesc, "xDesc");
    const auto s     = r.Shape(steps[0]->Lens()[1], "xDesc");
    return SpaceOf(s, Rows(steps), steps[0]->Lens()[0], r.DropoutRate() > 0, r.Type())
        .ReserveBytes();
}

void RnnTempSpaceSizes(const RNNDescriptor& r, const SeqTensorDescriptor& x, int fwdMode,
                       size_t* ws, size_t* rs)
{
    if(!x.IsSet())
        ThrowBadParm("xDesc is not set (miopenSetRNNDataSeqTensorDescriptor)");
    if(fwdMode != miopenRNNTraining && fwdMode != miopenRNNInference)
        ThrowBadParm("fwdMode = ", fwdMode, " is not a miopenRNNFWDMode_t value");
    if(x.Type() != r.Type())
        ThrowBadParm("xDesc has data type ", DataTypeName(x.Type()), "; rnnDesc has ",
                     DataTypeName(r.Type()));
    const auto s = r.Shape(x.Vec(), "xDesc");
    // sizes for the longest sequences at the full batch, as MIOpen's (any lengths then fit)
    const auto sp =
        SpaceOf(s, size_t(x.MaxSeq()) * x.Batch(), x.Batch(), r.DropoutRate() > 0, r.Type());
    if(ws != nullptr)
        *ws = sp.WorkspaceBytes();
    if(rs != nullptr)
        *rs = fwdMode == miopenRNNInference ? 0 : sp.ReserveBytes();
}

size_t RnnParamsSize(const RNNDescriptor& r, const TensorDescriptor& xDesc, int dtype)
{
    if(!r.IsSet())
        ThrowBadParm("rnnDesc is not set (miopenSetRNNDescriptor)");
    if(dtype != r.Type())
        ThrowBadParm("dtype = ", dtype, " differs from rnnDesc's data type ",
                     DataTypeName(r.Type()));
    if(xDesc.Type() != r.Type())
        ThrowBadParm("xDesc has data type ", DataTypeName(xDesc.Type()), "; rnnDesc has ",
                     DataTypeName(r.Type()));
    if(xDesc.NumDims() < 2)
        ThrowBadParm("xDesc is ", xDesc.ToString(), "; a step descriptor is 2-d (batch, vector)");
    return r.Shape(xDesc.Lens()[1], "xDesc").ParamCount() * DataTypeSize(r.Type());
}

void RnnParamsDescriptor(const RNNDescriptor& r, const TensorDescriptor& xDesc,
                         TensorDescriptor& wDesc, int dtype)
{
    RnnParamsSize(r, xDesc, dtype); // the checks
    const auto s  = r.Shape(xDesc.Lens()[1], "xDesc");
    size_t rows   = size_t(s.skip ? 0 : s.in) + (size_t(s.layers - 1) * (s.bi + 1) + 1) * s.h;
    if(s.bias)
        rows += size_t(s.layers) * 2;
    wDesc.Set(r.Type(), {rows, s.GateWidth()}, {});
}

size_t RnnInputTensorSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc)
{
    const auto steps = StepDescs(r, seqLen, xDesc, "xDesc");
    const size_t rows =
        r.Padding() == miopenRNNIONotPadded ? Rows(steps) : size_t(seqLen) * steps[0]->Lens()[0];
    return rows * steps[0]->Lens()[1] * DataTypeSize(r.Type());
}

size_t RnnHiddenTensorSize(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc)
{
    const auto steps = StepDescs(r, seqLen, xDesc, "xDesc");
    return steps[0]->Lens()[0] * size_t(r.Hidden()) * r.Layers() * r.Bi() *
           DataTypeSize(r.Type());
}

size_t RnnLayerPiece(const RNNDescriptor& r, int layer, const TensorDescriptor& xDesc, int id,
                     bool bias, TensorDescriptor* desc)
{
    if(!r.IsSet())
        ThrowBadParm("rnnDesc is not set (miopenSetRNNDescriptor)");
    if(xDesc.NumDims() < 2)
        ThrowBadParm("xDesc is ", xDesc.ToString(), "; a step descriptor is 2-d (batch, vector)");
    const auto s = r.Shape(xDesc.Lens()[1], "xDesc");
    if(layer < 0 || layer >= s.layers * s.bi)
        ThrowBadParm("layer = ", layer, " is not in [0, ", s.layers * s.bi,
                     ") (layers, times 2 when bidirectional)");
    const char* id_name = bias ? "biasID" : "paramID";
    if(id < 0 || id >= 2 * s.n_gate)
        ThrowBadParm(id_name, " = ", id, " is not in [0, ", 2 * s.n_gate, ") for this mode");
    if(bias)
    {
        if(!s.bias)
            ThrowBadParm("rnnDesc has no biases (miopenRNNNoBias)");
        if(desc != nullptr)
            desc->Set(r.Type(), {size_t(s.h)}, {});
        return s.BiasOffset(layer, id);
    }
    const int l = layer / s.bi;
    if(l == 0 && s.skip && id < s.n_gate)
        ThrowBadParm("paramID = ", id, " of layer ", layer,
                     " is an input matrix, which skip-input mode (miopenRNNskip) does not have");
    if(desc != nullptr)
        desc->Set(r.Type(), {size_t(s.h), size_t(id < s.n_gate ? s.InLen(l) : s.h)}, {});
    return s.ParamOffset(layer, id);
}

void RnnCopyPiece(Handle& handle, const RNNDescriptor& r, int layer, const TensorDescriptor& xDesc,
                  const TensorDescriptor& wDesc, void* w, int id, bool bias,
                  const TensorDescriptor* pieceDesc, void* piece, bool set)
{
    TensorDescriptor want;
    const size_t off = RnnLayerPiece(r, layer, xDesc, id, bias, &want);
    const auto s     = r.Shape(xDesc.Lens()[1], "xDesc");
    if(wDesc.Type() != r.Type())
        ThrowBadParm("wDesc has data type ", DataTypeName(wDesc.Type()), "; rnnDesc has ",
                     DataTypeName(r.Type()));
    if(wDesc.ElementSize() < s.ParamCount())
        ThrowBadParm("wDesc has ", wDesc.ElementSize(), " elements; the parameters need ",
                     s.ParamCount());
    const char* piece_name = bias ? (set ? "layerBias" : "layerBias") : "layerParam";
    const char* desc_name  = bias ? "biasDesc" : "paramDesc";
    if(pieceDesc != nullptr)
    {
        if(pieceDesc->Type() != r.Type())
            ThrowBadParm(desc_name, " has data type ", DataTypeName(pieceDesc->Type()),
                         "; rnnDesc has ", DataTypeName(r.Type()));
        if(pieceDesc->ElementSize() != want.ElementSize() || !pieceDesc->IsPacked())
            ThrowBadParm(desc_name, " is ", pieceDesc->ToString(), "; this ",
                         bias ? "bias" : "matrix", " is ", want.ToString(), " (packed)");
    }
    CheckData(w, "w");
    CheckData(piece, piece_name);
    CheckDevicePointer(handle, w, "w");
    CheckDevicePointer(handle, piece, piece_name);
    const size_t es    = DataTypeSize(r.Type());
    const size_t bytes = want.ElementSize() * es;
    char* wp           = static_cast<char*>(w) + off * es;
    void* dst          = set ? static_cast<void*>(wp) : piece;
    const void* src    = set ? static_cast<const void*>(piece) : static_cast<const void*>(wp);
    if(handle.IsGpu())
    {
        gpu::DeviceScope scope(handle.Ordinal());
        gpu::Copy(dst, src, bytes, handle.Stream());
    }
    else
        std::memmove(dst, src, bytes);
}

// ---- the calls ---------------------------------------------------------------------------------

RnnArgs RnnArgsPacked(const RNNDescriptor& r, int seqLen, const miopenTensorDescriptor_t* xDesc,
                      const char* x_name, const miopenTensorDescriptor_t* yDesc,
                      const char* y_name)
{
    const auto xs = StepDescs(r, seqLen, xDesc, x_name);
    const auto ys = StepDescs(r, seqLen, yDesc, y_name);
    RnnArgs a;
    a.s = r.Shape(xs[0]->Lens()[1], x_name);
    for(int t = 0; t < seqLen; ++t)
    {
        if(ys[t]->Lens()[0] != xs[t]->Lens()[0])
            ThrowBadParm(y_name, "[", t, "] has batch ", ys[t]->Lens()[0], "; ", x_name, "[", t,
                         "] has ", xs[t]->Lens()[0]);
    }
    if(ys[0]->Lens()[1] != size_t(a.s.bi) * a.s.h)
        ThrowBadParm(y_name, "[0] has vector length ", ys[0]->Lens()[1], "; the output has ",
                     a.s.bi * a.s.h, " (hidden size, times 2 when bidirectional)");
    const bool padded = r.Padding() == miopenRNNIOWithPadding;
    a.b  = BatchesFromSteps(xs, padded);
    a.io = padded ? RnnIoLayout::SeqMajorPadded : RnnIoLayout::Packed;
    a.io_seq = seqLen;
    if(padded)
    {
        // every step's rows are user_batch long; the packed offsets index the padded rows
        for(int t = 0; t < a.b.steps; ++t)
            a.b.off[t] = size_t(t) * a.b.user_batch;
    }
    // the internal packed offsets (the math's rows) are recomputed by RnnRun
    return a;
}

RnnArgs RnnArgsSeq(const RNNDescriptor& r, const SeqTensorDescriptor& x, const char* x_name,
                   const SeqTensorDescriptor& y, const char* y_name)
{
    if(!r.IsSet())
        ThrowBadParm("rnnDesc is not set (miopenSetRNNDescriptor)");
    if(!x.IsSet())
        ThrowBadParm(x_name, " is not set (miopenSetRNNDataSeqTensorDescriptor)");
    if(!y.IsSet())
        ThrowBadParm(y_name, " is not set (miopenSetRNNDataSeqTensorDescriptor)");
    if(x.Type() != r.Type())
        ThrowBadParm(x_name, " has data type ", DataTypeName(x.Type()), "; rnnDesc has ",
                     DataTypeName(r.Type()));
    if(y.Type() != r.Type())
        ThrowBadParm(y_name, " has data type ", DataTypeName(y.Type()), "; rnnDesc has ",
                     DataTypeName(r.Type()));
    RnnArgs a;
    a.s = r.Shape(x.Vec(), x_name);
    if(y.Vec() != a.s.bi * a.s.h)
        ThrowBadParm(y_name, " has vector length ", y.Vec(), "; the output has ", a.s.bi * a.s.h,
                     " (hidden size, times 2 when bidirectional)");
    if(y.Layout() != x.Layout() || y.Batch() != x.Batch() || y.MaxSeq() != x.MaxSeq() ||
       y.Lens() != x.Lens())
        ThrowBadParm(y_name, " and ", x_name,
                     " differ in layout, batch, maximum length or sequence lengths");
    a.b  = BatchesFromLens(x);
    a.io = x.Layout() == miopenRNNDataSeqMajorNotPadded ? RnnIoLayout::Packed
           : x.Layout() == miopenRNNDataSeqMajorPadded  ? RnnIoLayout::SeqMajorPadded
                                                        : RnnIoLayout::BatchMajorPadded;
    a.io_seq = x.MaxSeq(); // a padded layout's rows per entry: maxSequenceLen
    if(y.HasMarker())
        a.pad_marker = y.Marker();
    if(x.HasMarker())
        a.pad_marker_x = x.Marker();
    return a;
}

namespace {

void CheckHidden(const TensorDescriptor* d, const char* name, const RnnArgs& a,
                 miopenDataType_t type)
{
    if(d == nullptr)
        return;
    const size_t want0 = size_t(a.s.layers) * a.s.bi;
    if(d->NumDims() != 3 || d->Lens()[0] != want0 || d->Lens()[1] != size_t(a.b.user_batch) ||
       d->Lens()[2] != size_t(a.s.h))
        ThrowBadParm(name, " is ", d->ToString(), "; the hidden state is (", want0, ", ",
                     a.b.user_batch, ", ", a.s.h, ") (layers x directions, batch, hidden size)");
    if(!d->IsPacked())
        ThrowBadParm(name, " is ", d->ToString(), "; hidden-state tensors are packed");
    if(d->Type() != type)
        ThrowBadParm(name, " has data type ", DataTypeName(d->Type()), "; rnnDesc has ",
                     DataTypeName(type));
}

} // namespace

void RnnRun(Handle& handle, const RNNDescriptor& r, RnnCall call, RnnArgs a, const RnnBuffers& b)
{
    const bool lstm = r.Mode() == miopenLSTM;
    const auto type = r.Type();
    // hidden-state descriptors
    CheckHidden(b.hx_desc, "hxDesc", a, type);
    CheckHidden(b.hy_desc, "hyDesc", a, type);
    CheckHidden(b.dhy_desc, "dhyDesc", a, type);
    CheckHidden(b.dhx_desc, "dhxDesc", a, type);
    if(lstm)
    {
        CheckHidden(b.cx_desc, "cxDesc", a, type);
        CheckHidden(b.cy_desc, "cyDesc", a, type);
        CheckHidden(b.dcy_desc, "dcyDesc", a, type);
        CheckHidden(b.dcx_desc, "dcxDesc", a, type);
    }
    // the parameters
    const size_t wbytes = a.s.ParamCount() * DataTypeSize(type);
    if(b.w_desc != nullptr)
    {
        const char* wn = call == RnnCall::BackwardWeights ? "dwDesc" : "wDesc";
        if(b.w_desc->Type() != type)
            ThrowBadParm(wn, " has data type ", DataTypeName(b.w_desc->Type()), "; rnnDesc has ",
                         DataTypeName(type));
        if(b.w_desc->ElementSize() * DataTypeSize(type) < wbytes)
            ThrowBadParm(wn, " is ", b.w_desc->ToString(), "; the parameters take ",
                         a.s.ParamCount(), " elements (miopenGetRNNParamsSize)");
    }
    else if(b.w_bytes < wbytes)
        ThrowBadParm("weightSpaceSize = ", b.w_bytes, " is less than the ", wbytes,
                     " bytes of the parameters (miopenGetRNNParamsSize)");
    // the internal packed rows
    {
        size_t off = 0;
        std::vector<size_t> packed_off;
        for(int t = 0; t < a.b.steps; ++t)
        {
            packed_off.push_back(off);
            off += a.b.bt[t];
        }
        a.b.rows = off;
        if(a.io != RnnIoLayout::Packed)
            a.b.off = packed_off;
    }
    a.sp = SpaceOf(a.s, a.b.rows, size_t(a.b.user_batch), r.DropoutRate() > 0, r.Type());
    a.training = call != RnnCall::ForwardInference;
    const size_t ws_need = a.sp.WorkspaceBytes();
    const size_t rs_need = a.sp.ReserveBytes();
    if(b.ws_bytes < ws_need)
        ThrowBadParm("workSpaceNumBytes = ", b.ws_bytes, " is less than the ", ws_need,
                     " bytes this call needs (miopenGetRNNWorkspaceSize)");
    if(call != RnnCall::ForwardInference && b.rs_bytes < rs_need)
        ThrowBadParm("reserveSpaceNumBytes = ", b.rs_bytes, " is less than the ", rs_need,
                     " bytes this call needs (miopenGetRNNTrainingReserveSize)");
    // pointers
    switch(call)
    {
    case RnnCall::ForwardTraining:
        CheckDataPointers(handle, {{b.x, "x"}, {b.w, "w"}, {b.yout, "y"}, {b.workspace, "workSpace"},
                                   {b.reserve, "reserveSpace"}},
                          {{b.hx, "hx"}, {b.cx, "cx"}, {b.hy, "hy"}, {b.cy, "cy"}});
        break;
    case RnnCall::ForwardInference:
        CheckDataPointers(handle, {{b.x, "x"}, {b.w, "w"}, {b.yout, "y"}, {b.workspace, "workSpace"}},
                          {{b.hx, "hx"}, {b.cx, "cx"}, {b.hy, "hy"}, {b.cy, "cy"}});
        break;
    case RnnCall::BackwardData:
        CheckDataPointers(handle, {{b.dy, "dy"}, {b.w, "w"}, {b.dx, "dx"}, {b.workspace, "workSpace"},
                                   {b.reserve, "reserveSpace"}},
                          {{b.hx, "hx"}, {b.cx, "cx"}, {b.dhy, "dhy"}, {b.dcy, "dcy"},
                           {b.dhx, "dhx"}, {b.dcx, "dcx"}, {b.y, "y"}});
        break;
    case RnnCall::BackwardWeights:
        CheckDataPointers(handle, {{b.x, "x"}, {b.dw, "dw"}, {b.workspace, "workSpace"},
                                   {b.reserve, "reserveSpace"}},
                          {{b.hx, "hx"}, {b.y, "y"}});
        break;
    }
    // the dropout between layers: its rate, and for a training forward the generator state
    // (seed and offset) from the descriptor's states, advanced by layers - 1 with state_evo
    DropoutDescriptor* drop = nullptr;
    DropoutState drop_state;
    if(a.sp.dropout)
    {
        a.dropout = r.DropoutRate();
        if(call == RnnCall::ForwardTraining)
        {
            drop = &DerefDropout(r.Dropout(), "the dropout descriptor of rnnDesc");
            if(!drop->IsSet())
                ThrowBadParm("the dropout descriptor of rnnDesc is not set");
            ReadDropoutState(handle, drop->States(), drop_state);
            if(drop_state.magic != kDropoutStateMagic || drop_state.version != kDropoutStateVersion)
                ThrowBadParm("the states of rnnDesc's dropout descriptor no longer hold a "
                             "generator state (overwritten since miopenSetDropoutDescriptor?)");
            a.seed   = drop_state.seed;
            a.offset = drop_state.offset;
        }
    }
    DispatchFloating(type, "rnnDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto* x   = static_cast<const T*>(b.x);
        const auto* hx  = static_cast<const T*>(b.hx);
        const auto* cx  = static_cast<const T*>(lstm ? b.cx : nullptr);
        const auto* w   = static_cast<const T*>(b.w);
        const auto* dy  = static_cast<const T*>(b.dy);
        const auto* dhy = static_cast<const T*>(b.dhy);
        const auto* dcy = static_cast<const T*>(lstm ? b.dcy : nullptr);
        auto* y   = static_cast<T*>(b.yout);
        auto* hy  = static_cast<T*>(b.hy);
        auto* cy  = static_cast<T*>(lstm ? b.cy : nullptr);
        auto* dx  = static_cast<T*>(b.dx);
        auto* dhx = static_cast<T*>(b.dhx);
        auto* dcx = static_cast<T*>(lstm ? b.dcx : nullptr);
        auto* dw  = static_cast<T*>(b.dw);
        RunOp(
            handle,
            [&] {
                switch(call)
                {
                case RnnCall::ForwardTraining:
                case RnnCall::ForwardInference:
                    cpu::RnnForward<T>(a, x, hx, cx, w, y, hy, cy, b.workspace, b.reserve);
                    break;
                case RnnCall::BackwardData:
                    cpu::RnnBackwardData<T>(a, dy, dhy, dcy, hx, cx, w, dx, dhx, dcx, b.workspace,
                                            b.reserve);
                    break;
                case RnnCall::BackwardWeights:
                    cpu::RnnBackwardWeights<T>(a, x, hx, dw, b.workspace, b.reserve);
                    break;
                }
            },
            [&](auto& h) {
                switch(call)
                {
                case RnnCall::ForwardTraining:
                case RnnCall::ForwardInference:
                    gpu::RnnForward<T>(h, a, x, hx, cx, w, y, hy, cy, b.workspace, b.reserve);
                    break;
                case RnnCall::BackwardData:
                    gpu::RnnBackwardData<T>(h, a, dy, dhy, dcy, hx, cx, w, dx, dhx, dcx,
                                            b.workspace, b.reserve);
                    break;
                case RnnCall::BackwardWeights:
                    gpu::RnnBackwardWeights<T>(h, a, x, hx, dw, b.workspace, b.reserve);
                    break;
                }
            });
    });
    if(drop != nullptr && drop->StateEvo())
    {
        drop_state.last = drop_state.offset;
        drop_state.offset += uint64_t(a.s.layers - 1);
        WriteDropoutState(handle, drop->States(), drop_state);
    }
}

} // namespace miopen
