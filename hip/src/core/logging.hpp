// Logging with MIOpen's switches: MIOPEN_ENABLE_LOGGING prints every API call with its arguments
// to stderr; MIOPEN_LOG_LEVEL (0 default = 4, 1 quiet, 2 fatal, 3 error, 4 warning, 5 info,
// 6 info2, 7 trace) filters the other messages.
#pragma once

#include <miopen/miopen.h>

#include <cstring>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

namespace miopen::log {

enum class Level
{
    Default = 0,
    Quiet   = 1,
    Fatal   = 2,
    Error   = 3,
    Warning = 4,
    Info    = 5,
    Info2   = 6,
    Trace   = 7,
};

bool IsLoggingFunctionCalls();
bool IsEnabled(Level level);
void Write(Level level, const std::string& api, const std::string& message);

// How each argument kind appears in a call log line. Descriptors print what C sees.
void Print(std::ostream& out, miopenTensorDescriptor_t desc);
void Print(std::ostream& out, miopenActivationDescriptor_t desc);
void Print(std::ostream& out, miopenPoolingDescriptor_t desc);
void Print(std::ostream& out, miopenLRNDescriptor_t desc);
void Print(std::ostream& out, miopenConvolutionDescriptor_t desc);
inline void Print(std::ostream& out, const char* s) { out << (s ? s : "(null)"); }
template <class T>
void Print(std::ostream& out, const T& v)
{
    if constexpr(std::is_pointer_v<T>)
        out << static_cast<const void*>(v);
    else if constexpr(std::is_enum_v<T>)
    {
        int raw = 0;   // as an int: a C caller may pass a value outside the enum
        std::memcpy(&raw, &v, sizeof raw < sizeof v ? sizeof raw : sizeof v);
        out << raw;
    }
    else
        out << v;
}

template <class... Ts>
void LogFunction(const char* api, const char* names, const Ts&... args)
{
    std::ostringstream out;
    std::string rest(names);
    bool first = true;
    auto one   = [&](const auto& v) {
        const auto comma = rest.find(',');
        std::string name = rest.substr(0, comma);
        rest             = comma == std::string::npos ? std::string() : rest.substr(comma + 1);
        while(!name.empty() && name.front() == ' ')
            name.erase(0, 1);
        out << (first ? "" : ", ") << name << " = ";
        Print(out, v);
        first = false;
    };
    (one(args), ...);
    Write(Level::Default, api, out.str());
}

} // namespace miopen::log

/// Logs the enclosing API call and its arguments when MIOPEN_ENABLE_LOGGING is on.
#define MIOPEN_LOG_FUNCTION(...)                                                  \
    do                                                                            \
    {                                                                             \
        if(::miopen::log::IsLoggingFunctionCalls())                               \
            ::miopen::log::LogFunction(__func__, #__VA_ARGS__, __VA_ARGS__);      \
    } while(false)
