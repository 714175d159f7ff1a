// Winograd convolution F(m x m, 3 x 3) on the CPU for 2-d, stride-1, dilation-1, packed NCHW
// problems (m = 2 or 4): tiles of the padded input are transformed (B^T d B) into a workspace
// V[tile element][tile][channel], one GEMM per tile element and group multiplies V_e by the
// transformed filters (G g G^T, made per block of output channels next to its GEMMs, so the
// transformed filters never go through memory) into M[tile element][tile][out channel], and the
// output transform (A^T M A) writes y. The batch is processed in chunks of tile rows so the
// workspace is bounded.
// Backward data is the same forward convolution of dy with the flipped, transposed filters and
// pad' = 2 - pad (which may be negative: a crop), so both directions share this core.
#pragma once

#include "conv/conv_geometry.hpp"

#include <cstddef>

namespace miopen::cpu {

enum class WinogradDirection
{
    Forward,           // out = conv(in, w)
    BackwardData,      // the same, with the user's filters w[ic][oc/g][3][3] transposed and flipped
    BackwardWeights,   // dw = sum over tiles of G^T [(A dy A^T) . (B^T x B)] G
};

/// One Winograd convolution in the core's terms: `in` (n, ic, h, w) -> `out` (n, oc, oh, ow),
/// 3x3 filters (oc, ic / groups, 3, 3), stride 1, pads pad_h/pad_w (any sign).
struct WinogradShape
{
    long n, ic, oc, groups, icpg, ocpg;
    long h, w, oh, ow;
    long pad_h, pad_w;
    WinogradDirection dir;

    static WinogradShape Forward(const ConvGeometry& g);
    /// dx = the forward convolution of dy with the flipped, transposed r x r filters,
    /// pad' = r - 1 - pad (the CPU kernels: r = 3).
    static WinogradShape BackwardData(const ConvGeometry& g);
    /// The forward shape; `in` is x and `out` is dy.
    static WinogradShape BackwardWeights(const ConvGeometry& g);
};

/// What one call needs: tile counts, the chunk of tile rows processed at once, workspace parts.
///
/// Two schedules. Phased (the default): all threads transform a chunk's inputs, then run its
/// GEMMs, then its output transform; each GEMM item makes the transformed filters of its block of
/// output channels next to its GEMMs, so large filter sets never go through memory. Pipelined
/// (forward and backward data when the transformed filters are small, i.e. few channels and
/// large images): the filters are transformed once into the workspace, and each thread takes
/// whole chunks of ~L2 size through input transform, GEMMs and output transform, so the
/// transformed data stays in its cache; each thread has its own chunk buffers.
struct WinogradPlan
{
    int m;                 // output tile (2 or 4); input tile alpha = m + 2
    int alpha;
    long tiles_h, tiles_w; // tiles per image
    long rows;             // tile rows in the batch: n * tiles_h
    long rows_per_chunk;
    bool pipelined;
    int threads;           // pipelined: the threads the workspace has chunk buffers for
    long u_floats;         // pipelined: the transformed filters, [tile element][oc][icpg]
    long v_floats, m_floats;   // one chunk's transformed inputs and products (backward weights:
                               // transformed x and dy); pipelined: per thread
    long w_floats;             // backward data: the filters transposed and flipped; backward
                               // weights: the products summed over tiles, [tile element][oc][icpg]

    size_t WorkspaceBytes() const
    {
        const long chunk = (v_floats + m_floats) * (pipelined ? threads : 1);
        return sizeof(float) * static_cast<size_t>(u_floats + chunk + w_floats);
    }
};

/// The plan of shape `s` with output tile m. Phased chunks are the largest number of tile rows
/// whose transformed inputs and products take about chunk_bytes; pipelined ones about
/// cache_bytes per thread (at least one tile row either way). Pipelined plans are made for
/// omp_get_max_threads() threads; a run with fewer uses fewer.
WinogradPlan MakeWinogradPlan(const WinogradShape& s, int m, size_t chunk_bytes, size_t cache_bytes);

/// Runs the convolution (forward or backward data). `workspace` holds at least
/// plan.WorkspaceBytes(). Deterministic run to run for a given thread count.
void ConvWinograd(const WinogradShape& s, const WinogradPlan& plan, const float* in, const float* w,
                  float* out, void* workspace);

/// Backward weights: dw (oc, icpg, 3, 3) from x = `in` and dy = `out` of the forward shape.
void ConvWinogradBackwardWeights(const WinogradShape& s, const WinogradPlan& plan, const float* x,
                                 const float* dy, float* dw, void* workspace);

} // namespace miopen::cpu
