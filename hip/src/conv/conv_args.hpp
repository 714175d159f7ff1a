// The convolution kernels' argument structs: plain integers built on the host and passed by value.
// The one header that the solvers (hip/src/conv), the GPU launchers (hip/kernels/conv/*_launch.cpp,
// hip/kernels/gemm/conv_gemm_launch.cpp) and the device code (hip/kernels/conv/*.hip) share.
// Device-neutral: no runtime, no host-only types.
#pragma once

#include <cstdint>

namespace miopen::gpu {

/// A canonical convolution problem as plain integers (ConvGeometry without std::array): spatial
/// dims right-aligned in d, h, w (unused dims length 1, stride 0); strides in elements, in the
/// order n/k, c, d, h, w for x, w and y.
struct ConvKArgs
{
    int64_t n, c, k, g, cpg, kpg;
    int64_t in[3], out[3], fil[3], pad[3], str[3], dil[3];
    int64_t xs[5], ws[5], ys[5];
};

/// A fused epilogue that a forward convolution kernel applies in its store (the fusion plans,
/// hip/src/fusion; kernels/common/epilogue.hpp's ConvEpilogueK on the device), per output element
/// of channel k at y's element index i, before the one rounding to y's type:
///   y = act(scale[k] * (alpha * acc + alpha2 * z[i]) + shift[k])
/// scale and shift: K fp32 values in device memory (never null); z: y's type and packed layout
/// (null: none); act: a miopenActivationMode_t value (PASTHRU: none) and its parameters.
struct ConvEpilogueParams
{
    const float* scale = nullptr;
    const float* shift = nullptr;
    const void* z      = nullptr;
    float alpha = 1.0f, alpha2 = 0.0f;
    int act = 0;
    float act_alpha = 0.0f, act_beta = 0.0f, act_gamma = 0.0f;
};

/// The GPU Winograd F(m x m, r x r) transforms' view of a problem (kernels/conv/conv_winograd.hpp
/// has the layouts), in the forward terms `in` (n, ic, h, w) -> `out` (n, oc, oh, ow).
struct WinogradKArgs
{
    int m;                          // output tile: 2 or 4 (r = 3); 4, or 3 for backward weights (r = 5)
    int r;                          // filter: 3 or 5
    int n, ic, oc, groups, icpg, ocpg;
    int h, w, oh, ow;               // `in` and `out` spatial sizes
    int pad_h, pad_w;               // any sign (backward data: r - 1 - pad)
    int tiles_h, tiles_w;
    int tiles;                      // T = n * tiles_h * tiles_w
    int splits, part;               // the tiles in `splits` parts of `part` (forward: 1, T)
    bool flip;                      // filters are the user's (K, C/g, r, r): read transposed, flipped
    bool nhwc;                      // packed channels-last tensors (filters K, r, r, C/g) and the
                                    // channels-last workspace layouts (kernels/conv/conv_winograd.hpp)
};

/// The implicit-GEMM tile table (composable_kernel's instance tables): kernels/conv/conv_igemm.hip
/// instantiates one kernel per row, and each row is one solver per direction,
/// ConvGpuImplicitGemm{Fwd,Bwd,Wrw}<name> with ids 2001 + row, 2011 + row, 2021 + row (find-db
/// keys: never reorder, rename or renumber).
///   name    the solver's tile in its name (rows 4 and up name their k step too)
///   bm, bn  the block's output tile: GEMM rows (K/G; backward data C/G) x columns
///   bk      the k step a block loads per stage (16: half the steps, so the per-step cost of
///           fetch addressing and barrier weighs half)
///   tm, tn  the outputs of one thread (block: (bm / tm) x (bn / tn) threads)
struct IgemmTile
{
    const char* name;
    int bm, bn, bk, tm, tn;
};
inline constexpr IgemmTile kIgemmTiles[] = {
    // name        bm   bn  bk tm tn
    {"128x128",    128, 128, 8, 8, 8},
    {"64x64",       64,  64, 16, 4, 4},
    {"128x64",     128,  64, 8, 8, 4},
    {"16x128",      16, 128, 8, 2, 8},
    {"128x64x16",  128,  64, 16, 8, 4},
    {"64x128x16",   64, 128, 16, 8, 4},
};
inline constexpr int kIgemmVariants = sizeof(kIgemmTiles) / sizeof(kIgemmTiles[0]);

} // namespace miopen::gpu
