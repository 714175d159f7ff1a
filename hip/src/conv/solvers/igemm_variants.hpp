// The variant table of the blocked implicit-GEMM solvers (ConvCpuImplicitGemm{Fwd,Bwd,Wrw}):
//     CHUNK_KB,NB
//     256,1     default: column chunks of ~256 KiB (a few output rows), one image per GEMM
//     64,1  1024,1  4096,1   smaller / larger chunks (a wider GEMM against more L2 traffic)
//     0,2   0,4             NB whole images side by side in one GEMM (small images: a wider GEMM,
//                           or for backward weights a longer inner dimension); offered when N >= NB
//                           and NB images' columns take at most 16 MiB
// Threads take whole chunks (or image blocks); with fewer blocks than threads the GEMM is split.
#pragma once

#include "conv/problem.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace miopen::solvers::igemm {

inline constexpr std::string_view kHeader = "CHUNK_KB,NB";

struct Variant
{
    long chunk_kb = 256;
    long nb = 1;
};

/// col_bytes: one image's (and group's) full column matrix in bytes.
inline std::vector<std::string> Variants(const ConvProblem& p, double col_bytes)
{
    std::vector<std::string> out = {"256,1", "64,1", "1024,1", "4096,1"};
    for(long nb : {2L, 4L})
        if(static_cast<long>(p.n) >= nb && col_bytes * nb <= 16.0 * 1024 * 1024)
            out.push_back("0," + std::to_string(nb));
    return out;
}

inline Variant Parse(std::string_view solver, const std::string& text, const std::vector<std::string>& allowed)
{
    if(std::find(allowed.begin(), allowed.end(), text) == allowed.end())
    {
        std::string list;
        for(const auto& a : allowed)
            list += (list.empty() ? "" : " ") + a;
        ThrowBadParm(solver, ": variant '", text, "' is not one of this problem's variants (", kHeader, "): ",
                     list);
    }
    Variant v;
    std::sscanf(text.c_str(), "%ld,%ld", &v.chunk_kb, &v.nb);
    return v;
}

} // namespace miopen::solvers::igemm
