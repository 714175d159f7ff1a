#include "conv/conv_device.hpp"
#include "core/errors.hpp"
#include "core/storage.hpp"
#include "gpu/runtime.hpp"
#include "tensor/tensor_ops.hpp"

#include <algorithm>

namespace miopen::conv_device {

std::string ArchName(const Handle& handle)
{
    return handle.IsCpu() ? std::string("cpu") : gpu::ArchName(handle.Ordinal());
}

Scope::Scope(const Handle& handle) : gpu_(handle.IsGpu())
{
    if(gpu_)
        previous_ = gpu::SwitchDevice(handle.Ordinal());
}

Scope::~Scope()
{
    if(gpu_)
        gpu::RestoreDevice(previous_);
}

void Blend(const Handle& handle, float alpha, const TensorDescriptor& desc, const void* result,
           float beta, void* out)
{
    DispatchFloating(desc.Type(), "the convolution's output", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* r = static_cast<const T*>(result);
        T* o = static_cast<T*>(out);
#if MIOPEN_CY_HAVE_GPU
        if(handle.IsGpu())
            return gpu::Axpby(handle, alpha, desc, r, beta, desc, o, "miopenConvolution");
#endif
        cpu::Axpby(alpha, desc, r, beta, desc, o);
    });
}

Buffer::Buffer(const Handle& handle, size_t bytes, const char* what) : handle_(handle)
{
    if(handle.IsGpu())
        p_ = gpu::Malloc(std::max<size_t>(bytes, 4), what);
    else
    {
        host_.reset(new char[std::max<size_t>(bytes, 4)]);
        p_ = host_.get();
    }
}

Buffer::~Buffer()
{
    if(handle_.IsGpu())
    {
        try
        {
            gpu::StreamSynchronize(handle_.Stream());
        }
        catch(...)
        {
        }
        gpu::Free(p_);
    }
}

} // namespace miopen::conv_device
