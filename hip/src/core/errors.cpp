#include "core/errors.hpp"

#include <string>

namespace miopen {
namespace {
thread_local std::string last_error_message;
}

void SetLastErrorMessage(const std::string& message) { last_error_message = message; }
const char* GetLastErrorMessage() { return last_error_message.c_str(); }

} // namespace miopen
