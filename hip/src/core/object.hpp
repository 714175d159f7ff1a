// Lifetime of the opaque C objects (handles, descriptors). Every live object is registered, so a
// null, destroyed or wrong-kind pointer passed to the API is a clear BadParm instead of a crash.
#pragma once

#include "core/errors.hpp"

#include <typeinfo>

namespace miopen {

namespace registry {
void Add(const void* object, const std::type_info& kind);
void Remove(const void* object);
/// The registered kind of `object`, or nullptr if it is not live.
const std::type_info* Find(const void* object);
} // namespace registry

/// Creates a T, registers it and stores it in *out as the C type C.
template <class T, class C>
void CreateObject(C** out, const char* out_name)
{
    if(out == nullptr)
        ThrowBadParm(out_name, " is a null pointer");
    T* object = new T();
    registry::Add(static_cast<C*>(object), typeid(T));
    *out = static_cast<C*>(object);
}

/// The live T behind a C pointer; BadParm naming the parameter otherwise.
template <class T, class C>
T& Deref(C* object, const char* name)
{
    if(object == nullptr)
        ThrowBadParm(name, " is null");
    const std::type_info* kind = registry::Find(static_cast<const void*>(object));
    if(kind == nullptr)
        ThrowBadParm(name, " is not a live object (destroyed or never created)");
    if(*kind != typeid(T))
        ThrowBadParm(name, " is a ", kind->name(), ", not the expected descriptor kind");
    return *static_cast<T*>(object);
}

template <class T, class C>
void DestroyObject(C* object, const char* name)
{
    T& live = Deref<T>(object, name);
    registry::Remove(static_cast<const void*>(object));
    delete &live;
}

} // namespace miopen
