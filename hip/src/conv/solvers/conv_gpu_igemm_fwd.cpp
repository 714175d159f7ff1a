// ConvGpuImplicitGemmFwd<128x128>, <64x64>, <128x64>, <16x128>, <128x64x16>, <64x128x16> (ids 2001-2006): see conv_gpu_igemm.hpp.
#include "conv/solvers/conv_gpu_igemm.hpp"

namespace miopen::solvers {

const ConvSolver& ConvGpuImplicitGemmFwd(int variant)
{
    static const ConvGpuImplicitGemm v0(ConvDirection::Forward, 0, 2001);
    static const ConvGpuImplicitGemm v1(ConvDirection::Forward, 1, 2002);
    static const ConvGpuImplicitGemm v2(ConvDirection::Forward, 2, 2003);
    static const ConvGpuImplicitGemm v3(ConvDirection::Forward, 3, 2004);
    static const ConvGpuImplicitGemm v4(ConvDirection::Forward, 4, 2005);
    static const ConvGpuImplicitGemm v5(ConvDirection::Forward, 5, 2006);
    return variant == 0 ? v0 : variant == 1 ? v1 : variant == 2 ? v2 : variant == 3 ? v3 : variant == 4 ? v4 : v5;
}

} // namespace miopen::solvers
