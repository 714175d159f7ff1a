// ConvGpuImplicitGemmFwd<128x128>, <64x64>, <128x64> (ids 2001-2003): see conv_gpu_igemm.hpp.
#include "conv/solvers/conv_gpu_igemm.hpp"

namespace miopen::solvers {

const ConvSolver& ConvGpuImplicitGemmFwd(int variant)
{
    static const ConvGpuImplicitGemm v0(ConvDirection::Forward, 0, 2001);
    static const ConvGpuImplicitGemm v1(ConvDirection::Forward, 1, 2002);
    static const ConvGpuImplicitGemm v2(ConvDirection::Forward, 2, 2003);
    return variant == 0 ? v0 : variant == 1 ? v1 : v2;
}

} // namespace miopen::solvers
