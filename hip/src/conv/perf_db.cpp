#include "conv/perf_db.hpp"
#include "conv/db_file.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/logging.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <sys/stat.h>

namespace miopen::perf_db {
namespace {

using Record  = std::map<std::string, std::string>;   // solver -> variant
using Records = std::map<std::string, Record>;        // problem key -> record

struct FileCache
{
    bool loaded = false;
    struct timespec mtime{};
    off_t size = -1;
    ino_t inode = 0;
    Records records;
};

struct State
{
    std::mutex mutex;
    std::map<std::string, FileCache> files;       // by path: re-read only when the file changed
    std::map<std::string, Records> memory_only;   // by path, when the disk is unusable
    std::set<std::string> warned;
};

State& GetState()
{
    static State* s = new State();   // never destroyed: finalisers may run after static dtors
    return *s;
}

void WarnOnce(State& s, const std::string& what, const std::string& message)
{
    if(s.warned.insert(what).second)
        log::Write(log::Level::Warning, "perf-db", message);
}

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

Records ParseFile(State& s, const std::string& path, std::istream& in)
{
    Records out;
    std::string line;
    size_t damaged = 0;
    while(std::getline(in, line))
    {
        if(line.empty())
            continue;
        std::string key;
        Record record;
        if(ParseLine(line, key, record))
            out[key] = std::move(record);
        else
            ++damaged;
    }
    if(damaged > 0)
        WarnOnce(s, "damaged:" + path,
                 Concat(path, ": skipped ", damaged, " damaged line(s); they are dropped at the next write"));
    return out;
}

// The records on disk, re-read only when the file changed (size, inode, mtime). Caller holds s.mutex.
const Records& Cached(State& s, const std::string& path)
{
    FileCache& fc = s.files[path];
    struct stat st{};
    const std::string dir = path.substr(0, path.rfind('/'));
    if(path.empty() || lstat(path.c_str(), &st) != 0 || !db_file::FileProblem(path, false).empty() ||
       !db_file::DirProblem(dir).empty())
    {
        fc = FileCache{};
        fc.loaded = true;
        return fc.records;
    }
    if(fc.loaded && fc.size == st.st_size && fc.inode == st.st_ino && fc.mtime.tv_sec == st.st_mtim.tv_sec &&
       fc.mtime.tv_nsec == st.st_mtim.tv_nsec)
        return fc.records;
    std::ifstream in(path);
    fc.records = in ? ParseFile(s, path, in) : Records{};
    fc.loaded  = true;
    fc.size    = st.st_size;
    fc.inode   = st.st_ino;
    fc.mtime   = st.st_mtim;
    return fc.records;
}

template <class Edit>
bool EditOnDisk(State& s, const std::string& path, Edit edit)
{
    if(path.empty())
        return false;   // no user-db directory configured: memory only
    const std::string dir = path.substr(0, path.rfind('/'));
    bool ok = db_file::MakeDirs(dir);
    if(ok)
    {
        // The find-db's rules: a symlinked or someone else's directory, a symlinked, special or
        // read-only file are never written.
        std::string why = db_file::DirProblem(dir);
        const std::string what = why.empty() ? path : dir;
        if(why.empty())
            why = db_file::FileProblem(path, /*writing=*/true);
        if(!why.empty())
        {
            WarnOnce(s, "unsafe:" + what, Concat("perf-db '", what, "' ", why,
                                                ": keeping tuning results in memory only"));
            return false;
        }
    }
    if(ok)
        ok = db_file::LockedRewrite(path, [&](std::istream* in) {
            Records records;
            if(in != nullptr)
                records = ParseFile(s, path, *in);
            edit(records);
            std::string text;
            for(const auto& [key, record] : records)
            {
                if(record.empty())
                    continue;
                text += key + "=";
                bool first = true;
                for(const auto& [solver, variant] : record)
                {
                    text += (first ? "" : ";") + solver + ":" + variant;
                    first = false;
                }
                text += "\n";
            }
            return text;
        });
    if(!ok)
        WarnOnce(s, "write:" + path, Concat("cannot write '", path, "' (", std::strerror(errno),
                                           "): keeping tuning results in memory only"));
    return ok;
}

} // namespace

bool Enabled() { return !env::IsSet("MIOPEN_DEBUG_DISABLE_PERF_DB"); }

std::string PathFor(const std::string& arch)
{
    const std::string dir = db_file::UserDbDirectory();
    return dir.empty() ? std::string() : dir + "/" + arch + ".updb.txt";
}

std::optional<std::string> Load(const std::string& arch, const std::string& key, const std::string& solver)
{
    State& s = GetState();
    const std::string path = PathFor(arch);
    std::lock_guard<std::mutex> lock(s.mutex);
    if(const auto m = s.memory_only.find(path); m != s.memory_only.end())
        if(const auto r = m->second.find(key); r != m->second.end())
            if(const auto v = r->second.find(solver); v != r->second.end())
                return v->second;
    if(!Enabled())
        return std::nullopt;
    const Records& records = Cached(s, path);
    if(const auto r = records.find(key); r != records.end())
        if(const auto v = r->second.find(solver); v != r->second.end())
            return v->second;
    return std::nullopt;
}

void Store(const std::string& arch, const std::string& key, const std::string& solver, const std::string& variant)
{
    if(!ValidToken(variant))
        Throw(miopenStatusInternalError, "perf-db: variant '", variant, "' of ", solver, " cannot be stored");
    State& s = GetState();
    const std::string path = PathFor(arch);
    std::lock_guard<std::mutex> lock(s.mutex);
    if(Enabled() && EditOnDisk(s, path, [&](Records& r) { r[key][solver] = variant; }))
    {
        if(auto m = s.memory_only.find(path); m != s.memory_only.end())
            m->second.erase(key);
    }
    else
        s.memory_only[path][key][solver] = variant;
}

void Remove(const std::string& arch, const std::string& key)
{
    State& s = GetState();
    const std::string path = PathFor(arch);
    std::lock_guard<std::mutex> lock(s.mutex);
    if(auto m = s.memory_only.find(path); m != s.memory_only.end())
        m->second.erase(key);
    if(!Enabled())
        return;
    std::ifstream probe(path);
    if(probe)
        EditOnDisk(s, path, [&](Records& r) { r.erase(key); });
}

} // namespace miopen::perf_db
