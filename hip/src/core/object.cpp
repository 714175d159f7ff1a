#include "core/object.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace miopen::registry {
namespace {

struct Table
{
    std::shared_mutex mutex;
    std::unordered_map<const void*, const std::type_info*> live;
};

// Never destroyed: objects may be released by Python finalisers after static destructors ran.
Table& Get()
{
    static Table* table = new Table();
    return *table;
}

} // namespace

void Add(const void* object, const std::type_info& kind)
{
    Table& t = Get();
    std::unique_lock lock(t.mutex);
    t.live[object] = &kind;
}

void Remove(const void* object)
{
    Table& t = Get();
    std::unique_lock lock(t.mutex);
    t.live.erase(object);
}

const std::type_info* Find(const void* object)
{
    Table& t = Get();
    std::shared_lock lock(t.mutex);
    const auto it = t.live.find(object);
    return it == t.live.end() ? nullptr : it->second;
}

} // namespace miopen::registry
