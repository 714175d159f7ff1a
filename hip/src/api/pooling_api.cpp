// extern "C" shims for pooling descriptors, miopenPoolingForward and miopenPoolingBackward.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "pooling/pooling.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

using miopen::DerefPooling;
using miopen::DerefPoolingObject;
using miopen::DerefTensor;
using miopen::EnumValue;
using miopen::Out;
using miopen::PoolingDescriptor;

extern "C" miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t* poolDesc)
{
    MIOPEN_LOG_FUNCTION(poolDesc);
    return MIOPEN_TRY({ miopen::CreateObject<PoolingDescriptor>(poolDesc, "poolDesc"); });
}

extern "C" miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc)
{
    MIOPEN_LOG_FUNCTION(poolDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<PoolingDescriptor>(poolDesc, "poolDesc"); });
}

extern "C" miopenStatus_t miopenSetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                    miopenIndexType_t index_type)
{
    MIOPEN_LOG_FUNCTION(poolDesc, index_type);
    return MIOPEN_TRY({
        DerefPoolingObject(poolDesc, "poolDesc").SetIndexType(EnumValue(index_type));
    });
}

extern "C" miopenStatus_t miopenGetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                    miopenIndexType_t* index_type)
{
    MIOPEN_LOG_FUNCTION(poolDesc, index_type);
    return MIOPEN_TRY({
        const auto& pool              = DerefPoolingObject(poolDesc, "poolDesc");
        Out(index_type, "index_type") = pool.IndexType();
    });
}

extern "C" miopenStatus_t miopenSetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t workspace_index)
{
    MIOPEN_LOG_FUNCTION(poolDesc, workspace_index);
    return MIOPEN_TRY({
        DerefPoolingObject(poolDesc, "poolDesc").SetIndexMode(EnumValue(workspace_index));
    });
}

extern "C" miopenStatus_t miopenGetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t* workspace_index)
{
    MIOPEN_LOG_FUNCTION(poolDesc, workspace_index);
    return MIOPEN_TRY({
        const auto& pool                        = DerefPoolingObject(poolDesc, "poolDesc");
        Out(workspace_index, "workspace_index") = pool.IndexMode();
    });
}

extern "C" miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                       miopenPoolingMode_t mode, int windowHeight,
                                                       int windowWidth, int pad_h, int pad_w,
                                                       int stride_h, int stride_w)
{
    MIOPEN_LOG_FUNCTION(poolDesc, mode, windowHeight, windowWidth, pad_h, pad_w, stride_h, stride_w);
    return MIOPEN_TRY({
        auto& pool          = DerefPoolingObject(poolDesc, "poolDesc");
        const int window[2] = {windowHeight, windowWidth};
        const int pads[2]   = {pad_h, pad_w};
        const int strides[2] = {stride_h, stride_w};
        pool.Set(EnumValue(mode), 2, window, pads, strides, true);
    });
}

extern "C" miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                       miopenPoolingMode_t* mode, int* windowHeight,
                                                       int* windowWidth, int* pad_h, int* pad_w,
                                                       int* stride_h, int* stride_w)
{
    MIOPEN_LOG_FUNCTION(poolDesc, mode, windowHeight, windowWidth, pad_h, pad_w, stride_h, stride_w);
    return MIOPEN_TRY({
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        if(pool.NumSpatialDims() != 2)
            miopen::ThrowBadParm("poolDesc has ", pool.NumSpatialDims(),
                                 " spatial dims; miopenGet2dPoolingDescriptor reads 2 (use "
                                 "miopenGetNdPoolingDescriptor)");
        int* outs[6]         = {windowHeight, windowWidth, pad_h, pad_w, stride_h, stride_w};
        const char* names[6] = {"windowHeight", "windowWidth", "pad_h", "pad_w", "stride_h",
                                "stride_w"};
        Out(mode, "mode");
        for(int i = 0; i < 6; ++i)
            Out(outs[i], names[i]);
        *mode = pool.Mode();
        for(int i = 0; i < 2; ++i)
        {
            *outs[i]     = pool.Window()[i];
            *outs[2 + i] = pool.Pads()[i];
            *outs[4 + i] = pool.Strides()[i];
        }
    });
}

extern "C" miopenStatus_t miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                           const miopenTensorDescriptor_t tensorDesc,
                                                           int* n, int* c, int* h, int* w)
{
    MIOPEN_LOG_FUNCTION(poolDesc, tensorDesc, n, c, h, w);
    return MIOPEN_TRY({
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        const auto& x    = DerefTensor(tensorDesc, "tensorDesc");
        if(pool.NumSpatialDims() != 2)
            miopen::ThrowBadParm("poolDesc has ", pool.NumSpatialDims(),
                                 " spatial dims; miopenGetPoolingForwardOutputDim returns 4 "
                                 "lengths (use miopenGetPoolingNdForwardOutputDim)");
        const auto out       = pool.OutputLens(x, "tensorDesc");
        int* outs[4]         = {n, c, h, w};
        const char* names[4] = {"n", "c", "h", "w"};
        for(int i = 0; i < 4; ++i)
            Out(outs[i], names[i]);
        for(int i = 0; i < 4; ++i)
            *outs[i] = miopen::ToInt(out[i], names[i]);
    });
}

extern "C" miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                       const miopenPoolingMode_t mode, int nbDims,
                                                       const int* windowDimA, const int* padA,
                                                       const int* stridesA)
{
    MIOPEN_LOG_FUNCTION(poolDesc, mode, nbDims, windowDimA, padA, stridesA);
    return MIOPEN_TRY({
        auto& pool = DerefPoolingObject(poolDesc, "poolDesc");
        miopen::CheckData(windowDimA, "windowDimA");
        miopen::CheckData(padA, "padA");
        miopen::CheckData(stridesA, "stridesA");
        pool.Set(EnumValue(mode), nbDims, windowDimA, padA, stridesA, false);
    });
}

extern "C" miopenStatus_t miopenGetNdPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                       int nbDimsRequested,
                                                       miopenPoolingMode_t* mode, int* nbDims,
                                                       int* windowDimA, int* padA, int* stridesA)
{
    MIOPEN_LOG_FUNCTION(poolDesc, nbDimsRequested, mode, nbDims, windowDimA, padA, stridesA);
    return MIOPEN_TRY({
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        if(nbDimsRequested < 0)
            miopen::ThrowBadParm("nbDimsRequested = ", nbDimsRequested, "; must be >= 0");
        // As in MIOpen, each output may be null (not wanted); the arrays get
        // min(nbDimsRequested, nbDims) entries.
        const int count = std::min(nbDimsRequested, pool.NumSpatialDims());
        if(mode != nullptr)
            *mode = pool.Mode();
        if(nbDims != nullptr)
            *nbDims = pool.NumSpatialDims();
        for(int i = 0; i < count; ++i)
        {
            if(windowDimA != nullptr)
                windowDimA[i] = pool.Window()[i];
            if(padA != nullptr)
                padA[i] = pool.Pads()[i];
            if(stridesA != nullptr)
                stridesA[i] = pool.Strides()[i];
        }
    });
}

extern "C" miopenStatus_t miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                             const miopenTensorDescriptor_t tensorDesc,
                                                             int dims, int* tensorDimArr)
{
    MIOPEN_LOG_FUNCTION(poolDesc, tensorDesc, dims, tensorDimArr);
    return MIOPEN_TRY({
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        const auto& x    = DerefTensor(tensorDesc, "tensorDesc");
        const auto out   = pool.OutputLens(x, "tensorDesc");
        if(dims != static_cast<int>(out.size()))
            miopen::ThrowBadParm("dims = ", dims, " but the output of pooling tensorDesc has ",
                                 out.size(), " dims");
        miopen::CheckData(tensorDimArr, "tensorDimArr");
        std::vector<int> values;
        for(size_t v : out)
            values.push_back(miopen::ToInt(v, "tensorDimArr"));
        std::copy(values.begin(), values.end(), tensorDimArr);
    });
}

extern "C" miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                        size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(yDesc, workSpaceSize);
    return MIOPEN_TRY({
        // MIOpen's first API assumes uint8 indices whatever the descriptor says.
        Out(workSpaceSize, "workSpaceSize") = DerefTensor(yDesc, "yDesc").ElementSize();
    });
}

extern "C" miopenStatus_t miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(poolDesc, yDesc, workSpaceSize);
    return MIOPEN_TRY({
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        const auto& y    = DerefTensor(yDesc, "yDesc");
        if(y.NumDims() != pool.NumSpatialDims() + 2)
            miopen::ThrowBadParm("yDesc has ", y.NumDims(), " dims; a ", pool.NumSpatialDims(),
                                 "-d pooling descriptor needs ", pool.NumSpatialDims() + 2);
        Out(workSpaceSize, "workSpaceSize") = pool.WorkSpaceSize(y);
    });
}

extern "C" miopenStatus_t miopenPoolingForward(miopenHandle_t handle,
                                               const miopenPoolingDescriptor_t poolDesc,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t xDesc, const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t yDesc, void* y,
                                               bool do_backward, void* workSpace,
                                               size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(
        handle, poolDesc, alpha, xDesc, x, beta, yDesc, y, do_backward, workSpace, workSpaceSize);
    return MIOPEN_TRY({
        auto& h          = miopen::DerefHandle(handle);
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        const auto& xd   = DerefTensor(xDesc, "xDesc");
        const auto& yd   = DerefTensor(yDesc, "yDesc");
        miopen::PoolingForward(
            h, pool, alpha, xd, x, beta, yd, y, do_backward, workSpace, workSpaceSize);
    });
}

extern "C" miopenStatus_t miopenPoolingBackward(miopenHandle_t handle,
                                                const miopenPoolingDescriptor_t poolDesc,
                                                const void* alpha,
                                                const miopenTensorDescriptor_t yDesc, const void* y,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy,
                                                const miopenTensorDescriptor_t xDesc, const void* x,
                                                const void* beta,
                                                const miopenTensorDescriptor_t dxDesc, void* dx,
                                                void* workSpace)
{
    MIOPEN_LOG_FUNCTION(
        handle, poolDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx, workSpace);
    return MIOPEN_TRY({
        auto& h          = miopen::DerefHandle(handle);
        const auto& pool = DerefPooling(poolDesc, "poolDesc");
        const auto& yd   = DerefTensor(yDesc, "yDesc");
        const auto& dyd  = DerefTensor(dyDesc, "dyDesc");
        const auto& xd   = DerefTensor(xDesc, "xDesc");
        const auto& dxd  = DerefTensor(dxDesc, "dxDesc");
        miopen::PoolingBackward(h, pool, alpha, yd, y, dyd, dy, xd, x, beta, dxd, dx, workSpace);
    });
}
