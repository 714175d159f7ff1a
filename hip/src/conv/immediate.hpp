// Immediate mode (MIOpen's *GetSolutionCount / *GetSolution / *GetSolutionWorkspaceSize /
// *CompileSolution / *Immediate): list the solvers that can run a problem, then run one by its
// solver id, with no benchmarking. Shared with Find 2.0 (conv/find2.cpp), which runs solutions
// through ConvImmediateRun.
#pragma once

#include "conv/convolution.hpp"

#include <cstdint>
#include <vector>

namespace miopen {

struct ConvSolutionInfo
{
    const ConvSolver* solver;
    float time_ms;        // the find-db time when recorded, else the solver's estimate
    size_t workspace;
    bool measured;        // time_ms comes from the find-db
};

/// Every usable solver of the call's problem (any workspace), ordered: solvers with a find-db
/// record first, by recorded time; then the rest by their EstimateMs heuristic.
std::vector<ConvSolutionInfo> ConvImmediateSolutions(Handle& handle, const ConvolutionDescriptor& conv,
                                                     const ConvCall& call);

/// The solver behind `solution_id` if it can run `p` with `workspace_limit` bytes of workspace;
/// BadParm naming the id, the solver and the reason otherwise.
const ConvSolver& ConvImmediateSolver(const Handle& handle, const ConvProblem& p, uint64_t solution_id,
                                      size_t workspace_limit);

/// The workspace the solver needs for this problem.
size_t ConvImmediateWorkspace(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                              uint64_t solution_id);

/// Builds the solver's invoker once (the CPU has nothing to compile: this checks the id and the
/// problem and prepares what the invoker precomputes).
void ConvImmediateCompile(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                          uint64_t solution_id);

/// Runs the solver on the call's buffers, overwriting the written tensor.
void ConvImmediateRun(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                      uint64_t solution_id, void* workspace, size_t workspace_size);

} // namespace miopen
