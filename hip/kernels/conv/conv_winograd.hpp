// Host entry points of the GPU Winograd transforms (conv_winograd.hip), for the multi-pass
// Winograd solvers on a GPU handle (ConvMPBidirectWinograd<m-r>, ConvCpuWinogradWrw<m-3>,
// ConvWinograd3x3MultipassWrW<5-m>). Plain C++: the argument struct is built on the host and
// passed by value.
//
// The convolution is F(m x m, r x r) over tiles of the output (r = 3: m = 2 or 4; r = 5: m = 4,
// or 3 for backward weights; input tile alpha = m + r - 1, E = alpha^2 tile elements), in the
// forward terms of conv/conv_args.hpp's WinogradKArgs: `in` (n, ic, h, w) -> `out` (n, oc, oh, ow),
// filters (oc, icpg, r, r), stride 1, pads of any sign. Backward data is the same with dy as `in`,
// dx as `out`, and the user's filters (K, C/g, r, r) read transposed and flipped (`flip`).
//
// Workspace layouts (floats), T = n * tiles_h * tiles_w tiles, tile t = (n, th, tw) row-major:
//   V[e][ic][T]      transformed inputs  B^T d B
//   U[e][oc][icpg]   transformed filters G g G^T
//   M[e][oc][T]      products: per tile element and group, M_e = U_e x V_e (the GEMM, not here)
// Backward weights (dw = sum over tiles of G^T [(A dy A^T) . (B^T x B)] G) cuts the tiles into
// `splits` parts of `part` tiles (the last padded with zero tiles), so that its GEMMs, which
// reduce over the tiles, have parts enough to fill the GPU:
//   V[e][s][ic][part]   transformed x  (the input transform with splits; forward: one part of T)
//   D[e][s][oc][part]   transformed dy A dy A^T
//   P[e][s][oc][icpg]   per part: P = D x V^T (the GEMM, not here)
// and the weight transform adds the parts in order and applies G^T . G into dw (oc, icpg, r, r).
//
// Packed channels-last tensors (`nhwc`: in (n, h, w, ic), out (n, oh, ow, oc), filters and dw
// (oc, r, r, icpg)) use channels-last workspaces, so that every transform reads and writes whole
// runs of channels (one thread per (tile, channel), the channel fastest):
//   V[e][T][ic]      (backward weights V[e][s][part][ic])
//   U[e][icpg][oc]   the transformed filters transposed: the GEMM's B not transposed
//   M[e][T][oc]      per tile element and group, M_e = V_e x U_e (T x ocpg, the GEMM)
//   D[e][s][part][oc], P[e][s][oc][icpg] (P = D^T x V per part: neither operand transposed).
#pragma once

#include "conv/conv_args.hpp"

namespace miopen::gpu {

/// V = B^T d B for every (channel, tile): the padding and the edge of the image read as zeros.
void LaunchWinogradInputTransform(const WinogradKArgs& a, void* stream, const float* in, float* v);
/// U = G g G^T for every (output channel, input channel of its group).
void LaunchWinogradFilterTransform(const WinogradKArgs& a, void* stream, const float* w, float* u);
/// out = A^T M A for every (output channel, tile), the parts past the edge of `out` dropped.
void LaunchWinogradOutputTransform(const WinogradKArgs& a, void* stream, const float* mprod, float* out);

/// Backward weights: D = A dy A^T for every (output channel, tile), `out` being dy (oh x ow).
void LaunchWinogradDyTransform(const WinogradKArgs& a, void* stream, const float* dy, float* d);
/// Backward weights: dw = G^T (sum over the parts of P) G for every (output channel, input
/// channel of its group).
void LaunchWinogradWeightTransform(const WinogradKArgs& a, void* stream, const float* p, float* dw);

} // namespace miopen::gpu
