#include "conv/perf_db.hpp"
#include "conv/db_file.hpp"
#include "conv/text_db.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"

#include <map>
#include <sstream>

namespace miopen::perf_db {
namespace {

using Record = std::map<std::string, std::string>;   // solver -> variant

bool ValidToken(const std::string& t) { return !t.empty() && t.find_first_of(" \t\r\n;:=") == std::string::npos; }

bool ParseLine(const std::string& line, std::string& key, Record& record)
{
    const size_t eq = line.find('=');
    if(eq == std::string::npos || eq == 0)
        return false;
    key = line.substr(0, eq);
    if(!ValidToken(key))
        return false;
    record.clear();
    std::istringstream items(line.substr(eq + 1));
    std::string item;
    while(std::getline(items, item, ';'))
    {
        const size_t colon = item.find(':');
        if(colon == std::string::npos)
            return false;
        const std::string solver = item.substr(0, colon), variant = item.substr(colon + 1);
        if(!ValidToken(solver) || !ValidToken(variant))
            return false;
        record[solver] = variant;
    }
    return !record.empty();
}

std::string FormatLine(const std::string& key, const Record& record)
{
    if(record.empty())
        return "";
    std::string line = key + "=";
    bool first = true;
    for(const auto& [solver, variant] : record)
    {
        line += (first ? "" : ";") + solver + ":" + variant;
        first = false;
    }
    return line;
}

db_file::TextDb<Record>& Db()
{
    // Never destroyed: finalisers may run after static destructors.
    static auto* db = new db_file::TextDb<Record>("perf-db", "tuning results", ParseLine, FormatLine);
    return *db;
}

} // namespace

bool Enabled() { return !env::IsSet("MIOPEN_DEBUG_DISABLE_PERF_DB"); }

std::string PathFor(const std::string& arch)
{
    const std::string dir = db_file::UserDbDirectory();
    return dir.empty() ? std::string() : dir + "/" + arch + ".updb.txt";
}

// Disabled, the perf-db still keeps the process's search results, in memory only.
std::optional<std::string> Load(const std::string& arch, const std::string& key, const std::string& solver)
{
    const auto record = Db().Find(arch, PathFor(arch), key, Enabled());
    if(!record)
        return std::nullopt;
    const auto v = record->find(solver);
    return v == record->end() ? std::nullopt : std::optional<std::string>(v->second);
}

void Store(const std::string& arch, const std::string& key, const std::string& solver, const std::string& variant)
{
    if(!ValidToken(variant))
        Throw(miopenStatusInternalError, "perf-db: variant '", variant, "' of ", solver, " cannot be stored");
    Db().Update(arch, PathFor(arch), key, Enabled(), [&](Record& r) { r[solver] = variant; });
}

void Remove(const std::string& arch, const std::string& key)
{
    Db().Remove(arch, PathFor(arch), key, Enabled());
}

} // namespace miopen::perf_db
