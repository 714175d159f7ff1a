// extern "C" shims of Find 2.0: problems, find options, miopenFindSolutions, miopenRunSolution,
// the solution getters and the save / load calls (conv/find2.cpp holds the logic).
#include "conv/find2.hpp"
#include "conv/registry.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

using miopen::Deref;
using miopen::Out;

namespace {

miopen::Problem& DerefProblem(miopenProblem_t p) { return Deref<miopen::Problem>(p, "problem"); }
miopen::FindOptions& DerefOptions(miopenFindOptions_t o) { return Deref<miopen::FindOptions>(o, "options"); }
miopen::Solution& DerefSolution(miopenSolution_t s) { return Deref<miopen::Solution>(s, "solution"); }

int CheckedArgumentId(const miopenTensorArgumentId_t& id, const char* name)
{
    return static_cast<int>(miopen::CheckedEnum(id, name, "miopenTensorArgumentId_t of a convolution",
                                                {miopenTensorConvolutionX, miopenTensorConvolutionW,
                                                 miopenTensorConvolutionY}));
}

/// Each registered solver's name and switch as terminated strings that live as long as the
/// library (names are string_views, switches are built).
const std::vector<std::pair<std::string, std::string>>& SolverStrings()
{
    static const std::vector<std::pair<std::string, std::string>> strings = [] {
        std::vector<std::pair<std::string, std::string>> v;
        for(const miopen::ConvSolver* s : miopen::ConvSolvers())
            v.emplace_back(std::string(s->Name()), miopen::SolverSwitch(*s));
        return v;
    }();
    return strings;
}

} // namespace

extern "C" miopenStatus_t miopenCreateConvProblem(miopenProblem_t* problem,
                                                  miopenConvolutionDescriptor_t operatorDesc,
                                                  miopenProblemDirection_t direction)
{
    MIOPEN_LOG_FUNCTION(problem, operatorDesc, direction);
    return MIOPEN_TRY({
        const miopen::ConvolutionDescriptor& conv = miopen::DerefConv(operatorDesc, "operatorDesc");
        const int dir = static_cast<int>(miopen::CheckedEnum(direction, "direction", "miopenProblemDirection_t",
                                                             {0, 1, 2}));
        Out(problem, "problem");
        miopen::CreateObject<miopen::Problem>(problem, "problem");
        auto& p = DerefProblem(*problem);
        p.conv = conv;
        p.direction = dir;
    });
}

extern "C" miopenStatus_t miopenDestroyProblem(miopenProblem_t problem)
{
    MIOPEN_LOG_FUNCTION(problem);
    return MIOPEN_TRY({ miopen::DestroyObject<miopen::Problem>(problem, "problem"); });
}

extern "C" miopenStatus_t miopenSetProblemTensorDescriptor(miopenProblem_t problem,
                                                           miopenTensorArgumentId_t id,
                                                           const miopenTensorDescriptor_t descriptor)
{
    MIOPEN_LOG_FUNCTION(problem, id, descriptor);
    return MIOPEN_TRY({
        auto& p = DerefProblem(problem);
        const int role = CheckedArgumentId(id, "id");
        const auto& d = miopen::DerefTensor(descriptor, "descriptor");
        if(!d.IsSet())
            miopen::ThrowBadParm("descriptor has not been set");
        p.tensors[role] = d;
    });
}

extern "C" miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t* options)
{
    MIOPEN_LOG_FUNCTION(options);
    return MIOPEN_TRY({ miopen::CreateObject<miopen::FindOptions>(options, "options"); });
}

extern "C" miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options)
{
    MIOPEN_LOG_FUNCTION(options);
    return MIOPEN_TRY({ miopen::DestroyObject<miopen::FindOptions>(options, "options"); });
}

extern "C" miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value)
{
    MIOPEN_LOG_FUNCTION(options, value);
    return MIOPEN_TRY({ DerefOptions(options).tuning = value; });
}

extern "C" miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options,
                                                          miopenFindResultsOrder_t value)
{
    MIOPEN_LOG_FUNCTION(options, value);
    return MIOPEN_TRY({
        auto& o = DerefOptions(options);
        o.results_order = static_cast<int>(miopen::CheckedEnum(value, "value", "miopenFindResultsOrder_t", {0, 1}));
    });
}

extern "C" miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options, size_t value)
{
    MIOPEN_LOG_FUNCTION(options, value);
    return MIOPEN_TRY({ DerefOptions(options).workspace_limit = value; });
}

extern "C" miopenStatus_t miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options,
                                                                   void* buffer, size_t size)
{
    MIOPEN_LOG_FUNCTION(options, buffer, size);
    return MIOPEN_TRY({
        auto& o = DerefOptions(options);
        if(buffer == nullptr && size != 0)
            miopen::ThrowBadParm("buffer is null but size = ", size);
        o.workspace = buffer;
        o.workspace_size = size;
        o.has_workspace = true;
    });
}

extern "C" miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options,
                                                                miopenTensorArgumentId_t id, void* buffer)
{
    MIOPEN_LOG_FUNCTION(options, id, buffer);
    return MIOPEN_TRY({
        auto& o = DerefOptions(options);
        const int role = CheckedArgumentId(id, "id");
        miopen::CheckData(buffer, "buffer");
        o.buffers[role] = buffer;
    });
}

extern "C" miopenStatus_t miopenFindSolutions(miopenHandle_t handle,
                                              miopenProblem_t problem,
                                              miopenFindOptions_t options,
                                              miopenSolution_t* solutions,
                                              size_t* numSolutions,
                                              size_t maxSolutions)
{
    MIOPEN_LOG_FUNCTION(handle, problem, options, solutions, numSolutions, maxSolutions);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        const auto& p = DerefProblem(problem);
        const miopen::FindOptions defaults;
        const miopen::FindOptions& o = options == nullptr ? defaults : DerefOptions(options);
        if(solutions == nullptr)
            miopen::ThrowBadParm("solutions is a null pointer");
        const auto found = miopen::FindSolutions(h, p, o, maxSolutions);
        // Nothing is written until every object exists.
        std::vector<miopenSolution_t> made;
        try
        {
            for(const auto& s : found)
            {
                miopenSolution_t out = nullptr;
                miopen::CreateObject<miopen::Solution>(&out, "solutions");
                made.push_back(out);
                DerefSolution(out) = s;
            }
        }
        catch(...)
        {
            for(auto s : made)
                miopen::DestroyObject<miopen::Solution>(s, "solutions");
            throw;
        }
        for(size_t i = 0; i < made.size(); ++i)
            solutions[i] = made[i];
        if(numSolutions != nullptr)
            *numSolutions = made.size();
    });
}

extern "C" miopenStatus_t miopenRunSolution(miopenHandle_t handle,
                                            miopenSolution_t solution,
                                            size_t nInputs,
                                            const miopenTensorArgument_t* tensors,
                                            void* workspace,
                                            size_t workspaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, solution, nInputs, tensors, workspace, workspaceSize);
    return MIOPEN_TRY({
        auto& h = miopen::DerefHandle(handle);
        const auto& s = DerefSolution(solution);
        if(tensors == nullptr && nInputs != 0)
            miopen::ThrowBadParm("tensors is a null pointer but nInputs = ", nInputs);
        std::vector<miopen::TensorArgument> args;
        for(size_t i = 0; i < nInputs; ++i)
        {
            const int id = miopen::EnumValue(tensors[i].id);
            const miopen::TensorDescriptor* d = nullptr;
            if(tensors[i].descriptor != nullptr)
            {
                const std::string name = miopen::Concat("tensors[", i, "].descriptor");
                d = &miopen::DerefTensor(*tensors[i].descriptor, name.c_str());
            }
            args.push_back({id, d, tensors[i].buffer});
        }
        miopen::RunSolution(h, s, args, workspace, workspaceSize);
    });
}

extern "C" miopenStatus_t miopenDestroySolution(miopenSolution_t solution)
{
    MIOPEN_LOG_FUNCTION(solution);
    return MIOPEN_TRY({ miopen::DestroyObject<miopen::Solution>(solution, "solution"); });
}

extern "C" miopenStatus_t miopenLoadSolution(miopenSolution_t* solution, const char* data, size_t size)
{
    MIOPEN_LOG_FUNCTION(solution, data, size);
    return MIOPEN_TRY({
        Out(solution, "solution");
        miopen::CheckData(data, "data");
        miopen::Solution loaded;
        miopen::Solution::Load(loaded, data, size);
        miopen::CreateObject<miopen::Solution>(solution, "solution");
        DerefSolution(*solution) = loaded;
    });
}

extern "C" miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char* data)
{
    MIOPEN_LOG_FUNCTION(solution, data);
    return MIOPEN_TRY({
        const auto blob = DerefSolution(solution).Save();
        miopen::CheckData(data, "data");
        std::memcpy(data, blob.data(), blob.size());
    });
}

extern "C" miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t* size)
{
    MIOPEN_LOG_FUNCTION(solution, size);
    return MIOPEN_TRY({
        const auto& s = DerefSolution(solution);
        Out(size, "size") = s.Save().size();
    });
}

extern "C" miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float* time)
{
    MIOPEN_LOG_FUNCTION(solution, time);
    return MIOPEN_TRY({
        const auto& s = DerefSolution(solution);
        Out(time, "time") = s.time_ms;
    });
}

extern "C" miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution, size_t* workspaceSize)
{
    MIOPEN_LOG_FUNCTION(solution, workspaceSize);
    return MIOPEN_TRY({
        const auto& s = DerefSolution(solution);
        Out(workspaceSize, "workspaceSize") = s.workspace;
    });
}

extern "C" miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution, uint64_t* solverId)
{
    MIOPEN_LOG_FUNCTION(solution, solverId);
    return MIOPEN_TRY({
        const auto& s = DerefSolution(solution);
        Out(solverId, "solverId") = s.solver_id;
    });
}

extern "C" miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId, miopenConvAlgorithm_t* result)
{
    MIOPEN_LOG_FUNCTION(solverId, result);
    return MIOPEN_TRY({
        const miopen::ConvSolver* s = miopen::FindSolverById(solverId);
        if(s == nullptr)
            miopen::ThrowBadParm("solverId = ", solverId, " is not the id of any solver");
        Out(result, "result") = static_cast<miopenConvAlgorithm_t>(s->Algorithm());
    });
}

extern "C" miopenStatus_t miopenCyGetSolverCount(size_t* count)
{
    MIOPEN_LOG_FUNCTION(count);
    return MIOPEN_TRY({ Out(count, "count") = miopen::ConvSolvers().size(); });
}

extern "C" miopenStatus_t miopenCyGetSolverInfo(size_t index, uint64_t* solverId, const char** name,
                                                miopenConvAlgorithm_t* algorithm, const char** switchName)
{
    MIOPEN_LOG_FUNCTION(index, solverId, name, algorithm, switchName);
    return MIOPEN_TRY({
        const auto& all = miopen::ConvSolvers();
        if(index >= all.size())
            miopen::ThrowBadParm("index = ", index, "; there are ", all.size(), " solvers");
        auto& id = Out(solverId, "solverId");
        auto& n = Out(name, "name");
        auto& a = Out(algorithm, "algorithm");
        auto& sw = Out(switchName, "switchName");
        id = all[index]->Id();
        n = SolverStrings()[index].first.c_str();
        a = static_cast<miopenConvAlgorithm_t>(all[index]->Algorithm());
        sw = SolverStrings()[index].second.c_str();
    });
}

extern "C" miopenStatus_t miopenCyGetSolverIdName(uint64_t solverId, const char** name)
{
    MIOPEN_LOG_FUNCTION(solverId, name);
    return MIOPEN_TRY({
        auto& out = Out(name, "name");
        const auto& all = miopen::ConvSolvers();
        for(size_t i = 0; i < all.size(); ++i)
            if(all[i]->Id() == solverId)
            {
                out = SolverStrings()[i].first.c_str();
                return;
            }
        miopen::ThrowBadParm("solverId = ", solverId, " is not the id of any solver");
    });
}

extern "C" miopenStatus_t miopenCyGetSolverApplicability(miopenHandle_t handle, miopenProblem_t problem,
                                                         uint64_t solverId, bool* switchedOn,
                                                         bool* applicable, size_t* workspaceSize,
                                                         const char** reason)
{
    MIOPEN_LOG_FUNCTION(handle, problem, solverId, switchedOn, applicable, workspaceSize, reason);
    return MIOPEN_TRY({
        const miopen::Handle& h = miopen::DerefHandle(handle);
        const miopen::Problem& p = DerefProblem(problem);
        auto& on = Out(switchedOn, "switchedOn");
        auto& ok = Out(applicable, "applicable");
        auto& ws = Out(workspaceSize, "workspaceSize");
        auto& why = Out(reason, "reason");
        static thread_local std::string kept;
        const miopen::SolverState st = miopen::ProblemSolverState(h, p, solverId);
        kept = st.reason;
        on = st.switched_on;
        ok = st.applicable;
        ws = st.workspace;
        why = kept.c_str();
    });
}

extern "C" miopenStatus_t miopenCyGetSolutionTensor(miopenSolution_t solution, miopenTensorArgumentId_t id,
                                                    miopenDataType_t* dataType, size_t* numBytes)
{
    return MIOPEN_TRY({
        const auto& s = DerefSolution(solution);
        const int role = CheckedArgumentId(id, "id");
        const miopen::TensorDescriptor& d = role == miopenTensorConvolutionX ? s.x
                                            : role == miopenTensorConvolutionW ? s.w : s.y;
        Out(dataType, "dataType") = d.Type();
        Out(numBytes, "numBytes") = d.NumBytes();
    });
}

extern "C" miopenStatus_t miopenCyGetSolutionTensorDescriptor(miopenSolution_t solution,
                                                              miopenTensorArgumentId_t id,
                                                              miopenTensorDescriptor_t tensorDesc)
{
    miopenDataType_t type = miopenFloat;
    std::vector<int> lens, strides;
    const miopenStatus_t status = MIOPEN_TRY({
        const auto& s = DerefSolution(solution);
        const int role = CheckedArgumentId(id, "id");
        if(tensorDesc == nullptr)
            miopen::ThrowBadParm("tensorDesc is a null pointer");
        const miopen::TensorDescriptor& d = role == miopenTensorConvolutionX ? s.x
                                            : role == miopenTensorConvolutionW ? s.w : s.y;
        type = d.Type();
        lens.assign(d.Lens().begin(), d.Lens().end());
        strides.assign(d.Strides().begin(), d.Strides().end());
    });
    if(status != miopenStatusSuccess)
        return status;
    return miopenSetTensorDescriptor(tensorDesc, type, static_cast<int>(lens.size()), lens.data(), strides.data());
}
