// Handle: the device a set of calls runs on (the CPU, or a GPU with its stream), profiling state
// and the last kernel time. On the CPU "device memory" is host memory and calls are synchronous;
// on a GPU every kernel is queued on the handle's stream (null: the device's default stream), and
// the handle owns the events that time it and a scratch buffer some ops need between kernels.
#pragma once

#include <miopen/miopen.h>

#include <chrono>
#include <cstddef>
#include <string>

namespace miopen {

enum class DeviceKind
{
    Cpu = 0,
    Gpu = 1,
};

class Handle : public miopenHandle
{
public:
    Handle() = default;
    ~Handle();
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    /// Binds to `device` ("cpu", "gpu", "gpu:N"; empty = MIOPEN_CY_DEVICE, then the default:
    /// GPU 0 when a GPU backend is built and a GPU is present, else the CPU).
    void Bind(const std::string& device);

    DeviceKind Kind() const { return kind_; }
    int Ordinal() const { return ordinal_; }
    bool IsCpu() const { return kind_ == DeviceKind::Cpu; }
    bool IsGpu() const { return kind_ == DeviceKind::Gpu; }
    miopenAcceleratorQueue_t Stream() const { return stream_; }
    /// A GPU handle first waits for the work it queued on its old stream, so that its scratch
    /// buffer is never in use on two streams at once.
    void SetStream(miopenAcceleratorQueue_t s);
    void EnableProfiling(bool on) { profiling_ = on; }
    bool IsProfiling() const { return profiling_; }
    float KernelTime() const { return kernel_time_ms_; }
    void SetKernelTime(float ms) { kernel_time_ms_ = ms; }

    /// GPU: device memory of at least `bytes` owned by the handle, valid until the next call
    /// that asks for scratch. Kernels on the handle's stream use it in stream order.
    void* Scratch(size_t bytes);
    /// GPU: the pair of events that times an op (created on first use).
    void* StartEvent();
    void* StopEvent();

private:
    DeviceKind kind_ = DeviceKind::Cpu;
    int ordinal_ = 0;
    miopenAcceleratorQueue_t stream_ = nullptr;
    bool profiling_ = false;
    float kernel_time_ms_ = 0.0f;
    void* scratch_ = nullptr;
    size_t scratch_bytes_ = 0;
    void* start_event_ = nullptr;
    void* stop_event_ = nullptr;
};

/// The guard: on a GPU handle, BadParm naming `name` unless `p` is memory the handle's GPU can
/// read (its device memory, managed memory, mapped host memory); plain host memory and another
/// GPU's memory are refused before anything is queued (a kernel reading them would fault and
/// leave the process's GPU context unusable). Nothing for null or on a CPU handle.
void CheckDevicePointer(const Handle& handle, const void* p, const char* name);

Handle& DerefHandle(miopenHandle_t handle, const char* name = "handle");

/// Runs one op on the handle. On a GPU it makes the handle's device current for the op's scope
/// and, when profiling is on, times the op with events on the handle's stream (waiting for it);
/// on the CPU it times it by wall clock. The time becomes the handle's kernel time
/// (miopenGetKernelTime) when the timer goes out of scope.
class KernelTimer
{
public:
    explicit KernelTimer(Handle& h);
    ~KernelTimer();
    KernelTimer(const KernelTimer&) = delete;
    KernelTimer& operator=(const KernelTimer&) = delete;

private:
    Handle& handle_;
    std::chrono::steady_clock::time_point start_;
    int previous_device_ = -1; // GPU: the device current before the op, restored after
    bool timing_ = false;      // GPU: the start event was recorded
};

} // namespace miopen
