// im2col / col2im for the GEMM convolution solvers (CPU). The column matrix of one image and one
// group has Cg*Fd*Fh*Fw rows (c_local, fd, fh, fw) and Od*Oh*Ow columns; out-of-image taps are 0.
#pragma once

#include "conv/conv_geometry.hpp"

namespace miopen::cpu {

/// col = im2col(x of image n, group grp).
void Im2Col(const ConvGeometry& g, const float* x, long n, long grp, float* col);
/// The columns of output rows [row_begin, row_end) only (a row is one (od, oh) pair, Ow wide):
/// a ColRows x (rows * Ow) matrix. Single-threaded: callers parallelise over chunks.
/// ld: the column matrix's row stride (default: its width, rows * Ow).
void Im2ColRows(const ConvGeometry& g, const float* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld = -1);
/// dx (image n, group grp) = col2im(col): every dx element of the group is written (sum of the
/// column entries that map to it, 0 where none does).
void Col2Im(const ConvGeometry& g, const float* col, long n, long grp, float* dx);

/// Rows and columns of the column matrix.
inline long ColRows(const ConvGeometry& g) { return g.cpg * g.fil[0] * g.fil[1] * g.fil[2]; }
inline long ColCols(const ConvGeometry& g) { return g.out[0] * g.out[1] * g.out[2]; }

} // namespace miopen::cpu
