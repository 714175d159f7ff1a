#include "conv/find_db.hpp"
#include "conv/db_file.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/logging.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace miopen::find_db {
namespace {

using Records = std::map<std::string, std::vector<FindDbEntry>>;

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
    std::map<std::string, FileCache> files;          // by path
    std::map<std::string, Records> memory_only;      // by path, when the disk is unusable
    std::set<std::string> warned;                    // one warning per path and kind
};

State& GetState()
{
    static State* s = new State();   // never destroyed: finalisers may run after static dtors
    return *s;
}

void WarnOnce(State& s, const std::string& what, const std::string& message)
{
    if(s.warned.insert(what).second)
        log::Write(log::Level::Warning, "find-db", message);
}

// The in-memory db of an architecture when there is no directory at all.
std::string MemoryKey(const std::string& arch) { return "memory:" + arch; }

// Whether `dir` may hold the db: a real directory (not a symlink to elsewhere), owned by this
// user. Otherwise warns once and returns false (the db stays in memory). Caller holds s.mutex.
bool SafeDir(State& s, const std::string& dir)
{
    const std::string why = db_file::DirProblem(dir);
    if(why.empty())
        return true;
    WarnOnce(s, "unsafe:" + dir, Concat("find-db directory '", dir, "' ", why,
                                       ": keeping find results in memory only"));
    return false;
}

// Whether the db file may be read (absent, or a regular file: a symbolic link is ignored, so the
// db never reads or replaces a file elsewhere) or, `writing`, replaced (not read-only either).
bool SafeFile(State& s, const std::string& path, bool writing)
{
    const std::string why = db_file::FileProblem(path, writing);
    if(why.empty())
        return true;
    if(why == "is read-only")
        WarnOnce(s, "readonly:" + path, Concat("find-db file '", path,
                                              "' is read-only: keeping new find results in memory only"));
    else
        WarnOnce(s, "unsafe:" + path, Concat("find-db file '", path, "' ", why,
                                            ": ignored, keeping find results in memory only"));
    return false;
}

Records ParseFile(State& s, const std::string& path, std::istream& in)
{
    Records out;
    std::string line;
    size_t line_no = 0, damaged = 0;
    while(std::getline(in, line))
    {
        ++line_no;
        if(in.eof())
        {
            // No newline after it: a write cut short (a truncated file); never trusted.
            damaged += line.empty() ? 0 : 1;
            break;
        }
        if(line.empty())
            continue;
        std::string key;
        std::vector<FindDbEntry> entries;
        if(ParseRecord(line, key, entries))
            out[key] = std::move(entries);
        else
            ++damaged;
    }
    if(damaged > 0)
        WarnOnce(s, "damaged:" + path,
                 Concat(path, ": skipped ", damaged, " damaged line(s); they are dropped at the next write"));
    return out;
}

// The records on disk, re-read only when the file changed. Caller holds s.mutex.
const Records& Cached(State& s, const std::string& path)
{
    FileCache& fc = s.files[path];
    struct stat st{};
    const std::string dir = path.substr(0, path.rfind('/'));
    if(lstat(path.c_str(), &st) != 0 || !SafeFile(s, path, /*writing=*/false) || !SafeDir(s, dir))
    {
        fc = FileCache{};
        fc.loaded = true;
        return fc.records;
    }
    if(fc.loaded && fc.size == st.st_size && fc.inode == st.st_ino &&
       fc.mtime.tv_sec == st.st_mtim.tv_sec && fc.mtime.tv_nsec == st.st_mtim.tv_nsec)
        return fc.records;
    std::ifstream in(path);
    fc.records = in ? ParseFile(s, path, in) : Records{};
    fc.loaded  = true;
    fc.size    = st.st_size;
    fc.inode   = st.st_ino;
    fc.mtime   = st.st_mtim;
    return fc.records;
}

// Applies `edit` to the file's records under an exclusive lock and writes them back atomically.
// Returns false (having written nothing) when the directory or file cannot be used.
template <class Edit>
bool EditOnDisk(State& s, const std::string& path, Edit edit)
{
    const std::string dir = path.substr(0, path.rfind('/'));
    if(!db_file::MakeDirs(dir))
    {
        WarnOnce(s, "dir:" + dir, Concat("cannot use directory '", dir, "' (", std::strerror(errno),
                                         "): keeping find results in memory only"));
        return false;
    }
    if(!SafeDir(s, dir) || !SafeFile(s, path, /*writing=*/true))
        return false;
    const bool ok = db_file::LockedRewrite(path, [&](std::istream* in) {
        Records records;
        if(in != nullptr)
            records = ParseFile(s, path, *in);
        edit(records);
        std::string text;
        for(const auto& [key, entries] : records)
            text += FormatRecord(key, entries) + "\n";
        return text;
    });
    if(!ok)
        WarnOnce(s, "write:" + path, Concat("cannot write '", path, "' (", std::strerror(errno),
                                           "): keeping find results in memory only"));
    return ok;
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
    State& s = GetState();
    const std::string path = PathFor(arch);
    std::lock_guard<std::mutex> lock(s.mutex);
    const std::string mem = path.empty() ? MemoryKey(arch) : path;
    if(const auto m = s.memory_only.find(mem); m != s.memory_only.end())
        if(const auto r = m->second.find(key); r != m->second.end())
            return r->second;
    if(path.empty())
        return {};
    const Records& records = Cached(s, path);
    const auto r = records.find(key);
    return r == records.end() ? std::vector<FindDbEntry>{} : r->second;
}

void Store(const std::string& arch, const std::string& key, const std::vector<FindDbEntry>& entries)
{
    if(!Enabled() || entries.empty())
        return;
    State& s = GetState();
    const std::string path = PathFor(arch);
    std::lock_guard<std::mutex> lock(s.mutex);
    if(path.empty())
    {
        WarnOnce(s, "nohome", "neither MIOPEN_USER_DB_PATH nor HOME is set: keeping find results "
                              "in memory only");
        s.memory_only[MemoryKey(arch)][key] = entries;
        return;
    }
    if(EditOnDisk(s, path, [&](Records& r) { r[key] = entries; }))
        s.memory_only[path].erase(key);
    else
        s.memory_only[path][key] = entries;
}

void Remove(const std::string& arch, const std::string& key)
{
    if(!Enabled())
        return;
    State& s = GetState();
    const std::string path = PathFor(arch);
    std::lock_guard<std::mutex> lock(s.mutex);
    s.memory_only[path.empty() ? MemoryKey(arch) : path].erase(key);
    if(path.empty())
        return;
    EditOnDisk(s, path, [&](Records& r) { r.erase(key); });
}

} // namespace miopen::find_db
