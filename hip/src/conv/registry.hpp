// The solver registry (every solver, in priority order) and the switches that gate solvers:
// MIOPEN_DEBUG_CONV_{GEMM,DIRECT,FFT,WINOGRAD,IMPLICIT_GEMM}, MIOPEN_DEBUG_AMD_ROCM_PRECOMPILED_BINARIES
// (Winograd), each solver's own switch (SolverSwitch) and MIOPEN_DEBUG_FIND_ONLY_SOLVER.
#pragma once

#include "conv/solver.hpp"

#include <optional>
#include <string>
#include <vector>

namespace miopen {

const std::vector<const ConvSolver*>& ConvSolvers();
const ConvSolver* FindSolverById(uint64_t id);
const ConvSolver* FindSolverByName(std::string_view name);

/// The solver's own switch: MIOpen's variable for the solvers that carry MIOpen's names and have
/// one there (MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD, MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_F4X3, ...),
/// else the name derived by SwitchNameOf.
std::string SolverSwitch(const ConvSolver& solver);

/// The derived switch of a solver name: MIOPEN_DEBUG_CONV_ + the name without a leading "Conv",
/// an underscore before each capital that follows a small letter or a digit, every run of other
/// characters than letters and digits one underscore (none at the end), in capitals:
/// ConvGpuDirectBwdSmallC -> MIOPEN_DEBUG_CONV_GPU_DIRECT_BWD_SMALL_C,
/// ConvCpuWinogradWrw<4-3> -> MIOPEN_DEBUG_CONV_CPU_WINOGRAD_WRW_4_3.
std::string SwitchNameOf(std::string_view solver_name);

/// The switch that turns this solver off right now ("MIOPEN_DEBUG_CONV_GEMM=0", ...), if any.
std::optional<std::string> DisabledBy(const ConvSolver& solver);

/// A solver that can run this problem now, or why not.
struct SolverStatus
{
    const ConvSolver* solver;
    bool usable;
    bool other_domain;       // applies to another direction or device
    std::string why_not;     // e.g. "disabled by MIOPEN_DEBUG_CONV_GEMM=0", "not applicable: ..."
    size_t workspace;
};

/// The solver's applicability, its data types first (ConvSolver::SupportsType), then its
/// IsApplicable. Every caller outside the solvers asks through this.
Applicability ApplicableTo(const ConvContext& ctx, const ConvProblem& p, const ConvSolver& solver);
/// One solver's status for the problem (what SurveySolvers reports for it).
SolverStatus SurveySolver(const ConvContext& ctx, const ConvProblem& p, const ConvSolver& solver,
                          size_t workspace_limit);

/// Every registered solver's status for the problem (workspace_limit: SIZE_MAX for none).
std::vector<SolverStatus> SurveySolvers(const ConvContext& ctx, const ConvProblem& p,
                                        size_t workspace_limit);

/// The error text when no solver is usable: which switches or reasons excluded each solver.
std::string ExplainNoSolver(const ConvProblem& p, const std::vector<SolverStatus>& survey);

} // namespace miopen
