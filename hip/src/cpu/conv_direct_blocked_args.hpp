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

bool RunWrwAvx512(const WrwArgs& a);

// Backward weights of a 1x1 unpadded convolution as a GEMM over positions: dw[k][c] = sum over
// images n and positions p of dy[n][k][p] * x[n][c][p], with vectors along p (no transposes: x
// and dy are read in their own NCHW layout, or from a plain copy when their rows are not
// contiguous or not whole vectors). A register tile of KR output x CR input channels holds
// KR x CR vectors of partial sums; the item's block of kb x cbs channels keeps them in a buffer
// across chunks of pc positions, and sums each vector's lanes once at the end.
struct WrwPosArgs
{
    const float* x;    // row (n, c) of group grp at x + n*xn + (grp*cin + c)*xc, plen floats
    const float* dy;   // row (n, k) at dy + n*dn + (grp*kout + k)*dk
    float* dw;         // element (k, c) of group grp at (grp*kout + k)*ws0 + c*ws1
    long groups, cin, kout, nimg, plen;   // plen: a multiple of the vector width, zeros past the data
    long xn, xc, dn, dk, ws0, ws1;
    long kb, cbs, pc;  // channels per item (kb a multiple of KR, cbs of CR); positions per chunk
    int kr, cr;
};

#define DBLK_WRWPOS_TILES_AVX512 DBLK_WRWPOS_TILE(6, 4) DBLK_WRWPOS_TILE(4, 4)
#define DBLK_WRWPOS_TILES_AVX2 DBLK_WRWPOS_TILE(4, 3) DBLK_WRWPOS_TILE(3, 3)

bool RunWrwPosAvx512(const WrwPosArgs& a);   // false: the tile is not one of DBLK_WRWPOS_TILES_AVX512
bool RunWrwPosAvx2(const WrwPosArgs& a);

/// Filter packing with gathers: dst[c * kt + kk] = w[kk * wk + c * wc] for c < vc, kk < kt (kt a
/// multiple of 16, kk * wk within 32-bit ints). False where AVX-512 code is not compiled.
bool PackWGatherAvx512(const float* w, long wk, long wc, float* dst, long vc, long kt);   // false: the tile is not one of DBLK_WRW_TILES_AVX512
bool RunWrwAvx2(const WrwArgs& a);

} // namespace miopen::cpu::dblk
