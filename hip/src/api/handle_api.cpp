// extern "C" shims for status strings, version and the handle.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "gpu/runtime.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

extern "C" const char* miopenGetErrorString(miopenStatus_t error)
{
    switch(error)
    {
    case miopenStatusSuccess: return "miopenStatusSuccess";
    case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
    case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
    case miopenStatusBadParm: return "miopenStatusBadParm";
    case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
    case miopenStatusInternalError: return "miopenStatusInternalError";
    case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
    case miopenStatusUnknownError: return "miopenStatusUnknownError";
    case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
    case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
    case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
    }
    return "Unknown error status";
}

extern "C" const char* miopenCyGetLastErrorMessage(void) { return miopen::GetLastErrorMessage(); }

extern "C" miopenStatus_t miopenGetVersion(size_t* major, size_t* minor, size_t* patch)
{
    return MIOPEN_TRY({
        // The MIOpen API level this library implements.
        if(major != nullptr)
            *major = 6;
        if(minor != nullptr)
            *minor = 1;
        if(patch != nullptr)
            *patch = 0;
    });
}

extern "C" miopenStatus_t miopenCyCreateOnDevice(miopenHandle_t* handle, const char* device)
{
    MIOPEN_LOG_FUNCTION(handle, device);
    return MIOPEN_TRY({
        auto& out = miopen::Out(handle, "handle");
        auto h    = std::make_unique<miopen::Handle>();
        h->Bind(device == nullptr ? std::string() : std::string(device));
        miopen::registry::Add(static_cast<miopenHandle*>(h.get()), typeid(miopen::Handle));
        out = h.release();
    });
}

extern "C" miopenStatus_t miopenCreate(miopenHandle_t* handle)
{
    return miopenCyCreateOnDevice(handle, nullptr);
}

extern "C" miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle,
                                                 miopenAcceleratorQueue_t stream)
{
    MIOPEN_LOG_FUNCTION(handle, stream);
    const miopenStatus_t status = miopenCyCreateOnDevice(handle, nullptr);
    if(status != miopenStatusSuccess)
        return status;
    return MIOPEN_TRY({ miopen::DerefHandle(*handle).SetStream(stream); });
}

extern "C" miopenStatus_t miopenDestroy(miopenHandle_t handle)
{
    MIOPEN_LOG_FUNCTION(handle);
    return MIOPEN_TRY({ miopen::DestroyObject<miopen::Handle>(handle, "handle"); });
}

extern "C" miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    MIOPEN_LOG_FUNCTION(handle, streamID);
    return MIOPEN_TRY({ miopen::DerefHandle(handle).SetStream(streamID); });
}

extern "C" miopenStatus_t miopenGetStream(miopenHandle_t handle, miopenAcceleratorQueue_t* streamID)
{
    MIOPEN_LOG_FUNCTION(handle, streamID);
    return MIOPEN_TRY({ miopen::Out(streamID, "streamID") = miopen::DerefHandle(handle).Stream(); });
}

extern "C" miopenStatus_t miopenSetAllocator(miopenHandle_t handle,
                                             miopenAllocatorFunction allocator,
                                             miopenDeallocatorFunction deallocator,
                                             void* allocatorContext)
{
    MIOPEN_LOG_FUNCTION(handle, allocatorContext);
    return MIOPEN_TRY({
        miopen::DerefHandle(handle);
        // miopen_cy's ops allocate no device memory of their own (workspaces come from the
        // caller), so a custom allocator has nothing to serve; it is accepted as MIOpen does.
        if((allocator == nullptr) != (deallocator == nullptr))
            miopen::ThrowBadParm("allocator and deallocator must both be set or both be null");
    });
}

extern "C" miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time)
{
    MIOPEN_LOG_FUNCTION(handle, time);
    return MIOPEN_TRY({ miopen::Out(time, "time") = miopen::DerefHandle(handle).KernelTime(); });
}

extern "C" miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable)
{
    MIOPEN_LOG_FUNCTION(handle, enable);
    return MIOPEN_TRY({ miopen::DerefHandle(handle).EnableProfiling(enable); });
}

extern "C" miopenStatus_t miopenCyGetHandleDevice(miopenHandle_t handle, int* kind, int* ordinal)
{
    return MIOPEN_TRY({
        const auto& h              = miopen::DerefHandle(handle);
        miopen::Out(kind, "kind")       = static_cast<int>(h.Kind());
        miopen::Out(ordinal, "ordinal") = h.Ordinal();
    });
}

// ---- device memory and streams (miopen_cy extensions) -----------------------------------------

extern "C" miopenStatus_t miopenCyGetDeviceCount(int* count)
{
    return MIOPEN_TRY({ miopen::Out(count, "count") = miopen::gpu::DeviceCount(); });
}

extern "C" miopenStatus_t miopenCyGetDLPackDevice(miopenHandle_t handle, int* deviceType,
                                                  int* deviceId)
{
    return MIOPEN_TRY({
        const auto& h = miopen::DerefHandle(handle);
        miopen::Out(deviceType, "deviceType") = h.IsGpu() ? miopen::gpu::DLPackDeviceType() : 1; // kDLCPU
        miopen::Out(deviceId, "deviceId")     = h.IsGpu() ? h.Ordinal() : 0;
    });
}

namespace {

// Every live block from miopenCyDeviceAlloc, by address: the device it is on (-1 for host memory
// of a CPU handle). miopenCyDeviceFree checks it, so a double free or a foreign address is a
// BadParm error instead of heap corruption.
struct Allocations
{
    std::mutex mutex;
    std::unordered_map<void*, int> live;
};

Allocations& LiveAllocations()
{
    static auto* a = new Allocations(); // never destroyed: frees may come from finalisers
    return *a;
}

void Track(void* p, int device)
{
    auto& a = LiveAllocations();
    std::lock_guard<std::mutex> lock(a.mutex);
    a.live[p] = device;
}

/// Forgets `p` if it is a live block of `device`; BadParm (naming `ptr`) otherwise.
void Untrack(void* p, int device)
{
    auto& a = LiveAllocations();
    std::lock_guard<std::mutex> lock(a.mutex);
    const auto it = a.live.find(p);
    if(it == a.live.end())
        miopen::Throw(miopenStatusBadParm, "ptr = ", p,
                      " was not allocated by miopenCyDeviceAlloc or was already freed");
    if(it->second != device)
        miopen::Throw(miopenStatusBadParm, "ptr = ", p, " was allocated on ",
                      it->second < 0 ? std::string("the CPU") : "GPU " + std::to_string(it->second),
                      ", not on this handle's device");
    a.live.erase(it);
}

} // namespace

extern "C" miopenStatus_t miopenCyDeviceAlloc(miopenHandle_t handle, void** ptr, size_t sizeBytes)
{
    MIOPEN_LOG_FUNCTION(handle, ptr, sizeBytes);
    return MIOPEN_TRY({
        auto& h   = miopen::DerefHandle(handle);
        auto& out = miopen::Out(ptr, "ptr");
        out       = nullptr;
        if(sizeBytes == 0)
            return;
        if(h.IsGpu())
        {
            miopen::gpu::DeviceScope scope(h.Ordinal());
            void* p = miopen::gpu::Malloc(sizeBytes, "miopenCyDeviceAlloc");
            try
            {
                Track(p, h.Ordinal());
            }
            catch(...)
            {
                miopen::gpu::Free(p);
                throw;
            }
            out = p;
            return;
        }
        // Rounded up to the alignment; a size so large that rounding overflows cannot be had.
        if(sizeBytes > SIZE_MAX - 63)
            miopen::Throw(miopenStatusAllocFailed, "out of host memory allocating ", sizeBytes,
                          " bytes");
        void* p = std::aligned_alloc(64, (sizeBytes + 63) / 64 * 64);
        if(p == nullptr)
            miopen::Throw(miopenStatusAllocFailed, "out of host memory allocating ", sizeBytes,
                          " bytes");
        try
        {
            Track(p, -1);
        }
        catch(...)
        {
            std::free(p);
            throw;
        }
        out = p;
    });
}

extern "C" miopenStatus_t miopenCyDeviceFree(miopenHandle_t handle, void* ptr)
{
    MIOPEN_LOG_FUNCTION(handle, ptr);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        if(ptr == nullptr)
            return;
        Untrack(ptr, h.IsGpu() ? h.Ordinal() : -1);
        if(h.IsGpu())
        {
            miopen::gpu::DeviceScope scope(h.Ordinal());
            miopen::gpu::Free(ptr);
        }
        else
            std::free(ptr);
    });
}

extern "C" miopenStatus_t miopenCyMemcpy(miopenHandle_t handle, void* dst, const void* src,
                                         size_t sizeBytes)
{
    MIOPEN_LOG_FUNCTION(handle, dst, src, sizeBytes);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        if(sizeBytes == 0)
            return;
        miopen::CheckData(dst, "dst");
        miopen::CheckData(src, "src");
        if(h.IsGpu())
        {
            miopen::gpu::DeviceScope scope(h.Ordinal());
            miopen::gpu::Copy(dst, src, sizeBytes, h.Stream());
        }
        else
            std::memmove(dst, src, sizeBytes);
    });
}

extern "C" miopenStatus_t miopenCyStreamSynchronize(miopenHandle_t handle)
{
    MIOPEN_LOG_FUNCTION(handle);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        if(h.IsGpu())
        {
            miopen::gpu::DeviceScope scope(h.Ordinal());
            miopen::gpu::StreamSynchronize(h.Stream());
        }
    });
}

extern "C" miopenStatus_t miopenCyStreamWait(miopenHandle_t handle, miopenAcceleratorQueue_t stream)
{
    MIOPEN_LOG_FUNCTION(handle, stream);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        if(h.IsGpu())
        {
            miopen::gpu::DeviceScope scope(h.Ordinal());
            miopen::gpu::StreamWait(h.Stream(), stream);
        }
    });
}

extern "C" miopenStatus_t miopenCyGetPointerDevice(const void* ptr, int* ordinal)
{
    return MIOPEN_TRY({ miopen::Out(ordinal, "ordinal") = miopen::gpu::PointerDevice(ptr); });
}
