// Every environment variable miopen_cy reads goes through here, with MIOpen's parsing rules.
// Values are read at each use (not cached), so a process may change them between calls.
#pragma once

#include <optional>
#include <string>

namespace miopen::env {

/// A MIOPEN_DEBUG_* style toggle: on when unset or empty; off for 0/no/off/false/disable/disabled
/// (any case); on for 1/yes/on/true/enable/enabled; anything else throws BadParm naming `name`.
bool IsEnabled(const char* name);

/// A boolean switch that is off unless set (MIOPEN_ENABLE_LOGGING and the like): same vocabulary.
bool IsSet(const char* name);

/// The raw value, if set and non-empty.
std::optional<std::string> Value(const char* name);

/// An integer value; `fallback` when unset; BadParm naming `name` when not an integer.
long Integer(const char* name, long fallback);

} // namespace miopen::env
