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
    // flat: a 1x1, stride-1, unpadded problem read straight from x (no packing): x is [n][c][p]
    // with positions p contiguous (xn, xc: image and channel strides), y likewise, oh = 1 and
    // ow = the positions of an image; cb * vc = the input channels (whole vectors).
    int flat;
    long xn, xc;
};

// (UR_W, NKV) pairs: UR_W x NKV accumulators plus NKV weight vectors and a broadcast must fit the
// register file (32 zmm, 16 ymm).
#define DBLK_TILES_AVX512 DBLK_TILE(14, 2) DBLK_TILE(7, 4) DBLK_TILE(7, 2) DBLK_TILE(28, 1) DBLK_TILE(8, 3) DBLK_TILE(6, 4) DBLK_TILE(4, 4)
#define DBLK_TILES_AVX2 DBLK_TILE(6, 2) DBLK_TILE(4, 3) DBLK_TILE(3, 4) DBLK_TILE(4, 2) DBLK_TILE(7, 1) DBLK_TILE(12, 1)

bool RunAvx512(const KernelArgs& a);   // false: the tile is not one of DBLK_TILES_AVX512
bool RunAvx2(const KernelArgs& a);

// Backward weights: dw tiles of UC input channels x NKV vectors of output channels, one filter
// tap at a time, summed over images, output rows and columns.
struct WrwArgs
{
    const float* xp;   // packed input [n][groups][cb][hp][wpw][vc], vc = the vector width
    const float* dyp;  // packed dy [n][groups][kg][oh][ow][kt]
    float* dw;         // filter gradient, element (k, c, r, s) at k*ws[0] + c*ws[1] + r*ws[2] + s*ws[3]
    long n, groups, cb, vc, hp, wpw;
    long kg, kout, cin;   // channel tiles per group; output and input channels per group
    long r, s, sh, sw, dh, dw_, oh, ow, rows;   // rows: output rows per pass over the taps
    long ws[4];
    int uc, nkv;
};

#define DBLK_WRW_TILES_AVX512 DBLK_WRW_TILE(8, 2) DBLK_WRW_TILE(16, 1) DBLK_WRW_TILE(4, 4) DBLK_WRW_TILE(8, 1)
#define DBLK_WRW_TILES_AVX2 DBLK_WRW_TILE(4, 3) DBLK_WRW_TILE(4, 2) DBLK_WRW_TILE(8, 1)

bool RunWrwAvx512(const WrwArgs& a);   // false: the tile is not one of DBLK_WRW_TILES_AVX512
bool RunWrwAvx2(const WrwArgs& a);

} // namespace miopen::cpu::dblk
