// The argument block of the blocked direct-convolution kernels (conv_direct_blocked_kernel.hpp):
// plain integers and pointers only, since it is shared by translation units compiled for
// different instruction sets. The tile tables live here too, so the dispatcher and the kernels
// agree on what was instantiated.
#pragma once

namespace miopen::cpu::dblk {

struct KernelArgs
{
    const float* xp;   // packed input [n][groups][cb][hp][wpw][vc]
    const float* wp;   // packed filter [groups][kg][cb][r][s][vc][kt]
    float* y;          // output, element (n, c, h, w) at n*ys[0] + c*ys[1] + h*ys[2] + w*ys[3]
    long n, groups, cb, vc, hp, wpw;
    long kg, kout;     // channel tiles per group; output channels per group
    long r, s, sh, sw, dh, dw, oh, ow, owt;   // owt: tiles of ur_w columns per output row
    long ys[4];
    int ur_w, nkv;
};

// (UR_W, NKV) pairs: UR_W x NKV accumulators plus NKV weight vectors and a broadcast must fit the
// register file (32 zmm, 16 ymm).
#define DBLK_TILES_AVX512 DBLK_TILE(14, 2) DBLK_TILE(7, 4) DBLK_TILE(7, 2) DBLK_TILE(28, 1) DBLK_TILE(8, 3) DBLK_TILE(6, 4) DBLK_TILE(4, 4)
#define DBLK_TILES_AVX2 DBLK_TILE(6, 2) DBLK_TILE(4, 3) DBLK_TILE(3, 4) DBLK_TILE(4, 2) DBLK_TILE(7, 1) DBLK_TILE(12, 1)

bool RunAvx512(const KernelArgs& a);   // false: the tile is not one of DBLK_TILES_AVX512
bool RunAvx2(const KernelArgs& a);

} // namespace miopen::cpu::dblk
