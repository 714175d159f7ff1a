#include "core/handle.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/object.hpp"

#include <cstdlib>

namespace miopen {

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
    if(device.empty() || device == "cpu")
    {
        // No GPU backend is built into this library yet: the CPU is the default device.
        kind_    = DeviceKind::Cpu;
        ordinal_ = 0;
        return;
    }
    if(device == "gpu" || device.rfind("gpu:", 0) == 0)
    {
        if(device.size() > 4)
        {
            char* end = nullptr;
            const long n = std::strtol(device.c_str() + 4, &end, 10);
            if(end == device.c_str() + 4 || *end != '\0' || n < 0)
                ThrowBadParm(source, " = '", device, "': expected cpu, gpu or gpu:N");
        }
        Throw(miopenStatusNotImplemented, source, " = '", device,
              "': this build of miopen_cy has no GPU backend");
    }
    ThrowBadParm(source, " = '", device, "': expected cpu, gpu or gpu:N");
}

Handle& DerefHandle(miopenHandle_t handle, const char* name) { return Deref<Handle>(handle, name); }

} // namespace miopen
