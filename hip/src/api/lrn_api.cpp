// extern "C" shims for the LRN descriptor and LRN forward / backward.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "lrn/lrn.hpp"

using miopen::DerefTensor;
using miopen::LRNDescriptor;
using miopen::Out;

extern "C" miopenStatus_t miopenCreateLRNDescriptor(miopenLRNDescriptor_t* lrnDesc)
{
    MIOPEN_LOG_FUNCTION(lrnDesc);
    return MIOPEN_TRY({ miopen::CreateObject<LRNDescriptor>(lrnDesc, "lrnDesc"); });
}

extern "C" miopenStatus_t miopenSetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                 miopenLRNMode_t mode, unsigned int lrnN,
                                                 double lrnAlpha, double lrnBeta, double lrnK)
{
    MIOPEN_LOG_FUNCTION(lrnDesc, mode, lrnN, lrnAlpha, lrnBeta, lrnK);
    return MIOPEN_TRY({
        miopen::Deref<LRNDescriptor>(lrnDesc, "lrnDesc").Set(miopen::CheckedEnum(mode, "mode", "miopenLRNMode_t", {0, 1}), lrnN, lrnAlpha, lrnBeta, lrnK);
    });
}

extern "C" miopenStatus_t miopenGetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                 miopenLRNMode_t* mode, unsigned int* lrnN,
                                                 double* lrnAlpha, double* lrnBeta, double* lrnK)
{
    MIOPEN_LOG_FUNCTION(lrnDesc, mode, lrnN, lrnAlpha, lrnBeta, lrnK);
    return MIOPEN_TRY({
        const auto& d = miopen::DerefLRN(lrnDesc, "lrnDesc");
        Out(mode, "mode");
        Out(lrnN, "lrnN");
        Out(lrnAlpha, "lrnAlpha");
        Out(lrnBeta, "lrnBeta");
        Out(lrnK, "lrnK");
        *mode     = d.Mode();
        *lrnN     = d.N();
        *lrnAlpha = d.Alpha();
        *lrnBeta  = d.Beta();
        *lrnK     = d.K();
    });
}

extern "C" miopenStatus_t miopenLRNGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                    size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(yDesc, workSpaceSize);
    return MIOPEN_TRY({
        Out(workSpaceSize, "workSpaceSize") = miopen::LRNWorkSpaceSize(DerefTensor(yDesc, "yDesc"));
    });
}

extern "C" miopenStatus_t miopenLRNForward(miopenHandle_t handle,
                                           const miopenLRNDescriptor_t lrnDesc, const void* alpha,
                                           const miopenTensorDescriptor_t xDesc, const void* x,
                                           const void* beta, const miopenTensorDescriptor_t yDesc,
                                           void* y, bool do_backward, void* workSpace)
{
    MIOPEN_LOG_FUNCTION(handle, lrnDesc, alpha, xDesc, x, beta, yDesc, y, do_backward, workSpace);
    return MIOPEN_TRY({
        miopen::LRNForward(miopen::DerefHandle(handle), miopen::DerefLRN(lrnDesc, "lrnDesc"),
                           alpha, DerefTensor(xDesc, "xDesc"), x, beta,
                           DerefTensor(yDesc, "yDesc"), y, do_backward, workSpace);
    });
}

extern "C" miopenStatus_t miopenLRNBackward(miopenHandle_t handle,
                                            const miopenLRNDescriptor_t lrnDesc, const void* alpha,
                                            const miopenTensorDescriptor_t yDesc, const void* y,
                                            const miopenTensorDescriptor_t dyDesc, const void* dy,
                                            const miopenTensorDescriptor_t xDesc, const void* x,
                                            const void* beta, const miopenTensorDescriptor_t dxDesc,
                                            void* dx, const void* workSpace)
{
    MIOPEN_LOG_FUNCTION(
        handle, lrnDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx, workSpace);
    return MIOPEN_TRY({
        miopen::LRNBackward(miopen::DerefHandle(handle), miopen::DerefLRN(lrnDesc, "lrnDesc"),
                            alpha, DerefTensor(yDesc, "yDesc"), y, DerefTensor(dyDesc, "dyDesc"),
                            dy, DerefTensor(xDesc, "xDesc"), x, beta,
                            DerefTensor(dxDesc, "dxDesc"), dx, workSpace);
    });
}

extern "C" miopenStatus_t miopenDestroyLRNDescriptor(miopenLRNDescriptor_t lrnDesc)
{
    MIOPEN_LOG_FUNCTION(lrnDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<LRNDescriptor>(lrnDesc, "lrnDesc"); });
}
