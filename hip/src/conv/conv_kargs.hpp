// The kernels' view of a convolution (gpu::ConvKArgs, hip/kernels/conv/conv_kernels.hpp) from its
// geometry, for every GPU invoker (conv_device.cpp, conv_gemm_gpu.cpp, the GPU-only solvers).
// GPU builds only: include it under MIOPEN_CY_HAVE_GPU.
#pragma once

#include "conv/conv_geometry.hpp"
#include "kernels/conv/conv_kernels.hpp"

namespace miopen::conv_device {

inline gpu::ConvKArgs KernelArgs(const ConvGeometry& g)
{
    gpu::ConvKArgs a{};
    a.n = g.n; a.c = g.c; a.k = g.k; a.g = g.g; a.cpg = g.cpg; a.kpg = g.kpg;
    for(int i = 0; i < 3; ++i)
    {
        a.in[i] = g.in[i]; a.out[i] = g.out[i]; a.fil[i] = g.fil[i];
        a.pad[i] = g.pad[i]; a.str[i] = g.str[i]; a.dil[i] = g.dil[i];
    }
    for(int i = 0; i < 5; ++i)
    {
        a.xs[i] = g.xs[i]; a.ws[i] = g.ws[i]; a.ys[i] = g.ys[i];
    }
    return a;
}

} // namespace miopen::conv_device
