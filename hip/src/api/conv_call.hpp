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

/// A user's call of one direction as the C API passes it, in the order x-side, w, y-side (forward:
/// x, w, y; backward data: dx, w, dy; backward weights: x, dw, dy), for the shims' helpers. Make()
/// checks the descriptors (inside the shim's Try), naming them as the direction's parameters.
struct CallArgs
{
    UserDirection dir;
    miopenTensorDescriptor_t a;
    const void* pa;
    miopenTensorDescriptor_t w;
    const void* pw;
    miopenTensorDescriptor_t b;
    const void* pb;

    ConvCall Make() const
    {
        switch(dir)
        {
        case UserDirection::Forward: return ForwardCall(a, pa, w, pw, b, pb);
        case UserDirection::BackwardData: return BackwardDataCall(a, pa, w, pw, b, pb);
        case UserDirection::BackwardWeights: break;
        }
        return BackwardWeightsCall(a, pa, w, pw, b, pb);
    }
};

} // namespace miopen::api
