// extern "C" shims for the convolution descriptor, workspace queries, legacy Find and the run
// calls.
#include "conv/conv_descriptor.hpp"
#include "conv/convolution.hpp"
#include "api/conv_call.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <vector>

using miopen::ConvolutionDescriptor;
using miopen::DerefConv;
using miopen::DerefTensor;
using miopen::Out;
using miopen::UserDirection;
using miopen::api::CallArgs;

namespace {

std::vector<int> ReadInts(const int* values, int count, const char* name)
{
    if(values == nullptr)
        miopen::ThrowBadParm(name, " is a null pointer");
    return std::vector<int>(values, values + count);
}

void CheckSpatialDim(int spatialDim, const char* name)
{
    if(spatialDim < 1 || spatialDim > 3)
        miopen::ThrowBadParm(name, " = ", spatialDim, "; expected 1, 2 or 3");
}

void WritePerf(const std::vector<miopen::FindPerf>& found, int* returnedAlgoCount,
               miopenConvAlgoPerf_t* perfResults)
{
    for(size_t i = 0; i < found.size(); ++i)
    {
        perfResults[i].fwd_algo = static_cast<miopenConvFwdAlgorithm_t>(found[i].algorithm);
        perfResults[i].time     = found[i].time_ms;
        perfResults[i].memory   = found[i].workspace;
    }
    *returnedAlgoCount = static_cast<int>(found.size());
}


miopenStatus_t Workspace(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                         const CallArgs& c, size_t* workSpaceSize)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        Out(workSpaceSize, "workSpaceSize") =
            miopen::ConvWorkspaceSize(miopen::DerefHandle(handle), DerefConv(convDesc), call);
    });
}

miopenStatus_t Find(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                    const CallArgs& c, int requestAlgoCount, int* returnedAlgoCount,
                    miopenConvAlgoPerf_t* perfResults, void* workSpace, size_t workSpaceSize,
                    bool exhaustiveSearch)
{
    return miopen::Try(api, [&] {
        Out(returnedAlgoCount, "returnedAlgoCount");
        Out(perfResults, "perfResults");
        const auto call = c.Make();
        WritePerf(miopen::ConvFind(miopen::DerefHandle(handle), DerefConv(convDesc), call, requestAlgoCount,
                                   workSpace, workSpaceSize, exhaustiveSearch),
                  returnedAlgoCount, perfResults);
    });
}

/// A run with an algorithm: `algo()` checks the user's enum (after the descriptors) and gives
/// the algorithm's value.
template <class Algo>
miopenStatus_t Run(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                   const CallArgs& c, Algo algo, const void* alpha, const void* beta, void* workSpace,
                   size_t workSpaceSize)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        miopen::ConvRun(miopen::DerefHandle(handle), DerefConv(convDesc), call, algo(), alpha, beta, workSpace,
                        workSpaceSize);
    });
}

} // namespace

extern "C" miopenStatus_t miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return MIOPEN_TRY({ miopen::CreateObject<ConvolutionDescriptor>(convDesc, "convDesc"); });
}

extern "C" miopenStatus_t miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<ConvolutionDescriptor>(convDesc, "convDesc"); });
}

extern "C" miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                          miopenConvolutionMode_t c_mode,
                                                          int pad_h,
                                                          int pad_w,
                                                          int stride_h,
                                                          int stride_w,
                                                          int dilation_h,
                                                          int dilation_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, c_mode, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w);
    return MIOPEN_TRY({
        auto& d = DerefConv(convDesc);
        if(pad_h < 0 || pad_w < 0)
            miopen::ThrowBadParm("pad_h = ", pad_h, ", pad_w = ", pad_w, "; pads must be >= 0");
        if(stride_h < 1 || stride_w < 1)
            miopen::ThrowBadParm("stride_h = ", stride_h, ", stride_w = ", stride_w,
                                 "; strides must be >= 1");
        if(dilation_h < 1 || dilation_w < 1)
            miopen::ThrowBadParm("dilation_h = ", dilation_h, ", dilation_w = ", dilation_w,
                                 "; dilations must be >= 1");
        d.Init(miopen::CheckedEnum(c_mode, "c_mode", "miopenConvolutionMode_t", {0, 1, 2, 3}), {pad_h, pad_w}, {stride_h, stride_w}, {dilation_h, dilation_w});
    });
}

extern "C" miopenStatus_t miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            int spatialDim,
                                                            const int* padA,
                                                            const int* strideA,
                                                            const int* dilationA,
                                                            miopenConvolutionMode_t c_mode)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim, padA, strideA, dilationA, c_mode);
    return MIOPEN_TRY({
        auto& d = DerefConv(convDesc);
        CheckSpatialDim(spatialDim, "spatialDim");
        d.Init(miopen::CheckedEnum(c_mode, "c_mode", "miopenConvolutionMode_t", {0, 1, 2, 3}), ReadInts(padA, spatialDim, "padA"), ReadInts(strideA, spatialDim, "strideA"),
               ReadInts(dilationA, spatialDim, "dilationA"));
    });
}

extern "C" miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                         int* spatialDim)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim);
    return MIOPEN_TRY({ Out(spatialDim, "spatialDim") = DerefConv(convDesc).SpatialDims(); });
}

extern "C" miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                         miopenConvolutionMode_t* c_mode,
                                                         int* pad_h,
                                                         int* pad_w,
                                                         int* stride_h,
                                                         int* stride_w,
                                                         int* dilation_h,
                                                         int* dilation_w)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return MIOPEN_TRY({
        const auto& d = DerefConv(convDesc);
        if(d.SpatialDims() != 2)
            miopen::ThrowBadParm("convDesc has ", d.SpatialDims(),
                                 " spatial dims; use miopenGetConvolutionNdDescriptor");
        Out(c_mode, "c_mode");
        Out(pad_h, "pad_h");
        Out(pad_w, "pad_w");
        Out(stride_h, "stride_h");
        Out(stride_w, "stride_w");
        Out(dilation_h, "dilation_h");
        Out(dilation_w, "dilation_w");
        *c_mode     = d.Mode();
        *pad_h      = d.Pads()[0];
        *pad_w      = d.Pads()[1];
        *stride_h   = d.Strides()[0];
        *stride_w   = d.Strides()[1];
        *dilation_h = d.Dilations()[0];
        *dilation_w = d.Dilations()[1];
    });
}

extern "C" miopenStatus_t miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                           int requestedSpatialDim,
                                                           int* spatialDim,
                                                           int* padA,
                                                           int* strideA,
                                                           int* dilationA,
                                                           miopenConvolutionMode_t* c_mode)
{
    MIOPEN_LOG_FUNCTION(convDesc, requestedSpatialDim);
    return MIOPEN_TRY({
        const auto& d = DerefConv(convDesc);
        if(requestedSpatialDim < d.SpatialDims())
            miopen::ThrowBadParm("requestedSpatialDim = ", requestedSpatialDim, " but convDesc has ",
                                 d.SpatialDims(), " spatial dims");
        Out(spatialDim, "spatialDim");
        Out(padA, "padA");
        Out(strideA, "strideA");
        Out(dilationA, "dilationA");
        Out(c_mode, "c_mode");
        *spatialDim = d.SpatialDims();
        for(int i = 0; i < d.SpatialDims(); ++i)
        {
            padA[i]      = d.Pads()[i];
            strideA[i]   = d.Strides()[i];
            dilationA[i] = d.Dilations()[i];
        }
        *c_mode = d.Mode();
    });
}

extern "C" miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                         int* groupCount)
{
    MIOPEN_LOG_FUNCTION(convDesc, groupCount);
    return MIOPEN_TRY({ Out(groupCount, "groupCount") = DerefConv(convDesc).GroupCount(); });
}

extern "C" miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                         int groupCount)
{
    MIOPEN_LOG_FUNCTION(convDesc, groupCount);
    return MIOPEN_TRY({ DerefConv(convDesc).SetGroupCount(groupCount); });
}

extern "C" miopenStatus_t miopenSetTransposeConvOutputPadding(miopenConvolutionDescriptor_t convDesc,
                                                              int adj_h,
                                                              int adj_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, adj_h, adj_w);
    return MIOPEN_TRY({
        auto& d = DerefConv(convDesc);
        if(d.SpatialDims() != 2)
            miopen::ThrowBadParm("convDesc has ", d.SpatialDims(),
                                 " spatial dims; use miopenSetTransposeConvNdOutputPadding");
        d.SetTransposeOutputPadding({adj_h, adj_w});
    });
}

extern "C" miopenStatus_t miopenSetTransposeConvNdOutputPadding(miopenConvolutionDescriptor_t convDesc,
                                                                int spatialDim,
                                                                const int* adjA)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim, adjA);
    return MIOPEN_TRY({
        auto& d = DerefConv(convDesc);
        CheckSpatialDim(spatialDim, "spatialDim");
        d.SetTransposeOutputPadding(ReadInts(adjA, spatialDim, "adjA"));
    });
}

extern "C" miopenStatus_t miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                                               const miopenTensorDescriptor_t inputTensorDesc,
                                                               const miopenTensorDescriptor_t filterDesc,
                                                               int* n,
                                                               int* c,
                                                               int* h,
                                                               int* w)
{
    MIOPEN_LOG_FUNCTION(convDesc, inputTensorDesc, filterDesc);
    return MIOPEN_TRY({
        const auto& d = DerefConv(convDesc);
        if(d.SpatialDims() != 2)
            miopen::ThrowBadParm("convDesc has ", d.SpatialDims(),
                                 " spatial dims; use miopenGetConvolutionNdForwardOutputDim");
        const auto lens = d.ForwardOutputLens(DerefTensor(inputTensorDesc, "inputTensorDesc"),
                                              DerefTensor(filterDesc, "filterDesc"));
        Out(n, "n");
        Out(c, "c");
        Out(h, "h");
        Out(w, "w");
        *n = static_cast<int>(lens[0]);
        *c = static_cast<int>(lens[1]);
        *h = static_cast<int>(lens[2]);
        *w = static_cast<int>(lens[3]);
    });
}

extern "C" miopenStatus_t miopenGetConvolutionNdForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                                                 const miopenTensorDescriptor_t inputTensorDesc,
                                                                 const miopenTensorDescriptor_t filterDesc,
                                                                 int* nDim,
                                                                 int* outputTensorDimA)
{
    MIOPEN_LOG_FUNCTION(convDesc, inputTensorDesc, filterDesc);
    return MIOPEN_TRY({
        const auto lens = DerefConv(convDesc).ForwardOutputLens(
            DerefTensor(inputTensorDesc, "inputTensorDesc"), DerefTensor(filterDesc, "filterDesc"));
        Out(nDim, "nDim");
        Out(outputTensorDimA, "outputTensorDimA");
        *nDim = static_cast<int>(lens.size());
        for(size_t i = 0; i < lens.size(); ++i)
            outputTensorDimA[i] = static_cast<int>(lens[i]);
    });
}

extern "C" miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                        const miopenConvolutionAttrib_t attr,
                                                        int value)
{
    MIOPEN_LOG_FUNCTION(convDesc, attr, value);
    return MIOPEN_TRY({ DerefConv(convDesc).SetAttribute(miopen::EnumValue(attr), value); });
}

extern "C" miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                        const miopenConvolutionAttrib_t attr,
                                                        int* value)
{
    MIOPEN_LOG_FUNCTION(convDesc, attr, value);
    return MIOPEN_TRY({ Out(value, "value") = DerefConv(convDesc).GetAttribute(miopen::EnumValue(attr)); });
}

// ---- workspace queries ------------------------------------------------------------------------

extern "C" miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle,
                                                                   const miopenTensorDescriptor_t wDesc,
                                                                   const miopenTensorDescriptor_t xDesc,
                                                                   const miopenConvolutionDescriptor_t convDesc,
                                                                   const miopenTensorDescriptor_t yDesc,
                                                                   size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc);
    return Workspace(__func__, handle, convDesc,
                     {UserDirection::Forward, xDesc, nullptr, wDesc, nullptr, yDesc, nullptr},
                     workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize(miopenHandle_t handle,
                                                                        const miopenTensorDescriptor_t dyDesc,
                                                                        const miopenTensorDescriptor_t wDesc,
                                                                        const miopenConvolutionDescriptor_t convDesc,
                                                                        const miopenTensorDescriptor_t dxDesc,
                                                                        size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc);
    return Workspace(__func__, handle, convDesc,
                     {UserDirection::BackwardData, dxDesc, nullptr, wDesc, nullptr, dyDesc, nullptr},
                     workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize(miopenHandle_t handle,
                                                                           const miopenTensorDescriptor_t dyDesc,
                                                                           const miopenTensorDescriptor_t xDesc,
                                                                           const miopenConvolutionDescriptor_t convDesc,
                                                                           const miopenTensorDescriptor_t dwDesc,
                                                                           size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc);
    return Workspace(__func__, handle, convDesc,
                     {UserDirection::BackwardWeights, xDesc, nullptr, dwDesc, nullptr, dyDesc, nullptr},
                     workSpaceSize);
}

// ---- Find --------------------------------------------------------------------------------------

extern "C" miopenStatus_t miopenFindConvolutionForwardAlgorithm(miopenHandle_t handle,
                                                                const miopenTensorDescriptor_t xDesc,
                                                                const void* x,
                                                                const miopenTensorDescriptor_t wDesc,
                                                                const void* w,
                                                                const miopenConvolutionDescriptor_t convDesc,
                                                                const miopenTensorDescriptor_t yDesc,
                                                                void* y,
                                                                const int requestAlgoCount,
                                                                int* returnedAlgoCount,
                                                                miopenConvAlgoPerf_t* perfResults,
                                                                void* workSpace,
                                                                size_t workSpaceSize,
                                                                bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, xDesc, x, wDesc, w, convDesc, yDesc, y, requestAlgoCount,
                        workSpace, workSpaceSize, exhaustiveSearch);
    return Find(__func__, handle, convDesc,
                {UserDirection::Forward, xDesc, x, wDesc, w, yDesc, y},
                requestAlgoCount, returnedAlgoCount, perfResults, workSpace, workSpaceSize, exhaustiveSearch);
}

extern "C" miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm(miopenHandle_t handle,
                                                                     const miopenTensorDescriptor_t dyDesc,
                                                                     const void* dy,
                                                                     const miopenTensorDescriptor_t wDesc,
                                                                     const void* w,
                                                                     const miopenConvolutionDescriptor_t convDesc,
                                                                     const miopenTensorDescriptor_t dxDesc,
                                                                     void* dx,
                                                                     const int requestAlgoCount,
                                                                     int* returnedAlgoCount,
                                                                     miopenConvAlgoPerf_t* perfResults,
                                                                     void* workSpace,
                                                                     size_t workSpaceSize,
                                                                     bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, requestAlgoCount,
                        workSpace, workSpaceSize, exhaustiveSearch);
    return Find(__func__, handle, convDesc,
                {UserDirection::BackwardData, dxDesc, dx, wDesc, w, dyDesc, dy},
                requestAlgoCount, returnedAlgoCount, perfResults, workSpace, workSpaceSize, exhaustiveSearch);
}

extern "C" miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm(miopenHandle_t handle,
                                                                        const miopenTensorDescriptor_t dyDesc,
                                                                        const void* dy,
                                                                        const miopenTensorDescriptor_t xDesc,
                                                                        const void* x,
                                                                        const miopenConvolutionDescriptor_t convDesc,
                                                                        const miopenTensorDescriptor_t dwDesc,
                                                                        void* dw,
                                                                        const int requestAlgoCount,
                                                                        int* returnedAlgoCount,
                                                                        miopenConvAlgoPerf_t* perfResults,
                                                                        void* workSpace,
                                                                        size_t workSpaceSize,
                                                                        bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw, requestAlgoCount,
                        workSpace, workSpaceSize, exhaustiveSearch);
    return Find(__func__, handle, convDesc,
                {UserDirection::BackwardWeights, xDesc, x, dwDesc, dw, dyDesc, dy},
                requestAlgoCount, returnedAlgoCount, perfResults, workSpace, workSpaceSize, exhaustiveSearch);
}

// ---- run with an algorithm -----------------------------------------------------------------------

extern "C" miopenStatus_t miopenConvolutionForward(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const miopenTensorDescriptor_t wDesc,
                                                   const void* w,
                                                   const miopenConvolutionDescriptor_t convDesc,
                                                   miopenConvFwdAlgorithm_t algo,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   void* y,
                                                   void* workSpace,
                                                   size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, beta, yDesc, y, workSpace,
                        workSpaceSize);
    const CallArgs c{UserDirection::Forward, xDesc, x, wDesc, w, yDesc, y};
    return Run(__func__, handle, convDesc, c,
               [&] { return miopen::CheckedEnum(algo, "algo", "miopenConvFwdAlgorithm_t", {0, 1, 2, 3, 5}); },
               alpha, beta, workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardData(miopenHandle_t handle,
                                                        const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy,
                                                        const miopenTensorDescriptor_t wDesc,
                                                        const void* w,
                                                        const miopenConvolutionDescriptor_t convDesc,
                                                        miopenConvBwdDataAlgorithm_t algo,
                                                        const void* beta,
                                                        const miopenTensorDescriptor_t dxDesc,
                                                        void* dx,
                                                        void* workSpace,
                                                        size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, wDesc, w, convDesc, algo, beta, dxDesc, dx,
                        workSpace, workSpaceSize);
    const CallArgs c{UserDirection::BackwardData, dxDesc, dx, wDesc, w, dyDesc, dy};
    return Run(__func__, handle, convDesc, c,
               [&] {
                   const int a = miopen::EnumValue(
                       miopen::CheckedEnum(algo, "algo", "miopenConvBwdDataAlgorithm_t", {0, 1, 2, 3, 4, 5}));
                   return a == miopenTransposeBwdDataAlgoGEMM ? 0 : a;
               },
               alpha, beta, workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeights(miopenHandle_t handle,
                                                           const void* alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const miopenTensorDescriptor_t xDesc,
                                                           const void* x,
                                                           const miopenConvolutionDescriptor_t convDesc,
                                                           miopenConvBwdWeightsAlgorithm_t algo,
                                                           const void* beta,
                                                           const miopenTensorDescriptor_t dwDesc,
                                                           void* dw,
                                                           void* workSpace,
                                                           size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, xDesc, x, convDesc, algo, beta, dwDesc, dw,
                        workSpace, workSpaceSize);
    const CallArgs c{UserDirection::BackwardWeights, xDesc, x, dwDesc, dw, dyDesc, dy};
    return Run(__func__, handle, convDesc, c,
               [&] {
                   return miopen::EnumValue(
                       miopen::CheckedEnum(algo, "algo", "miopenConvBwdWeightsAlgorithm_t", {0, 1, 3, 5}));
               },
               alpha, beta, workSpace, workSpaceSize);
}
