#include "conv/db_file.hpp"
#include "core/env.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <dirent.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace miopen::db_file {

std::string UserDbDirectory()
{
    if(const auto v = env::Value("MIOPEN_USER_DB_PATH"))
        return *v;
    if(const auto home = env::Value("HOME"))
        return *home + "/.cache/miopen_cy";
    return "";
}

bool MakeDirs(const std::string& dir)
{
    if(dir.empty())
        return false;
    std::string partial;
    std::istringstream parts(dir);
    std::string part;
    if(dir[0] == '/')
        partial = "/";
    while(std::getline(parts, part, '/'))
    {
        if(part.empty())
            continue;
        partial += part + "/";
        if(mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST)
            return false;
    }
    struct stat st{};
    return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string DirProblem(const std::string& dir)
{
    struct stat st{};
    if(lstat(dir.c_str(), &st) != 0)
        return "";
    if(S_ISLNK(st.st_mode))
        return "is a symbolic link";
    if(!S_ISDIR(st.st_mode))
        return "is not a directory";
    if(st.st_uid != geteuid())
        return "is owned by another user";
    return "";
}

std::string FileProblem(const std::string& path, bool writing)
{
    struct stat st{};
    if(lstat(path.c_str(), &st) != 0)
        return "";
    if(S_ISLNK(st.st_mode))
        return "is a symbolic link";
    if(!S_ISREG(st.st_mode))
        return "is not a regular file";
    if(writing && ((st.st_mode & S_IWUSR) == 0 || st.st_uid != geteuid()))
        return "is read-only";
    return "";
}

namespace {

// Removes the temp files (PATH.XXXXXX) of writers that died before their rename. Writers only
// create them while holding the lock, so under the lock any that exist are stale.
void RemoveStaleTemps(const std::string& path)
{
    const size_t slash = path.rfind('/');
    const std::string dir  = slash == std::string::npos ? "." : path.substr(0, slash);
    const std::string base = path.substr(slash == std::string::npos ? 0 : slash + 1) + ".";
    DIR* d = opendir(dir.c_str());
    if(d == nullptr)
        return;
    while(const dirent* e = readdir(d))
    {
        const std::string name = e->d_name;
        if(name.size() == base.size() + 6 && name.compare(0, base.size(), base) == 0 &&
           name.compare(base.size(), 4, "lock") != 0)
            unlink((dir + "/" + name).c_str());
    }
    closedir(d);
}

// Writes all of `text` to fd. With the test hook MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS it writes
// half, sleeps that long, then the rest, so that a test can kill a writer mid-write.
bool WriteAll(int fd, const std::string& text, long delay_ms)
{
    size_t done = 0;
    size_t stop = delay_ms > 0 ? text.size() / 2 : text.size();
    for(;;)
    {
        while(done < stop)
        {
            const ssize_t n = write(fd, text.data() + done, stop - done);
            if(n <= 0)
                return false;
            done += static_cast<size_t>(n);
        }
        if(stop == text.size())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        stop = text.size();
    }
}

} // namespace

bool LockedRewrite(const std::string& path, const std::function<std::string(std::istream*)>& make_text)
{
    // Read before the lock is taken: a bad value throws.
    const long delay_ms = env::Integer("MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS", 0);
    const std::string lock_path = path + ".lock";
    const int lock_fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if(lock_fd < 0)
        return false;
    bool ok = false;
    if(flock(lock_fd, LOCK_EX) == 0)
    {
        RemoveStaleTemps(path);
        std::string text;
        {
            std::ifstream in(path);
            text = make_text(in ? &in : nullptr);
        }
        std::string tmp = path + ".XXXXXX";
        std::vector<char> name(tmp.begin(), tmp.end());
        name.push_back('\0');
        const int fd = mkstemp(name.data());
        if(fd >= 0)
        {
            const bool written = WriteAll(fd, text, delay_ms) && fsync(fd) == 0;
            close(fd);
            ok = written && rename(name.data(), path.c_str()) == 0;
            if(!ok)
            {
                const int saved = errno;
                unlink(name.data());
                errno = saved;
            }
        }
        flock(lock_fd, LOCK_UN);
    }
    const int saved = errno;
    close(lock_fd);
    errno = saved;
    return ok;
}

} // namespace miopen::db_file
