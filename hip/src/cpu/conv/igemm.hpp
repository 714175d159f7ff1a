// Blocked implicit-GEMM convolution on the CPU: the column matrix is built a few output rows at a
// time into a per-thread buffer that stays in L2, and multiplied there (OpenBLAS, one thread per
// chunk), so the full im2col matrix never goes through memory. Threads take whole chunks.
#pragma once

#include "conv/conv_geometry.hpp"

namespace miopen::cpu {

/// Output rows (one (od, oh) pair each) per chunk so that the chunk's columns take ~target bytes.
long IgemmRowsPerChunk(const ConvGeometry& g, long target_bytes);

/// nb > 1: nb whole images per GEMM (rows_per_chunk is then ignored); the tunable solvers' NB.
void ConvFwdIgemm(const ConvGeometry& g, const float* x, const float* w, float* y, long rows_per_chunk,
                  long nb = 1);
/// Stride-1 backward data as the forward convolution of dy with the flipped, transposed filters
/// (pad' = dilation * (filter - 1) - pad, which must be >= 0).
void ConvBwdDataIgemm(const ConvGeometry& g, float* dx, const float* w, const float* dy, long target_bytes,
                      long nb = 1);
void ConvBwdWeightsIgemm(const ConvGeometry& g, const float* x, float* dw, const float* dy,
                         long rows_per_chunk, long nb = 1);

} // namespace miopen::cpu
