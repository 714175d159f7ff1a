#include "conv/find_db.hpp"
#include "conv/db_file.hpp"
#include "conv/text_db.hpp"
#include "core/env.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace miopen::find_db {
namespace {

db_file::TextDb<std::vector<FindDbEntry>>& Db()
{
    // Never destroyed: finalisers may run after static destructors.
    static auto* db = new db_file::TextDb<std::vector<FindDbEntry>>("find-db", "find results", ParseRecord,
                                                                   FormatRecord);
    return *db;
}

} // namespace

bool Enabled() { return !env::IsSet("MIOPEN_DEBUG_DISABLE_FIND_DB"); }

std::string PathFor(const std::string& arch)
{
    const std::string dir = db_file::UserDbDirectory();
    return dir.empty() ? std::string() : dir + "/" + arch + ".ufdb.txt";
}

std::string FormatRecord(const std::string& key, const std::vector<FindDbEntry>& entries)
{
    std::ostringstream o;
    o << key << "=";
    for(size_t i = 0; i < entries.size(); ++i)
    {
        const auto& e = entries[i];
        char time[32];
        std::snprintf(time, sizeof(time), "%.6g", static_cast<double>(e.time_ms));
        o << (i ? ";" : "") << e.solver << ":" << time << "," << e.workspace << "," << e.algorithm;
    }
    return o.str();
}

bool ParseRecord(const std::string& line, std::string& key, std::vector<FindDbEntry>& entries)
{
    const size_t eq = line.find('=');
    if(eq == std::string::npos || eq == 0 || eq + 1 >= line.size())
        return false;
    key = line.substr(0, eq);
    if(key.find_first_of(" \t\r;:,") != std::string::npos)
        return false;
    entries.clear();
    std::istringstream items(line.substr(eq + 1));
    std::string item;
    while(std::getline(items, item, ';'))
    {
        FindDbEntry e;
        const size_t colon = item.find(':');
        if(colon == std::string::npos || colon == 0)
            return false;
        e.solver = item.substr(0, colon);
        const std::string rest = item.substr(colon + 1);
        char* end = nullptr;
        const char* p = rest.c_str();
        e.time_ms = std::strtof(p, &end);
        if(end == p || *end != ',' || !(e.time_ms >= 0.0f))
            return false;
        p = end + 1;
        const unsigned long long ws = std::strtoull(p, &end, 10);
        if(end == p || *end != ',')
            return false;
        e.workspace = ws;
        p = end + 1;
        const long algo = std::strtol(p, &end, 10);
        if(end == p || *end != '\0' || algo < 0 || algo > 5)
            return false;
        e.algorithm = static_cast<int>(algo);
        entries.push_back(std::move(e));
    }
    return !entries.empty();
}

std::vector<FindDbEntry> Load(const std::string& arch, const std::string& key)
{
    if(!Enabled())
        return {};
    auto record = Db().Find(arch, PathFor(arch), key, /*disk=*/true);
    return record ? std::move(*record) : std::vector<FindDbEntry>{};
}

void Store(const std::string& arch, const std::string& key, const std::vector<FindDbEntry>& entries)
{
    if(!Enabled() || entries.empty())
        return;
    Db().Update(arch, PathFor(arch), key, /*disk=*/true, [&](std::vector<FindDbEntry>& r) { r = entries; });
}

void Remove(const std::string& arch, const std::string& key)
{
    if(Enabled())
        Db().Remove(arch, PathFor(arch), key, /*disk=*/true);
}

} // namespace miopen::find_db
