// Tuning of the tunable solvers (ConvTunableSolver): MIOpen's auto-tune. Find runs a search when
// exhaustiveSearch is true or MIOPEN_FIND_ENFORCE asks for one, with MIOpen's meanings:
//   NONE (1)             search only when exhaustiveSearch and the perf-db has no record
//   DB_UPDATE (2)        search when exhaustiveSearch, even over an existing record
//   SEARCH (3)           search as if exhaustiveSearch were true (kept records are reused)
//   SEARCH_DB_UPDATE (4) search on every Find, replacing the record
//   DB_CLEAN (5)         remove the problem's perf-db record (and find-db record); no search
// A search times every variant on the caller's buffers (best of 3 wall-clock runs) and stores the
// fastest in the perf-db (conv/perf_db.hpp).
#pragma once

#include "conv/solver.hpp"

#include <string>
#include <vector>

namespace miopen::tuning {

/// The variant a tunable solver runs with: the perf-db's when it is still valid, else the default.
std::string ChosenVariant(const ConvTunableSolver& solver, const ConvContext& ctx, const ConvProblem& p);

struct SearchPolicy
{
    bool search = false;   // search when there is no record
    bool redo   = false;   // search even when there is one
};
/// What exhaustiveSearch and MIOPEN_FIND_ENFORCE (1..5, already parsed) ask for.
SearchPolicy PolicyFor(bool exhaustive, int find_enforce);

/// Find's tuning step over the usable solvers of the problem: searches the tunable ones the policy
/// asks for and stores the winners. Returns true when any search ran (the find-db record is stale).
bool TuneForFind(const ConvContext& ctx, const ConvProblem& p, const std::vector<const ConvSolver*>& usable,
                 const ConvArgs& args, SearchPolicy policy);

/// One variant's time on the given buffers (ms, best of up to 3 runs).
double TimeVariant(const ConvInvoker& run, const ConvArgs& args);

} // namespace miopen::tuning
