// ConvGpuImplicitGemmWrw<128x128>, <64x64>, <128x64>, <16x128>, <128x64x16>, <64x128x16> (ids 2021-2026): see conv_gpu_igemm.hpp.
#include "conv/solvers/conv_gpu_igemm.hpp"

namespace miopen::solvers {

const ConvSolver& ConvGpuImplicitGemmWrw(int variant)
{
    static const ConvGpuImplicitGemm v0(ConvDirection::BackwardWeights, 0, 2021);
    static const ConvGpuImplicitGemm v1(ConvDirection::BackwardWeights, 1, 2022);
    static const ConvGpuImplicitGemm v2(ConvDirection::BackwardWeights, 2, 2023);
    static const ConvGpuImplicitGemm v3(ConvDirection::BackwardWeights, 3, 2024);
    static const ConvGpuImplicitGemm v4(ConvDirection::BackwardWeights, 4, 2025);
    static const ConvGpuImplicitGemm v5(ConvDirection::BackwardWeights, 5, 2026);
    return variant == 0 ? v0 : variant == 1 ? v1 : variant == 2 ? v2 : variant == 3 ? v3 : variant == 4 ? v4 : v5;
}

} // namespace miopen::solvers
