// Handle: the device a set of calls runs on (the CPU, or a GPU with its stream), profiling state
// and the last kernel time. On the CPU "device memory" is host memory and calls are synchronous.
#pragma once

#include <miopen/miopen.h>

#include <chrono>
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
    /// Binds to `device` ("cpu", "gpu", "gpu:N"; empty = MIOPEN_CY_DEVICE, then the default).
    void Bind(const std::string& device);

    DeviceKind Kind() const { return kind_; }
    int Ordinal() const { return ordinal_; }
    bool IsCpu() const { return kind_ == DeviceKind::Cpu; }
    miopenAcceleratorQueue_t Stream() const { return stream_; }
    void SetStream(miopenAcceleratorQueue_t s) { stream_ = s; }
    void EnableProfiling(bool on) { profiling_ = on; }
    bool IsProfiling() const { return profiling_; }
    float KernelTime() const { return kernel_time_ms_; }
    void SetKernelTime(float ms) { kernel_time_ms_ = ms; }

private:
    DeviceKind kind_ = DeviceKind::Cpu;
    int ordinal_ = 0;
    miopenAcceleratorQueue_t stream_ = nullptr;
    bool profiling_ = false;
    float kernel_time_ms_ = 0.0f;
};

Handle& DerefHandle(miopenHandle_t handle, const char* name = "handle");

/// Times one op on the handle when profiling is on (wall clock on the CPU) and records it as
/// the handle's kernel time when it goes out of scope.
class KernelTimer
{
public:
    explicit KernelTimer(Handle& h) : handle_(h), start_(std::chrono::steady_clock::now()) {}
    ~KernelTimer()
    {
        if(handle_.IsProfiling())
            handle_.SetKernelTime(std::chrono::duration<float, std::milli>(
                                      std::chrono::steady_clock::now() - start_)
                                      .count());
    }
    KernelTimer(const KernelTimer&) = delete;
    KernelTimer& operator=(const KernelTimer&) = delete;

private:
    Handle& handle_;
    std::chrono::steady_clock::time_point start_;
};

} // namespace miopen
