#include "conv/conv_device.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"
#include "tensor/tensor_ops.hpp"

#include <algorithm>

#if MIOPEN_CY_HAVE_GPU
#include "gpu/compat.hpp"
#endif

namespace miopen::conv_device {

std::string ArchName(const Handle& handle)
{
    if(handle.IsCpu())
        return "cpu";
#if MIOPEN_CY_HAVE_GPU
    static std::string cached[64];
    const int ord = handle.Ordinal();
    if(ord >= 0 && ord < 64 && !cached[ord].empty())
        return cached[ord];
    hipDeviceProp_t prop;
    if(hipGetDeviceProperties(&prop, ord) != hipSuccess)
        ThrowNotImplemented("cannot read the properties of GPU ", ord);
#if defined(MIOPEN_CY_HAVE_CUDA)
    std::string name = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
#else
    std::string name(prop.gcnArchName);
    name = name.substr(0, name.find(':'));   // "gfx90a:sramecc+:xnack-" -> "gfx90a"
#endif
    if(ord >= 0 && ord < 64)
        cached[ord] = name;
    return name;
#else
    ThrowNotImplemented("no GPU backend in this build");
#endif
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

void Blend(const Handle& handle, float alpha, const TensorDescriptor& desc, const float* result,
           float beta, float* out)
{
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::Axpby(handle, alpha, desc, result, beta, desc, out, "miopenConvolution");
#endif
    cpu::Axpby(alpha, desc, result, beta, desc, out);
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
