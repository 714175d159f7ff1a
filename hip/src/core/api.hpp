// What every extern "C" shim in src/api uses: run the body, turn exceptions into a status and a
// thread-local message (logged at Info level), and check raw pointer arguments.
#pragma once

#include "core/errors.hpp"
#include "core/logging.hpp"
#include "core/object.hpp"

#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>

namespace miopen {

template <class F>
miopenStatus_t Try(const char* api, F&& body)
{
    try
    {
        SetLastErrorMessage("");
        body();
        return miopenStatusSuccess;
    }
    catch(const Error& e)
    {
        const std::string message =
            Concat(api, ": ", miopenGetErrorString(e.Status()), ": ", e.what());
        SetLastErrorMessage(message);
        if(log::IsEnabled(log::Level::Info))
            log::Write(log::Level::Info, api, message);
        return e.Status();
    }
    catch(const std::bad_alloc&)
    {
        SetLastErrorMessage(Concat(api, ": miopenStatusAllocFailed: out of host memory"));
        return miopenStatusAllocFailed;
    }
    catch(const std::exception& e)
    {
        SetLastErrorMessage(Concat(api, ": miopenStatusInternalError: ", e.what()));
        return miopenStatusInternalError;
    }
    catch(...)
    {
        SetLastErrorMessage(Concat(api, ": miopenStatusUnknownError: unknown exception"));
        return miopenStatusUnknownError;
    }
}

/// An output pointer of the C API (int* n, size_t* size, ...): must not be null.
template <class T>
T& Out(T* p, const char* name)
{
    if(p == nullptr)
        ThrowBadParm(name, " is a null pointer");
    return *p;
}

/// A data pointer that must be given.
inline void CheckData(const void* p, const char* name)
{
    if(p == nullptr)
        ThrowBadParm(name, " is a null pointer");
}

/// A count or length handed back through an int of the C API; BadParm naming `what` when it does
/// not fit.
inline int ToInt(size_t v, const char* what)
{
    if(v > static_cast<size_t>(std::numeric_limits<int>::max()))
        ThrowBadParm(what, " = ", v, " does not fit in an int");
    return static_cast<int>(v);
}

/// The int value of an enum argument. A C caller may pass any int; reading it as an int, not as
/// the enum type, keeps an out-of-range value defined behaviour until it is checked.
template <class E>
int EnumValue(const E& e)
{
    static_assert(sizeof(E) == sizeof(int), "C enums are ints");
    int v = 0;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

/// An enum argument checked against its valid values: BadParm naming the parameter otherwise.
template <class E>
E CheckedEnum(const E& e, const char* name, const char* type, std::initializer_list<int> valid)
{
    const int v = EnumValue(e);
    for(int ok : valid)
        if(v == ok)
            return static_cast<E>(v);
    ThrowBadParm(name, " = ", v, " is not a ", type, " value");
}

} // namespace miopen

#define MIOPEN_TRY(...) ::miopen::Try(__func__, [&] __VA_ARGS__)
