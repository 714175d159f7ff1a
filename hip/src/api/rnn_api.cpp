// extern "C" shims for the RNN group: the RNN and sequence-tensor descriptors, the sizes, the
// per-layer parameter calls and the compute calls of the packed and the sequence-tensor API.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "dropout/dropout.hpp"
#include "rnn/rnn.hpp"

#include <cstring>

using miopen::DerefRNN;
using miopen::DerefSeq;
using miopen::DerefTensor;
using miopen::Out;
using miopen::RNNDescriptor;
using miopen::SeqTensorDescriptor;
using miopen::TensorDescriptor;

namespace {

TensorDescriptor& MutableTensorOut(miopenTensorDescriptor_t desc, const char* name)
{
    return miopen::Deref<TensorDescriptor>(desc, name);
}

const TensorDescriptor* OptTensor(miopenTensorDescriptor_t d, const char* name)
{
    return d == nullptr ? nullptr : &DerefTensor(d, name);
}

} // namespace

extern "C" miopenStatus_t miopenCreateRNNDescriptor(miopenRNNDescriptor_t* rnnDesc)
{
    MIOPEN_LOG_FUNCTION(rnnDesc);
    return MIOPEN_TRY({ miopen::CreateObject<RNNDescriptor>(rnnDesc, "rnnDesc"); });
}

extern "C" miopenStatus_t miopenDestroyRNNDescriptor(miopenRNNDescriptor_t rnnDesc)
{
    MIOPEN_LOG_FUNCTION(rnnDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<RNNDescriptor>(rnnDesc, "rnnDesc"); });
}

extern "C" miopenStatus_t miopenSetRNNDescriptor(miopenRNNDescriptor_t rnnDesc, const int hsize,
                                                 const int nlayers, miopenRNNInputMode_t inMode,
                                                 miopenRNNDirectionMode_t direction,
                                                 miopenRNNMode_t rnnMode,
                                                 miopenRNNBiasMode_t biasMode,
                                                 miopenRNNAlgo_t algo, miopenDataType_t dataType)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, hsize, nlayers, inMode, direction, rnnMode, biasMode, algo,
                        dataType);
    return MIOPEN_TRY({
        DerefRNN(rnnDesc, "rnnDesc")
            .Set(hsize, nlayers, nullptr, miopen::EnumValue(inMode), miopen::EnumValue(direction),
                 miopen::EnumValue(rnnMode), miopen::EnumValue(biasMode), miopen::EnumValue(algo),
                 miopen::EnumValue(dataType));
    });
}

extern "C" miopenStatus_t miopenSetRNNDescriptor_V2(
    miopenRNNDescriptor_t rnnDesc, const int hsize, const int nlayers,
    miopenDropoutDescriptor_t dropoutDesc, miopenRNNInputMode_t inMode,
    miopenRNNDirectionMode_t direction, miopenRNNMode_t rnnMode, miopenRNNBiasMode_t biasMode,
    miopenRNNAlgo_t algo, miopenDataType_t dataType)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, hsize, nlayers, dropoutDesc, inMode, direction, rnnMode,
                        biasMode, algo, dataType);
    return MIOPEN_TRY({
        if(dropoutDesc == nullptr)
            miopen::ThrowBadParm("dropoutDesc is null (miopenSetRNNDescriptor takes none)");
        DerefRNN(rnnDesc, "rnnDesc")
            .Set(hsize, nlayers, dropoutDesc, miopen::EnumValue(inMode),
                 miopen::EnumValue(direction), miopen::EnumValue(rnnMode),
                 miopen::EnumValue(biasMode), miopen::EnumValue(algo),
                 miopen::EnumValue(dataType));
    });
}

namespace {
const RNNDescriptor& SetRNN(miopenRNNDescriptor_t d)
{
    const auto& r = DerefRNN(d, "rnnDesc");
    if(!r.IsSet())
        miopen::ThrowBadParm("rnnDesc is not set (miopenSetRNNDescriptor)");
    return r;
}
} // namespace

extern "C" miopenStatus_t miopenGetRNNDescriptor(miopenRNNDescriptor_t rnnDesc,
                                                 miopenRNNMode_t* rnnMode,
                                                 miopenRNNAlgo_t* algoMode,
                                                 miopenRNNInputMode_t* inputMode,
                                                 miopenRNNDirectionMode_t* dirMode,
                                                 miopenRNNBiasMode_t* biasMode, int* hiddenSize,
                                                 int* layer)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, rnnMode, algoMode, inputMode, dirMode, biasMode, hiddenSize,
                        layer);
    return MIOPEN_TRY({
        const auto& r = SetRNN(rnnDesc);
        // MIOpen: each output may be null (then it is skipped)
        if(rnnMode) *rnnMode = r.Mode();
        if(algoMode) *algoMode = r.Algo();
        if(inputMode) *inputMode = r.InputMode();
        if(dirMode) *dirMode = r.Direction();
        if(biasMode) *biasMode = r.BiasMode();
        if(hiddenSize) *hiddenSize = r.Hidden();
        if(layer) *layer = r.Layers();
    });
}

extern "C" miopenStatus_t miopenGetRNNDescriptor_V2(
    miopenRNNDescriptor_t rnnDesc, int* hiddenSize, int* layer,
    miopenDropoutDescriptor_t* dropoutDesc, miopenRNNInputMode_t* inputMode,
    miopenRNNDirectionMode_t* dirMode, miopenRNNMode_t* rnnMode, miopenRNNBiasMode_t* biasMode,
    miopenRNNAlgo_t* algoMode, miopenDataType_t* dataType)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, hiddenSize, layer, dropoutDesc, inputMode, dirMode, rnnMode,
                        biasMode, algoMode, dataType);
    return MIOPEN_TRY({
        const auto& r = SetRNN(rnnDesc);
        if(hiddenSize) *hiddenSize = r.Hidden();
        if(layer) *layer = r.Layers();
        if(dropoutDesc) *dropoutDesc = r.Dropout();
        if(inputMode) *inputMode = r.InputMode();
        if(dirMode) *dirMode = r.Direction();
        if(rnnMode) *rnnMode = r.Mode();
        if(biasMode) *biasMode = r.BiasMode();
        if(algoMode) *algoMode = r.Algo();
        if(dataType) *dataType = r.Type();
    });
}

extern "C" miopenStatus_t miopenSetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                                  miopenRNNPaddingMode_t paddingMode)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, paddingMode);
    return MIOPEN_TRY({
        auto& r      = DerefRNN(rnnDesc, "rnnDesc");
        const auto p = miopen::CheckedEnum(paddingMode, "paddingMode", "miopenRNNPaddingMode_t",
                                           {0, 1});
        r.SetPadding(p);
    });
}

extern "C" miopenStatus_t miopenGetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                                  miopenRNNPaddingMode_t* paddingMode)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, paddingMode);
    return MIOPEN_TRY({
        Out(paddingMode, "paddingMode") = DerefRNN(rnnDesc, "rnnDesc").Padding();
    });
}

// ---- sequence tensors ------------------------------------------------------------------------

extern "C" miopenStatus_t miopenCreateSeqTensorDescriptor(miopenSeqTensorDescriptor_t* tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return MIOPEN_TRY({ miopen::CreateObject<SeqTensorDescriptor>(tensorDesc, "tensorDesc"); });
}

extern "C" miopenStatus_t miopenDestroySeqTensorDescriptor(miopenSeqTensorDescriptor_t tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<SeqTensorDescriptor>(tensorDesc, "tensorDesc"); });
}

extern "C" miopenStatus_t miopenSetRNNDataSeqTensorDescriptor(
    miopenSeqTensorDescriptor_t seqTensorDesc, miopenDataType_t dataType,
    miopenRNNBaseLayout_t layout, int maxSequenceLen, int batchSize, int vectorSize,
    const int* sequenceLenArray, void* paddingMarker)
{
    MIOPEN_LOG_FUNCTION(seqTensorDesc, dataType, layout, maxSequenceLen, batchSize, vectorSize,
                        sequenceLenArray, paddingMarker);
    return MIOPEN_TRY({
        DerefSeq(seqTensorDesc, "seqTensorDesc")
            .Set(miopen::EnumValue(dataType), miopen::EnumValue(layout), maxSequenceLen,
                 batchSize, vectorSize, sequenceLenArray, paddingMarker);
    });
}

extern "C" miopenStatus_t miopenGetRNNDataSeqTensorDescriptor(
    miopenSeqTensorDescriptor_t seqTensorDesc, miopenDataType_t* dataType,
    miopenRNNBaseLayout_t* layout, int* maxSequenceLen, int* batchSize, int* vectorSize,
    int sequenceLenArrayLimit, int* sequenceLenArray, void* paddingMarker)
{
    MIOPEN_LOG_FUNCTION(seqTensorDesc, dataType, layout, maxSequenceLen, batchSize, vectorSize,
                        sequenceLenArrayLimit, sequenceLenArray, paddingMarker);
    return MIOPEN_TRY({
        const auto& d = DerefSeq(seqTensorDesc, "seqTensorDesc");
        if(!d.IsSet())
            miopen::ThrowBadParm("seqTensorDesc is not set (miopenSetRNNDataSeqTensorDescriptor)");
        if(sequenceLenArrayLimit < 0)
            miopen::ThrowBadParm("sequenceLenArrayLimit = ", sequenceLenArrayLimit, " is negative");
        if(sequenceLenArrayLimit > 0 && sequenceLenArray == nullptr)
            miopen::ThrowBadParm("sequenceLenArray is a null pointer with sequenceLenArrayLimit = ",
                                 sequenceLenArrayLimit);
        if(dataType) *dataType = d.Type();
        if(layout) *layout = d.Layout();
        if(maxSequenceLen) *maxSequenceLen = d.MaxSeq();
        if(batchSize) *batchSize = d.Batch();
        if(vectorSize) *vectorSize = d.Vec();
        const int n = sequenceLenArrayLimit < d.Batch() ? sequenceLenArrayLimit : d.Batch();
        for(int i = 0; i < n; ++i)
            sequenceLenArray[i] = d.Lens()[i];
        if(paddingMarker != nullptr)
            std::memcpy(paddingMarker, d.Marker(), miopen::DataTypeSize(d.Type()));
    });
}

// ---- sizes -------------------------------------------------------------------------------------

extern "C" miopenStatus_t miopenGetRNNWorkspaceSize(miopenHandle_t handle,
                                                    const miopenRNNDescriptor_t rnnDesc,
                                                    const int sequenceLen,
                                                    const miopenTensorDescriptor_t* xDesc,
                                                    size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, sequenceLen, xDesc, numBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(numBytes, "numBytes") =
            miopen::RnnWorkspaceSize(DerefRNN(rnnDesc, "rnnDesc"), sequenceLen, xDesc);
    });
}

extern "C" miopenStatus_t miopenGetRNNTrainingReserveSize(miopenHandle_t handle,
                                                          miopenRNNDescriptor_t rnnDesc,
                                                          const int sequenceLen,
                                                          const miopenTensorDescriptor_t* xDesc,
                                                          size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, sequenceLen, xDesc, numBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(numBytes, "numBytes") =
            miopen::RnnReserveSize(DerefRNN(rnnDesc, "rnnDesc"), sequenceLen, xDesc);
    });
}

extern "C" miopenStatus_t miopenGetRNNTempSpaceSizes(miopenHandle_t handle,
                                                     miopenRNNDescriptor_t rnnDesc,
                                                     miopenSeqTensorDescriptor_t xDesc,
                                                     miopenRNNFWDMode_t fwdMode,
                                                     size_t* workSpaceSize,
                                                     size_t* reserveSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, xDesc, fwdMode, workSpaceSize, reserveSpaceSize);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        miopen::RnnTempSpaceSizes(SetRNN(rnnDesc), DerefSeq(xDesc, "xDesc"),
                                  miopen::EnumValue(fwdMode), workSpaceSize, reserveSpaceSize);
    });
}

extern "C" miopenStatus_t miopenGetRNNParamsSize(miopenHandle_t handle,
                                                 miopenRNNDescriptor_t rnnDesc,
                                                 miopenTensorDescriptor_t xDesc, size_t* numBytes,
                                                 miopenDataType_t dtype)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, xDesc, numBytes, dtype);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(numBytes, "numBytes") = miopen::RnnParamsSize(
            DerefRNN(rnnDesc, "rnnDesc"), DerefTensor(xDesc, "xDesc"), miopen::EnumValue(dtype));
    });
}

extern "C" miopenStatus_t miopenGetRNNParamsDescriptor(miopenHandle_t handle,
                                                       miopenRNNDescriptor_t rnnDesc,
                                                       miopenTensorDescriptor_t xDesc,
                                                       miopenTensorDescriptor_t wDesc,
                                                       miopenDataType_t dtype)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, xDesc, wDesc, dtype);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        miopen::RnnParamsDescriptor(DerefRNN(rnnDesc, "rnnDesc"), DerefTensor(xDesc, "xDesc"),
                                    MutableTensorOut(wDesc, "wDesc"), miopen::EnumValue(dtype));
    });
}

extern "C" miopenStatus_t miopenGetRNNInputTensorSize(miopenHandle_t handle,
                                                      miopenRNNDescriptor_t rnnDesc,
                                                      const int seqLen,
                                                      miopenTensorDescriptor_t* xDesc,
                                                      size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, seqLen, xDesc, numBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(numBytes, "numBytes") =
            miopen::RnnInputTensorSize(DerefRNN(rnnDesc, "rnnDesc"), seqLen, xDesc);
    });
}

extern "C" miopenStatus_t miopenGetRNNHiddenTensorSize(miopenHandle_t handle,
                                                       miopenRNNDescriptor_t rnnDesc,
                                                       const int seqLen,
                                                       miopenTensorDescriptor_t* xDesc,
                                                       size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, seqLen, xDesc, numBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(numBytes, "numBytes") =
            miopen::RnnHiddenTensorSize(DerefRNN(rnnDesc, "rnnDesc"), seqLen, xDesc);
    });
}

// ---- per-layer parameters ------------------------------------------------------------------

extern "C" miopenStatus_t miopenGetRNNLayerParamSize(miopenHandle_t handle,
                                                     miopenRNNDescriptor_t rnnDesc,
                                                     const int layer,
                                                     miopenTensorDescriptor_t xDesc,
                                                     const int paramID, size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, layer, xDesc, paramID, numBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        const auto& r = DerefRNN(rnnDesc, "rnnDesc");
        TensorDescriptor d;
        miopen::RnnLayerPiece(r, layer, DerefTensor(xDesc, "xDesc"), paramID, false, &d);
        Out(numBytes, "numBytes") = d.ElementSize() * miopen::DataTypeSize(r.Type());
    });
}

extern "C" miopenStatus_t miopenGetRNNLayerBiasSize(miopenHandle_t handle,
                                                    miopenRNNDescriptor_t rnnDesc,
                                                    const int layer, const int biasID,
                                                    size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, layer, biasID, numBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        if(r.BiasMode() != miopenRNNwithBias)
            miopen::ThrowBadParm("rnnDesc has no biases (miopenRNNNoBias)");
        if(layer < 0 || layer >= r.Layers() * r.Bi())
            miopen::ThrowBadParm("layer = ", layer, " is not in [0, ", r.Layers() * r.Bi(), ")");
        if(biasID < 0 || biasID >= 2 * r.Gates())
            miopen::ThrowBadParm("biasID = ", biasID, " is not in [0, ", 2 * r.Gates(), ")");
        Out(numBytes, "numBytes") = size_t(r.Hidden()) * miopen::DataTypeSize(r.Type());
    });
}

extern "C" miopenStatus_t miopenGetRNNLayerParamOffset(miopenRNNDescriptor_t rnnDesc,
                                                       const int layer,
                                                       miopenTensorDescriptor_t xDesc,
                                                       const int paramID,
                                                       miopenTensorDescriptor_t paramDesc,
                                                       size_t* layerParamOffset)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, layer, xDesc, paramID, paramDesc, layerParamOffset);
    return MIOPEN_TRY({
        auto& pd = MutableTensorOut(paramDesc, "paramDesc");
        TensorDescriptor d;
        const size_t off = miopen::RnnLayerPiece(DerefRNN(rnnDesc, "rnnDesc"), layer,
                                                 DerefTensor(xDesc, "xDesc"), paramID, false, &d);
        pd = d;
        if(layerParamOffset != nullptr)
            *layerParamOffset = off;
    });
}

extern "C" miopenStatus_t miopenGetRNNLayerBiasOffset(miopenRNNDescriptor_t rnnDesc,
                                                      const int layer,
                                                      miopenTensorDescriptor_t xDesc,
                                                      const int biasID,
                                                      miopenTensorDescriptor_t biasDesc,
                                                      size_t* layerBiasOffset)
{
    MIOPEN_LOG_FUNCTION(rnnDesc, layer, xDesc, biasID, biasDesc, layerBiasOffset);
    return MIOPEN_TRY({
        auto& bd = MutableTensorOut(biasDesc, "biasDesc");
        TensorDescriptor d;
        const size_t off = miopen::RnnLayerPiece(DerefRNN(rnnDesc, "rnnDesc"), layer,
                                                 DerefTensor(xDesc, "xDesc"), biasID, true, &d);
        bd = d;
        if(layerBiasOffset != nullptr)
            *layerBiasOffset = off;
    });
}

namespace {

miopenStatus_t GetPiece(const char* api, miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                        int layer, miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc,
                        const void* w, int id, miopenTensorDescriptor_t pieceDesc, void* piece,
                        bool bias)
{
    return miopen::Try(api, [&] {
        auto& h  = miopen::DerefHandle(handle);
        auto& pd = MutableTensorOut(pieceDesc, bias ? "biasDesc" : "paramDesc");
        const auto& r  = DerefRNN(rnnDesc, "rnnDesc");
        const auto& xd = DerefTensor(xDesc, "xDesc");
        TensorDescriptor d;
        miopen::RnnLayerPiece(r, layer, xd, id, bias, &d);
        if(piece != nullptr)
            miopen::RnnCopyPiece(h, r, layer, xd, DerefTensor(wDesc, "wDesc"),
                                 const_cast<void*>(w), id, bias, &d, piece, false);
        pd = d;
    });
}

miopenStatus_t SetPiece(const char* api, miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                        int layer, miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc,
                        void* w, int id, miopenTensorDescriptor_t pieceDesc, const void* piece,
                        bool bias)
{
    return miopen::Try(api, [&] {
        auto& h = miopen::DerefHandle(handle);
        const auto& r  = DerefRNN(rnnDesc, "rnnDesc");
        const auto& xd = DerefTensor(xDesc, "xDesc");
        miopen::RnnCopyPiece(h, r, layer, xd, DerefTensor(wDesc, "wDesc"), w, id, bias,
                             &DerefTensor(pieceDesc, bias ? "biasDesc" : "paramDesc"),
                             const_cast<void*>(piece), true);
    });
}

} // namespace

extern "C" miopenStatus_t miopenGetRNNLayerParam(miopenHandle_t handle,
                                                 miopenRNNDescriptor_t rnnDesc, const int layer,
                                                 miopenTensorDescriptor_t xDesc,
                                                 miopenTensorDescriptor_t wDesc, const void* w,
                                                 const int paramID,
                                                 miopenTensorDescriptor_t paramDesc,
                                                 void* layerParam)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, layer, xDesc, wDesc, w, paramID, paramDesc, layerParam);
    return GetPiece(__func__, handle, rnnDesc, layer, xDesc, wDesc, w, paramID, paramDesc,
                    layerParam, false);
}

extern "C" miopenStatus_t miopenGetRNNLayerBias(miopenHandle_t handle,
                                                miopenRNNDescriptor_t rnnDesc, const int layer,
                                                miopenTensorDescriptor_t xDesc,
                                                miopenTensorDescriptor_t wDesc, const void* w,
                                                const int biasID,
                                                miopenTensorDescriptor_t biasDesc,
                                                void* layerBias)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, layer, xDesc, wDesc, w, biasID, biasDesc, layerBias);
    return GetPiece(__func__, handle, rnnDesc, layer, xDesc, wDesc, w, biasID, biasDesc,
                    layerBias, true);
}

extern "C" miopenStatus_t miopenSetRNNLayerParam(miopenHandle_t handle,
                                                 miopenRNNDescriptor_t rnnDesc, const int layer,
                                                 miopenTensorDescriptor_t xDesc,
                                                 miopenTensorDescriptor_t wDesc, void* w,
                                                 const int paramID,
                                                 miopenTensorDescriptor_t paramDesc,
                                                 const void* layerParam)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, layer, xDesc, wDesc, w, paramID, paramDesc, layerParam);
    return SetPiece(__func__, handle, rnnDesc, layer, xDesc, wDesc, w, paramID, paramDesc,
                    layerParam, false);
}

extern "C" miopenStatus_t miopenSetRNNLayerBias(miopenHandle_t handle,
                                                miopenRNNDescriptor_t rnnDesc, const int layer,
                                                miopenTensorDescriptor_t xDesc,
                                                miopenTensorDescriptor_t wDesc, void* w,
                                                const int biasID,
                                                miopenTensorDescriptor_t biasDesc,
                                                const void* layerBias)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, layer, xDesc, wDesc, w, biasID, biasDesc, layerBias);
    return SetPiece(__func__, handle, rnnDesc, layer, xDesc, wDesc, w, biasID, biasDesc,
                    layerBias, true);
}

// ---- the packed API ----------------------------------------------------------------------------

namespace {

miopenStatus_t Forward(const char* api, miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                       int sequenceLen, const miopenTensorDescriptor_t* xDesc, const void* x,
                       miopenTensorDescriptor_t hxDesc, const void* hx,
                       miopenTensorDescriptor_t cxDesc, const void* cx,
                       miopenTensorDescriptor_t wDesc, const void* w,
                       const miopenTensorDescriptor_t* yDesc, void* y,
                       miopenTensorDescriptor_t hyDesc, void* hy, miopenTensorDescriptor_t cyDesc,
                       void* cy, void* workSpace, size_t workSpaceNumBytes, void* reserveSpace,
                       size_t reserveSpaceNumBytes, bool training)
{
    return miopen::Try(api, [&] {
        auto& h       = miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        auto a        = miopen::RnnArgsPacked(r, sequenceLen, xDesc, "xDesc", yDesc, "yDesc");
        miopen::RnnBuffers b;
        b.x = x; b.hx = hx; b.cx = cx; b.w = w; b.yout = y; b.hy = hy; b.cy = cy;
        b.workspace = workSpace; b.ws_bytes = workSpaceNumBytes;
        b.reserve = reserveSpace; b.rs_bytes = reserveSpaceNumBytes;
        b.hx_desc = OptTensor(hxDesc, "hxDesc");
        b.cx_desc = OptTensor(cxDesc, "cxDesc");
        b.hy_desc = OptTensor(hyDesc, "hyDesc");
        b.cy_desc = OptTensor(cyDesc, "cyDesc");
        b.w_desc  = &DerefTensor(wDesc, "wDesc");
        if(hx != nullptr && b.hx_desc == nullptr)
            miopen::ThrowBadParm("hxDesc is null but hx is given");
        if(hy != nullptr && b.hy_desc == nullptr)
            miopen::ThrowBadParm("hyDesc is null but hy is given");
        if(r.Mode() == miopenLSTM && cx != nullptr && b.cx_desc == nullptr)
            miopen::ThrowBadParm("cxDesc is null but cx is given");
        if(r.Mode() == miopenLSTM && cy != nullptr && b.cy_desc == nullptr)
            miopen::ThrowBadParm("cyDesc is null but cy is given");
        miopen::RnnRun(h, r,
                       training ? miopen::RnnCall::ForwardTraining
                                : miopen::RnnCall::ForwardInference,
                       a, b);
    });
}

} // namespace

extern "C" miopenStatus_t miopenRNNForwardTraining(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t* xDesc, const void* x, const miopenTensorDescriptor_t hxDesc,
    const void* hx, const miopenTensorDescriptor_t cxDesc, const void* cx,
    const miopenTensorDescriptor_t wDesc, const void* w, const miopenTensorDescriptor_t* yDesc,
    void* y, const miopenTensorDescriptor_t hyDesc, void* hy,
    const miopenTensorDescriptor_t cyDesc, void* cy, void* workSpace, size_t workSpaceNumBytes,
    void* reserveSpace, size_t reserveSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc, w,
                        yDesc, y, hyDesc, hy, cyDesc, cy, workSpace, workSpaceNumBytes,
                        reserveSpace, reserveSpaceNumBytes);
    return Forward(__func__, handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc,
                   w, yDesc, y, hyDesc, hy, cyDesc, cy, workSpace, workSpaceNumBytes,
                   reserveSpace, reserveSpaceNumBytes, true);
}

extern "C" miopenStatus_t miopenRNNForwardInference(
    miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t* xDesc, const void* x, const miopenTensorDescriptor_t hxDesc,
    const void* hx, const miopenTensorDescriptor_t cxDesc, const void* cx,
    const miopenTensorDescriptor_t wDesc, const void* w, const miopenTensorDescriptor_t* yDesc,
    void* y, const miopenTensorDescriptor_t hyDesc, void* hy,
    const miopenTensorDescriptor_t cyDesc, void* cy, void* workSpace, size_t workSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc, w,
                        yDesc, y, hyDesc, hy, cyDesc, cy, workSpace, workSpaceNumBytes);
    return Forward(__func__, handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc,
                   w, yDesc, y, hyDesc, hy, cyDesc, cy, workSpace, workSpaceNumBytes, nullptr, 0,
                   false);
}

extern "C" miopenStatus_t miopenRNNBackwardData(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t* yDesc, const void* y, const miopenTensorDescriptor_t* dyDesc,
    const void* dy, const miopenTensorDescriptor_t dhyDesc, const void* dhy,
    const miopenTensorDescriptor_t dcyDesc, const void* dcy, const miopenTensorDescriptor_t wDesc,
    const void* w, const miopenTensorDescriptor_t hxDesc, const void* hx,
    const miopenTensorDescriptor_t cxDesc, const void* cx, const miopenTensorDescriptor_t* dxDesc,
    void* dx, const miopenTensorDescriptor_t dhxDesc, void* dhx,
    const miopenTensorDescriptor_t dcxDesc, void* dcx, void* workSpace, size_t workSpaceNumBytes,
    void* reserveSpace, size_t reserveSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, sequenceLen, yDesc, y, dyDesc, dy, dhyDesc, dhy, dcyDesc,
                        dcy, wDesc, w, hxDesc, hx, cxDesc, cx, dxDesc, dx, dhxDesc, dhx, dcxDesc,
                        dcx, workSpace, workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes);
    return MIOPEN_TRY({
        auto& h       = miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        auto a        = miopen::RnnArgsPacked(r, sequenceLen, dxDesc, "dxDesc", dyDesc, "dyDesc");
        miopen::StepDescs(r, sequenceLen, yDesc, "yDesc");
        miopen::RnnBuffers b;
        b.y = y; b.dy = dy; b.dhy = dhy; b.dcy = dcy; b.w = w; b.hx = hx; b.cx = cx;
        b.dx = dx; b.dhx = dhx; b.dcx = dcx;
        b.workspace = workSpace; b.ws_bytes = workSpaceNumBytes;
        b.reserve = reserveSpace; b.rs_bytes = reserveSpaceNumBytes;
        b.hx_desc  = OptTensor(hxDesc, "hxDesc");
        b.cx_desc  = OptTensor(cxDesc, "cxDesc");
        b.dhy_desc = OptTensor(dhyDesc, "dhyDesc");
        b.dcy_desc = OptTensor(dcyDesc, "dcyDesc");
        b.dhx_desc = OptTensor(dhxDesc, "dhxDesc");
        b.dcx_desc = OptTensor(dcxDesc, "dcxDesc");
        b.w_desc   = &DerefTensor(wDesc, "wDesc");
        miopen::RnnRun(h, r, miopen::RnnCall::BackwardData, a, b);
    });
}

extern "C" miopenStatus_t miopenRNNBackwardWeights(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t* xDesc, const void* x, const miopenTensorDescriptor_t hxDesc,
    const void* hx, const miopenTensorDescriptor_t* yDesc, const void* y,
    const miopenTensorDescriptor_t dwDesc, void* dw, void* workSpace, size_t workSpaceNumBytes,
    const void* reserveSpace, size_t reserveSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx, yDesc, y, dwDesc, dw,
                        workSpace, workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes);
    return MIOPEN_TRY({
        auto& h       = miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        auto a        = miopen::RnnArgsPacked(r, sequenceLen, xDesc, "xDesc", yDesc, "yDesc");
        miopen::RnnBuffers b;
        b.x = x; b.hx = hx; b.y = y; b.dw = dw;
        b.workspace = workSpace; b.ws_bytes = workSpaceNumBytes;
        b.reserve = const_cast<void*>(reserveSpace); b.rs_bytes = reserveSpaceNumBytes;
        b.hx_desc = OptTensor(hxDesc, "hxDesc");
        b.w_desc  = &DerefTensor(dwDesc, "dwDesc");
        miopen::RnnRun(h, r, miopen::RnnCall::BackwardWeights, a, b);
    });
}

// ---- the sequence-tensor API -------------------------------------------------------------------

extern "C" miopenStatus_t miopenRNNForward(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, miopenRNNFWDMode_t fwdMode,
    const miopenSeqTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t hDesc,
    const void* hx, void* hy, const miopenTensorDescriptor_t cDesc, const void* cx, void* cy,
    const miopenSeqTensorDescriptor_t yDesc, void* y, const void* w, size_t weightSpaceSize,
    void* workSpace, size_t workSpaceNumBytes, void* reserveSpace, size_t reserveSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, fwdMode, xDesc, x, hDesc, hx, hy, cDesc, cx, cy, yDesc, y,
                        w, weightSpaceSize, workSpace, workSpaceNumBytes, reserveSpace,
                        reserveSpaceNumBytes);
    return MIOPEN_TRY({
        auto& h       = miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        const int mode = miopen::CheckedEnum(fwdMode, "fwdMode", "miopenRNNFWDMode_t", {0, 1});
        auto a = miopen::RnnArgsSeq(r, DerefSeq(xDesc, "xDesc"), "xDesc", DerefSeq(yDesc, "yDesc"),
                                    "yDesc");
        miopen::RnnBuffers b;
        b.x = x; b.hx = hx; b.hy = hy; b.cx = cx; b.cy = cy; b.yout = y; b.w = w;
        b.w_bytes = weightSpaceSize;
        b.workspace = workSpace; b.ws_bytes = workSpaceNumBytes;
        b.reserve = reserveSpace; b.rs_bytes = reserveSpaceNumBytes;
        const TensorDescriptor* hd = (hx || hy) ? &DerefTensor(hDesc, "hDesc") : nullptr;
        const TensorDescriptor* cd =
            (r.Mode() == miopenLSTM && (cx || cy)) ? &DerefTensor(cDesc, "cDesc") : nullptr;
        b.hx_desc = hd;
        b.cx_desc = cd;
        miopen::RnnRun(h, r,
                       mode == miopenRNNTraining ? miopen::RnnCall::ForwardTraining
                                                 : miopen::RnnCall::ForwardInference,
                       a, b);
    });
}

extern "C" miopenStatus_t miopenRNNBackwardSeqData(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
    const miopenSeqTensorDescriptor_t yDesc, const void* y, const void* dy,
    const miopenTensorDescriptor_t hDesc, const void* hx, const void* dhy, void* dhx,
    const miopenTensorDescriptor_t cDesc, const void* cx, const void* dcy, void* dcx,
    const miopenSeqTensorDescriptor_t xDesc, void* dx, const void* w, size_t weightSpaceSize,
    void* workSpace, size_t workSpaceNumBytes, void* reserveSpace, size_t reserveSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, yDesc, y, dy, hDesc, hx, dhy, dhx, cDesc, cx, dcy, dcx,
                        xDesc, dx, w, weightSpaceSize, workSpace, workSpaceNumBytes, reserveSpace,
                        reserveSpaceNumBytes);
    return MIOPEN_TRY({
        auto& h       = miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        auto a = miopen::RnnArgsSeq(r, DerefSeq(xDesc, "xDesc"), "xDesc", DerefSeq(yDesc, "yDesc"),
                                    "yDesc");
        miopen::RnnBuffers b;
        b.y = y; b.dy = dy; b.hx = hx; b.dhy = dhy; b.dhx = dhx; b.cx = cx; b.dcy = dcy;
        b.dcx = dcx; b.dx = dx; b.w = w; b.w_bytes = weightSpaceSize;
        b.workspace = workSpace; b.ws_bytes = workSpaceNumBytes;
        b.reserve = reserveSpace; b.rs_bytes = reserveSpaceNumBytes;
        const TensorDescriptor* hd =
            (hx || dhy || dhx) ? &DerefTensor(hDesc, "hDesc") : nullptr;
        const TensorDescriptor* cd = (r.Mode() == miopenLSTM && (cx || dcy || dcx))
                                         ? &DerefTensor(cDesc, "cDesc")
                                         : nullptr;
        b.hx_desc = hd;
        b.cx_desc = cd;
        miopen::RnnRun(h, r, miopen::RnnCall::BackwardData, a, b);
    });
}

extern "C" miopenStatus_t miopenRNNBackwardWeightsSeqTensor(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
    const miopenSeqTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t hDesc,
    const void* hx, const miopenSeqTensorDescriptor_t yDesc, const void* y, void* dw,
    size_t weightSpaceSize, void* workSpace, size_t workSpaceNumBytes, const void* reserveSpace,
    size_t reserveSpaceNumBytes)
{
    MIOPEN_LOG_FUNCTION(handle, rnnDesc, xDesc, x, hDesc, hx, yDesc, y, dw, weightSpaceSize,
                        workSpace, workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes);
    return MIOPEN_TRY({
        auto& h       = miopen::DerefHandle(handle);
        const auto& r = SetRNN(rnnDesc);
        auto a = miopen::RnnArgsSeq(r, DerefSeq(xDesc, "xDesc"), "xDesc", DerefSeq(yDesc, "yDesc"),
                                    "yDesc");
        miopen::RnnBuffers b;
        b.x = x; b.hx = hx; b.y = y; b.dw = dw; b.w_bytes = weightSpaceSize;
        b.workspace = workSpace; b.ws_bytes = workSpaceNumBytes;
        b.reserve = const_cast<void*>(reserveSpace); b.rs_bytes = reserveSpaceNumBytes;
        b.hx_desc = hx ? &DerefTensor(hDesc, "hDesc") : nullptr;
        miopen::RnnRun(h, r, miopen::RnnCall::BackwardWeights, a, b);
    });
}
