// The argument block of the blocked direct-convolution kernels (direct_blocked_kernel.hpp):
// plain integers and pointers only, since it is shared by translation units compiled for
// different instruction sets. The tile tables live here too, so the dispatcher and the kernels
// agree on what was instantiated.
#pragma once

namespace miopen::cpu::dblk {

using EpilogueFn = void (*)(const void* ctx, float* tile, long ld, long nw, long nk, long k0, long y_off);

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
    // A fusion plan's epilogue, or null: called on each tile's fp32 results before they are stored
    // (tile[u * ld + k], u < nw columns, k < nk channels), with the tile's first output channel
    // (counted over all groups) and the y offset of its first element (direct_blocked.hpp).
    EpilogueFn epi;
    const void* epi_ctx;
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


// Backward weights as a GEMM over output positions, vectors along them: dw[k][j] = sum over
// images, rows and positions p of dy[k][row][p] * x_j[row][p], where a column j is an input
// channel and filter tap, read at its own offset (xcol) in x or in a copy of x (no transposes).
// 1x1 unpadded: x and dy as they are (or a plain copy), a column per channel. Other filters: x
// copied once, split by stride phase and padded, so that every tap's row is a contiguous run
// (the "row" kernel). A register tile of KR output channels x CR columns holds KR x CR vectors of
// partial sums; an item's block of kb x cbs keeps them in a buffer across chunks of about pc
// positions, and sums each vector's lanes once at the end.
struct WrwPosArgs
{
    const float* x;    // column j of image n, group grp, row r: x + n*xn + grp*xg + xcol[j] + r*xrs
    const float* dy;   // row r of channel k: dy + n*dn + grp*dg + k*dk + r*drs
    float* dw;         // element (k, j) of group grp at (grp*kout + k)*ws0 + wcol[j]
    const long* xcol;
    const long* wcol;
    long groups, kout, ncols;            // per group
    long nimg, nrows, rowlen;            // rowlen: a multiple of the vector width, zeros past the data
    long xn, xg, xrs, dn, dg, dk, drs, ws0;
    long kb, cbs, pc;  // output channels and columns per item (kb a multiple of KR); positions per chunk
    int kr, cr;
};

#define DBLK_WRWPOS_TILES_AVX512 DBLK_WRWPOS_TILE(6, 4) DBLK_WRWPOS_TILE(4, 4)
#define DBLK_WRWPOS_TILES_AVX2 DBLK_WRWPOS_TILE(4, 3) DBLK_WRWPOS_TILE(3, 3)

bool RunWrwPosAvx512(const WrwPosArgs& a);   // false: the tile is not one of DBLK_WRWPOS_TILES_AVX512
bool RunWrwPosAvx2(const WrwPosArgs& a);

/// Filter packing with gathers: dst[c * kt + kk] = w[kk * wk + c * wc] for c < vc, kk < kt (kt a
/// multiple of 16, kk * wk within 32-bit ints). False where AVX-512 code is not compiled.
bool PackWGatherAvx512(const float* w, long wk, long wc, float* dst, long vc, long kt);
/// Filter packing by 16 x 16 transposes: dst[map[j] + kk] = w[kk * wk + j] for j < ncols, kk < kt
/// (kt a multiple of 16). False where AVX-512 code is not compiled.
bool PackWTransposeAvx512(const float* w, long wk, long ncols, const long* map, float* dst, long kt);
/// The same two with AVX2 (8 output channels a gather, 8 x 8 transposes; kt a multiple of 8).
bool PackWGatherAvx2(const float* w, long wk, long wc, float* dst, long vc, long kt);
bool PackWTransposeAvx2(const float* w, long wk, long ncols, const long* map, float* dst, long kt);
bool RunWrwAvx512(const WrwArgs& a);   // false: the tile is not one of DBLK_WRW_TILES_AVX512
bool RunWrwAvx2(const WrwArgs& a);

} // namespace miopen::cpu::dblk
