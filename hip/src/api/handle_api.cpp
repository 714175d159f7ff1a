// extern "C" shims for status strings, version and the handle.
#include "core/api.hpp"
#include "core/handle.hpp"

#include <memory>
#include <string>

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
