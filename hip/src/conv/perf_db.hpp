// The perf-db: which variant of each tunable solver won a search, per problem, on disk next to
// the find-db as `<arch>.updb.txt` (MIOpen's user perf-db), one line per problem:
//     KEY=Solver:variant;Solver2:variant
// A variant is the solver's own text (e.g. "256,1"); it contains no ';', ':' or '='. The same
// implementation as the find-db (text_db.hpp), so the same rules and faults
// (tests/conv/test_perf_db_faults.py): lock, temp file, rename; damaged lines and a last line without
// its newline are skipped with one warning and dropped at the next write; a symlinked file is
// ignored, a read-only one read but never replaced; no HOME, or an unusable directory, degrades to
// memory only.
// MIOPEN_DEBUG_DISABLE_PERF_DB=1 keeps it off the disk: search results live in the process only.
#pragma once

#include <optional>
#include <string>

namespace miopen::perf_db {

bool Enabled();
/// The file for a device architecture (the find-db's name: "cpu-<solver-set tag>").
std::string PathFor(const std::string& arch);
/// The recorded variant of `solver` for `key`.
std::optional<std::string> Load(const std::string& arch, const std::string& key, const std::string& solver);
/// Records `variant` as the best of `solver` for `key`.
void Store(const std::string& arch, const std::string& key, const std::string& solver, const std::string& variant);
/// Removes every solver's record for `key` (MIOPEN_FIND_ENFORCE=DB_CLEAN).
void Remove(const std::string& arch, const std::string& key);

} // namespace miopen::perf_db
