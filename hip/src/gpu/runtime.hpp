// The GPU runtime, wrapped: device count and choice, memory, copies, streams and events, and the
// launch-error check. Host code includes this header only (no vendor headers), so the front doors
// and the handle compile the same with or without a GPU backend. Without one, DeviceCount() is 0
// and everything else throws NotImplemented. Every failing runtime call throws miopen::Error
// naming the call and the runtime's own words (cudaGetErrorString / hipGetErrorString).
#pragma once

#include <cstddef>
#include <string>

#if defined(MIOPEN_CY_HAVE_CUDA) || defined(MIOPEN_CY_HAVE_HIP)
#define MIOPEN_CY_HAVE_GPU 1
#else
#define MIOPEN_CY_HAVE_GPU 0
#endif

namespace miopen::gpu {

/// hipStream_t / cudaStream_t (null: the device's default stream).
using Stream = void*;
/// hipEvent_t / cudaEvent_t.
using Event = void*;

/// "CUDA", "HIP" or "none".
const char* BackendName();
/// The DLPack device type of this backend's memory: kDLCUDA (2), kDLROCM (10); kDLCPU (1) without
/// a backend.
int DLPackDeviceType();

/// Number of GPUs this process can use: 0 without a backend, a driver or a device. Never throws;
/// `why`, when given, receives the reason for 0.
int DeviceCount(std::string* why = nullptr);

/// The device name of GPU `ordinal` ("NVIDIA H100 80GB HBM3").
std::string DeviceName(int ordinal);
/// Multiprocessors (CUs) of GPU `ordinal`, cached.
int MultiprocessorCount(int ordinal);
/// The architecture of GPU `ordinal` as the find-db names it: "sm_90" (NVIDIA), "gfx90a" (AMD).
std::string ArchName(int ordinal);
/// Whether an architecture (ArchName's form) has the fp16 / bf16 matrix instructions that the
/// tensor-core kernels use (kernels/common/mma.hpp): "" where it does, else why not.
std::string MmaArchWhyNot(const std::string& arch);
/// The calling thread's current device (0 when the runtime cannot say).
int CurrentDevice() noexcept;

/// Makes `ordinal` the calling thread's current device; returns the previous one when it differed,
/// else -1 (nothing to restore).
int SwitchDevice(int ordinal);
/// Makes `previous` current again (nothing for -1); errors are ignored.
void RestoreDevice(int previous) noexcept;

/// Makes `ordinal` the calling thread's current device for the scope, restoring the previous one.
class DeviceScope
{
public:
    explicit DeviceScope(int ordinal);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    int previous_ = -1;
};

/// Device memory on the current device; AllocFailed (naming `what`) when it does not fit.
void* Malloc(size_t bytes, const char* what);
/// Frees device memory (null is fine); errors are ignored (a destructor path).
void Free(void* p) noexcept;

/// Copies `bytes` between any two of host and device memory (the direction is inferred) on
/// `stream`, and waits for it.
void Copy(void* dst, const void* src, size_t bytes, Stream stream);
/// The same, without waiting (host memory must stay valid until the stream has run it).
void CopyAsync(void* dst, const void* src, size_t bytes, Stream stream);
void MemsetAsync(void* p, int value, size_t bytes, Stream stream);

void StreamSynchronize(Stream stream);
/// Work queued on `waiter` from now on waits for everything queued on `producer` so far.
void StreamWait(Stream waiter, Stream producer);

Event EventCreate();
void EventDestroy(Event e) noexcept;
void EventRecord(Event e, Stream stream);
/// Milliseconds between two recorded events; waits for `stop`.
float EventElapsedMs(Event start, Event stop);

/// The GPU ordinal that device pointer `p` belongs to, or -1 for host (or unknown) memory.
int PointerDevice(const void* p) noexcept;

/// What GPU `ordinal` can make of a pointer that a caller passed as device memory.
enum class PointerAccess
{
    Readable,      // its own device memory, managed memory, mapped (pinned or registered) host
                   // memory, or any host memory where the GPU reads pageable memory (HMM, ATS)
    Host,          // plain host memory the GPU cannot read
    OtherDevice,   // memory of another GPU (`device` says which)
};
struct PointerCheck
{
    PointerAccess access;
    int device;    // the owning GPU for OtherDevice, else -1
};
/// One pointer-attributes query (cudaPointerGetAttributes / hipPointerGetAttributes); the
/// device's pageable-memory attribute is read once. Never throws; without a backend, Host.
PointerCheck CheckPointer(const void* p, int ordinal) noexcept;

/// Throws miopen::Error naming `what` when the last kernel launch failed (bad configuration,
/// missing kernel image for this GPU, a sticky error of an earlier kernel).
void CheckLaunch(const char* what);

} // namespace miopen::gpu
