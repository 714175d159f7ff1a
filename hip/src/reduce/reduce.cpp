#include "reduce/reduce.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace miopen {

void ReduceTensorDescriptor::Set(miopenReduceTensorOp_t op, miopenDataType_t compType,
                                 miopenNanPropagation_t nanOpt,
                                 miopenReduceTensorIndices_t indices,
                                 miopenIndicesType_t indicesType)
{
    if(static_cast<int>(op) < MIOPEN_REDUCE_TENSOR_ADD ||
       static_cast<int>(op) > MIOPEN_REDUCE_TENSOR_NORM2)
        ThrowBadParm("reduceTensorOp = ", static_cast<int>(op),
                     " is not a miopenReduceTensorOp_t value");
    CheckDataType(static_cast<int>(compType), "reduceTensorCompType");
    if(nanOpt != MIOPEN_NOT_PROPAGATE_NAN && nanOpt != MIOPEN_PROPAGATE_NAN)
        ThrowBadParm("reduceTensorNanOpt = ", static_cast<int>(nanOpt),
                     " is not a miopenNanPropagation_t value");
    if(indices != MIOPEN_REDUCE_TENSOR_NO_INDICES &&
       indices != MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES)
        ThrowBadParm("reduceTensorIndices = ", static_cast<int>(indices),
                     " is not a miopenReduceTensorIndices_t value");
    if(static_cast<int>(indicesType) < MIOPEN_32BIT_INDICES ||
       static_cast<int>(indicesType) > MIOPEN_8BIT_INDICES)
        ThrowBadParm("reduceTensorIndicesType = ", static_cast<int>(indicesType),
                     " is not a miopenIndicesType_t value");
    if(indices == MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES && indicesType != MIOPEN_32BIT_INDICES)
        ThrowBadParm("reduceTensorIndicesType = ", static_cast<int>(indicesType),
                     ": only MIOPEN_32BIT_INDICES is supported for ReduceTensor indices (as in "
                     "MIOpen)");
    set_          = true;
    op_           = op;
    comp_         = compType;
    nan_          = nanOpt;
    indices_      = indices;
    indices_type_ = indicesType;
}

bool ReduceTensorDescriptor::NeedIndices() const
{
    return indices_ == MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES &&
           (op_ == MIOPEN_REDUCE_TENSOR_MIN || op_ == MIOPEN_REDUCE_TENSOR_MAX ||
            op_ == MIOPEN_REDUCE_TENSOR_AMAX);
}

std::string ReduceTensorDescriptor::ToString() const
{
    if(!set_)
        return "unset";
    std::ostringstream out;
    out << "op=" << static_cast<int>(op_) << ", compType=" << DataTypeName(comp_)
        << ", nanOpt=" << static_cast<int>(nan_) << ", indices=" << static_cast<int>(indices_)
        << ", indicesType=" << static_cast<int>(indices_type_);
    return out.str();
}

const ReduceTensorDescriptor& DerefReduce(miopenReduceTensorDescriptor_t desc, const char* name)
{
    const ReduceTensorDescriptor& d = Deref<ReduceTensorDescriptor>(desc, name);
    if(!d.IsSet())
        ThrowBadParm(name, " has not been set (call miopenSetReduceTensorDescriptor first)");
    return d;
}

bool ReduceAccDouble(const ReduceTensorDescriptor& desc, miopenDataType_t type)
{
    return desc.CompType() == miopenDouble || type == miopenDouble || type == miopenInt8 ||
           type == miopenInt32;
}

namespace {

void CheckShapes(const TensorDescriptor& aDesc, const TensorDescriptor& cDesc)
{
    if(aDesc.NumDims() > kReduceMaxDims)
        ThrowBadParm("aDesc has ", aDesc.NumDims(), " dimensions; ReduceTensor takes at most ",
                     kReduceMaxDims);
    if(aDesc.NumDims() != cDesc.NumDims())
        ThrowBadParm("cDesc has ", cDesc.NumDims(), " dimensions but aDesc has ",
                     aDesc.NumDims(), "; the numbers of dimensions of the input and output "
                     "tensors must match");
    bool any_reduced = false;
    for(int d = 0; d < aDesc.NumDims(); ++d)
    {
        const size_t in = aDesc.Lens()[d], out = cDesc.Lens()[d];
        if(out != 1 && out != in)
            ThrowBadParm("cDesc length ", out, " of dimension ", d, " is neither 1 nor aDesc's ",
                         in, " (a reduced dimension has length 1 in the output)");
        any_reduced = any_reduced || out == 1;
    }
    if(!any_reduced)
        ThrowBadParm("cDesc reduces no dimension of aDesc (at least one output length must be "
                     "1)");
}

int64_t NextPow2(int64_t v)
{
    int64_t p = 1;
    while(p < v)
        p *= 2;
    return p;
}

} // namespace

ReducePlan MakeReducePlan(const ReduceTensorDescriptor& desc, const TensorDescriptor& aDesc,
                          const TensorDescriptor& cDesc)
{
    CheckShapes(aDesc, cDesc);
    ReducePlan p;
    p.op            = desc.Op();
    p.nan_propagate = desc.NanOpt() == MIOPEN_PROPAGATE_NAN ? 1 : 0;
    p.want_indices  = desc.NeedIndices() ? 1 : 0;
    const auto& lens = aDesc.Lens();
    const auto& as   = aDesc.Strides();
    const auto& cs   = cDesc.Strides();
    int64_t min_o = INT64_MAX, min_r = INT64_MAX;
    for(int d = 0; d < aDesc.NumDims(); ++d)
    {
        const auto len = static_cast<int64_t>(lens[d]);
        const auto sa  = static_cast<int64_t>(as[d]);
        if(len == 1)
            continue;
        if(cDesc.Lens()[d] == 1) // reduced
        {
            p.len *= len;
            min_r = std::min(min_r, sa);
            const int n = p.ndim_r;
            if(n > 0 && p.r_strides[n - 1] == sa * len)
            {
                p.r_lens[n - 1] *= len;
                p.r_strides[n - 1] = sa;
                continue;
            }
            p.r_lens[n]    = len;
            p.r_strides[n] = sa;
            ++p.ndim_r;
        }
        else
        {
            const auto sc = static_cast<int64_t>(cs[d]);
            p.outputs *= len;
            min_o = std::min(min_o, sa);
            const int n = p.ndim_o;
            if(n > 0 && p.o_in[n - 1] == sa * len && p.o_out[n - 1] == sc * len)
            {
                p.o_lens[n - 1] *= len;
                p.o_in[n - 1]  = sa;
                p.o_out[n - 1] = sc;
                continue;
            }
            p.o_lens[n] = len;
            p.o_in[n]   = sa;
            p.o_out[n]  = sc;
            ++p.ndim_o;
        }
    }
    if(p.len > INT32_MAX && p.want_indices)
        ThrowBadParm("aDesc reduces ", p.len, " elements per output; int32 indices address at "
                     "most 2^31 - 1");
    // The split, by the shape alone (so the workspace size is the device's and the CPU's alike).
    p.column = (p.ndim_o > 0 && min_o < min_r) ? 1 : 0;
    // Row plans read 16-byte groups when the innermost reduced dim is contiguous and every
    // group starts 16-byte aligned (relative to A) within one row: the other strides multiples
    // of the group, and the innermost length too unless it is the only reduced dim (then only
    // the last group is short).
    // fp32 accumulation only (fp64 accumulation is the rare case; it reads single elements).
    const int g = ReduceGroup(DataTypeSize(aDesc.Type()));
    if(!p.column && !ReduceAccDouble(desc, aDesc.Type()) && p.ndim_r > 0 && p.r_strides[p.ndim_r - 1] == 1 &&
       (p.ndim_r == 1 || p.r_lens[p.ndim_r - 1] % g == 0))
    {
        bool aligned = true;
        for(int d = 0; d + 1 < p.ndim_r; ++d)
            aligned = aligned && p.r_strides[d] % g == 0;
        for(int d = 0; d < p.ndim_o; ++d)
            aligned = aligned && p.o_in[d] % g == 0;
        p.group = aligned ? g : 1;
    }
    const int64_t groups = (p.len + p.group - 1) / p.group; // a row's groups
    if(p.column)
    {
        p.gx = static_cast<int>(std::min<int64_t>(kReduceThreads, NextPow2(p.outputs)));
        p.ry = kReduceThreads / p.gx;
    }
    else
    {
        p.ry = static_cast<int>(std::min<int64_t>(kReduceThreads, NextPow2((groups + 1) / 2)));
        p.gx = kReduceThreads / p.ry;
    }
    const int64_t blocks = (p.outputs + p.gx - 1) / p.gx;
    int64_t chunks       = 1;
    if(blocks < 512)
    {
        // each lane folds at least 8 groups (32 elements when ungrouped) of a chunk
        const int64_t want = (1024 + blocks - 1) / blocks;
        const int64_t most = std::max<int64_t>(1, groups / (int64_t{p.ry} * (p.group > 1 ? 8 : 32)));
        chunks             = std::max<int64_t>(1, std::min(want, most));
    }
    p.chunk  = (groups + chunks - 1) / chunks * p.group;
    p.chunks = static_cast<int>((p.len + p.chunk - 1) / p.chunk);
    // CPU: column plans take up to 64 consecutive outputs of the innermost kept dim per item.
    p.cpu_tile = p.column ? std::min<int64_t>(64, p.o_lens[p.ndim_o - 1]) : 1;
    return p;
}

size_t ReductionIndicesSize(const ReduceTensorDescriptor& desc, const TensorDescriptor& aDesc,
                            const TensorDescriptor& cDesc)
{
    CheckShapes(aDesc, cDesc);
    return desc.NeedIndices() ? cDesc.ElementSize() * sizeof(int32_t) : 0;
}

size_t ReductionWorkspaceSize(const ReduceTensorDescriptor& desc, const TensorDescriptor& aDesc,
                              const TensorDescriptor& cDesc)
{
    const ReducePlan p = MakeReducePlan(desc, aDesc, cDesc);
    return ReducePartialBytes(p, ReduceAccDouble(desc, aDesc.Type()) ? 8 : 4, nullptr);
}

namespace {

template <class F>
void DispatchReduceType(miopenDataType_t type, F&& f)
{
    switch(type)
    {
    case miopenFloat: f(TypeTag<float>{}); return;
    case miopenHalf: f(TypeTag<Half>{}); return;
    case miopenBFloat16: f(TypeTag<BFloat16>{}); return;
    case miopenDouble: f(TypeTag<double>{}); return;
    case miopenInt8: f(TypeTag<int8_t>{}); return;
    case miopenInt32: f(TypeTag<int32_t>{}); return;
    }
    ThrowBadParm("aDesc has data type ", DataTypeName(type), "; ReduceTensor takes miopenFloat, "
                 "miopenHalf, miopenBFloat16, miopenDouble, miopenInt8 or miopenInt32");
}

} // namespace

void ReduceTensor(Handle& handle, const ReduceTensorDescriptor& desc, void* indices,
                  size_t indicesSizeInBytes, void* workspace, size_t workspaceSizeInBytes,
                  const void* alpha, const TensorDescriptor& aDesc, const void* A,
                  const void* beta, const TensorDescriptor& cDesc, void* C)
{
    CheckSameType(aDesc, "aDesc", cDesc, "cDesc");
    DispatchReduceType(aDesc.Type(), [](auto) {});
    const ReducePlan p      = MakeReducePlan(desc, aDesc, cDesc);
    const bool acc_double   = ReduceAccDouble(desc, aDesc.Type());
    const size_t need_ws    = ReducePartialBytes(p, acc_double ? 8 : 4, nullptr);
    const size_t need_index = p.want_indices ? cDesc.ElementSize() * sizeof(int32_t) : 0;
    if(indicesSizeInBytes < need_index)
        ThrowBadParm("indicesSizeInBytes = ", indicesSizeInBytes, " but the indices need ",
                     need_index, " bytes (miopenGetReductionIndicesSize)");
    if(need_index > 0 && indices == nullptr)
        ThrowBadParm("indices is a null pointer but the reduction returns indices (",
                     need_index, " bytes)");
    if(workspaceSizeInBytes < need_ws)
        ThrowBadParm("workspaceSizeInBytes = ", workspaceSizeInBytes, " but the reduction needs ",
                     need_ws, " bytes (miopenGetReductionWorkspaceSize)");
    if(need_ws > 0 && workspace == nullptr)
        ThrowBadParm("workspace is a null pointer but the reduction needs ", need_ws, " bytes");
    CheckDataPointers(handle, {{A, "A"}, {C, "C"}},
                      {{need_index > 0 ? indices : nullptr, "indices"},
                       {need_ws > 0 ? workspace : nullptr, "workspace"}});
    const double a = ReadScalar(alpha, aDesc.Type(), "alpha");
    const double b = ReadScalar(beta, aDesc.Type(), "beta");
    auto* ip       = need_index > 0 ? static_cast<int32_t*>(indices) : nullptr;
    DispatchReduceType(aDesc.Type(), [&](auto tag) {
        using T        = typename decltype(tag)::type;
        const auto* ap = static_cast<const T*>(A);
        auto* cp       = static_cast<T*>(C);
        auto run = [&](auto acc_tag) {
            using Acc = typename decltype(acc_tag)::type;
            RunOp(
                handle, [&] { cpu::ReduceTensor<T, Acc>(p, a, ap, b, cp, ip); },
                [&](auto& h) { gpu::ReduceTensor<T, Acc>(h, p, a, ap, b, cp, ip, workspace); });
        };
        if constexpr(std::is_same_v<T, float> || std::is_same_v<T, Half> ||
                     std::is_same_v<T, BFloat16>)
        {
            if(acc_double)
                run(TypeTag<double>{});
            else
                run(TypeTag<float>{});
        }
        else
            run(TypeTag<double>{});
    });
}

} // namespace miopen
