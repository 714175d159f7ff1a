// ReduceTensorDescriptor (operation, compType, NaN propagation, indices, index type) and the
// front door of miopenReduceTensor and its size queries: validation, the plan
// (reduce/reduce_args.hpp), then the backend of the handle's device.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "reduce/reduce_args.hpp"

#include <string>

namespace miopen {

class ReduceTensorDescriptor : public miopenReduceTensorDescriptor
{
public:
    ReduceTensorDescriptor() = default;

    /// Validates and sets; on error the descriptor is left unchanged.
    void Set(miopenReduceTensorOp_t op, miopenDataType_t compType, miopenNanPropagation_t nanOpt,
             miopenReduceTensorIndices_t indices, miopenIndicesType_t indicesType);

    bool IsSet() const { return set_; }
    miopenReduceTensorOp_t Op() const { return op_; }
    miopenDataType_t CompType() const { return comp_; }
    miopenNanPropagation_t NanOpt() const { return nan_; }
    miopenReduceTensorIndices_t Indices() const { return indices_; }
    miopenIndicesType_t IndicesType() const { return indices_type_; }
    /// MIN, MAX or AMAX with FLATTENED_INDICES.
    bool NeedIndices() const;
    std::string ToString() const;

private:
    bool set_                             = false;
    miopenReduceTensorOp_t op_            = MIOPEN_REDUCE_TENSOR_ADD;
    miopenDataType_t comp_                = miopenFloat;
    miopenNanPropagation_t nan_           = MIOPEN_NOT_PROPAGATE_NAN;
    miopenReduceTensorIndices_t indices_  = MIOPEN_REDUCE_TENSOR_NO_INDICES;
    miopenIndicesType_t indices_type_     = MIOPEN_32BIT_INDICES;
};

/// The live, set reduction descriptor behind a C pointer; BadParm naming the parameter otherwise.
const ReduceTensorDescriptor& DerefReduce(miopenReduceTensorDescriptor_t desc, const char* name);

/// Whether the reduction of A of `type` with `desc` accumulates in fp64 (compType miopenDouble,
/// or fp64, int8 or int32 data); fp32 otherwise.
bool ReduceAccDouble(const ReduceTensorDescriptor& desc, miopenDataType_t type);

/// The plan of reducing aDesc into cDesc (every shape check; BadParm naming the parameter).
ReducePlan MakeReducePlan(const ReduceTensorDescriptor& desc, const TensorDescriptor& aDesc,
                          const TensorDescriptor& cDesc);

size_t ReductionIndicesSize(const ReduceTensorDescriptor& desc, const TensorDescriptor& aDesc,
                            const TensorDescriptor& cDesc);
size_t ReductionWorkspaceSize(const ReduceTensorDescriptor& desc, const TensorDescriptor& aDesc,
                              const TensorDescriptor& cDesc);

void ReduceTensor(Handle& handle, const ReduceTensorDescriptor& desc, void* indices,
                  size_t indicesSizeInBytes, void* workspace, size_t workspaceSizeInBytes,
                  const void* alpha, const TensorDescriptor& aDesc, const void* A,
                  const void* beta, const TensorDescriptor& cDesc, void* C);

} // namespace miopen
