// FFT convolution on the CPU for 2-d, stride-1, dilation-1, ungrouped, packed NCHW problems with
// large filters: overlap-save tiling of the image into N1 x N2 tiles (N1, N2 of the form
// 2^a 3^b 5^c), a real-to-complex 2-d FFT of every tile and channel (our own mixed-radix
// Stockham FFT, many tiles and channels vectorised together, two real signals packed in one
// complex one), one complex GEMM per frequency bin over the channels (OpenBLAS cgemm), and the
// inverse FFT, of which each tile keeps its (N1 - R + 1) x (N2 - S + 1) alias-free outputs.
// The filter spectra are computed once per call into the workspace.
// Backward data is the same forward convolution of dy with the flipped, transposed filters and
// pad' = R - 1 - pad (negative: a crop), read from the user's filters as they are.
#pragma once

#include "conv/conv_geometry.hpp"

#include <cstddef>

namespace miopen::cpu {

/// One FFT convolution in the core's terms: `in` (n, ic, h, w) -> `out` (n, oc, oh, ow), filters
/// r x s, pads (any sign), stride 1. `backward`: the filters are the user's (ic, oc, r, s) ones of
/// the backward-data problem, used flipped and transposed.
struct FftShape
{
    long n, ic, oc, h, w, oh, ow, r, s, pad_h, pad_w;
    bool backward;

    static FftShape Forward(const ConvGeometry& g);
    /// dx = the forward convolution of dy with the flipped, transposed filters, pad' = R - 1 - pad.
    static FftShape BackwardData(const ConvGeometry& g);
};

/// What one call needs: the FFT tile, tile counts, the chunk of tiles transformed at once and
/// the workspace parts (in complex floats).
struct FftPlan
{
    long n1, n2;             // FFT size (rows, columns)
    long t1, t2;             // outputs per tile: n1 - r + 1, n2 - s + 1
    long tiles_h, tiles_w, tiles;   // tiles per image row / column, in the batch
    long bins;               // n1 * (n2 / 2 + 1): the half spectrum
    long tiles_per_chunk;
    /// Pipelined (many tiles): each thread takes whole chunks through input FFT, GEMMs and
    /// inverse FFT in its own buffers; else all threads work on one chunk at a time.
    bool pipelined;
    int threads;             // pipelined: the threads the workspace has chunk buffers for
    long filter_cfloats;     // the filter spectra: bins x ic x oc
    long chunk_cfloats;      // the chunks' input and output spectra: bins x tiles_per_chunk x (ic + oc),
                             // per thread when pipelined

    size_t WorkspaceBytes() const { return 8u * static_cast<size_t>(filter_cfloats + chunk_cfloats); }
};

/// The filter spectra may take at most this much workspace (the solver is not applicable beyond).
constexpr size_t kFftMaxFilterBytes = 256u << 20;

/// The cheapest plan for `s` by a flop-and-traffic model; chunks hold about chunk_bytes of spectra.
FftPlan MakeFftPlan(const FftShape& s, size_t chunk_bytes);

/// Model time (seconds) of a plan, for the solver's estimate.
double FftPlanSeconds(const FftShape& s, const FftPlan& p);

/// Runs the convolution; `workspace` holds at least plan.WorkspaceBytes() bytes, 8-byte aligned.
/// Deterministic run to run for a given thread count.
void ConvFft(const FftShape& s, const FftPlan& plan, const float* in, const float* w, float* out,
             void* workspace);

} // namespace miopen::cpu
