// The device side of convolution's front doors (convolution.cpp, immediate.cpp, find2.cpp): the
// architecture name of the find-db, the handle's GPU made current, the alpha/beta blend and
// scratch memory on either device. Compiled in every build. (Timing: conv/timing.hpp; the GPU
// invokers of the solvers: conv/conv_gpu.hpp.)
#pragma once

#include "conv/problem.hpp"
#include "conv/solver.hpp"
#include "core/handle.hpp"

#include <memory>
#include <string>

namespace miopen::conv_device {

/// "cpu", or the GPU's architecture: "sm_90" (NVIDIA), "gfx90a" (AMD).
std::string ArchName(const Handle& handle);

/// Makes the handle's GPU current for the scope (nothing on a CPU handle).
class Scope
{
public:
    explicit Scope(const Handle& handle);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    int previous_ = -1;
    bool gpu_ = false;
};

/// out = alpha * result + beta * out on the handle's device (out not read when beta == 0), both
/// of desc's type (fp32, fp16 or bf16): computed in fp32, rounded once to the type.
void Blend(const Handle& handle, float alpha, const TensorDescriptor& desc, const void* result,
           float beta, void* out);

/// Scratch memory on the handle's device (host memory on a CPU handle): the blend's result tensor,
/// Find 2.0's benchmark tensors and workspace.
class Buffer
{
public:
    /// `what` names the buffer in an allocation failure.
    Buffer(const Handle& handle, size_t bytes, const char* what);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    void* Get() const { return p_; }

private:
    const Handle& handle_;
    void* p_ = nullptr;
    std::unique_ptr<char[]> host_;
};

} // namespace miopen::conv_device
