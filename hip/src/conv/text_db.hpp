// One implementation of a user db (the find-db, the perf-db): a text file of `KEY=...` lines, one
// per problem, in the user-db directory, with the same rules for every db:
// - the directory must be a real directory owned by this user and the file a regular file (a
//   symlink, someone else's directory or a special file is never read or written); a read-only
//   file is read but never replaced;
// - a line that does not parse, and a last line without its newline (a cut write), are skipped with
//   one warning per file and dropped at the next write;
// - a write re-reads the file under its lock and replaces it atomically (db_file::LockedRewrite);
// - the parsed file is cached and re-read only when its size, inode, mtime, ctime, mode or owner
//   changed: a lookup of an unchanged file costs one lstat (the directory's and the file's safety
//   checks run when the file is (re)read, not on every lookup: a call's find-db and perf-db
//   lookups took several stat calls each, a good part of a short GPU call's host time);
// - whatever cannot go to the disk (no MIOPEN_USER_DB_PATH nor HOME, an unusable directory or
//   file, a failed write, or the disk turned off) is kept in memory for the process, with one
//   warning per cause; a memory record answers before the file's.
// A db is parametrised by its record type, the parser and formatter of one line, and the names its
// warnings use ("find-db", "find results").
#pragma once

#include <fstream>
#include <functional>
#include <istream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <sys/types.h>
#include <time.h>

namespace miopen::db_file {

/// What a TextDb does not need its record type for. All members are called with mutex held.
class TextDbCore
{
public:
    TextDbCore(std::string name, std::string what) : name_(std::move(name)), what_(std::move(what)) {}

protected:
    /// The key of the memory-only records of a db file (`path`, or one per arch without a path).
    static std::string MemoryKey(const std::string& arch, const std::string& path);
    void WarnOnce(const std::string& id, const std::string& message);
    /// The one warning that there is no directory at all.
    void WarnNoDirectory();
    /// What tells a changed file: its size, inode, mtime, ctime, mode and owner.
    struct Stamp
    {
        off_t size = -1;
        ino_t inode = 0;
        struct timespec mtime{}, ctime{};
        mode_t mode = 0;
        uid_t uid = 0;
        bool operator==(const Stamp& o) const
        {
            return size == o.size && inode == o.inode && mtime.tv_sec == o.mtime.tv_sec &&
                   mtime.tv_nsec == o.mtime.tv_nsec && ctime.tv_sec == o.ctime.tv_sec &&
                   ctime.tv_nsec == o.ctime.tv_nsec && mode == o.mode && uid == o.uid;
        }
    };
    /// One lstat of `path` into `stamp`; false when there is nothing at the path.
    static bool StatFile(const std::string& path, Stamp& stamp);
    /// Whether the file may be read now: it exists, is a regular file in a usable directory (else
    /// warns once). `stamp` gets its StatFile stamp.
    bool Readable(const std::string& path, Stamp& stamp);
    /// Whether the file may be replaced (creating its directory); else warns once.
    bool Writable(const std::string& path);
    /// Feeds each whole non-empty line to `take` (false: damaged); warns once per file of damage.
    void ReadLines(const std::string& path, std::istream& in, const std::function<bool(const std::string&)>& take);
    /// db_file::LockedRewrite, warning once when it fails.
    bool Rewrite(const std::string& path, const std::function<std::string(std::istream*)>& make_text);

    std::mutex mutex_;

private:
    bool SafeDir(const std::string& dir);
    bool SafeFile(const std::string& path, bool writing);

    std::string name_, what_;
    std::set<std::string> warned_;   // one warning per cause and path
};

template <class Record>
class TextDb : public TextDbCore
{
public:
    using Records = std::map<std::string, Record>;
    using Parse   = bool (*)(const std::string& line, std::string& key, Record& record);
    using Format  = std::string (*)(const std::string& key, const Record& record);   // "": not written

    TextDb(std::string name, std::string what, Parse parse, Format format)
        : TextDbCore(std::move(name), std::move(what)), parse_(parse), format_(format)
    {
    }

    /// The record of `key`: the memory-only one, else (with `disk`) the file's at `path`.
    std::optional<Record> Find(const std::string& arch, const std::string& path, const std::string& key, bool disk)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if(const auto m = memory_.find(MemoryKey(arch, path)); m != memory_.end())
            if(const auto r = m->second.find(key); r != m->second.end())
                return r->second;
        if(!disk || path.empty())
            return std::nullopt;
        const Records& records = Cached(path);
        if(const auto r = records.find(key); r != records.end())
            return r->second;
        return std::nullopt;
    }

    /// Applies `edit` to the record of `key` (a default Record when there is none): in the file
    /// (with `disk`, under its lock), else in memory (starting from the file's record).
    void Update(const std::string& arch, const std::string& path, const std::string& key, bool disk,
                const std::function<void(Record&)>& edit)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        Records& memory = memory_[MemoryKey(arch, path)];
        if(disk && path.empty())
            WarnNoDirectory();
        else if(disk && EditOnDisk(path, [&](Records& r) { edit(r[key]); }))
        {
            memory.erase(key);
            return;
        }
        auto r = memory.find(key);
        if(r == memory.end())
        {
            Record start{};
            if(disk && !path.empty())
            {
                const Records& file = Cached(path);
                if(const auto f = file.find(key); f != file.end())
                    start = f->second;
            }
            r = memory.emplace(key, std::move(start)).first;
        }
        edit(r->second);
    }

    /// Removes the record of `key` from memory and (with `disk`) from the file when there is one.
    void Remove(const std::string& arch, const std::string& path, const std::string& key, bool disk)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        memory_[MemoryKey(arch, path)].erase(key);
        Stamp stamp;
        if(disk && !path.empty() && Readable(path, stamp))
            EditOnDisk(path, [&](Records& r) { r.erase(key); });
    }

private:
    struct FileCache
    {
        bool loaded   = false;
        bool readable = false;   // records read from the file at `stamp`, after its safety checks
        Stamp stamp;
        Records records;
    };

    Records Parsed(const std::string& path, std::istream& in)
    {
        Records out;
        ReadLines(path, in, [&](const std::string& line) {
            std::string key;
            Record record{};
            if(!parse_(line, key, record))
                return false;
            out[key] = std::move(record);
            return true;
        });
        return out;
    }

    // The file's records, re-read only when it changed; none when it is missing or unusable.
    const Records& Cached(const std::string& path)
    {
        FileCache& fc = files_[path];
        Stamp stamp;
        if(fc.readable && StatFile(path, stamp) && fc.stamp == stamp)
            return fc.records;   // checked and read before, unchanged since
        if(!Readable(path, stamp))
        {
            fc = FileCache{};
            fc.loaded = true;
            return fc.records;
        }
        if(fc.loaded && fc.stamp == stamp)
        {
            fc.readable = true;
            return fc.records;
        }
        std::ifstream in(path);
        fc.records = in ? Parsed(path, in) : Records{};
        fc.loaded   = true;
        fc.readable = true;
        fc.stamp    = stamp;
        return fc.records;
    }

    // Applies `edit` to the file's records under its lock and replaces the file; false (nothing
    // written, a warning) when the directory or file cannot be used.
    template <class Edit>
    bool EditOnDisk(const std::string& path, Edit edit)
    {
        if(!Writable(path))
            return false;
        return Rewrite(path, [&](std::istream* in) {
            Records records;
            if(in != nullptr)
                records = Parsed(path, *in);
            edit(records);
            std::string text;
            for(const auto& [key, record] : records)
                if(std::string line = format_(key, record); !line.empty())
                    text += line + "\n";
            return text;
        });
    }

    Parse parse_;
    Format format_;
    std::map<std::string, FileCache> files_;   // by path
    std::map<std::string, Records> memory_;    // by MemoryKey
};

} // namespace miopen::db_file
