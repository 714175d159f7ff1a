// Blocked implicit-GEMM convolution on the CPU: the column matrix is built a few output rows at a
// time into a per-thread buffer that stays in L2, and multiplied there (OpenBLAS, one thread per
// chunk), so the full im2col matrix never goes through memory. Threads take whole chunks.
#pragma once

#include "conv/conv_geometry.hpp"
#include "core/storage.hpp"

namespace miopen::cpu {

struct ConvBlockEpilogue; // fusion/fusion_args.hpp

/// Output rows (one (od, oh) pair each) per chunk so that the chunk's columns take ~target bytes.
long IgemmRowsPerChunk(const ConvGeometry& g, long target_bytes);

/// nb > 1: nb whole images per GEMM (rows_per_chunk is then ignored); the tunable solvers' NB.
/// ep (forward only; packed NC[D]HW y): a fusion plan's epilogue, applied to each chunk of y as
/// soon as its GEMM has written it (fp16 / bf16: to the fp32 tile, before the one rounding).
void ConvFwdIgemm(const ConvGeometry& g, const float* x, const float* w, float* y, long rows_per_chunk,
                  long nb = 1, const ConvBlockEpilogue* ep = nullptr);
/// Stride-1 backward data as the forward convolution of dy with the flipped, transposed filters
/// (pad' = dilation * (filter - 1) - pad, which must be >= 0).
void ConvBwdDataIgemm(const ConvGeometry& g, float* dx, const float* w, const float* dy, long target_bytes,
                      long nb = 1);
void ConvBwdWeightsIgemm(const ConvGeometry& g, const float* x, float* dw, const float* dy,
                         long rows_per_chunk, long nb = 1);

/// fp16 / bf16 (x, w, y of one type, fp32 accumulation, the output rounded once). The packing
/// converts: the column chunk is built in fp32 from x (fp16: F16C) and the filters of a group are
/// converted once per thread, the fp32 GEMM's output tile rounded as it is stored; bf16 on a CPU
/// with AVX-512 BF16 instead keeps the chunk in bf16, packs it and the filters in K-interleaved
/// pairs and multiplies with vdpbf16ps (cpu/conv/bf16_gemm.hpp). nb > 1 runs as chunks of whole
/// images (one image per GEMM). No fp32 copy of a whole tensor.
void ConvFwdIgemm(const ConvGeometry& g, const Half* x, const Half* w, Half* y, long rows_per_chunk, long nb = 1,
                  const ConvBlockEpilogue* ep = nullptr);
void ConvFwdIgemm(const ConvGeometry& g, const BFloat16* x, const BFloat16* w, BFloat16* y, long rows_per_chunk,
                  long nb = 1, const ConvBlockEpilogue* ep = nullptr);
void ConvBwdDataIgemm(const ConvGeometry& g, Half* dx, const Half* w, const Half* dy, long target_bytes,
                      long nb = 1);
void ConvBwdDataIgemm(const ConvGeometry& g, BFloat16* dx, const BFloat16* w, const BFloat16* dy,
                      long target_bytes, long nb = 1);
/// Backward data of any stride in fp16 / bf16: per image and group, col = W^T * dy (the fp32 or
/// vdpbf16ps GEMM on panels packed from w and dy), then col2im into an fp32 image of the group's
/// channels, rounded once as it is stored into dx.
void ConvBwdDataGemmCol2Im(const ConvGeometry& g, Half* dx, const Half* w, const Half* dy);
void ConvBwdDataGemmCol2Im(const ConvGeometry& g, BFloat16* dx, const BFloat16* w, const BFloat16* dy);
void ConvBwdWeightsIgemm(const ConvGeometry& g, const Half* x, Half* dw, const Half* dy, long rows_per_chunk,
                         long nb = 1);
void ConvBwdWeightsIgemm(const ConvGeometry& g, const BFloat16* x, BFloat16* dw, const BFloat16* dy,
                         long rows_per_chunk, long nb = 1);

} // namespace miopen::cpu
