// PoolingDescriptor and the pooling front door: every check happens here, before anything is
// written, so a bad call changes nothing; then the kernels of the handle's device run on one 3-d
// problem.
#include "pooling/pooling.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <limits>
#include <sstream>

namespace miopen {
namespace {

const char* ModeName(miopenPoolingMode_t mode)
{
    switch(mode)
    {
    case miopenPoolingMax: return "miopenPoolingMax";
    case miopenPoolingAverage: return "miopenPoolingAverage";
    case miopenPoolingAverageInclusive: return "miopenPoolingAverageInclusive";
    }
    return "?";
}

const char* IndexTypeName(miopenIndexType_t type)
{
    switch(type)
    {
    case miopenIndexUint8: return "miopenIndexUint8";
    case miopenIndexUint16: return "miopenIndexUint16";
    case miopenIndexUint32: return "miopenIndexUint32";
    case miopenIndexUint64: return "miopenIndexUint64";
    }
    return "?";
}

/// The largest value of the index type: MIOpen reserves it (it never names a position).
uint64_t IndexTypeMax(miopenIndexType_t type)
{
    switch(type)
    {
    case miopenIndexUint8: return std::numeric_limits<uint8_t>::max();
    case miopenIndexUint16: return std::numeric_limits<uint16_t>::max();
    case miopenIndexUint32: return std::numeric_limits<uint32_t>::max();
    case miopenIndexUint64: return std::numeric_limits<uint64_t>::max();
    }
    return 0;
}

/// "D", "H", "W" for the spatial dims of a descriptor with nb of them.
const char* SpatialName(int nb, int i)
{
    static const char* const kNames[] = {"D", "H", "W"};
    return kNames[i + 3 - nb];
}

template <class V>
std::string Tuple(const V& v)
{
    std::ostringstream out;
    out << "(";
    for(size_t i = 0; i < v.size(); ++i)
        out << (i ? ", " : "") << v[i];
    out << ")";
    return out.str();
}

PoolShape ShapeOf(const PoolingDescriptor& pool, const TensorDescriptor& x,
                       const std::vector<size_t>& out)
{
    PoolShape s;
    s.mode         = pool.Mode();
    s.n            = static_cast<int64_t>(x.Lens()[0]);
    s.c            = static_cast<int64_t>(x.Lens()[1]);
    const int nb   = pool.NumSpatialDims();
    const int skip = 3 - nb; // 2-d: depth 1
    for(int i = 0; i < 3; ++i)
    {
        if(i < skip)
        {
            s.in[i] = s.out[i] = s.window[i] = s.stride[i] = 1;
            s.pad[i] = 0;
            continue;
        }
        const int j  = i - skip;
        s.in[i]      = static_cast<int64_t>(x.Lens()[2 + j]);
        s.out[i]     = static_cast<int64_t>(out[2 + j]);
        s.window[i]  = pool.Window()[j];
        s.pad[i]     = pool.Pads()[j];
        s.stride[i]  = pool.Strides()[j];
    }
    return s;
}

/// The index workspace as the forward writes it and the backward reads it.
PoolIndex SavedIndex(const PoolingDescriptor& pool, void* workSpace)
{
    PoolIndex index;
    index.data  = workSpace;
    index.type  = pool.IndexType();
    index.image = pool.IndexMode() == miopenPoolingWorkspaceIndexImage;
    return index;
}

} // namespace

size_t IndexTypeSize(miopenIndexType_t type)
{
    switch(type)
    {
    case miopenIndexUint8: return 1;
    case miopenIndexUint16: return 2;
    case miopenIndexUint32: return 4;
    case miopenIndexUint64: return 8;
    }
    return 0;
}

void PoolingDescriptor::Set(int mode, int nbDims, const int* window, const int* pads,
                            const int* strides, bool names2d)
{
    if(mode < miopenPoolingMax || mode > miopenPoolingAverageInclusive)
        ThrowBadParm("mode = ", mode, " is not a miopenPoolingMode_t value");
    if(nbDims != 2 && nbDims != 3)
        ThrowBadParm("nbDims = ", nbDims, "; pooling has 2 or 3 spatial dims");
    static const char* const kWindow2d[] = {"windowHeight", "windowWidth"};
    static const char* const kPad2d[]    = {"pad_h", "pad_w"};
    static const char* const kStride2d[] = {"stride_h", "stride_w"};
    auto name = [&](const char* const* names, const char* array, int i) {
        return names2d ? std::string(names[i]) : Concat(array, "[", i, "]");
    };
    for(int i = 0; i < nbDims; ++i)
    {
        if(window[i] < 1)
            ThrowBadParm(name(kWindow2d, "windowDimA", i), " = ", window[i], "; must be >= 1");
        if(strides[i] < 1)
            ThrowBadParm(name(kStride2d, "stridesA", i), " = ", strides[i], "; must be >= 1");
        if(pads[i] < 0)
            ThrowBadParm(name(kPad2d, "padA", i), " = ", pads[i], "; must be >= 0");
        if(pads[i] >= window[i])
            ThrowBadParm(name(kPad2d, "padA", i), " = ", pads[i], " must be smaller than ",
                         name(kWindow2d, "windowDimA", i), " = ", window[i],
                         " (a window would lie entirely in the padding)");
    }
    // The kernels number window positions with 32-bit ints.
    int64_t positions = 1;
    for(int i = 0; i < nbDims; ++i)
        positions *= window[i];
    if(positions > std::numeric_limits<int32_t>::max())
        ThrowBadParm("the window has ", positions, " positions; at most ",
                     std::numeric_limits<int32_t>::max(), " are supported");
    mode_       = static_cast<miopenPoolingMode_t>(mode);
    window_.assign(window, window + nbDims);
    pads_.assign(pads, pads + nbDims);
    strides_.assign(strides, strides + nbDims);
    // MIOpen replaces the whole descriptor here, index settings included.
    index_type_ = miopenIndexUint8;
    index_mode_ = nbDims == 3 ? miopenPoolingWorkspaceIndexImage : miopenPoolingWorkspaceIndexMask;
}

void PoolingDescriptor::SetIndexType(int type)
{
    if(type < miopenIndexUint8 || type > miopenIndexUint64)
        ThrowBadParm("index_type = ", type, " is not a miopenIndexType_t value");
    index_type_ = static_cast<miopenIndexType_t>(type);
}

void PoolingDescriptor::SetIndexMode(int index_mode)
{
    if(index_mode < miopenPoolingWorkspaceIndexMask || index_mode > miopenPoolingWorkspaceIndexImage)
        ThrowBadParm("workspace_index = ", index_mode,
                     " is not a miopenPoolingWorkspaceIndexMode_t value");
    index_mode_ = static_cast<miopenPoolingWorkspaceIndexMode_t>(index_mode);
}

std::vector<size_t> PoolingDescriptor::OutputLens(const TensorDescriptor& x, const char* x_name) const
{
    const int nb = NumSpatialDims();
    if(x.NumDims() != nb + 2)
        ThrowBadParm(x_name, " has ", x.NumDims(), " dims; a ", nb, "-d pooling descriptor needs ",
                     nb + 2, nb == 2 ? " (N, C, H, W)" : " (N, C, D, H, W)");
    std::vector<size_t> out(x.Lens().begin(), x.Lens().begin() + 2);
    for(int i = 0; i < nb; ++i)
    {
        const int64_t in     = static_cast<int64_t>(x.Lens()[2 + i]);
        const int64_t padded = in + 2 * static_cast<int64_t>(pads_[i]);
        if(padded < window_[i])
            ThrowBadParm(x_name, " ", SpatialName(nb, i), " = ", in, " plus twice the pad ", pads_[i],
                         " is smaller than the window ", window_[i], "; the output would be empty");
        out.push_back(static_cast<size_t>((padded - window_[i]) / strides_[i] + 1));
    }
    return out;
}

size_t PoolingDescriptor::WorkSpaceSize(const TensorDescriptor& y) const
{
    return mode_ == miopenPoolingMax ? y.ElementSize() * IndexTypeSize(index_type_) : 0;
}

void PoolingDescriptor::CheckIndexRange(const TensorDescriptor& x) const
{
    uint64_t positions = 1;
    const bool mask    = index_mode_ == miopenPoolingWorkspaceIndexMask;
    if(mask)
        for(int w : window_)
            positions *= static_cast<uint64_t>(w);
    else
        for(int i = 2; i < x.NumDims(); ++i)
            positions *= x.Lens()[i];
    const uint64_t limit = IndexTypeMax(index_type_);
    if(positions >= limit)
        ThrowBadParm("index type ", IndexTypeName(index_type_), " cannot index the ", positions,
                     mask ? " positions of the window (mask mode)"
                          : " positions of the input image (image mode)",
                     "; it holds at most ", limit - 1,
                     " (its largest value is reserved); choose a wider type with "
                     "miopenSetPoolingIndexType");
}

std::string PoolingDescriptor::ToString() const
{
    if(!IsSet())
        return "unset";
    std::ostringstream out;
    out << ModeName(mode_) << ", window=" << Tuple(window_) << ", pads=" << Tuple(pads_)
        << ", strides=" << Tuple(strides_) << ", index=" << IndexTypeName(index_type_)
        << ", index_mode="
        << (index_mode_ == miopenPoolingWorkspaceIndexMask ? "miopenPoolingWorkspaceIndexMask"
                                                           : "miopenPoolingWorkspaceIndexImage");
    return out.str();
}

PoolingDescriptor& DerefPoolingObject(miopenPoolingDescriptor_t desc, const char* name)
{
    return Deref<PoolingDescriptor>(desc, name);
}

const PoolingDescriptor& DerefPooling(miopenPoolingDescriptor_t desc, const char* name)
{
    const PoolingDescriptor& d = Deref<PoolingDescriptor>(desc, name);
    if(!d.IsSet())
        ThrowBadParm(name, " has not been set (call miopenSet2dPoolingDescriptor or "
                           "miopenSetNdPoolingDescriptor first)");
    return d;
}

namespace {

/// The checks both directions share: types, and the output lengths of x against y's.
std::vector<size_t> CheckShapes(const PoolingDescriptor& pool, const TensorDescriptor& xDesc,
                                const char* x_name, const TensorDescriptor& yDesc,
                                const char* y_name)
{
    CheckSameType(xDesc, x_name, yDesc, y_name);
    DispatchFloating(xDesc.Type(), x_name, [](auto) {}); // BadParm for a type pooling lacks
    const auto out = pool.OutputLens(xDesc, x_name);
    if(yDesc.Lens() != out)
        ThrowBadParm(y_name, " has lengths ", Tuple(yDesc.Lens()), " but pooling ", x_name, " ",
                     Tuple(xDesc.Lens()), " gives ", Tuple(out));
    return out;
}

} // namespace

void PoolingForward(Handle& handle, const PoolingDescriptor& pool, const void* alpha,
                    const TensorDescriptor& xDesc, const void* x, const void* beta,
                    const TensorDescriptor& yDesc, void* y, bool do_backward, void* workSpace,
                    size_t workSpaceSize)
{
    const auto out = CheckShapes(pool, xDesc, "xDesc", yDesc, "yDesc");
    CheckDataPointers(handle, {{x, "x"}, {y, "y"}}, {{workSpace, "workSpace"}});
    const Blend s = ReadBlend(alpha, beta, yDesc);
    PoolIndex index;
    if(pool.Mode() == miopenPoolingMax && do_backward)
    {
        const size_t need = pool.WorkSpaceSize(yDesc);
        if(workSpace == nullptr)
            ThrowBadParm("workSpace is a null pointer; max pooling with do_backward writes ", need,
                         " bytes of indices there");
        if(workSpaceSize < need)
            ThrowBadParm("workSpaceSize = ", workSpaceSize, "; max pooling with do_backward needs ",
                         need, " (numel(y) * ", IndexTypeSize(pool.IndexType()), " bytes of ",
                         IndexTypeName(pool.IndexType()), ")");
        pool.CheckIndexRange(xDesc);
        index = SavedIndex(pool, workSpace);
    }
    const PoolShape shape = ShapeOf(pool, xDesc, out);
    const Strides5 xs = Strides5Of(xDesc), ys = Strides5Of(yDesc);
    DispatchFloating(xDesc.Type(), "xDesc", [&](auto tag) {
        using T       = typename decltype(tag)::type;
        const auto* xp = static_cast<const T*>(x);
        auto* yp       = static_cast<T*>(y);
        RunOp(
            handle, [&] { cpu::PoolForward<T>(shape, s.alpha, xp, xs, s.beta, yp, ys, index); },
            [&](auto& h) { gpu::PoolForward<T>(h, shape, s.alpha, xp, xs, s.beta, yp, ys, index); });
    });
}

void PoolingBackward(Handle& handle, const PoolingDescriptor& pool, const void* alpha,
                     const TensorDescriptor& yDesc, const void* /*y: not needed, as in MIOpen*/,
                     const TensorDescriptor& dyDesc, const void* dy, const TensorDescriptor& xDesc,
                     const void* x, const void* beta, const TensorDescriptor& dxDesc, void* dx,
                     const void* workSpace)
{
    const auto out = CheckShapes(pool, xDesc, "xDesc", yDesc, "yDesc");
    CheckSameType(dyDesc, "dyDesc", yDesc, "yDesc");
    CheckSameType(dxDesc, "dxDesc", xDesc, "xDesc");
    CheckSameLens(dyDesc, "dyDesc", yDesc, "yDesc");
    CheckSameLens(dxDesc, "dxDesc", xDesc, "xDesc");
    CheckDataPointers(handle, {{dy, "dy"}, {dx, "dx"}}, {{x, "x"}, {workSpace, "workSpace"}});
    const bool recompute = pool.Mode() == miopenPoolingMax && workSpace == nullptr;
    if(recompute && x == nullptr)
        ThrowBadParm("x is a null pointer and so is workSpace; max pooling backward needs the "
                     "indices saved by the forward (workSpace) or x to find them again");
    if(pool.Mode() == miopenPoolingMax && !recompute)
        pool.CheckIndexRange(xDesc);
    const Blend s = ReadBlend(alpha, beta, dxDesc);

    const PoolShape shape = ShapeOf(pool, xDesc, out);
    // The argmax saved by the forward; without it (index.data null) it is found again from x.
    PoolIndex index;
    if(pool.Mode() == miopenPoolingMax && !recompute)
        index = SavedIndex(pool, const_cast<void*>(workSpace));
    const Strides5 dys = Strides5Of(dyDesc), dxs = Strides5Of(dxDesc);
    DispatchFloating(xDesc.Type(), "xDesc", [&](auto tag) {
        using T        = typename decltype(tag)::type;
        const auto* dyp = static_cast<const T*>(dy);
        const auto* xp  = static_cast<const T*>(x);
        auto* dxp       = static_cast<T*>(dx);
        RunOp(
            handle,
            [&] {
                std::vector<uint32_t> found32; // the argmax found again from x (image indices)
                std::vector<uint64_t> found64;
                PoolIndex cpu_index = index;
                if(recompute)
                {
                    size_t image = 1;
                    for(int i = 2; i < xDesc.NumDims(); ++i)
                        image *= xDesc.Lens()[i];
                    if(image < std::numeric_limits<uint32_t>::max())
                    {
                        found32.resize(yDesc.ElementSize());
                        cpu_index.data = found32.data();
                        cpu_index.type = miopenIndexUint32;
                    }
                    else
                    {
                        found64.resize(yDesc.ElementSize());
                        cpu_index.data = found64.data();
                        cpu_index.type = miopenIndexUint64;
                    }
                    cpu_index.image = true;
                    cpu::PoolForward<T>(shape, 1.0f, xp, Strides5Of(xDesc), 0.0f, nullptr,
                                        Strides5Of(yDesc), cpu_index);
                }
                cpu::PoolBackward<T>(shape, s.alpha, dyp, dys, cpu_index, s.beta, dxp, dxs);
            },
            [&](auto& h) {
                gpu::PoolBackward<T>(h, shape, s.alpha, dyp, dys, index, xp, xDesc, s.beta, dxp,
                                     dxs);
            });
    });
}

namespace log {
void Print(std::ostream& out, miopenPoolingDescriptor_t desc)
{
    const void* p = desc;
    out << p;
    if(const auto* kind = registry::Find(p); kind != nullptr && *kind == typeid(PoolingDescriptor))
        out << " {" << static_cast<const PoolingDescriptor*>(desc)->ToString() << "}";
}
} // namespace log

} // namespace miopen
