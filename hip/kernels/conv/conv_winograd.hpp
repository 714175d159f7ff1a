// Host entry points of the GPU Winograd transforms (conv_winograd.hip), for the multi-pass
// Winograd solvers ConvMPBidirectWinograd<4-3> / <2-3> on a GPU handle. Plain C++: the argument
// struct is built on the host and passed by value.
//
// The convolution is F(m x m, 3 x 3) over tiles of the output (m = 2 or 4, input tile
// alpha = m + 2, E = alpha^2 tile elements), in the forward terms of conv/solvers/
// conv_winograd_gpu.hpp: `in` (n, ic, h, w) -> `out` (n, oc, oh, ow), filters (oc, icpg, 3, 3),
// stride 1, pads of any sign. Backward data is the same with dy as `in`, dx as `out`, and the
// user's filters (K, C/g, 3, 3) read transposed and flipped (`flip`).
//
// Workspace layouts (floats), T = n * tiles_h * tiles_w tiles, tile t = (n, th, tw) row-major:
//   V[e][ic][T]      transformed inputs  B^T d B
//   U[e][oc][icpg]   transformed filters G g G^T
//   M[e][oc][T]      products: per tile element and group, M_e = U_e x V_e (the GEMM, not here)
#pragma once

#include <cstdint>

namespace miopen::gpu {

struct WinogradKArgs
{
    int m;                          // output tile: 2 or 4
    int n, ic, oc, groups, icpg, ocpg;
    int h, w, oh, ow;               // `in` and `out` spatial sizes
    int pad_h, pad_w;               // any sign (backward data: 2 - pad)
    int tiles_h, tiles_w;
    int tiles;                      // T = n * tiles_h * tiles_w
    bool flip;                      // filters are the user's (K, C/g, 3, 3): read transposed, flipped
};

/// V = B^T d B for every (channel, tile): the padding and the edge of the image read as zeros.
void LaunchWinogradInputTransform(const WinogradKArgs& a, void* stream, const float* in, float* v);
/// U = G g G^T for every (output channel, input channel of its group).
void LaunchWinogradFilterTransform(const WinogradKArgs& a, void* stream, const float* w, float* u);
/// out = A^T M A for every (output channel, tile), the parts past the edge of `out` dropped.
void LaunchWinogradOutputTransform(const WinogradKArgs& a, void* stream, const float* mprod, float* out);

} // namespace miopen::gpu
