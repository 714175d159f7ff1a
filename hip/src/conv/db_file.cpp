#include "conv/db_file.hpp"
#include "core/env.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace miopen::db_file {

std::string UserDbDirectory()
{
    if(const auto v = env::Value("MIOPEN_USER_DB_PATH"))
        return *v;
    const char* home = std::getenv("HOME");
    if(home == nullptr || home[0] == '\0')
        return "";
    return std::string(home) + "/.cache/miopen_cy";
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

bool LockedRewrite(const std::string& path, const std::function<std::string(std::istream*)>& make_text)
{
    const std::string lock_path = path + ".lock";
    const int lock_fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if(lock_fd < 0)
        return false;
    bool ok = false;
    if(flock(lock_fd, LOCK_EX) == 0)
    {
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
            size_t done = 0;
            while(done < text.size())
            {
                const ssize_t n = write(fd, text.data() + done, text.size() - done);
                if(n <= 0)
                    break;
                done += static_cast<size_t>(n);
            }
            const bool written = done == text.size() && fsync(fd) == 0;
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
