// extern "C" shims for tensor descriptors and the whole-tensor ops.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "tensor/tensor_ops.hpp"

#include <limits>
#include <vector>

using miopen::DerefTensor;
using miopen::Out;
using miopen::TensorDescriptor;

namespace {

TensorDescriptor& MutableTensor(miopenTensorDescriptor_t desc, const char* name)
{
    return miopen::Deref<TensorDescriptor>(desc, name);
}

std::vector<size_t> ReadDims(const int* values, int count, const char* name)
{
    if(values == nullptr)
        miopen::ThrowBadParm(name, " is a null pointer");
    std::vector<size_t> out(count);
    for(int i = 0; i < count; ++i)
    {
        if(values[i] <= 0)
            miopen::ThrowBadParm(name, "[", i, "] = ", values[i], "; values must be positive");
        out[i] = static_cast<size_t>(values[i]);
    }
    return out;
}

void CheckNbDims(int nbDims, const char* name)
{
    if(nbDims < 1 || nbDims > miopen::kMaxTensorDims)
        miopen::ThrowBadParm(name, " = ", nbDims, "; expected 1 to ", miopen::kMaxTensorDims);
}

} // namespace

extern "C" miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return MIOPEN_TRY({ miopen::CreateObject<TensorDescriptor>(tensorDesc, "tensorDesc"); });
}

extern "C" miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<TensorDescriptor>(tensorDesc, "tensorDesc"); });
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptor(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w);
    return MIOPEN_TRY({
        auto& d         = MutableTensor(tensorDesc, "tensorDesc");
        const int v[4]  = {n, c, h, w};
        const char* nm[4] = {"n", "c", "h", "w"};
        for(int i = 0; i < 4; ++i)
            if(v[i] <= 0)
                miopen::ThrowBadParm(nm[i], " = ", v[i], "; tensor lengths must be positive");
        d.Set(miopen::CheckedEnum(dataType, "dataType", "miopenDataType_t", {0, 1, 2, 3, 5, 6}), ReadDims(v, 4, "lens"), {});
    });
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                        miopenDataType_t dataType, int n, int c,
                                                        int h, int w, int nStride, int cStride,
                                                        int hStride, int wStride)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride, wStride);
    return MIOPEN_TRY({
        auto& d           = MutableTensor(tensorDesc, "tensorDesc");
        const int v[8]    = {n, c, h, w, nStride, cStride, hStride, wStride};
        const char* nm[8] = {"n", "c", "h", "w", "nStride", "cStride", "hStride", "wStride"};
        for(int i = 0; i < 8; ++i)
            if(v[i] <= 0)
                miopen::ThrowBadParm(nm[i], " = ", v[i], "; lengths and strides must be positive");
        d.Set(miopen::CheckedEnum(dataType, "dataType", "miopenDataType_t", {0, 1, 2, 3, 5, 6}), ReadDims(v, 4, "lens"),
              ReadDims(v + 4, 4, "strides"));
    });
}

extern "C" miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                    miopenDataType_t dataType, int nbDims,
                                                    const int* dimsA, const int* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, nbDims, dimsA, stridesA);
    return MIOPEN_TRY({
        auto& d = MutableTensor(tensorDesc, "tensorDesc");
        CheckNbDims(nbDims, "nbDims");
        const auto lens    = ReadDims(dimsA, nbDims, "dimsA");
        const auto strides = stridesA == nullptr ? std::vector<size_t>()
                                                 : ReadDims(stridesA, nbDims, "stridesA");
        d.Set(miopen::CheckedEnum(dataType, "dataType", "miopenDataType_t", {0, 1, 2, 3, 5, 6}), lens, strides);
    });
}

extern "C" miopenStatus_t miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                                                miopenDataType_t dataType,
                                                                miopenTensorLayout_t tensorLayout,
                                                                const int* lens, int num_lens)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, tensorLayout, lens, num_lens);
    return MIOPEN_TRY({
        auto& d = MutableTensor(tensorDesc, "tensorDesc");
        CheckNbDims(num_lens, "num_lens");
        const auto l = ReadDims(lens, num_lens, "lens");
        // Memory order of the logical dims N, C, [D,] H, W for each layout.
        std::vector<int> order;
        const auto layout = miopen::CheckedEnum(tensorLayout, "tensorLayout", "miopenTensorLayout_t",
                                                {0, 1, 2, 3, 4, 5, 6, 7, 8});
        switch(layout)
        {
        case miopenTensorNCHW: order = {0, 1, 2, 3}; break;
        case miopenTensorNHWC: order = {0, 2, 3, 1}; break;
        case miopenTensorCHWN: order = {1, 2, 3, 0}; break;
        case miopenTensorNCDHW: order = {0, 1, 2, 3, 4}; break;
        case miopenTensorNDHWC: order = {0, 2, 3, 4, 1}; break;
        case miopenTensorNCHWc4:
        case miopenTensorNCHWc8:
        case miopenTensorCHWNc4:
        case miopenTensorCHWNc8:
            miopen::ThrowNotImplemented("tensorLayout = ", static_cast<int>(tensorLayout),
                                        ": vectorised layouts are not supported");
        default:
            miopen::ThrowBadParm("tensorLayout = ", static_cast<int>(tensorLayout),
                                 " is not a miopenTensorLayout_t value");
        }
        if(static_cast<int>(order.size()) != num_lens)
            miopen::ThrowBadParm("num_lens = ", num_lens, " but tensorLayout ",
                                 static_cast<int>(layout), " has ", order.size(), " dims");
        std::vector<size_t> strides(num_lens);
        size_t s = 1;
        for(int i = num_lens; i-- > 0;)
        {
            strides[order[i]] = s;
            s *= l[order[i]];
        }
        d.Set(miopen::CheckedEnum(dataType, "dataType", "miopenDataType_t", {0, 1, 2, 3, 5, 6}), l, strides, layout);
    });
}

extern "C" miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                      miopenDataType_t* dataType, int* n, int* c,
                                                      int* h, int* w, int* nStride, int* cStride,
                                                      int* hStride, int* wStride)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return MIOPEN_TRY({
        const auto& d = DerefTensor(tensorDesc, "tensorDesc");
        if(d.NumDims() != 4)
            miopen::ThrowBadParm("tensorDesc has ", d.NumDims(), " dims; expected 4");
        int* lens[4]    = {n, c, h, w};
        int* strides[4] = {nStride, cStride, hStride, wStride};
        const char* ln[4] = {"n", "c", "h", "w"};
        const char* sn[4] = {"nStride", "cStride", "hStride", "wStride"};
        Out(dataType, "dataType");
        for(int i = 0; i < 4; ++i)
        {
            Out(lens[i], ln[i]);
            Out(strides[i], sn[i]);
        }
        *dataType = d.Type();
        for(int i = 0; i < 4; ++i)
        {
            *lens[i]    = miopen::ToInt(d.Lens()[i], ln[i]);
            *strides[i] = miopen::ToInt(d.Strides()[i], sn[i]);
        }
    });
}

extern "C" miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                        int* size)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, size);
    return MIOPEN_TRY({ Out(size, "size") = DerefTensor(tensorDesc, "tensorDesc").NumDims(); });
}

extern "C" miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                    miopenDataType_t* dataType, int* dimsA,
                                                    int* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, dimsA, stridesA);
    return MIOPEN_TRY({
        const auto& d = DerefTensor(tensorDesc, "tensorDesc");
        std::vector<int> lens, strides;
        for(int i = 0; i < d.NumDims(); ++i)
        {
            lens.push_back(miopen::ToInt(d.Lens()[i], "dimsA"));
            strides.push_back(miopen::ToInt(d.Strides()[i], "stridesA"));
        }
        if(dataType != nullptr)
            *dataType = d.Type();
        for(int i = 0; i < d.NumDims(); ++i)
        {
            if(dimsA != nullptr)
                dimsA[i] = lens[i];
            if(stridesA != nullptr)
                stridesA[i] = strides[i];
        }
    });
}

extern "C" miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                  size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, numBytes);
    return MIOPEN_TRY(
        { Out(numBytes, "numBytes") = DerefTensor(tensorDesc, "tensorDesc").NumBytes(); });
}

extern "C" miopenStatus_t miopenOpTensor(miopenHandle_t handle, miopenTensorOp_t tensorOp,
                                         const void* alpha1, const miopenTensorDescriptor_t aDesc,
                                         const void* A, const void* alpha2,
                                         const miopenTensorDescriptor_t bDesc, const void* B,
                                         const void* beta, const miopenTensorDescriptor_t cDesc,
                                         void* C)
{
    MIOPEN_LOG_FUNCTION(handle, tensorOp, alpha1, aDesc, A, alpha2, bDesc, B, beta, cDesc, C);
    return MIOPEN_TRY({
        miopen::OpTensor(miopen::DerefHandle(handle),
                         miopen::CheckedEnum(tensorOp, "tensorOp", "miopenTensorOp_t", {0, 1, 2, 3}),
                         alpha1,
                         DerefTensor(aDesc, "aDesc"),
                         A,
                         alpha2,
                         DerefTensor(bDesc, "bDesc"),
                         B,
                         beta,
                         DerefTensor(cDesc, "cDesc"),
                         C);
    });
}

extern "C" miopenStatus_t miopenSetTensor(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t yDesc, void* y,
                                          const void* alpha)
{
    MIOPEN_LOG_FUNCTION(handle, yDesc, y, alpha);
    return MIOPEN_TRY({
        miopen::SetTensor(miopen::DerefHandle(handle), DerefTensor(yDesc, "yDesc"), y, alpha);
    });
}

extern "C" miopenStatus_t miopenScaleTensor(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t yDesc, void* y,
                                            const void* alpha)
{
    MIOPEN_LOG_FUNCTION(handle, yDesc, y, alpha);
    return MIOPEN_TRY({
        miopen::ScaleTensor(miopen::DerefHandle(handle), DerefTensor(yDesc, "yDesc"), y, alpha);
    });
}

extern "C" miopenStatus_t miopenTransformTensor(miopenHandle_t handle, const void* alpha,
                                                const miopenTensorDescriptor_t xDesc, const void* x,
                                                const void* beta,
                                                const miopenTensorDescriptor_t yDesc, void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, beta, yDesc, y);
    return MIOPEN_TRY({
        miopen::TransformTensor(miopen::DerefHandle(handle),
                                alpha,
                                DerefTensor(xDesc, "xDesc"),
                                x,
                                beta,
                                DerefTensor(yDesc, "yDesc"),
                                y);
    });
}
