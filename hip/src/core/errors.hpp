// miopen::Error: what every failing call throws, and the helpers that build its message.
// The api/ shims catch it, keep the text in a thread-local buffer and return its status, so a
// C caller gets MIOpen's status codes and a Python caller gets the message too.
#pragma once

#include <miopen/miopen.h>

#include <exception>
#include <sstream>
#include <string>
#include <utility>

namespace miopen {

class Error : public std::exception
{
public:
    Error(miopenStatus_t status, std::string message)
        : status_(status), message_(std::move(message))
    {
    }
    const char* what() const noexcept override { return message_.c_str(); }
    miopenStatus_t Status() const { return status_; }

private:
    miopenStatus_t status_;
    std::string message_;
};

template <class... Ts>
std::string Concat(const Ts&... parts)
{
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

template <class... Ts>
[[noreturn]] void Throw(miopenStatus_t status, const Ts&... parts)
{
    throw Error(status, Concat(parts...));
}

template <class... Ts>
[[noreturn]] void ThrowBadParm(const Ts&... parts)
{
    Throw(miopenStatusBadParm, parts...);
}

template <class... Ts>
[[noreturn]] void ThrowNotImplemented(const Ts&... parts)
{
    Throw(miopenStatusNotImplemented, parts...);
}

/// Thread-local text of the last failure, read through miopenCyGetLastErrorMessage.
void SetLastErrorMessage(const std::string& message);
const char* GetLastErrorMessage();

} // namespace miopen
