// The host side of the tensor-core GEMM (gemm_mma.hip): argument checks, the choice of split,
// the launch check.
#include "kernels/gemm/gemm_mma.hpp"
#include "kernels/gemm/gemm_operand_check.hpp"

#include "core/env.hpp"
#include "core/errors.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>

namespace miopen::gpu {
namespace {

constexpr int kStep     = 32; // the kernel's reduction step (BK in gemm_mma.hip)
constexpr int kMaxParts = 64;

void Check(const GemmMmaArgs& g)
{
    if(g.m < 0 || g.n < 0 || g.k < 0)
        ThrowBadParm("GemmMmaArgs sizes are m ", g.m, ", n ", g.n, ", k ", g.k, "; expected >= 0");
    if(g.m == 0 || g.n == 0)
        return;
    if(g.c == nullptr)
        ThrowBadParm("GemmMmaArgs.c is null");
    if(g.ldc < g.n)
        ThrowBadParm("GemmMmaArgs.ldc is ", g.ldc, "; expected >= ", g.n);
    if(g.k == 0)
        return;
    CheckGemmOperands(g, "GemmMmaArgs");
}

int64_t Steps(const GemmMmaArgs& g) { return (int64_t{std::max(g.k, 0)} + kStep - 1) / kStep; }

} // namespace

int GemmMmaParts(const GemmMmaArgs& g, int splits)
{
    const int64_t steps = Steps(g);
    if(splits <= 1 || steps <= 1)
        return 1;
    const int64_t per = (steps + std::min<int64_t>(splits, steps) - 1) / std::min<int64_t>(splits, steps);
    return static_cast<int>((steps + per - 1) / per);
}

int GemmMmaChooseSplits(const GemmMmaArgs& g, int sms, int max_parts)
{
    const int64_t steps = Steps(g);
    const int64_t cap   = std::min<int64_t>({int64_t{std::max(max_parts, 1)}, kMaxParts, std::max<int64_t>(steps, 1)});
    const int64_t forced = env::Integer("MIOPEN_CY_DEBUG_GEMM_MMA_SPLIT", 0);
    if(forced > 0)
        return static_cast<int>(std::min(forced, cap));
    // A time model in microseconds, fitted to an H200 on the RNN's step products (64 x 4096 over
    // k 1024 and 64 x 1024 over k 4096, every split from 1 to 16): a block alone on its
    // multiprocessor takes about 0.6 us a 32-wide step; once the blocks outnumber the
    // multiprocessors, a wave of two blocks on each takes about 1 us a step; a split writes its m
    // x n fp32 parts and someone reads them back, about 2.3 TB/s.
    const int64_t tiles = (int64_t{g.m} + 127) / 128 * ((int64_t{g.n} + 127) / 128);
    const int64_t sm    = std::max(sms, 1);
    double best         = 1e300;
    int best_s          = 1;
    for(int64_t s = 1; s <= cap; ++s)
    {
        const int64_t per    = (steps + s - 1) / s;
        const int64_t blocks = tiles * s;
        double t             = blocks <= sm ? 0.6 * double(per) + 1.0
                                            : double((blocks + 2 * sm - 1) / (2 * sm)) * (double(per) + 1.0);
        if(s > 1)
            t += double(s) * g.m * g.n * 8.0 / 2.3e6;
        if(t < best * 0.999)
        {
            best   = t;
            best_s = static_cast<int>(s);
        }
    }
    return best_s;
}

int LaunchGemmMma(const GemmMmaArgs& g, float* workspace, size_t workspace_floats, bool reduce, void* stream)
{
    Check(g);
    if(g.m == 0 || g.n == 0)
        return 1;
    const size_t out   = size_t(g.m) * size_t(g.n);
    const size_t room  = workspace == nullptr ? 0 : workspace_floats / out;
    const int max_part = static_cast<int>(std::min<size_t>(room, size_t(kMaxParts)));
    const int parts    = max_part > 1 ? GemmMmaParts(g, GemmMmaChooseSplits(g, MultiprocessorCount(CurrentDevice()), max_part)) : 1;
    LaunchGemmMmaKernels(g, parts, workspace, reduce, stream);
    CheckLaunch("GemmMma");
    return parts;
}

} // namespace miopen::gpu
