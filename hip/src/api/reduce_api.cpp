// extern "C" shims for tensor reduction: the descriptor, the size queries, miopenReduceTensor.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "reduce/reduce.hpp"

using miopen::CheckedEnum;
using miopen::DerefTensor;
using miopen::Out;
using miopen::ReduceTensorDescriptor;

extern "C" miopenStatus_t
miopenCreateReduceTensorDescriptor(miopenReduceTensorDescriptor_t* reduceTensorDesc)
{
    MIOPEN_LOG_FUNCTION(reduceTensorDesc);
    return MIOPEN_TRY(
        { miopen::CreateObject<ReduceTensorDescriptor>(reduceTensorDesc, "reduceTensorDesc"); });
}

extern "C" miopenStatus_t
miopenDestroyReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc)
{
    MIOPEN_LOG_FUNCTION(reduceTensorDesc);
    return MIOPEN_TRY(
        { miopen::DestroyObject<ReduceTensorDescriptor>(reduceTensorDesc, "reduceTensorDesc"); });
}

extern "C" miopenStatus_t
miopenSetReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc,
                                miopenReduceTensorOp_t reduceTensorOp,
                                miopenDataType_t reduceTensorCompType,
                                miopenNanPropagation_t reduceTensorNanOpt,
                                miopenReduceTensorIndices_t reduceTensorIndices,
                                miopenIndicesType_t reduceTensorIndicesType)
{
    MIOPEN_LOG_FUNCTION(reduceTensorDesc, reduceTensorOp, reduceTensorCompType,
                        reduceTensorNanOpt, reduceTensorIndices, reduceTensorIndicesType);
    return MIOPEN_TRY({
        auto& d = miopen::Deref<ReduceTensorDescriptor>(reduceTensorDesc, "reduceTensorDesc");
        const auto op = CheckedEnum(reduceTensorOp, "reduceTensorOp", "miopenReduceTensorOp_t",
                                    {0, 1, 2, 3, 4, 5, 6, 7});
        miopen::CheckDataType(miopen::EnumValue(reduceTensorCompType), "reduceTensorCompType");
        const auto nan = CheckedEnum(reduceTensorNanOpt, "reduceTensorNanOpt",
                                     "miopenNanPropagation_t", {0, 1});
        const auto ind = CheckedEnum(reduceTensorIndices, "reduceTensorIndices",
                                     "miopenReduceTensorIndices_t", {0, 1});
        const auto it  = CheckedEnum(reduceTensorIndicesType, "reduceTensorIndicesType",
                                     "miopenIndicesType_t", {0, 1, 2, 3});
        d.Set(op, static_cast<miopenDataType_t>(miopen::EnumValue(reduceTensorCompType)), nan,
              ind, it);
    });
}

extern "C" miopenStatus_t
miopenGetReduceTensorDescriptor(const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                miopenReduceTensorOp_t* reduceTensorOp,
                                miopenDataType_t* reduceTensorCompType,
                                miopenNanPropagation_t* reduceTensorNanOpt,
                                miopenReduceTensorIndices_t* reduceTensorIndices,
                                miopenIndicesType_t* reduceTensorIndicesType)
{
    MIOPEN_LOG_FUNCTION(reduceTensorDesc, reduceTensorOp, reduceTensorCompType,
                        reduceTensorNanOpt, reduceTensorIndices, reduceTensorIndicesType);
    return MIOPEN_TRY({
        const auto& d = miopen::DerefReduce(reduceTensorDesc, "reduceTensorDesc");
        Out(reduceTensorOp, "reduceTensorOp");
        Out(reduceTensorCompType, "reduceTensorCompType");
        Out(reduceTensorNanOpt, "reduceTensorNanOpt");
        Out(reduceTensorIndices, "reduceTensorIndices");
        Out(reduceTensorIndicesType, "reduceTensorIndicesType");
        *reduceTensorOp          = d.Op();
        *reduceTensorCompType    = d.CompType();
        *reduceTensorNanOpt      = d.NanOpt();
        *reduceTensorIndices     = d.Indices();
        *reduceTensorIndicesType = d.IndicesType();
    });
}

extern "C" miopenStatus_t
miopenGetReductionIndicesSize(miopenHandle_t handle,
                              const miopenReduceTensorDescriptor_t reduceTensorDesc,
                              const miopenTensorDescriptor_t aDesc,
                              const miopenTensorDescriptor_t cDesc, size_t* sizeInBytes)
{
    MIOPEN_LOG_FUNCTION(handle, reduceTensorDesc, aDesc, cDesc, sizeInBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(sizeInBytes, "sizeInBytes") = miopen::ReductionIndicesSize(
            miopen::DerefReduce(reduceTensorDesc, "reduceTensorDesc"),
            DerefTensor(aDesc, "aDesc"), DerefTensor(cDesc, "cDesc"));
    });
}

extern "C" miopenStatus_t
miopenGetReductionWorkspaceSize(miopenHandle_t handle,
                                const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                const miopenTensorDescriptor_t aDesc,
                                const miopenTensorDescriptor_t cDesc, size_t* sizeInBytes)
{
    MIOPEN_LOG_FUNCTION(handle, reduceTensorDesc, aDesc, cDesc, sizeInBytes);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        Out(sizeInBytes, "sizeInBytes") = miopen::ReductionWorkspaceSize(
            miopen::DerefReduce(reduceTensorDesc, "reduceTensorDesc"),
            DerefTensor(aDesc, "aDesc"), DerefTensor(cDesc, "cDesc"));
    });
}

extern "C" miopenStatus_t miopenReduceTensor(miopenHandle_t handle,
                                             const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                             void* indices, size_t indicesSizeInBytes,
                                             void* workspace, size_t workspaceSizeInBytes,
                                             const void* alpha,
                                             const miopenTensorDescriptor_t aDesc, const void* A,
                                             const void* beta,
                                             const miopenTensorDescriptor_t cDesc, void* C)
{
    MIOPEN_LOG_FUNCTION(handle, reduceTensorDesc, indices, indicesSizeInBytes, workspace,
                        workspaceSizeInBytes, alpha, aDesc, A, beta, cDesc, C);
    return MIOPEN_TRY({
        miopen::ReduceTensor(miopen::DerefHandle(handle),
                             miopen::DerefReduce(reduceTensorDesc, "reduceTensorDesc"), indices,
                             indicesSizeInBytes, workspace, workspaceSizeInBytes, alpha,
                             DerefTensor(aDesc, "aDesc"), A, beta, DerefTensor(cDesc, "cDesc"),
                             C);
    });
}
