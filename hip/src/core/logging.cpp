#include "core/logging.hpp"
#include "core/env.hpp"

#include <cstdio>
#include <mutex>

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
    if(level == Level::Default) // a function-call line
        std::fprintf(stderr, "MIOpen(CY): %s(%s)\n", api.c_str(), message.c_str());
    else
        std::fprintf(stderr, "MIOpen(CY): %s [%s] %s\n", LevelName(level), api.c_str(), message.c_str());
    std::fflush(stderr);
}

} // namespace miopen::log
