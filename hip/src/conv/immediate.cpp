// Immediate mode: the solvers of a problem listed from the registry (times from the find-db when a
// record exists, else the solvers' estimates) and run by id. See immediate.hpp.
#include "conv/immediate.hpp"
#include "conv/conv_device.hpp"
#include "conv/registry.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"

#include <algorithm>

namespace miopen {
std::vector<ConvSolutionInfo> ConvImmediateSolutions(Handle& handle, const ConvolutionDescriptor& conv,
                                                     const ConvCall& call)
{
    const ConvProblem p = ConvProblemOf(conv, call);
    const ConvContext ctx{handle};
    const auto survey = SurveySolvers(ctx, p, SIZE_MAX);
    // MIOpen's meanings: MIOPEN_DEBUG_FORCE_IMMED_MODE_FALLBACK=1 ignores the find-db record (the
    // fallback, our estimates, answers); MIOPEN_DEBUG_CONV_IMMED_FALLBACK=0 turns the fallback off
    // (a problem without a record has no solutions until Find has run).
    const bool fallback = env::IsEnabled("MIOPEN_DEBUG_CONV_IMMED_FALLBACK");
    const auto record = env::IsSet("MIOPEN_DEBUG_FORCE_IMMED_MODE_FALLBACK")
                            ? std::vector<FindDbEntry>{}
                            : find_db::Load(FindDbName(handle), p.Key());
    std::vector<ConvSolutionInfo> recorded, estimated;
    for(const auto& st : survey)
    {
        if(!st.usable)
            continue;
        const auto it = std::find_if(record.begin(), record.end(),
                                     [&](const FindDbEntry& e) { return e.solver == st.solver->Name(); });
        if(it != record.end())
            recorded.push_back({st.solver, it->time_ms, st.workspace, true});
        else if(fallback)
            estimated.push_back({st.solver, static_cast<float>(st.solver->EstimateMs(ctx, p)),
                                 st.workspace, false});
    }
    const auto by_time = [](const ConvSolutionInfo& l, const ConvSolutionInfo& r) {
        return l.time_ms < r.time_ms;
    };
    std::stable_sort(recorded.begin(), recorded.end(), by_time);
    std::stable_sort(estimated.begin(), estimated.end(), by_time);
    recorded.insert(recorded.end(), estimated.begin(), estimated.end());
    return recorded;
}

const ConvSolver& ConvImmediateSolver(const Handle& handle, const ConvProblem& p, uint64_t solution_id,
                                      size_t workspace_limit)
{
    const ConvSolver* solver = FindSolverById(solution_id);
    if(solver == nullptr)
        ThrowBadParm("solution_id = ", solution_id, " is not the id of any solver");
    const SolverStatus st = SurveySolver(ConvContext{handle}, p, *solver, workspace_limit);
    if(!st.usable)
        ThrowBadParm("solution_id = ", solution_id, " (", solver->Name(), ") does not apply to problem ",
                     p.Key(), ": ", st.why_not);
    return *solver;
}

size_t ConvImmediateWorkspace(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                              uint64_t solution_id)
{
    const ConvProblem p = ConvProblemOf(conv, call);
    const ConvSolver& s = ConvImmediateSolver(handle, p, solution_id, SIZE_MAX);
    return s.WorkspaceSize(ConvContext{handle}, p);
}

void ConvImmediateCompile(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                          uint64_t solution_id)
{
    const ConvProblem p = ConvProblemOf(conv, call);
    const ConvSolver& s = ConvImmediateSolver(handle, p, solution_id, SIZE_MAX);
    const conv_device::Scope device_scope(handle);      // the handle's GPU, when it has one
    (void)s.MakeInvoker(ConvContext{handle}, p);
}

void ConvImmediateRun(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                      uint64_t solution_id, void* workspace, size_t workspace_size)
{
    const ConvProblem p = ConvProblemOf(conv, call);
    ConvPrepareRun(handle, conv, call, workspace, workspace_size);
    const ConvSolver& s = ConvImmediateSolver(handle, p, solution_id,
                                              workspace == nullptr ? 0 : workspace_size);
    const conv_device::Scope device_scope(handle);
    ConvRunSolver(handle, conv, call, p, s, 1.0, 0.0, workspace, workspace_size);
}

} // namespace miopen
