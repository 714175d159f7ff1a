// ConvGpuImplicitGemmBwd<128x128>, <64x64>, <128x64>, <16x128>, <128x64x16>, <64x128x16> (ids 2011-2016): see conv_gpu_igemm.hpp.
#include "conv/solvers/conv_gpu_igemm.hpp"

namespace miopen::solvers {

const ConvSolver& ConvGpuImplicitGemmBwd(int variant)
{
    static const ConvGpuImplicitGemm v0(ConvDirection::BackwardData, 0, 2011);
    static const ConvGpuImplicitGemm v1(ConvDirection::BackwardData, 1, 2012);
    static const ConvGpuImplicitGemm v2(ConvDirection::BackwardData, 2, 2013);
    static const ConvGpuImplicitGemm v3(ConvDirection::BackwardData, 3, 2014);
    static const ConvGpuImplicitGemm v4(ConvDirection::BackwardData, 4, 2015);
    static const ConvGpuImplicitGemm v5(ConvDirection::BackwardData, 5, 2016);
    return variant == 0 ? v0 : variant == 1 ? v1 : variant == 2 ? v2 : variant == 3 ? v3 : variant == 4 ? v4 : v5;
}

} // namespace miopen::solvers
