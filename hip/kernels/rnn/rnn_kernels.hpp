// Host entry points of rnn.hip, called by rnn_launch.cpp: the RNN's element-wise kernels (gather /
// scatter of the user's rows, biases, states, one gate pass per step forward and backward, the
// dropout mask, column sums). Everything inside is fp32; T (float, Half, BFloat16) is the user's
// storage type where one appears, and the type of the 16-bit operand copies that the tensor-core
// products read (fp16 / bf16 storage; a null copy is not written). Plain C++.
#pragma once

#include "core/storage.hpp"
#include "kernels/common/args.hpp"

#include <cstdint>

namespace miopen::gpu {

constexpr int kRnnThreads = 256;
/// RnnColumnSum: blocks of 32 columns x kRnnColLanes row lanes (kRnnThreads threads).
constexpr int kRnnColLanes = kRnnThreads / 32;

/// dst[r][k] = src[io_row[r]][k] (D: fp32, or T itself), r < rows, k < width.
template <class T, class D>
void LaunchRnnGather(const Launch& l, const T* src, int width, const int64_t* io_row, int64_t rows,
                     D* dst);
/// dst[io_row[r]][k] = src[r][k], rounded to T.
template <class T>
void LaunchRnnScatter(const Launch& l, const float* src, int width, const int64_t* io_row,
                      int64_t rows, T* dst);
/// dst[i] = fill (rounded to T), i < n.
template <class T>
void LaunchRnnFill(const Launch& l, T* dst, int64_t n, float fill);
/// dst[i] = src[i] as fp32 (to_float) or src (fp32) rounded to T (!to_float), i < n.
template <class T>
void LaunchRnnToFloat(const Launch& l, const T* src, int64_t n, float* dst);
template <class T>
void LaunchRnnFromFloat(const Launch& l, const float* src, int64_t n, T* dst);

/// Skip input: G[r][g * h + k] = x[r][k] for every g < copies.
void LaunchRnnSkipInput(const Launch& l, const float* x, int64_t rows, int h, int copies,
                        float* G, int64_t Gw);
/// Skip input backward: dx[r][k] = sum over g < copies of dG[r][g * h + k].
void LaunchRnnSumGates(const Launch& l, const float* dG, int64_t rows, int h, int copies,
                       int64_t Gw, float* dx);

/// init[j][k] = hx[(li * ub + perm[j]) * h + k] (0 for a null hx), j < ub (D: fp32, or T).
template <class T, class D>
void LaunchRnnLoadInit(const Launch& l, const T* hx, int li, int ub, const int32_t* perm, int h,
                       D* init);
/// out[r - r0][k] = prev[r] >= 0 ? m[prev[r] * ld + col + k] : init[slot[r] * h + k] for rows
/// r0 <= r < r0 + rows (D: fp32, or a 16-bit copy's type).
template <class D>
void LaunchRnnGatherPrev(const Launch& l, const D* m, int64_t ld, int col,
                         const int32_t* prev, const int32_t* slot, const D* init, int h,
                         int64_t r0, int64_t rows, D* out);
/// One step's gate math, forward: a thread per (slot j < bt, k < h). g: row r0 + j of G (ld Gw,
/// this direction's nG * h columns at gcol: the input product, or the skip input), plus bin (the
/// direction's input biases; null: none), replaced by the activated gates; R: the recurrent
/// pre-activations (bt x nG h), as `parts` partial products pstride floats apart (a GEMM split
/// over k, LaunchSgemmSplitK's parts, added here in part order: the split's reduction fused into
/// the gate pass; 1: R itself), plus bhid (null: none); y, e: rows of Y and E (ld Hb, col ycol);
/// the previous state (GRU's h, LSTM's c) is row prev[r] of Y / E, or slot j of hinit / cinit
/// where prev[r] < 0. Yh (null: none): Y's 16-bit copy, written with Y.
template <class T>
void LaunchRnnGateForward(const Launch& l, int mode, int h, int bt, int64_t r0, float* G,
                          int64_t Gw, int gcol, const float* R, int parts, int64_t pstride,
                          const float* bin, const float* bhid, float* Y, float* E, int64_t Hb,
                          int ycol, const int32_t* prev, const float* hinit, const float* cinit,
                          T* Yh);
/// One step's gate math, backward: dh = dY + DH + DHD (the carried gradient, in two parts);
/// writes the pre-activation gradients dG (input side) and, for GRU, dRc (the hidden c~ side),
/// dR (bt x 3h: the hidden side) and DHD (the direct z path); DC carries dc (LSTM); the previous
/// state as in LaunchRnnGateForward. dh_parts > 0: DH's slots j < dh_rows are instead the sum
/// in part order of dh_parts partial products at DHp (dh_rows x h each, one after the other:
/// the previous step's split GEMM, its reduction fused here); DH is only read. dGh, dRch, dRh
/// (null: none; the last two GRU's): 16-bit copies of dG, dRc and dR, written with them.
template <class T>
void LaunchRnnGateBackward(const Launch& l, int mode, int h, int bt, int64_t r0,
                           const float* Gs, int64_t Gw, int gcol, const float* Y, const float* E,
                           int64_t Hb, int ycol, const float* dY, const float* DH,
                           const float* DHp, int dh_parts, int dh_rows, float* DHD, float* DC,
                           const int32_t* prev, const float* hinit, const float* cinit,
                           float* dG, float* dRc, float* dR, T* dGh, T* dRch, T* dRh);
/// Slots [from, to): DH = dhy, DC = dcy (0 for null), DHD = 0.
template <class T>
void LaunchRnnStartSlots(const Launch& l, const T* dhy, const T* dcy, int li, int ub,
                         const int32_t* perm, int from, int to, int h, float* DH, float* DHD,
                         float* DC);
/// Slots [from, to): dhx = DH + DHD, dcx = DC (each only when non-null).
template <class T>
void LaunchRnnRouteSlots(const Launch& l, const float* DH, const float* DHD, const float* DC,
                         int li, int ub, const int32_t* perm, int from, int to, int h, T* dhx,
                         T* dcx);
/// out[(li * ub + perm[j]) * h + k] = fin[j] >= 0 ? m[fin[j] * ld + col + k] : init[j * h + k],
/// j < ub (rounded to T); nothing for a null out.
template <class T>
void LaunchRnnStoreState(const Launch& l, const float* m, int64_t ld, int col, const int32_t* fin,
                         const float* init, int li, int ub, const int32_t* perm, int h, T* out);
/// m[i] = mask[i] ? m[i] * scale : 0.
void LaunchRnnApplyMask(const Launch& l, float* m, const uint8_t* mask, int64_t n, float scale);
/// out[c] = sum over r < rows of m[r * ld + c], c < n: launch with grid ceil(n / 32) and block
/// (32, kRnnColLanes) (ColumnSumLaunch in rnn_launch.cpp).
void LaunchRnnColumnSum(const Launch& l, const float* m, int64_t rows, int64_t ld, int n,
                        float* out);

} // namespace miopen::gpu
