// The find-db: measured solver times per problem, on disk, one text file per device
// architecture under MIOPEN_USER_DB_PATH (default ~/.cache/miopen_cy/), one line per problem:
//     KEY=Solver:time_ms,workspace_bytes,algorithm;Solver2:...
// Writers take an flock on a lock file, re-read the file, replace their record and write a temp
// file that is renamed over the old one, so readers never see half a record and concurrent
// processes lose nothing. Damaged lines are logged, skipped and dropped at the next write. An
// unusable directory degrades to an in-memory db with one warning.
// Faults (tests/conv/test_find_db_faults.py): without MIOPEN_USER_DB_PATH and HOME the db is in memory
// only (no file anywhere); the directory must be a real directory owned by this user (a symlink or
// someone else's is refused: memory only); a symlinked db file is ignored and a read-only one is
// read but never replaced; a last line without its newline (a cut write) is dropped; temp files
// of writers killed mid-write are removed by the next writer under the lock.
// MIOPEN_CY_DEBUG_FIND_DB_WRITE_DELAY_MS (tests only) sleeps halfway through a write.
// The file handling is text_db.hpp's (shared with the perf-db); this file is the record format.
// MIOPEN_DEBUG_DISABLE_FIND_DB=1 turns it off.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace miopen {

struct FindDbEntry
{
    std::string solver;
    float time_ms = 0.0f;
    size_t workspace = 0;
    int algorithm = 0;
};

namespace find_db {

bool Enabled();
/// The file for a device architecture ("cpu", "sm_90", ...).
std::string PathFor(const std::string& arch);
/// The record for `key`, fastest first; empty when there is none (or the db is disabled).
std::vector<FindDbEntry> Load(const std::string& arch, const std::string& key);
/// Replaces the record for `key`.
void Store(const std::string& arch, const std::string& key, const std::vector<FindDbEntry>& entries);
/// Removes the record for `key` (MIOPEN_FIND_ENFORCE=DB_CLEAN).
void Remove(const std::string& arch, const std::string& key);

/// Text form of one record line (without newline) and its parser (false for a damaged line).
std::string FormatRecord(const std::string& key, const std::vector<FindDbEntry>& entries);
bool ParseRecord(const std::string& line, std::string& key, std::vector<FindDbEntry>& entries);

} // namespace find_db
} // namespace miopen
