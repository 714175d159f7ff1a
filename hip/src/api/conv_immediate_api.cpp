// extern "C" shims of immediate mode (miopenConvolution{Forward,BackwardData,BackwardWeights}
// GetSolutionCount / GetSolution / GetSolutionWorkspaceSize / CompileSolution / Immediate): each
// builds the user's ConvCall and hands it to conv/immediate.cpp.
#include "conv/immediate.hpp"
#include "api/conv_call.hpp"
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <algorithm>

using miopen::DerefConv;
using miopen::Out;
using miopen::UserDirection;
using miopen::api::CallArgs;

namespace {

void WriteSolutions(const std::vector<miopen::ConvSolutionInfo>& found, size_t max_count,
                    size_t* solutionCount, miopenConvSolution_t* solutions)
{
    if(max_count < 1)
        miopen::ThrowBadParm("maxSolutionCount = 0; must be >= 1");
    if(solutions == nullptr)
        miopen::ThrowBadParm("solutions is a null pointer");
    size_t& count = Out(solutionCount, "solutionCount");
    const size_t n = std::min(max_count, found.size());
    for(size_t i = 0; i < n; ++i)
    {
        solutions[i].time           = found[i].time_ms;
        solutions[i].workspace_size = found[i].workspace;
        solutions[i].solution_id    = found[i].solver->Id();
        solutions[i].algorithm      = static_cast<miopenConvAlgorithm_t>(found[i].solver->Algorithm());
    }
    count = n;
}


miopenStatus_t SolutionCount(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                             const CallArgs& c, size_t* solutionCount)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        size_t& count = Out(solutionCount, "solutionCount");
        count = miopen::ConvImmediateSolutions(miopen::DerefHandle(handle), DerefConv(convDesc), call).size();
    });
}

miopenStatus_t Solutions(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                         const CallArgs& c, size_t maxSolutionCount, size_t* solutionCount,
                         miopenConvSolution_t* solutions)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        WriteSolutions(miopen::ConvImmediateSolutions(miopen::DerefHandle(handle), DerefConv(convDesc), call),
                       maxSolutionCount, solutionCount, solutions);
    });
}

miopenStatus_t SolutionWorkspace(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                                 const CallArgs& c, uint64_t solution_id, size_t* workSpaceSize)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        size_t& size = Out(workSpaceSize, "workSpaceSize");
        size = miopen::ConvImmediateWorkspace(miopen::DerefHandle(handle), DerefConv(convDesc), call, solution_id);
    });
}

miopenStatus_t Compile(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                       const CallArgs& c, uint64_t solution_id)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        miopen::ConvImmediateCompile(miopen::DerefHandle(handle), DerefConv(convDesc), call, solution_id);
    });
}

miopenStatus_t Run(const char* api, miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                   const CallArgs& c, uint64_t solution_id, void* workSpace, size_t workSpaceSize)
{
    return miopen::Try(api, [&] {
        const auto call = c.Make();
        miopen::ConvImmediateRun(miopen::DerefHandle(handle), DerefConv(convDesc), call, solution_id, workSpace,
                                 workSpaceSize);
    });
}

} // namespace

extern "C" miopenStatus_t miopenConvolutionForwardGetSolutionCount(miopenHandle_t handle,
    const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solutionCount);
    return SolutionCount(__func__, handle, convDesc,
                         {UserDirection::Forward, xDesc, nullptr, wDesc, nullptr, yDesc, nullptr},
                         solutionCount);
}

extern "C" miopenStatus_t miopenConvolutionForwardGetSolution(miopenHandle_t handle,
    const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const size_t maxSolutionCount, size_t* solutionCount,
    miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, maxSolutionCount, solutionCount, solutions);
    return Solutions(__func__, handle, convDesc,
                     {UserDirection::Forward, xDesc, nullptr, wDesc, nullptr, yDesc, nullptr},
                     maxSolutionCount, solutionCount, solutions);
}

extern "C" miopenStatus_t miopenConvolutionForwardGetSolutionWorkspaceSize(miopenHandle_t handle,
    const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id, size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solution_id, workSpaceSize);
    return SolutionWorkspace(__func__, handle, convDesc,
                             {UserDirection::Forward, xDesc, nullptr, wDesc, nullptr, yDesc, nullptr},
                             solution_id, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionForwardCompileSolution(miopenHandle_t handle,
    const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solution_id);
    return Compile(__func__, handle, convDesc,
                   {UserDirection::Forward, xDesc, nullptr, wDesc, nullptr, yDesc, nullptr},
                   solution_id);
}

extern "C" miopenStatus_t miopenConvolutionForwardImmediate(miopenHandle_t handle,
    const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, void* y,
    void* workSpace, size_t workSpaceSize, const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, w, xDesc, x, convDesc, yDesc, y, workSpace, workSpaceSize,
                        solution_id);
    return Run(__func__, handle, convDesc,
               {UserDirection::Forward, xDesc, x, wDesc, w, yDesc, y},
               solution_id, workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetSolutionCount(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solutionCount);
    return SolutionCount(__func__, handle, convDesc,
                         {UserDirection::BackwardData, dxDesc, nullptr, wDesc, nullptr, dyDesc, nullptr},
                         solutionCount);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetSolution(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const size_t maxSolutionCount, size_t* solutionCount,
    miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, maxSolutionCount, solutionCount, solutions);
    return Solutions(__func__, handle, convDesc,
                     {UserDirection::BackwardData, dxDesc, nullptr, wDesc, nullptr, dyDesc, nullptr},
                     maxSolutionCount, solutionCount, solutions);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetSolutionWorkspaceSize(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const uint64_t solution_id, size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solution_id, workSpaceSize);
    return SolutionWorkspace(__func__, handle, convDesc,
                             {UserDirection::BackwardData, dxDesc, nullptr, wDesc, nullptr, dyDesc, nullptr},
                             solution_id, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataCompileSolution(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solution_id);
    return Compile(__func__, handle, convDesc,
                   {UserDirection::BackwardData, dxDesc, nullptr, wDesc, nullptr, dyDesc, nullptr},
                   solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataImmediate(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc, const void* dy,
    const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, void* dx,
    void* workSpace, size_t workSpaceSize, const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, workSpace, workSpaceSize,
                        solution_id);
    return Run(__func__, handle, convDesc,
               {UserDirection::BackwardData, dxDesc, dx, wDesc, w, dyDesc, dy},
               solution_id, workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionCount(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solutionCount);
    return SolutionCount(__func__, handle, convDesc,
                         {UserDirection::BackwardWeights, xDesc, nullptr, dwDesc, nullptr, dyDesc, nullptr},
                         solutionCount);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolution(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const size_t maxSolutionCount, size_t* solutionCount,
    miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, maxSolutionCount, solutionCount, solutions);
    return Solutions(__func__, handle, convDesc,
                     {UserDirection::BackwardWeights, xDesc, nullptr, dwDesc, nullptr, dyDesc, nullptr},
                     maxSolutionCount, solutionCount, solutions);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const uint64_t solution_id, size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solution_id, workSpaceSize);
    return SolutionWorkspace(__func__, handle, convDesc,
                             {UserDirection::BackwardWeights, xDesc, nullptr, dwDesc, nullptr, dyDesc, nullptr},
                             solution_id, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsCompileSolution(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solution_id);
    return Compile(__func__, handle, convDesc,
                   {UserDirection::BackwardWeights, xDesc, nullptr, dwDesc, nullptr, dyDesc, nullptr},
                   solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsImmediate(miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc, const void* dy,
    const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, void* dw,
    void* workSpace, size_t workSpaceSize, const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw, workSpace, workSpaceSize,
                        solution_id);
    return Run(__func__, handle, convDesc,
               {UserDirection::BackwardWeights, xDesc, x, dwDesc, dw, dyDesc, dy},
               solution_id, workSpace, workSpaceSize);
}
