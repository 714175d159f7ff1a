// Direct convolution with channel-blocked layouts and register-tiled micro-kernels (the
// oneDNN / MIOpen "direct, blocked layout" scheme, not a GEMM). x is packed, with its padding
// written out, into N G C/VC Hp Wp VC (VC = the vector width: 16 floats for AVX-512, 8 for AVX2;
// or C itself when C is smaller) and w into G K/KT C/VC R S VC KT (KT = NKV vectors of output
// channels). A micro-kernel keeps a tile of UR_W output columns x KT output channels in vector
// registers and runs over (c block, r, s, c): one vector load per NKV weights, one broadcast per
// input value, UR_W x NKV FMAs. Threads take (image, group, channel tile, output row) items. The
// tile is written straight to y in its own layout (the unpack is fused), a fusion plan's epilogue
// applied to it first (Run's epi).
// Backward weights keeps a tile of UC input channels x NKV vectors of output channels per filter
// tap in registers, summed over images and output positions (cpu/conv/direct_blocked_kernel.hpp);
// a 1x1 unpadded filter has a second kernel, a GEMM over positions with vectors along them, that
// reads x and dy in NCHW as they are (no transposes; a plain copy where rows are strided or not
// whole vectors).
// Backward data is the same forward on dy with the flipped filter and C/K swapped (pad' =
// dilation * (filter - 1) - pad), one stride phase of dx at a time when strided.
// Kernels: direct_blocked_avx512.cpp (-mavx512f) and direct_blocked_avx2.cpp (-mavx2
// -mfma), chosen at run time by what the CPU supports; MIOPEN_CY_DEBUG_CPU_ISA=avx2 forces the
// AVX2 kernels on an AVX-512 machine, =none makes the blocked solvers not applicable.
#pragma once

#include "conv/conv_geometry.hpp"
#include "cpu/conv/direct_blocked_args.hpp"

#include <string>
#include <vector>

namespace miopen::cpu::dblk {

enum class Isa
{
    None,
    Avx2,     // 8 floats a vector, 16 vector registers
    Avx512,   // 16 floats a vector, 32 vector registers
};

/// The best ISA this CPU runs, capped by MIOPEN_CY_DEBUG_CPU_ISA (avx512, avx2, none).
Isa BestIsa();
const char* IsaName(Isa isa);
int VectorWidth(Isa isa);

/// One register tile: UR_W output columns x NKV vectors of output channels.
struct Tile
{
    int ur_w;
    int nkv;
};
/// The tiles the kernels are instantiated for, per ISA (AVX-512: up to 28 accumulators; AVX2: 12).
const std::vector<Tile>& Tiles(Isa isa);

/// A forward convolution in plain integers: what the packers and kernels index with. Backward
/// data is described as a forward (AsForward).
struct Plan
{
    long n, groups, cin, kout;          // channels per group: cin in, kout out
    long ih, iw, oh, ow, r, s, ph, pw, sh, sw, dh, dw;
    long xs[4];                         // input strides: n, c, h, w
    long ys[4];                         // output strides
    // Filter element (k, c, r, s) of group grp (k < kout, c < cin) is at
    // w[(grp * kout + k) * wk + c * wc + r * wr + s * wsd], or, when flip, at the flipped tap
    // (r -> R-1-r, s -> S-1-s) with the roles of wk and wc given by AsForward.
    long wg, wk, wc, wr, wsd;
    bool flip;
    long woff = 0;   // added to every filter offset (a phase's first tap)
};

Plan ForwardPlan(const ConvGeometry& g);
/// Stride-1 backward data as a forward convolution of dy (K channels) into dx (C channels).
Plan BackwardDataPlan(const ConvGeometry& g);

/// Runs the plan with one tile of one ISA: x (or dy) in, y (or dx) out. epi (forward, a fusion
/// plan's epilogue): called with epi_ctx on each register tile's fp32 results before they are
/// stored (tile[u * ld + k]: column u < nw, channel k0 + k for k < nk, the element at y + y_off +
/// k * ys[1] + u * ys[3]), so y is written once, the epilogue applied.
void Run(const Plan& p, Isa isa, Tile t, const float* x, const float* w, float* y,
         EpilogueFn epi = nullptr, const void* epi_ctx = nullptr);

/// Backward data of any stride: stride 1 is BackwardDataPlan; with stride s (dilation 1) dx splits
/// into s_h x s_w phases (dx rows a, a + s_h, ...), each a stride-1 forward of dy with the taps
/// r = r0, r0 + s_h, ... of the flipped filter (r0 = (a + pad) mod s_h); a phase no tap reaches
/// is zero.
void RunBackwardData(const ConvGeometry& g, Isa isa, Tile t, const float* dy, const float* w, float* dx);

/// The default tile for a problem (the variant table's first row).
Tile DefaultTile(const Plan& p, Isa isa);

/// Backward weights: tiles of UC input channels x NKV vectors of output channels (one filter tap
/// at a time), summed over images and output positions. The plan is the forward one: x in, y is
/// dy, and dw is written where the plan's filter strides say.
/// pos: a kernel over positions instead (a GEMM with vectors along output positions): 1, the 1x1
/// kernel (WrwPosApplies; x read in place); 2, the row kernel (any filter; x copied by stride
/// phase). uc is then KR, the output channels of its register tile, and nkv CR, its columns (input
/// channel and tap).
struct WrwTile
{
    int uc;
    int nkv;
    int pos = 0;
};
const std::vector<WrwTile>& WrwTiles(Isa isa);
/// The tiles of the kernels over positions (pos 1; the same tiles serve the row kernel).
const std::vector<WrwTile>& WrwPosTiles(Isa isa);
/// Whether the 1x1 kernel runs the plan: a 1x1 filter without padding (any stride: the plan reads
/// x subsampled).
bool WrwPosApplies(const Plan& p);
WrwTile DefaultWrwTile(const Plan& p, Isa isa);
void RunWrw(const Plan& p, Isa isa, WrwTile t, const float* x, const float* dy, float* dw);

} // namespace miopen::cpu::dblk
