// Every solver, declared in one place; conv/registry.cpp lists them in priority order.
#pragma once

#include "conv/solver.hpp"

namespace miopen::solvers {

// Direct, naive (any geometry, any strides): the universal fallbacks.
const ConvSolver& ConvDirectNaiveFwd();
const ConvSolver& ConvDirectNaiveBwdData();
const ConvSolver& ConvDirectNaiveBwdWeights();
// GEMM on OpenBLAS (packed tensors).
const ConvSolver& GemmFwd1x1_0_1();
const ConvSolver& GemmFwd1x1_0_2();
const ConvSolver& GemmFwdRest();
const ConvSolver& GemmBwd1x1_stride1();
const ConvSolver& GemmBwd1x1_stride2();
const ConvSolver& GemmBwdRest();
const ConvSolver& GemmWrw1x1_stride1();
const ConvSolver& GemmWrwUniversal();
// Blocked implicit GEMM (packed tensors): the CPU fast path.
const ConvSolver& ConvCpuImplicitGemmFwd();
const ConvSolver& ConvCpuImplicitGemmBwd();
const ConvSolver& ConvCpuImplicitGemmWrw();

} // namespace miopen::solvers
