// Host entry points of the GPU Winograd transforms (conv_winograd.hip), for the multi-pass
// Winograd solvers ConvMPBidirectWinograd<4-3> / <2-3> on a GPU handle. Plain C++: the argument
// struct is built on the host and passed by value.
//
// The convolution is F(m x m, 3 x 3) over tiles of the output (m = 2 or 4, input tile
// alpha = m + 2, E = alpha^2 tile elements), in the forward terms of
// conv/conv_args.hpp's WinogradKArgs: `in` (n, ic, h, w) -> `out` (n, oc, oh, ow), filters (oc, icpg, 3, 3),
// stride 1, pads of any sign. Backward data is the same with dy as `in`, dx as `out`, and the
// user's filters (K, C/g, 3, 3) read transposed and flipped (`flip`).
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
// and the weight transform adds the parts in order and applies G^T . G into dw (oc, icpg, 3, 3).
//
// Packed channels-last tensors (`nhwc`: in (n, h, w, ic), out (n, oh, ow, oc), filters and dw
// (oc, 3, 3, icpg)) use channels-last workspaces, so that every transform reads and writes whole
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
