// The GEMM convolutions on the CPU (MIOpen's GEMM solvers' CPU runs, on OpenBLAS through
// cpu/blas.hpp) and their im2col / col2im. The column matrix of one image and one group has
// Cg*Fd*Fh*Fw rows (c_local, fd, fh, fw) and Od*Oh*Ow columns; out-of-image taps are 0. Packed
// tensors; `col` is the workspace (ColRows x ColCols floats), unused by the 1x1 stride-1 runs.
#pragma once

#include "conv/conv_geometry.hpp"
#include "core/storage.hpp"

namespace miopen::cpu {

/// col = im2col(x of image n, group grp).
void Im2Col(const ConvGeometry& g, const float* x, long n, long grp, float* col);
/// The columns of output rows [row_begin, row_end) only (a row is one (od, oh) pair, Ow wide):
/// a ColRows x (rows * Ow) matrix. Single-threaded: callers parallelise over chunks.
/// ld: the column matrix's row stride (default: its width, rows * Ow).
void Im2ColRows(const ConvGeometry& g, const float* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld = -1);
/// The same from fp16 / bf16 x: the packing converts to fp32 as it copies (no fp32 copy of x).
void Im2ColRows(const ConvGeometry& g, const Half* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld = -1);
void Im2ColRows(const ConvGeometry& g, const BFloat16* x, long n, long grp, long row_begin, long row_end,
                float* col, long ld = -1);
/// bf16 x into a bf16 column matrix (for the AVX-512 BF16 GEMM, cpu/conv/bf16_gemm.hpp).
void Im2ColRows(const ConvGeometry& g, const BFloat16* x, long n, long grp, long row_begin, long row_end,
                BFloat16* col, long ld = -1);
/// dx (image n, group grp) = col2im(col): every dx element of the group is written (sum of the
/// column entries that map to it, 0 where none does).
void Col2Im(const ConvGeometry& g, const float* col, long n, long grp, float* dx);

/// Rows and columns of the column matrix.
inline long ColRows(const ConvGeometry& g) { return g.cpg * g.fil[0] * g.fil[1] * g.fil[2]; }
inline long ColCols(const ConvGeometry& g) { return g.out[0] * g.out[1] * g.out[2]; }

/// Matrix views of one image n and group grp (packed tensors).
struct GemmViews
{
    const ConvGeometry& g;
    long fs() const { return g.fil[0] * g.fil[1] * g.fil[2]; }
    long os() const { return g.out[0] * g.out[1] * g.out[2]; }
    long is() const { return g.in[0] * g.in[1] * g.in[2]; }
    template <class T> T* W(T* w, long grp) const { return w + grp * g.kpg * g.ws[0]; }
    template <class T> T* X(T* x, long n, long grp) const { return x + n * g.xs[0] + grp * g.cpg * g.xs[1]; }
    template <class T> T* Y(T* y, long n, long grp) const { return y + n * g.ys[0] + grp * g.kpg * g.ys[1]; }
};

/// dx[n][g] (Cg x HW) = W[g]^T * dy[n][g] (Kg x HW), 1x1, stride 1, no padding (GemmBwd1x1_stride1).
void ConvBwdDataGemm1x1(const ConvGeometry& g, float* dx, float* w, float* dy, float* /*col*/);
/// col = W[g]^T * dy[n][g], scattered into dx[n][g] (zeros off the stride grid) (GemmBwd1x1_stride2).
void ConvBwdDataGemm1x1Strided(const ConvGeometry& g, float* dx, float* w, float* dy, float* col);
/// col = W[g]^T * dy[n][g], then dx[n][g] = col2im(col), any geometry (GemmBwdRest).
void ConvBwdDataGemm(const ConvGeometry& g, float* dx, float* w, float* dy, float* col);
/// y[n][g] (Kg x HW) = W[g] (Kg x Cg) * x[n][g] (Cg x HW), 1x1, stride 1, no padding (GemmFwd1x1_0_1).
void ConvFwdGemm1x1(const ConvGeometry& g, float* x, float* w, float* y, float* /*col*/);
/// the strided x of image n, group g gathered into col (Cg x Ho*Wo), then y[n][g] = W[g] * col (GemmFwd1x1_0_2).
void ConvFwdGemm1x1Strided(const ConvGeometry& g, float* x, float* w, float* y, float* col);
/// col = im2col(x[n][g]), then y[n][g] = W[g] * col, any geometry (GemmFwdRest).
void ConvFwdGemm(const ConvGeometry& g, float* x, float* w, float* y, float* col);
/// dW[g] (Kg x Cg) = sum over n of dy[n][g] * x[n][g]^T in image order, 1x1, stride 1, no padding
/// (GemmWrw1x1_stride1).
void ConvBwdWeightsGemm1x1(const ConvGeometry& g, float* x, float* dw, float* dy, float* /*col*/);
/// dW[g] = sum over n of dy[n][g] * im2col(x[n][g])^T in image order, any geometry (GemmWrwUniversal).
void ConvBwdWeightsGemm(const ConvGeometry& g, float* x, float* dw, float* dy, float* col);

/// The 1x1 solvers' channels-last runs (packed N, spatial, C; w: K x Cg): x, dx, y and dy are
/// matrices of pixels x channels as they lie, so stride 1 is one GEMM per group over the batch's
/// pixels and a stride > 1 one per image and group through `col` (output positions x Cg):
///   forward          y (P x Kg)  = x (P x Cg) * W[g]^T             (GemmFwd1x1_0_1, _0_2)
///   backward data    dx (P x Cg) = dy (P x Kg) * W[g]                 (GemmBwd1x1_stride1, _stride2)
///   backward weights dW[g]       = dy^T (Kg x P) * x (P x Cg)         (GemmWrw1x1_stride1)
void ConvFwdGemm1x1Nhwc(const ConvGeometry& g, float* x, float* w, float* y, float* /*col*/);
void ConvFwdGemm1x1StridedNhwc(const ConvGeometry& g, float* x, float* w, float* y, float* col);
void ConvBwdDataGemm1x1Nhwc(const ConvGeometry& g, float* dx, float* w, float* dy, float* /*col*/);
void ConvBwdDataGemm1x1StridedNhwc(const ConvGeometry& g, float* dx, float* w, float* dy, float* col);
void ConvBwdWeightsGemm1x1Nhwc(const ConvGeometry& g, float* x, float* dw, float* dy, float* /*col*/);
/// Backward weights of the strided 1x1 (GemmWrwUniversal): per group and image in order, the
/// subsampled x into col (output positions x Cg), then dW[g] += dy[n]^T * col.
void ConvBwdWeightsGemm1x1StridedNhwc(const ConvGeometry& g, float* x, float* dw, float* dy, float* col);

} // namespace miopen::cpu
