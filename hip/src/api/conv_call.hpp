// The user's convolution call of each direction from the C API's descriptors and pointers, with
// the parameter names errors quote; shared by the legacy (convolution_api.cpp) and immediate-mode
// (conv_immediate_api.cpp) shims. Descriptors are checked in the order x-side, w, y-side.
#pragma once

#include "conv/convolution.hpp"
#include "core/tensor.hpp"

namespace miopen::api {

inline ConvCall ForwardCall(miopenTensorDescriptor_t xDesc, const void* x,
                            miopenTensorDescriptor_t wDesc, const void* w,
                            miopenTensorDescriptor_t yDesc, const void* y)
{
    return ConvCall{UserDirection::Forward,
                    DerefTensor(xDesc, "xDesc"), "xDesc", x,
                    DerefTensor(wDesc, "wDesc"), "wDesc", w,
                    DerefTensor(yDesc, "yDesc"), "yDesc", y};
}

inline ConvCall BackwardDataCall(miopenTensorDescriptor_t dxDesc, const void* dx,
                                 miopenTensorDescriptor_t wDesc, const void* w,
                                 miopenTensorDescriptor_t dyDesc, const void* dy)
{
    return ConvCall{UserDirection::BackwardData,
                    DerefTensor(dxDesc, "dxDesc"), "dxDesc", dx,
                    DerefTensor(wDesc, "wDesc"), "wDesc", w,
                    DerefTensor(dyDesc, "dyDesc"), "dyDesc", dy};
}

inline ConvCall BackwardWeightsCall(miopenTensorDescriptor_t xDesc, const void* x,
                                    miopenTensorDescriptor_t dwDesc, const void* dw,
                                    miopenTensorDescriptor_t dyDesc, const void* dy)
{
    return ConvCall{UserDirection::BackwardWeights,
                    DerefTensor(xDesc, "xDesc"), "xDesc", x,
                    DerefTensor(dwDesc, "dwDesc"), "dwDesc", dw,
                    DerefTensor(dyDesc, "dyDesc"), "dyDesc", dy};
}

} // namespace miopen::api
