// Find 2.0 (MIOpen's problem / find options / solution objects): a problem names the convolution
// and its tensors by role (miopenTensorConvolutionX / W / Y), miopenFindSolutions benchmarks the
// usable solvers (ConvMeasure, on preallocated or scratch buffers) and returns solutions, which
// run by solver id through immediate mode and can be saved as a versioned, checksummed blob.
#pragma once

#include "conv/convolution.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace miopen {

/// The tensor role names of a convolution problem, indexed by miopenTensorArgumentId_t.
const char* TensorArgumentName(int id);

class Problem : public miopenProblem
{
public:
    ConvolutionDescriptor conv;
    int direction = 0;                               // miopenProblemDirection_t
    std::map<int, TensorDescriptor> tensors;         // by miopenTensorArgumentId_t

    /// The descriptor of a role; InvalidValue naming the role when it was never set.
    const TensorDescriptor& Tensor(int id) const;
};

class FindOptions : public miopenFindOptions
{
public:
    int tuning = 0;
    int results_order = miopenFindResultsOrderByTime;
    size_t workspace_limit = SIZE_MAX;
    void* workspace = nullptr;
    size_t workspace_size = 0;
    bool has_workspace = false;
    std::map<int, void*> buffers;                    // preallocated tensors by role
};

class Solution : public miopenSolution
{
public:
    ConvolutionDescriptor conv;
    int direction = 0;
    TensorDescriptor x, w, y;
    uint64_t solver_id = 0;
    float time_ms = 0.0f;
    size_t workspace = 0;

    std::vector<char> Save() const;
    /// Parses a blob written by Save; BadParm saying what is wrong with it otherwise.
    static void Load(Solution& into, const char* data, size_t size);
};

/// The user call of a problem's direction with the given descriptors and buffers.
ConvCall CallOf(int direction, const TensorDescriptor& x, const void* x_data, const TensorDescriptor& w,
                const void* w_data, const TensorDescriptor& y, const void* y_data);

/// miopenFindSolutions: measured solutions, ordered as the options say, at most max_solutions.
std::vector<Solution> FindSolutions(Handle& handle, const Problem& problem, const FindOptions& options,
                                    size_t max_solutions);

struct TensorArgument
{
    int id;
    const TensorDescriptor* descriptor;              // null: the solution's
    void* buffer;
};

/// One registered solver on a problem (miopenCyGetSolverApplicability): whether its switches
/// are on, whether it can run the problem on this handle (switches, applicability and the
/// deterministic attribute; no workspace limit) or why not, and its workspace where it applies.
struct SolverState
{
    bool switched_on = true;
    bool applicable = false;
    size_t workspace = 0;
    std::string reason;
};
SolverState ProblemSolverState(const Handle& handle, const Problem& problem, uint64_t solver_id);

/// miopenRunSolution.
void RunSolution(Handle& handle, const Solution& solution, const std::vector<TensorArgument>& args,
                 void* workspace, size_t workspace_size);

} // namespace miopen
