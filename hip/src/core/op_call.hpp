// What every op front door does around its kernels once its own checks have passed: the data
// pointers that must be given, and on a GPU handle that every given one is memory that GPU can
// read (the guard: a host pointer would fault the kernel and poison the process's GPU
// context), the blend factors read in the output's data type, the handle's
// kernel timer (miopenGetKernelTime) around the work, and the choice of device. Used by the
// front doors of activation, batch norm, bias, LRN, pooling, softmax and the tensor ops; a front
// door whose kernels take other arguments (convolution) can use RunOp alone.
//
//   CheckDataPointers(handle, {{x, "x"}, {y, "y"}}, {{workSpace, "workSpace"}});
//   const Blend s = ReadBlend(alpha, beta, yDesc);
//   RunOp(handle, [&] { cpu::Op(s.alpha, ...); }, [&](auto& h) { gpu::Op(h, s.alpha, ...); });
#pragma once

#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "gpu/runtime.hpp"

#include <initializer_list>
#include <utility>

namespace miopen {

using DataPointers = std::initializer_list<std::pair<const void*, const char*>>;

/// Every pointer of `required` (a pointer and its parameter name) must be given (BadParm naming
/// the first null one otherwise); every given pointer of both lists passes CheckDevicePointer.
inline void CheckDataPointers(const Handle& handle, DataPointers required, DataPointers optional = {})
{
    for(const auto& [p, name] : required)
        CheckData(p, name);
    for(const auto& [p, name] : required)
        CheckDevicePointer(handle, p, name);
    for(const auto& [p, name] : optional)
        CheckDevicePointer(handle, p, name);
}

/// The factors of out = alpha * op(...) + beta * out, read in the output's data type.
struct Blend
{
    float alpha;
    float beta;
};

inline Blend ReadBlend(const void* alpha, const void* beta, const TensorDescriptor& out)
{
    return {static_cast<float>(ReadScalar(alpha, out.Type(), "alpha")),
            static_cast<float>(ReadScalar(beta, out.Type(), "beta"))};
}

/// Runs an op whose checks have passed under the handle's kernel timer: on_gpu(handle) on a GPU
/// handle, on_cpu() otherwise. Write on_gpu as a generic lambda ([&](auto& h) { ... }): a build
/// without a GPU backend has no GPU launchers and never instantiates it.
template <class OnCpu, class OnGpu>
void RunOp(Handle& handle, OnCpu&& on_cpu, OnGpu&& on_gpu)
{
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
    {
        on_gpu(handle);
        return;
    }
#else
    (void)on_gpu;
#endif
    on_cpu();
}

} // namespace miopen
