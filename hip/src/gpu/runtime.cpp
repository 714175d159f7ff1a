// The GPU runtime wrapper (see runtime.hpp), written with HIP's names: on NVIDIA compat.hpp maps
// them onto the CUDA runtime. Built without a backend, it reports no device.
#include "gpu/runtime.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"

#include <cstdlib>
#include <mutex>
#include <vector>

#if MIOPEN_CY_HAVE_GPU
#include "gpu/compat.hpp"
#endif

namespace miopen::gpu {

#if !MIOPEN_CY_HAVE_GPU

namespace {
[[noreturn]] void NoBackend(const char* what)
{
    ThrowNotImplemented(what, ": this build of miopen_cy has no GPU backend");
}
} // namespace

const char* BackendName() { return "none"; }
int DLPackDeviceType() { return 1; } // kDLCPU
int DeviceCount(std::string* why)
{
    if(why != nullptr)
        *why = "this build of miopen_cy has no GPU backend";
    return 0;
}
std::string DeviceName(int) { NoBackend("DeviceName"); }
int MultiprocessorCount(int) { NoBackend("MultiprocessorCount"); }
std::string ArchName(int) { NoBackend("ArchName"); }
int CurrentDevice() noexcept { return 0; }
int SwitchDevice(int) { NoBackend("SwitchDevice"); }
void RestoreDevice(int) noexcept {}
DeviceScope::DeviceScope(int) { NoBackend("DeviceScope"); }
DeviceScope::~DeviceScope() = default;
void* Malloc(size_t, const char* what) { NoBackend(what); }
void Free(void*) noexcept {}
void Copy(void*, const void*, size_t, Stream) { NoBackend("Copy"); }
void CopyAsync(void*, const void*, size_t, Stream) { NoBackend("CopyAsync"); }
void MemsetAsync(void*, int, size_t, Stream) { NoBackend("MemsetAsync"); }
void StreamSynchronize(Stream) { NoBackend("StreamSynchronize"); }
void StreamWait(Stream, Stream) { NoBackend("StreamWait"); }
Event EventCreate() { NoBackend("EventCreate"); }
void EventDestroy(Event) noexcept {}
void EventRecord(Event, Stream) { NoBackend("EventRecord"); }
float EventElapsedMs(Event, Event) { NoBackend("EventElapsedMs"); }
int PointerDevice(const void*) noexcept { return -1; }
PointerCheck CheckPointer(const void*, int) noexcept { return {PointerAccess::Host, -1}; }
void CheckLaunch(const char* what) { NoBackend(what); }

#else

namespace {

hipStream_t AsStream(Stream s) { return static_cast<hipStream_t>(s); }
hipEvent_t AsEvent(Event e) { return static_cast<hipEvent_t>(e); }

/// "cudaMalloc: out of memory (cudaErrorMemoryAllocation)"
std::string Describe(const char* call, hipError_t err)
{
    return Concat(call, ": ", hipGetErrorString(err), " (", hipGetErrorName(err), ")");
}

void Check(hipError_t err, const char* call)
{
    if(err == hipSuccess)
        return;
    // Clear the error where it is not sticky, so that it does not surface again at the next
    // launch check (a sticky one, an illegal address say, comes back from every later call).
    (void)hipGetLastError();
    Throw(err == hipErrorMemoryAllocation ? miopenStatusAllocFailed : miopenStatusInternalError,
          Describe(call, err));
}

struct DeviceInfo
{
    std::string name;
    std::string arch;
    int multiprocessors = 0;
    bool pageable_access = false;   // reads plain host memory (HMM / ATS)
};

/// Properties of every device, read once.
const std::vector<DeviceInfo>& Devices()
{
    static std::vector<DeviceInfo> devices;
    static std::once_flag once;
    std::call_once(once, [] {
        const int n = DeviceCount();
        for(int i = 0; i < n; ++i)
        {
            hipDeviceProp_t prop{};
            DeviceInfo info;
            if(hipGetDeviceProperties(&prop, i) == hipSuccess)
            {
                info.name            = prop.name;
                info.multiprocessors = prop.multiProcessorCount;
#if defined(MIOPEN_CY_HAVE_CUDA)
                info.arch = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
#else
                info.arch = prop.gcnArchName;
                info.arch = info.arch.substr(0, info.arch.find(':')); // "gfx90a:sramecc+:xnack-"
#endif
            }
            else
                (void)hipGetLastError();
            int pageable = 0;
            if(hipDeviceGetAttribute(&pageable, hipDeviceAttributePageableMemoryAccess, i) == hipSuccess)
                info.pageable_access = pageable != 0;
            else
                (void)hipGetLastError();
            devices.push_back(info);
        }
    });
    return devices;
}

const DeviceInfo& Info(int ordinal)
{
    const auto& d = Devices();
    if(ordinal < 0 || ordinal >= static_cast<int>(d.size()))
        ThrowBadParm("GPU ordinal ", ordinal, " is out of range: ", d.size(), " GPU(s) present");
    return d[ordinal];
}

} // namespace

const char* BackendName() { return MIOPEN_CY_GPU_RUNTIME_NAME; }
int DLPackDeviceType() { return MIOPEN_CY_DLPACK_DEVICE_TYPE; }

int DeviceCount(std::string* why)
{
    int n               = 0;
    const hipError_t err = hipGetDeviceCount(&n);
    if(err != hipSuccess)
    {
        // No driver (cudaErrorInsufficientDriver), no device (cudaErrorNoDevice), ...
        if(why != nullptr)
            *why = Describe(MIOPEN_CY_RT "GetDeviceCount", err);
        (void)hipGetLastError();
        return 0;
    }
    if(n == 0 && why != nullptr)
        *why = "the runtime reports 0 devices";
    return n;
}

std::string DeviceName(int ordinal) { return Info(ordinal).name; }
int MultiprocessorCount(int ordinal)
{
    const int n = Info(ordinal).multiprocessors;
    return n > 0 ? n : 1;
}

std::string ArchName(int ordinal)
{
    const auto& arch = Info(ordinal).arch;
    if(arch.empty())
        ThrowNotImplemented("cannot read the properties of GPU ", ordinal);
    return arch;
}

int CurrentDevice() noexcept
{
    int dev = 0;
    if(hipGetDevice(&dev) != hipSuccess)
    {
        (void)hipGetLastError();
        return 0;
    }
    return dev;
}

int SwitchDevice(int ordinal)
{
    int current = -1;
    Check(hipGetDevice(&current), MIOPEN_CY_RT "GetDevice");
    if(current == ordinal)
        return -1;
    Check(hipSetDevice(ordinal), MIOPEN_CY_RT "SetDevice");
    return current;
}

void RestoreDevice(int previous) noexcept
{
    if(previous >= 0 && hipSetDevice(previous) != hipSuccess)
        (void)hipGetLastError();
}

DeviceScope::DeviceScope(int ordinal) : previous_(SwitchDevice(ordinal)) {}

DeviceScope::~DeviceScope() { RestoreDevice(previous_); }

void* Malloc(size_t bytes, const char* what)
{
    void* p = nullptr;
    if(bytes == 0)
        return nullptr;
    const hipError_t err = hipMalloc(&p, bytes);
    if(err != hipSuccess)
    {
        (void)hipGetLastError();
        Throw(err == hipErrorMemoryAllocation ? miopenStatusAllocFailed : miopenStatusInternalError,
              what, ": ", Describe(MIOPEN_CY_RT "Malloc", err), " allocating ", bytes, " bytes");
    }
    return p;
}

void Free(void* p) noexcept
{
    if(p != nullptr && hipFree(p) != hipSuccess)
        (void)hipGetLastError();
}

void CopyAsync(void* dst, const void* src, size_t bytes, Stream stream)
{
    if(bytes == 0)
        return;
    Check(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, AsStream(stream)), MIOPEN_CY_RT "MemcpyAsync");
}

void Copy(void* dst, const void* src, size_t bytes, Stream stream)
{
    CopyAsync(dst, src, bytes, stream);
    StreamSynchronize(stream);
}

void MemsetAsync(void* p, int value, size_t bytes, Stream stream)
{
    if(bytes == 0)
        return;
    Check(hipMemsetAsync(p, value, bytes, AsStream(stream)), MIOPEN_CY_RT "MemsetAsync");
}

void StreamSynchronize(Stream stream)
{
    Check(hipStreamSynchronize(AsStream(stream)), MIOPEN_CY_RT "StreamSynchronize");
}

void StreamWait(Stream waiter, Stream producer)
{
    if(waiter == producer)
        return;
    hipEvent_t e = nullptr;
    Check(hipEventCreateWithFlags(&e, hipEventDisableTiming), MIOPEN_CY_RT "EventCreateWithFlags");
    hipError_t err = hipEventRecord(e, AsStream(producer));
    if(err == hipSuccess)
        err = hipStreamWaitEvent(AsStream(waiter), e, 0);
    (void)hipEventDestroy(e); // released once the wait is satisfied
    Check(err, MIOPEN_CY_RT "StreamWaitEvent");
}

Event EventCreate()
{
    hipEvent_t e = nullptr;
    Check(hipEventCreateWithFlags(&e, hipEventDefault), MIOPEN_CY_RT "EventCreateWithFlags");
    return e;
}

void EventDestroy(Event e) noexcept
{
    if(e != nullptr && hipEventDestroy(AsEvent(e)) != hipSuccess)
        (void)hipGetLastError();
}

void EventRecord(Event e, Stream stream)
{
    Check(hipEventRecord(AsEvent(e), AsStream(stream)), MIOPEN_CY_RT "EventRecord");
}

float EventElapsedMs(Event start, Event stop)
{
    Check(hipEventSynchronize(AsEvent(stop)), MIOPEN_CY_RT "EventSynchronize");
    float ms = 0.0f;
    Check(hipEventElapsedTime(&ms, AsEvent(start), AsEvent(stop)), MIOPEN_CY_RT "EventElapsedTime");
    return ms;
}

int PointerDevice(const void* p) noexcept
{
    if(p == nullptr)
        return -1;
    hipPointerAttribute_t attr{};
    if(hipPointerGetAttributes(&attr, p) != hipSuccess)
    {
        (void)hipGetLastError(); // plain host memory on older runtimes
        return -1;
    }
    return MIOPEN_CY_POINTER_IS_DEVICE(attr) ? attr.device : -1;
}

PointerCheck CheckPointer(const void* p, int ordinal) noexcept
{
    hipPointerAttribute_t attr{};
    if(hipPointerGetAttributes(&attr, p) == hipSuccess)
    {
        if(MIOPEN_CY_POINTER_IS_MANAGED(attr))
            return {PointerAccess::Readable, -1};
        if(MIOPEN_CY_POINTER_IS_DEVICE(attr))
            return attr.device == ordinal ? PointerCheck{PointerAccess::Readable, -1}
                                          : PointerCheck{PointerAccess::OtherDevice, attr.device};
        if(MIOPEN_CY_POINTER_IS_HOST(attr) && attr.devicePointer != nullptr)
            return {PointerAccess::Readable, -1};
    }
    else
        (void)hipGetLastError(); // plain host memory on runtimes that call it an invalid value
    // Plain host memory: readable only where the GPU reads pageable memory.
    const auto& d = Devices();
    const bool pageable = ordinal >= 0 && ordinal < static_cast<int>(d.size()) && d[ordinal].pageable_access;
    return {pageable ? PointerAccess::Readable : PointerAccess::Host, -1};
}

void CheckLaunch(const char* what)
{
    // Test hook: MIOPEN_CY_DEBUG_GPU_FAIL_LAUNCH=1 (every op) or =<part of an op's name> makes
    // the launch check fail as a failed launch does, so the error path can be tested.
    if(const auto v = env::Value("MIOPEN_CY_DEBUG_GPU_FAIL_LAUNCH"))
        if(*v == "1" || std::string(what).find(*v) != std::string::npos)
        {
            (void)hipGetLastError();
            Throw(miopenStatusInternalError, what, ": kernel launch failed: forced by "
                  "MIOPEN_CY_DEBUG_GPU_FAIL_LAUNCH");
        }
    const hipError_t err = hipGetLastError();
    if(err != hipSuccess)
        Throw(miopenStatusInternalError, what, ": kernel launch failed: ", hipGetErrorString(err),
              " (", hipGetErrorName(err), ")");
}

#endif

std::string MmaArchWhyNot(const std::string& arch)
{
    if(arch.rfind("sm_", 0) == 0)
    {
        const int cc = std::atoi(arch.c_str() + 3);
        if(cc >= 80)
            return "";
        return arch + " has no mma.sync for fp16/bf16 m16n8k16 (needs sm_80 or later)";
    }
    if(arch == "gfx908" || arch == "gfx90a")
        return "";
    return arch + " has no MFMA (needs gfx908 or gfx90a)";
}

} // namespace miopen::gpu
