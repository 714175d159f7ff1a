// Front door of the convolution calls: workspace queries, legacy Find, and the run calls with
// an algorithm. All take the user's view (direction, mode, descriptors, buffers) and reduce it
// to the canonical ConvProblem (conv/problem.hpp) before choosing a solver.
#pragma once

#include "conv/conv_descriptor.hpp"
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

/// Runs the best known solver of `algo`: out = alpha * conv + beta * out.
void ConvRun(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call, int algo,
             const void* alpha, const void* beta, void* workspace, size_t workspace_size);

/// The device architecture name ("cpu", "sm_90", ...).
std::string DeviceArch(const Handle& handle);
/// The find-db file's name stem: the architecture and a fingerprint of the solver set.
std::string FindDbName(const Handle& handle);

/// MIOPEN_ENABLE_LOGGING_CMD: the equivalent miopen-driver command line of a call.
std::string DriverCommand(const ConvolutionDescriptor& conv, const ConvCall& call);

} // namespace miopen
