// MIOpen's XDLOPS implicit-GEMM solvers on tensor cores (hip/kernels/conv/conv_igemm_mma.hip over
// the matrix layer kernels/common/mma.hpp: NVIDIA mma.sync on sm_80 and later, AMD MFMA on gfx908
// and gfx90a), fp16 and bf16 with fp32 accumulation, packed NHWC / NDHWC tensors, the reduction's
// channels a multiple of 8 (16-byte channel vectors: C/G forward, K/G backward data). MIOpen's
// names, ids (src/solver.cpp's ++id order) and switches:
//   ConvHipImplicitGemmFwdXdlops         128  MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS
//                                             forward, 2-d, one group
//   ConvHipImplicitGemmGroupFwdXdlops    137  MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS
//                                             forward, 2-d, several groups
//   ConvHipImplicitGemm3DGroupFwdXdlops  138  MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS
//                                             forward, 3-d, any groups
//   ConvHipImplicitGemmBwdXdlops         129  MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS
//                                             backward data, 2-d, one group, any stride
//   ConvHipImplicitGemmGroupBwdXdlops    155  MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_GROUP_BWD_XDLOPS
//                                             backward data, 2-d, several groups
//   ConvHipImplicitGemm3DGroupBwdXdlops  141  MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS
//                                             backward data, 3-d, any groups
// Workspace: none. Deterministic: yes (one fixed-order accumulation per output).
// Backward weights (MIOpen's ConvHipImplicitGemmGroupWrwXdlops 156, 3-d 140) is not written yet.
#include "conv/conv_gpu.hpp"
#include "conv/solvers.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace miopen {
namespace conv_gpu {
/// The tensor-core kernel's invoker (kernels/conv/conv_igemm_mma_launch.cpp in GPU builds).
ConvInvoker IgemmMmaInvoker(const Handle& handle, const ConvProblem& p, const char* name);
#if !MIOPEN_CY_HAVE_GPU
ConvInvoker IgemmMmaInvoker(const Handle&, const ConvProblem&, const char* name)
{
    ThrowNotImplemented(name, ": this build has no GPU backend");
}
#endif
} // namespace conv_gpu

namespace solvers {
namespace {

/// Whether the GPU's architecture has the matrix instructions, else why not.
std::string MmaArchWhyNot(const std::string& arch)
{
    if(arch.rfind("sm_", 0) == 0)
    {
        const int cc = std::atoi(arch.c_str() + 3);
        if(cc >= 80)
            return "";
        return arch + " has no mma.sync for fp16/bf16 m16n8k16 (needs sm_80 or later)";
    }
    if(arch == "gfx908" || arch == "gfx90a")
        return "";
    return arch + " has no MFMA (needs gfx908 or gfx90a)";
}

class ConvHipImplicitGemmXdlops final : public ConvSolver
{
public:
    ConvHipImplicitGemmXdlops(const char* name, uint64_t id, ConvDirection dir, int dims, bool grouped)
        : name_(name), id_(id), dir_(dir), dims_(dims), grouped_(grouped)
    {
    }
    std::string_view Name() const override { return name_; }
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::ImplicitGemm; }
    bool SupportsType(miopenDataType_t t) const override { return t == miopenHalf || t == miopenBFloat16; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override
    {
        // About 100 TFLOP/s on full 128 x 128 tiles; a GEMM narrower than the tile (K/G columns,
        // N*Ho*Wo rows) leaves its share of the tile idle.
        // Backward data multiplies the zeros of the taps off the stride grid too.
        const bool bwd    = dir_ == ConvDirection::BackwardData;
        const double cols = double((bwd ? p.c : p.k) / p.groups);
        const double rows = double(p.n * (bwd ? p.InSpatial() : p.OutSpatial()));
        const double fill = std::min(1.0, cols / 128.0) * std::min(1.0, rows / 128.0);
        double waste      = 1.0;
        for(int i = 0; bwd && i < p.dims; ++i)
            waste *= p.strides[i];
        return 2.0 * p.Macs() * waste / (100e12 * fill) * 1e3 + 0.005;
    }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        if(p.direction != dir_)
            return OtherDomain("another direction");
        // The problem's rules first, so that a CPU handle's error also says why.
        if(!p.IsPackedNHWC())
            return NotApplicable("needs packed NHWC / NDHWC tensors (channels last)");
        if(p.dims != dims_)
            return NotApplicable(dims_ == 2 ? "needs 2 spatial dims" : "needs 3 spatial dims");
        if(grouped_ != (p.groups > 1) && dims_ == 2)
            return NotApplicable(grouped_ ? "needs several groups" : "needs one group");
        const bool bwd = dir_ == ConvDirection::BackwardData;
        if(!bwd && (p.c / p.groups) % 8 != 0)
            return NotApplicable("needs C/G a multiple of 8 (16-byte channel vectors)");
        if(bwd && (p.k / p.groups) % 8 != 0)
            return NotApplicable("needs K/G a multiple of 8 (16-byte channel vectors)");
        if(!conv_gpu::Fits32(p))
            return NotApplicable("a tensor has 2^31 elements or more");
        if(p.groups > 65535 || ((bwd ? p.c : p.k) / p.groups + 127) / 128 > 65535)
            return NotApplicable("more than 65535 groups or column tiles");
        if(!ctx.handle.IsGpu())
            return OtherDomain("GPU solver");
        const std::string why = MmaArchWhyNot(gpu::ArchName(ctx.handle.Ordinal()));
        if(!why.empty())
            return NotApplicable(why);
        return Applicable();
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const override
    {
        return conv_gpu::IgemmMmaInvoker(ctx.handle, p, name_);
    }

private:
    const char* name_;
    uint64_t id_;
    ConvDirection dir_;
    int dims_;
    bool grouped_;
};

} // namespace

const ConvSolver& ConvHipImplicitGemmFwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmFwdXdlops", 128, ConvDirection::Forward, 2, false);
    return s;
}
const ConvSolver& ConvHipImplicitGemmGroupFwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmGroupFwdXdlops", 137, ConvDirection::Forward, 2, true);
    return s;
}
const ConvSolver& ConvHipImplicitGemm3DGroupFwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemm3DGroupFwdXdlops", 138, ConvDirection::Forward, 3, true);
    return s;
}
const ConvSolver& ConvHipImplicitGemmBwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmBwdXdlops", 129, ConvDirection::BackwardData, 2, false);
    return s;
}
const ConvSolver& ConvHipImplicitGemmGroupBwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemmGroupBwdXdlops", 155, ConvDirection::BackwardData, 2,
                                             true);
    return s;
}
const ConvSolver& ConvHipImplicitGemm3DGroupBwdXdlops()
{
    static const ConvHipImplicitGemmXdlops s("ConvHipImplicitGemm3DGroupBwdXdlops", 141, ConvDirection::BackwardData, 3,
                                             true);
    return s;
}

} // namespace solvers
} // namespace miopen
