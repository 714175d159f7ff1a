// What the find-db and the perf-db share: where the user dbs live and how a db file is rewritten
// safely. A writer takes an flock on `<file>.lock`, reads the current file, builds the new text,
// writes it to a temp file and renames that over the old one, so readers never see half a file
// and concurrent processes lose nothing.
#pragma once

#include <functional>
#include <istream>
#include <string>

namespace miopen::db_file {

/// MIOPEN_USER_DB_PATH, else ~/.cache/miopen_cy ("" when there is no home directory).
std::string UserDbDirectory();

/// mkdir -p, 0700 for what it creates; false when the directory cannot be used.
bool MakeDirs(const std::string& dir);

/// Why `dir` must not hold a user db: "is a symbolic link", "is not a directory", "is owned by
/// another user"; "" when it may (or does not exist).
std::string DirProblem(const std::string& dir);

/// Why the db file `path` must not be read: "is a symbolic link", "is not a regular file"; "" when
/// it may or does not exist. With `writing`, also "is read-only" (a file its owner made read-only,
/// or someone else's, is read but never replaced).
std::string FileProblem(const std::string& path, bool writing);

/// Under the file's lock: `make_text` gets the current file (nullptr when there is none) and
/// returns the new contents, which replace the file atomically. False (errno set, nothing
/// written) when the directory, the lock or the write fails.
bool LockedRewrite(const std::string& path, const std::function<std::string(std::istream*)>& make_text);

} // namespace miopen::db_file
