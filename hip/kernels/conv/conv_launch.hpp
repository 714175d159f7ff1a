// What the convolution launchers share: an invoker from one launch (the run's canonical buffers
// typed, the launch checked under the solver's name), and the invoker of the problem's direction
// from one launch per direction.
#pragma once

#include "conv/conv_gpu.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

namespace miopen::conv_gpu {

/// launch(stream, x, w, y, workspace) on the run's buffers (the direction's launch writes y, x or
/// w), then gpu::CheckLaunch(name).
template <class Launch>
ConvInvoker LaunchInvoker(const Handle& handle, const char* name, Launch launch)
{
    const Handle* h = &handle;
    return [h, name, launch](const ConvArgs& r) {
        launch(h->Stream(), static_cast<float*>(r.x), static_cast<float*>(r.w), static_cast<float*>(r.y),
               static_cast<float*>(r.workspace));
        gpu::CheckLaunch(name);
    };
}

/// The solver names of a family, in direction order (forward, backward data, backward weights).
struct DirectionNames
{
    const char* fwd;
    const char* bwd;
    const char* wrw;
};

/// The invoker of direction `dir`: LaunchInvoker of its launch.
template <class Fwd, class Bwd, class Wrw>
ConvInvoker ByDirection(const Handle& handle, ConvDirection dir, DirectionNames names, Fwd fwd, Bwd bwd, Wrw wrw)
{
    switch(dir)
    {
    case ConvDirection::Forward: return LaunchInvoker(handle, names.fwd, fwd);
    case ConvDirection::BackwardData: return LaunchInvoker(handle, names.bwd, bwd);
    case ConvDirection::BackwardWeights: break;
    }
    return LaunchInvoker(handle, names.wrw, wrw);
}

} // namespace miopen::conv_gpu
