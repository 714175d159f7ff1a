#include "core/handle.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/object.hpp"
#include "gpu/runtime.hpp"

#include <cstdlib>

namespace miopen {

Handle::~Handle()
{
    if(kind_ != DeviceKind::Gpu)
        return;
    try
    {
        gpu::DeviceScope scope(ordinal_);
        if(scratch_ != nullptr)
        {
            gpu::StreamSynchronize(stream_); // the last op may still use it
            gpu::Free(scratch_);
        }
        gpu::EventDestroy(start_event_);
        gpu::EventDestroy(stop_event_);
    }
    catch(...)
    {
        // A destructor never throws; a device in an error state keeps what it holds.
    }
}

void CheckDevicePointer(const Handle& handle, const void* p, const char* name)
{
    if(p == nullptr || !handle.IsGpu())
        return;
    const gpu::PointerCheck c = gpu::CheckPointer(p, handle.Ordinal());
    if(c.access == gpu::PointerAccess::Readable)
        return;
    const std::string where = c.access == gpu::PointerAccess::Host
                                  ? std::string("host memory that the GPU cannot read")
                                  : Concat("memory of gpu:", c.device);
    ThrowBadParm(name, " = ", p, " is ", where, "; the handle is on gpu:", handle.Ordinal(),
                 " and expects device memory of that GPU (miopenCyDeviceAlloc, hipMalloc / cudaMalloc, "
                 "managed or registered memory; in Python a DeviceBuffer or a GPU array)");
}

void Handle::Bind(const std::string& requested)
{
    std::string device = requested;
    const char* source = "device";
    if(device.empty())
    {
        if(const auto v = env::Value("MIOPEN_CY_DEVICE"))
        {
            device = *v;
            source = "MIOPEN_CY_DEVICE";
        }
    }
    if(device == "cpu")
    {
        kind_    = DeviceKind::Cpu;
        ordinal_ = 0;
        return;
    }
    if(device.empty())
    {
        // The default: GPU 0 when a backend is built and a GPU is present, else the CPU.
        if(gpu::DeviceCount() > 0)
        {
            kind_    = DeviceKind::Gpu;
            ordinal_ = 0;
        }
        else
        {
            kind_    = DeviceKind::Cpu;
            ordinal_ = 0;
        }
        return;
    }
    if(device == "gpu" || device.rfind("gpu:", 0) == 0)
    {
        long n = 0;
        if(device.size() > 4)
        {
            char* end = nullptr;
            n         = std::strtol(device.c_str() + 4, &end, 10);
            if(end == device.c_str() + 4 || *end != '\0' || n < 0)
                ThrowBadParm(source, " = '", device, "': expected cpu, gpu or gpu:N");
        }
        if(!MIOPEN_CY_HAVE_GPU)
            Throw(miopenStatusNotImplemented, source, " = '", device,
                  "': this build of miopen_cy has no GPU backend");
        std::string why;
        const int count = gpu::DeviceCount(&why);
        if(count == 0)
            Throw(miopenStatusNotInitialized, source, " = '", device, "': this build has a ",
                  gpu::BackendName(), " backend but no GPU is available (", why, ")");
        if(n >= count)
            ThrowBadParm(source, " = '", device, "': GPU ", n, " does not exist; ", count,
                         " GPU(s) present");
        kind_    = DeviceKind::Gpu;
        ordinal_ = static_cast<int>(n);
        return;
    }
    ThrowBadParm(source, " = '", device, "': expected cpu, gpu or gpu:N");
}

void Handle::SetStream(miopenAcceleratorQueue_t s)
{
    if(kind_ == DeviceKind::Gpu && s != stream_ && scratch_ != nullptr)
    {
        gpu::DeviceScope scope(ordinal_);
        gpu::StreamSynchronize(stream_);
    }
    stream_ = s;
}

void* Handle::Scratch(size_t bytes)
{
    if(bytes <= scratch_bytes_)
        return scratch_;
    gpu::DeviceScope scope(ordinal_);
    if(scratch_ != nullptr)
    {
        gpu::StreamSynchronize(stream_); // an earlier op on the stream may still read it
        gpu::Free(scratch_);
        scratch_       = nullptr;
        scratch_bytes_ = 0;
    }
    // Grow geometrically so that a sequence of growing calls reallocates rarely.
    const size_t want = bytes < 2 * scratch_bytes_ ? 2 * scratch_bytes_ : bytes;
    scratch_          = gpu::Malloc(want, "handle scratch");
    scratch_bytes_    = want;
    return scratch_;
}

void* Handle::StartEvent()
{
    if(start_event_ == nullptr)
        start_event_ = gpu::EventCreate();
    return start_event_;
}

void* Handle::StopEvent()
{
    if(stop_event_ == nullptr)
        stop_event_ = gpu::EventCreate();
    return stop_event_;
}

Handle& DerefHandle(miopenHandle_t handle, const char* name) { return Deref<Handle>(handle, name); }

KernelTimer::KernelTimer(Handle& h) : handle_(h), start_(std::chrono::steady_clock::now())
{
    if(!h.IsGpu())
        return;
    // The op runs on the handle's device whatever the caller's current device is.
    previous_device_ = gpu::SwitchDevice(h.Ordinal());
    if(h.IsProfiling())
    {
        try
        {
            gpu::EventRecord(h.StartEvent(), h.Stream());
        }
        catch(...)
        {
            gpu::RestoreDevice(previous_device_);
            throw;
        }
        timing_ = true;
    }
}

KernelTimer::~KernelTimer()
{
    if(!handle_.IsGpu())
    {
        if(handle_.IsProfiling())
            handle_.SetKernelTime(std::chrono::duration<float, std::milli>(
                                      std::chrono::steady_clock::now() - start_)
                                      .count());
        return;
    }
    if(timing_)
    {
        try
        {
            gpu::EventRecord(handle_.StopEvent(), handle_.Stream());
            handle_.SetKernelTime(gpu::EventElapsedMs(handle_.StartEvent(), handle_.StopEvent()));
        }
        catch(...)
        {
            // The op's own error (if any) is what the caller hears about.
        }
    }
    gpu::RestoreDevice(previous_device_);
}

} // namespace miopen
