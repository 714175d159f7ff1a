#include "conv/text_db.hpp"
#include "conv/db_file.hpp"
#include "core/errors.hpp"
#include "core/logging.hpp"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

namespace miopen::db_file {
namespace {

std::string DirOf(const std::string& path) { return path.substr(0, path.rfind('/')); }

} // namespace

std::string TextDbCore::MemoryKey(const std::string& arch, const std::string& path)
{
    return path.empty() ? "memory:" + arch : path;
}

void TextDbCore::WarnOnce(const std::string& id, const std::string& message)
{
    if(warned_.insert(id).second)
        log::Write(log::Level::Warning, name_, message);
}

void TextDbCore::WarnNoDirectory()
{
    WarnOnce("nohome", Concat("neither MIOPEN_USER_DB_PATH nor HOME is set: keeping ", what_, " in memory only"));
}

bool TextDbCore::SafeDir(const std::string& dir)
{
    const std::string why = DirProblem(dir);
    if(why.empty())
        return true;
    WarnOnce("unsafe:" + dir, Concat(name_, " directory '", dir, "' ", why, ": keeping ", what_, " in memory only"));
    return false;
}

bool TextDbCore::SafeFile(const std::string& path, bool writing)
{
    const std::string why = FileProblem(path, writing);
    if(why.empty())
        return true;
    if(why == "is read-only")
        WarnOnce("readonly:" + path,
                 Concat(name_, " file '", path, "' is read-only: keeping new ", what_, " in memory only"));
    else
        WarnOnce("unsafe:" + path,
                 Concat(name_, " file '", path, "' ", why, ": ignored, keeping ", what_, " in memory only"));
    return false;
}

bool TextDbCore::StatFile(const std::string& path, Stamp& stamp)
{
    struct stat st{};
    if(lstat(path.c_str(), &st) != 0)
        return false;
    stamp.size  = st.st_size;
    stamp.inode = st.st_ino;
    stamp.mtime = st.st_mtim;
    stamp.ctime = st.st_ctim;
    stamp.mode  = st.st_mode;
    stamp.uid   = st.st_uid;
    return true;
}

bool TextDbCore::Readable(const std::string& path, Stamp& stamp)
{
    return StatFile(path, stamp) && SafeFile(path, /*writing=*/false) && SafeDir(DirOf(path));
}

bool TextDbCore::Writable(const std::string& path)
{
    const std::string dir = DirOf(path);
    if(!MakeDirs(dir))
    {
        WarnOnce("dir:" + dir, Concat("cannot use directory '", dir, "' (", std::strerror(errno),
                                      "): keeping ", what_, " in memory only"));
        return false;
    }
    return SafeDir(dir) && SafeFile(path, /*writing=*/true);
}

void TextDbCore::ReadLines(const std::string& path, std::istream& in,
                           const std::function<bool(const std::string&)>& take)
{
    std::string line;
    size_t damaged = 0;
    while(std::getline(in, line))
    {
        if(in.eof())
        {
            // No newline after it: a write cut short (a truncated file); never trusted.
            damaged += line.empty() ? 0 : 1;
            break;
        }
        if(!line.empty() && !take(line))
            ++damaged;
    }
    if(damaged > 0)
        WarnOnce("damaged:" + path,
                 Concat(path, ": skipped ", damaged, " damaged line(s); they are dropped at the next write"));
}

bool TextDbCore::Rewrite(const std::string& path, const std::function<std::string(std::istream*)>& make_text)
{
    const bool ok = LockedRewrite(path, make_text);
    if(!ok)
        WarnOnce("write:" + path, Concat("cannot write '", path, "' (", std::strerror(errno), "): keeping ",
                                         what_, " in memory only"));
    return ok;
}

} // namespace miopen::db_file
