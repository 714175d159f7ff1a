#include "core/logging.hpp"
#include "core/env.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

namespace miopen::log {
namespace {

const char* LevelName(Level level)
{
    switch(level)
    {
    case Level::Fatal: return "Fatal";
    case Level::Error: return "Error";
    case Level::Warning: return "Warning";
    case Level::Info: return "Info";
    case Level::Info2: return "Info2";
    case Level::Trace: return "Trace";
    default: return "Info";
    }
}

// A malformed logging variable must not turn every call into an error: it logs as unset.
long CurrentLevel()
{
    try
    {
        const long v = env::Integer("MIOPEN_LOG_LEVEL", 0);
        return v == 0 ? static_cast<long>(Level::Warning) : v;
    }
    catch(...)
    {
        return static_cast<long>(Level::Warning);
    }
}

bool Flag(const char* name)
{
    try
    {
        return env::IsSet(name);
    }
    catch(...)
    {
        return false;
    }
}

// MIOpen's prefix: "[tid ]MIOpen(CY)[ elapsed ms]: " with MIOPEN_ENABLE_LOGGING_MPMT (the thread's
// LWP id, which tells processes and threads apart) and MIOPEN_ENABLE_LOGGING_ELAPSED_TIME (the
// milliseconds since the previous line). Called under Write's lock.
std::string Prefix()
{
    std::string out;
    if(Flag("MIOPEN_ENABLE_LOGGING_MPMT"))
        out += std::to_string(static_cast<long>(syscall(SYS_gettid))) + " ";
    out += "MIOpen(CY)";
    if(Flag("MIOPEN_ENABLE_LOGGING_ELAPSED_TIME"))
    {
        static auto prev = std::chrono::steady_clock::now();
        const auto now   = std::chrono::steady_clock::now();
        char ms[32];
        std::snprintf(ms, sizeof(ms), "%8.3f",
                      std::chrono::duration<double, std::milli>(now - prev).count());
        prev = now;
        out += ms;
    }
    return out + ": ";
}

} // namespace

bool IsLoggingFunctionCalls()
{
    try
    {
        return env::IsSet("MIOPEN_ENABLE_LOGGING");
    }
    catch(...)
    {
        return false;
    }
}

bool IsEnabled(Level level) { return static_cast<long>(level) <= CurrentLevel(); }

void Write(Level level, const std::string& api, const std::string& message)
{
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    const std::string prefix = Prefix();
    if(level == Level::Default) // a function-call line
        std::fprintf(stderr, "%s%s(%s)\n", prefix.c_str(), api.c_str(), message.c_str());
    else
        std::fprintf(stderr, "%s%s [%s] %s\n", prefix.c_str(), LevelName(level), api.c_str(), message.c_str());
    std::fflush(stderr);
}

} // namespace miopen::log
