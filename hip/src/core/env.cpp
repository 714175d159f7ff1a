#include "core/env.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace miopen::env {
namespace {

std::string Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// Returns true/false for a recognised boolean word, throws for anything else.
bool ParseBool(const char* name, const std::string& raw)
{
    const std::string v = Lower(raw);
    if(v == "0" || v == "no" || v == "off" || v == "false" || v == "disable" || v == "disabled")
        return false;
    if(v == "1" || v == "yes" || v == "on" || v == "true" || v == "enable" || v == "enabled")
        return true;
    ThrowBadParm(name,
                 "='",
                 raw,
                 "' is not a boolean: use 1/yes/on/true/enable(d) or 0/no/off/false/disable(d)");
}

} // namespace

std::optional<std::string> Value(const char* name)
{
    const char* raw = std::getenv(name);
    if(raw == nullptr || raw[0] == '\0')
        return std::nullopt;
    return std::string(raw);
}

bool IsEnabled(const char* name)
{
    const auto v = Value(name);
    return !v || ParseBool(name, *v);
}

bool IsSet(const char* name)
{
    const auto v = Value(name);
    return v && ParseBool(name, *v);
}

long Integer(const char* name, long fallback)
{
    const auto v = Value(name);
    if(!v)
        return fallback;
    char* end   = nullptr;
    const long n = std::strtol(v->c_str(), &end, 10);
    if(end == v->c_str() || *end != '\0')
        ThrowBadParm(name, "='", *v, "' is not an integer");
    return n;
}

} // namespace miopen::env
