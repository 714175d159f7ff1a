// Front door of the convolution calls: workspace queries, legacy Find, and the run calls with
// an algorithm. All take the user's view (direction, mode, descriptors, buffers) and reduce it
// to the canonical ConvProblem (conv/problem.hpp) before choosing a solver.
#pragma once

#include "conv/conv_descriptor.hpp"
#include "conv/find_db.hpp"
#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "core/handle.hpp"

#include <vector>

namespace miopen {

/// One user call's tensors, in the user's roles, with their descriptors' parameter names.
struct ConvCall
{
    UserDirection direction;
    const TensorDescriptor& a;  const char* a_name;  const void* a_data;   // x-side (x / dx)
    const TensorDescriptor& w;  const char* w_name;  const void* w_data;   // w / dw
    const TensorDescriptor& b;  const char* b_name;  const void* b_data;   // y-side (y / dy)
};

struct FindPerf
{
    int algorithm;
    float time_ms;
    size_t workspace;
    const ConvSolver* solver;
};

/// The largest workspace among the applicable, enabled solvers.
size_t ConvWorkspaceSize(const Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call);

/// Legacy Find: benchmark (as MIOPEN_FIND_MODE says) and return the best solver per algorithm,
/// fastest first, at most `request` entries.
std::vector<FindPerf> ConvFind(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                               int request, void* workspace, size_t workspace_size, bool exhaustive);

/// Runs the best known solver of `algo`: out = alpha * conv + beta * out. `cpu_epilogue`: a
/// fusion plan's epilogue for a solver that carries it (ConvArgs::cpu_epilogue).
void ConvRun(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call, int algo,
             const void* alpha, const void* beta, void* workspace, size_t workspace_size,
             const cpu::ConvBlockEpilogue* cpu_epilogue = nullptr);

// ---- Shared by legacy Find, immediate mode and Find 2.0 (conv/immediate.cpp, conv/find2.cpp) ----

/// The canonical problem of a call (validates every descriptor: BadParm naming the parameter).
ConvProblem ConvProblemOf(const ConvolutionDescriptor& conv, const ConvCall& call);

/// Find's measuring body: every usable solver (fits in workspace_size) benchmarked on the call's
/// buffers, or answered from the find-db / estimates as MIOPEN_FIND_MODE and
/// MIOPEN_FIND_ENFORCE say; fastest first. A benchmark is stored in the find-db.
std::vector<FindDbEntry> ConvMeasure(Handle& handle, const ConvolutionDescriptor& conv,
                                     const ConvCall& call, void* workspace, size_t workspace_size,
                                     bool exhaustive);

/// The checks before a run or a Find (data pointers, workspace pointer/size) and the
/// MIOPEN_ENABLE_LOGGING_CMD line.
void ConvPrepareRun(const Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                    const void* workspace, size_t workspace_size);

/// Runs one solver on the call's buffers: out = a * conv + b * out.
void ConvRunSolver(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                   const ConvProblem& p, const ConvSolver& solver, double a, double b,
                   void* workspace, size_t workspace_size,
                   const cpu::ConvBlockEpilogue* cpu_epilogue = nullptr);

/// The device architecture name ("cpu", "sm_90", ...).
std::string DeviceArch(const Handle& handle);
/// The find-db file's name stem: the architecture and a fingerprint of the solver set.
std::string FindDbName(const Handle& handle);

/// MIOPEN_ENABLE_LOGGING_CMD: the equivalent miopen-driver command line of a call.
std::string DriverCommand(const ConvolutionDescriptor& conv, const ConvCall& call);

} // namespace miopen
