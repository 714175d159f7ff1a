// extern "C" shims for the CTC loss descriptor, its workspace size and miopenCTCLoss.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "ctc/ctc.hpp"

using miopen::CTCLossDescriptor;
using miopen::DerefTensor;
using miopen::Out;

extern "C" miopenStatus_t miopenCreateCTCLossDescriptor(miopenCTCLossDescriptor_t* ctcLossDesc)
{
    MIOPEN_LOG_FUNCTION(ctcLossDesc);
    return MIOPEN_TRY({ miopen::CreateObject<CTCLossDescriptor>(ctcLossDesc, "ctcLossDesc"); });
}

extern "C" miopenStatus_t miopenDestroyCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc)
{
    MIOPEN_LOG_FUNCTION(ctcLossDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<CTCLossDescriptor>(ctcLossDesc, "ctcLossDesc"); });
}

extern "C" miopenStatus_t miopenGetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                                     miopenDataType_t* dataType,
                                                     int* blank_label_id,
                                                     bool* apply_softmax_layer)
{
    MIOPEN_LOG_FUNCTION(ctcLossDesc, dataType, blank_label_id, apply_softmax_layer);
    return MIOPEN_TRY({
        const auto& d = miopen::DerefCTCLoss(ctcLossDesc, "ctcLossDesc");
        // MIOpen's: dataType is required, the other two may be null.
        Out(dataType, "dataType") = d.Type();
        if(blank_label_id != nullptr)
            *blank_label_id = d.Blank();
        if(apply_softmax_layer != nullptr)
            *apply_softmax_layer = d.ApplySoftmax();
    });
}

extern "C" miopenStatus_t miopenSetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                                     miopenDataType_t dataType,
                                                     const int blank_label_id,
                                                     bool apply_softmax_layer)
{
    MIOPEN_LOG_FUNCTION(ctcLossDesc, dataType, blank_label_id, apply_softmax_layer);
    return MIOPEN_TRY({
        auto& d = miopen::DerefCTCLoss(ctcLossDesc, "ctcLossDesc");
        d.Set(static_cast<miopenDataType_t>(miopen::EnumValue(dataType)), blank_label_id,
              apply_softmax_layer);
    });
}

extern "C" miopenStatus_t
miopenGetCTCLossWorkspaceSize(miopenHandle_t handle, const miopenTensorDescriptor_t probsDesc,
                              const miopenTensorDescriptor_t gradientsDesc, const int* labels,
                              const int* labelLengths, const int* inputLengths,
                              miopenCTCLossAlgo_t algo, const miopenCTCLossDescriptor_t ctcLossDesc,
                              size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, probsDesc, gradientsDesc, labels, labelLengths, inputLengths, algo,
                        ctcLossDesc, workSpaceSize);
    return MIOPEN_TRY({
        const auto& h = miopen::DerefHandle(handle);
        const auto& pd = DerefTensor(probsDesc, "probsDesc");
        const auto& gd = DerefTensor(gradientsDesc, "gradientsDesc");
        const auto& d  = miopen::DerefCTCLoss(ctcLossDesc, "ctcLossDesc");
        auto& out      = Out(workSpaceSize, "workSpaceSize");
        out = miopen::CTCLossWorkspaceSize(h, pd, gd, labels, labelLengths, inputLengths,
                                           miopen::EnumValue(algo), d);
    });
}

extern "C" miopenStatus_t miopenCTCLoss(miopenHandle_t handle,
                                        const miopenTensorDescriptor_t probsDesc,
                                        const void* probs, const int* labels,
                                        const int* labelLengths, const int* inputLengths,
                                        void* losses, const miopenTensorDescriptor_t gradientsDesc,
                                        void* gradients, miopenCTCLossAlgo_t algo,
                                        const miopenCTCLossDescriptor_t ctcLossDesc,
                                        void* workSpace, size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, probsDesc, probs, labels, labelLengths, inputLengths, losses,
                        gradientsDesc, gradients, algo, ctcLossDesc, workSpace, workSpaceSize);
    return MIOPEN_TRY({
        miopen::CTCLoss(miopen::DerefHandle(handle), DerefTensor(probsDesc, "probsDesc"), probs,
                        labels, labelLengths, inputLengths, losses,
                        DerefTensor(gradientsDesc, "gradientsDesc"), gradients,
                        miopen::EnumValue(algo), miopen::DerefCTCLoss(ctcLossDesc, "ctcLossDesc"),
                        workSpace, workSpaceSize);
    });
}
