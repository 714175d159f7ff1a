// RNN on the CPU: forward, backward data and backward weights of vanilla (ReLU, tanh), LSTM and
// GRU stacks, uni- or bidirectional, in miopen_cy's packed row order (rnn/rnn_args.hpp). Every
// input GEMM of a layer is one GEMM over all steps; each step is one recurrent GEMM and one pass
// of gate math. Storage fp32, fp16 or bf16; the arithmetic and the reserve / workspace contents
// are fp32, rounded once to the storage type on the way out.
#include "core/storage.hpp"
#include "cpu/activation_functors.hpp" // libmvec declaration of tanhf
#include "cpu/vector_math.hpp"       // vmath::Exp
#include "cpu/blas.hpp"
#include "cpu/rnn_gemm.hpp"
#include "dropout/dropout_args.hpp"
#include "rnn/rnn_args.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace miopen::cpu {
namespace {

/// Below this many gate values per step the gate math stays on one thread (a parallel region
/// per step costs more than it saves, more so on a busy machine).
constexpr size_t kParallelGates = 65536;
/// Below this many multiply-adds a GEMM runs on the calling thread.
constexpr size_t kParallelGemm = size_t(1) << 21;

/// One row of one step's gate math: g (the input pre-activations, replaced by the activated
/// gates), r (the hidden pre-activations), y (h), e (c for LSTM, the hidden c~ part for GRU),
/// hp and cp (the previous state). SIMD loops: e^x is vmath::Exp (inlined) and tanhf libmvec's
/// vector form; a call with no vector form (expf: glibc declares its vector forms only under
/// -ffast-math) would keep the whole loop scalar, tanhf included.
inline void GateForward(int mode, int h, float* g, const float* r, float* y, float* e,
                        const float* hp, const float* cp)
{
    switch(mode)
    {
    case miopenRNNRELU:
#pragma omp simd
        for(int k = 0; k < h; ++k)
        {
            const float v = g[k] + r[k];
            const float o = v > 0.0f ? v : 0.0f;
            g[k]          = o;
            y[k]          = o;
        }
        break;
    case miopenRNNTANH:
#pragma omp simd
        for(int k = 0; k < h; ++k)
        {
            const float o = tanhf(g[k] + r[k]);
            g[k]          = o;
            y[k]          = o;
        }
        break;
    case miopenLSTM:
#pragma omp simd
        for(int k = 0; k < h; ++k)
        {
            const float i = 1.0f / (1.0f + vmath::Exp(-(g[k] + r[k])));
            const float f = 1.0f / (1.0f + vmath::Exp(-(g[h + k] + r[h + k])));
            const float o = 1.0f / (1.0f + vmath::Exp(-(g[2 * h + k] + r[2 * h + k])));
            const float c2 = tanhf(g[3 * h + k] + r[3 * h + k]);
            const float c = f * cp[k] + i * c2;
            g[k]         = i;
            g[h + k]     = f;
            g[2 * h + k] = o;
            g[3 * h + k] = c2;
            e[k]         = c;
            y[k]         = o * tanhf(c);
        }
        break;
    default:
#pragma omp simd
        for(int k = 0; k < h; ++k)
        {
            const float z  = 1.0f / (1.0f + vmath::Exp(-(g[k] + r[k])));
            const float rr = 1.0f / (1.0f + vmath::Exp(-(g[h + k] + r[h + k])));
            const float rc = r[2 * h + k];
            const float n  = tanhf(g[2 * h + k] + rr * rc);
            g[k]           = z;
            g[h + k]       = rr;
            g[2 * h + k]   = n;
            e[k]           = rc;
            y[k]           = (1.0f - z) * n + z * hp[k];
        }
        break;
    }
}


/// The parameters as fp32: the buffer itself for fp32, a converted copy otherwise.
template <class T>
const float* WeightsF(const RnnArgs& a, const T* w, std::vector<float>& tmp)
{
    if constexpr(std::is_same_v<T, float>)
        return w;
    else
    {
        tmp.resize(a.s.ParamCount());
        for(size_t i = 0; i < tmp.size(); ++i)
            tmp[i] = ToFloat(w[i]);
        return tmp.data();
    }
}

/// The user's rows (IoRow order) of width `width` into packed fp32 rows.
template <class T>
void Gather(const RnnArgs& a, const T* src, int width, float* dst)
{
    for(int t = 0; t < a.b.steps; ++t)
#pragma omp parallel for schedule(static) if(size_t(a.b.bt[t]) * width >= 16384)
        for(int j = 0; j < a.b.bt[t]; ++j)
        {
            const T* s = src + a.IoRow(t, j) * width;
            float* d   = dst + (a.b.off[t] + j) * width;
            for(int k = 0; k < width; ++k)
                d[k] = ToFloat(s[k]);
        }
}

/// Packed fp32 rows to the user's rows; padded positions get `pad` (or zero).
template <class T>
void Scatter(const RnnArgs& a, const float* src, int width, T* dst, const void* pad)
{
    if(a.io != RnnIoLayout::Packed)
    {
        T fill = FloatTo<T>(0.0f);
        if(pad != nullptr)
            std::memcpy(&fill, pad, sizeof(T));
        const size_t n = a.IoRows() * width;
        // the positions no step-slot covers: whole tensor first, then the rows overwrite it
        for(size_t i = 0; i < n; ++i)
            dst[i] = fill;
    }
    for(int t = 0; t < a.b.steps; ++t)
#pragma omp parallel for schedule(static) if(size_t(a.b.bt[t]) * width >= 16384)
        for(int j = 0; j < a.b.bt[t]; ++j)
        {
            const float* s = src + (a.b.off[t] + j) * width;
            T* d           = dst + a.IoRow(t, j) * width;
            for(int k = 0; k < width; ++k)
                d[k] = FloatTo<T>(s[k]);
        }
}

/// Row r (N x ld) += v (n values).
inline void AddRows(float* m, size_t rows, int ld, const float* v, int n)
{
#pragma omp parallel for schedule(static) if(rows * n >= 65536)
    for(size_t r = 0; r < rows; ++r)
        for(int k = 0; k < n; ++k)
            m[r * ld + k] += v[k];
}

/// dst (cols x rows) = src (rows x cols, row-major) transposed: the recurrent weights as the
/// step product's B (StepBPrepare copies it into the tiles' panels).
void TransposeTo(const float* src, size_t rows, size_t cols, std::vector<float>& dst)
{
    dst.resize(rows * cols);
    for(size_t r = 0; r < rows; ++r)
        for(size_t c = 0; c < cols; ++c)
            dst[c * rows + r] = src[r * cols + c];
}

void Gemm(bool ta, bool tb, size_t m, size_t n, size_t k, const float* A, size_t lda,
          const float* B, size_t ldb, float beta, float* C, size_t ldc)
{
    if(m == 0 || n == 0)
        return;
    if(k == 0)
    {
        if(beta == 0.0f)
            for(size_t i = 0; i < m; ++i)
                std::fill(C + i * ldc, C + i * ldc + n, 0.0f);
        return;
    }
    if(m * n * k < kParallelGemm)
        Sgemm(ta, tb, int(m), int(n), int(k), 1.0f, A, int(lda), B, int(ldb), beta, C, int(ldc));
    else
        SgemmParallel(ta, tb, int(m), int(n), int(k), 1.0f, A, int(lda), B, int(ldb), beta, C,
                      int(ldc));
}

/// The initial state of layer-direction li for every slot: hx (or zero) as user_batch x h fp32.
template <class T>
void LoadInit(const RnnArgs& a, const T* hx, int li, float* dst)
{
    const int h = a.s.h;
    for(int j = 0; j < a.b.user_batch; ++j)
        for(int k = 0; k < h; ++k)
            dst[size_t(j) * h + k] =
                hx == nullptr ? 0.0f
                              : ToFloat(hx[(size_t(li) * a.b.user_batch + a.b.perm[j]) * h + k]);
}

/// The previous state of slot j at step t in direction d: a row of `m` (N x ld, this direction's
/// h columns at col), or the initial state.
inline const float* PrevRow(const RnnArgs& a, int d, int t, int j, const float* m, size_t ld,
                            size_t col, const float* init)
{
    const int h = a.s.h;
    if(d == 0)
        return t > 0 ? m + (a.b.off[t - 1] + j) * ld + col : init + size_t(j) * h;
    if(t + 1 < a.b.steps && j < a.b.bt[t + 1])
        return m + (a.b.off[t + 1] + j) * ld + col;
    return init + size_t(j) * h;
}

/// Step t's previous states of its Bt batch slots, direction d, gathered into HP (and CP for
/// LSTM): rows of Y / E (ld Hb, the direction's columns) or the initial states.
inline void GatherPrev(const RnnArgs& a, int d, int t, int Bt, const float* Y, const float* E,
                       size_t Hb, const float* hinit, const float* cinit, bool lstm, float* HP,
                       float* CP)
{
    const size_t h = size_t(a.s.h);
    for(int j = 0; j < Bt; ++j)
    {
        std::memcpy(HP + size_t(j) * h, PrevRow(a, d, t, j, Y, Hb, size_t(d) * h, hinit),
                    sizeof(float) * h);
        if(lstm)
            std::memcpy(CP + size_t(j) * h, PrevRow(a, d, t, j, E, Hb, size_t(d) * h, cinit),
                        sizeof(float) * h);
    }
}

/// Writes `v` (per slot, h values) as state li of the user's batch entries to out (may be null).
template <class T>
void StoreState(const RnnArgs& a, int li, int j, const float* v, T* out)
{
    if(out == nullptr)
        return;
    const int h = a.s.h;
    T* o        = out + (size_t(li) * a.b.user_batch + a.b.perm[j]) * h;
    for(int k = 0; k < h; ++k)
        o[k] = FloatTo<T>(v[k]);
}

/// Entries of the user's batch that no slot holds (none: perm covers every entry, lengths 0
/// included) need nothing; slots of length 0 keep their initial state.
/// One row of one step's gate math, backward: dh = dy + the carried dh; writes the
/// pre-activation gradients dg (input side), for GRU drc (the hidden c~ side) and dr (the hidden
/// side, nG h) and the direct z path into dh; dc carries dc (LSTM).
inline void GateBackward(int mode, int h, const float* gs, const float* y, const float* e,
                         const float* dy, float* dh, float* dc, const float* hp, const float* cp,
                         float* dg, float* drc, float* dr)
{
    switch(mode)
    {
    case miopenRNNRELU:
#pragma omp simd
        for(int k = 0; k < h; ++k)
            dg[k] = y[k] > 0.0f ? dy[k] + dh[k] : 0.0f;
        break;
    case miopenRNNTANH:
#pragma omp simd
        for(int k = 0; k < h; ++k)
            dg[k] = (dy[k] + dh[k]) * (1.0f - y[k] * y[k]);
        break;
    case miopenLSTM:
#pragma omp simd
        for(int k = 0; k < h; ++k)
        {
            const float g_h = dy[k] + dh[k];
            const float i = gs[k], f = gs[h + k], o = gs[2 * h + k], c2 = gs[3 * h + k];
            const float tc  = tanhf(e[k]);
            const float dct = dc[k] + g_h * o * (1.0f - tc * tc);
            dg[k]           = dct * c2 * i * (1.0f - i);
            dg[h + k]       = dct * cp[k] * f * (1.0f - f);
            dg[2 * h + k]   = g_h * tc * o * (1.0f - o);
            dg[3 * h + k]   = dct * i * (1.0f - c2 * c2);
            dc[k]           = dct * f;
        }
        break;
    default:
#pragma omp simd
        for(int k = 0; k < h; ++k)
        {
            const float g_h = dy[k] + dh[k];
            const float z = gs[k], rr = gs[h + k], n = gs[2 * h + k];
            const float dn = g_h * (1.0f - z) * (1.0f - n * n);
            const float dz = g_h * (hp[k] - n) * z * (1.0f - z);
            const float dq = dn * e[k] * rr * (1.0f - rr);
            dg[k]          = dz;
            dg[h + k]      = dq;
            dg[2 * h + k]  = dn;
            drc[k]         = dn * rr;
            dr[k]          = dz;
            dr[h + k]      = dq;
            dr[2 * h + k]  = dn * rr;
            dh[k]          = g_h * z; // the direct path; the GEMM adds on
        }
        break;
    }
}

} // namespace

template <class T>
void RnnForward(const RnnArgs& a, const T* x, const T* hx, const T* cx, const T* w, T* y, T* hy,
                T* cy, void* workspace, void* reserve)
{
    const RnnShape& s  = a.s;
    const RnnSpace& sp = a.sp;
    std::vector<float> wtmp;
    const float* W = WeightsF(a, w, wtmp);
    float* ws      = static_cast<float*>(workspace);
    float* store   = a.training ? static_cast<float*>(reserve) : ws;
    const size_t N = a.b.rows;
    const int h = s.h, nG = s.n_gate, T_ = a.b.steps, B0 = a.b.user_batch; // buffers for every slot
    const size_t Hb = sp.Hb(), Gw = s.GateWidth();
    float* X = ws + sp.Xin();
    Gather(a, x, s.in, X);
    float* R     = ws + sp.StepR();
    float* hinit = ws + sp.StepH();
    float* cinit = hinit + size_t(B0) * h;
    float* HP    = cinit + size_t(B0) * h;
    float* CP    = HP + size_t(B0) * h;
    const bool drop = a.training && sp.dropout;
    std::vector<float> WhidT; // the step's weights transposed (h x nG h), once a layer-direction
    StepB SB;                 // ... as the step products' B

    for(int l = 0; l < s.layers; ++l)
    {
        const float* Lin = X;
        const int in_w   = s.InWidth(l);
        if(l > 0)
        {
            Lin = store + sp.Y(l - 1);
            if(drop)
            {
                DropoutArgs da;
                da.ndim       = 1;
                da.numel      = int64_t(N * Hb);
                da.lens[0]    = da.numel;
                da.in_strides[0] = da.out_strides[0] = 1;
                da.packed     = true;
                da.rate       = a.dropout;
                da.scale      = a.dropout == 1.0f ? 0.0f : 1.0f / (1.0f - a.dropout);
                da.write_mask = true;
                auto* mask = reinterpret_cast<uint8_t*>(reserve) + sp.MaskByte(l);
                cpu::Dropout<float>(da, Lin, store + sp.DropIn(l), mask, a.seed,
                                    a.offset + uint64_t(l - 1));
                Lin = store + sp.DropIn(l);
            }
        }
        float* G = store + sp.Gates(l);
        float* Y = store + sp.Y(l);
        float* E = store + sp.Extra(l);
        if(l == 0 && s.skip)
        {
#pragma omp parallel for schedule(static) if(N * Gw >= 65536)
            for(size_t r = 0; r < N; ++r)
                for(size_t g = 0; g < size_t(s.bi) * nG; ++g)
                    std::memcpy(G + r * Gw + g * h, X + r * s.in, sizeof(float) * h);
        }
        else
            Gemm(false, true, N, Gw, s.InLen(l), Lin, in_w, W + s.WinOffset(l), s.InLen(l), 0.0f,
                 G, Gw);
        if(s.bias)
            AddRows(G, N, int(Gw), W + s.BinOffset(l), int(Gw));

        for(int d = 0; d < s.bi; ++d)
        {
            const int li       = l * s.bi + d;
            const float* Whid  = W + s.WhidOffset(l, d);
            const float* bhid  = s.bias ? W + s.BhidOffset(l, d) : nullptr;
            LoadInit(a, hx, li, hinit);
            if(nG == 4)
                LoadInit(a, cx, li, cinit);
            TransposeTo(Whid, size_t(nG) * h, h, WhidT);
            StepBPrepare(nG * h, h, WhidT.data(), nG * h, SB);
            for(int st = 0; st < T_; ++st)
            {
                const int t  = d == 0 ? st : T_ - 1 - st;
                const int Bt = a.b.bt[t];
                const size_t r0 = a.b.off[t];
                GatherPrev(a, d, t, Bt, Y, E, Hb, hinit, cinit, nG == 4, HP, CP);
                StepGemm(Bt, SB, HP, h, false, R, nG * h);
                if(bhid != nullptr)
                    AddRows(R, Bt, nG * h, bhid, nG * h);
                const int mode = s.mode;
#pragma omp parallel for schedule(static) if(size_t(Bt) * h * nG >= kParallelGates)
                for(int j = 0; j < Bt; ++j)
                {
                    const size_t row = r0 + j;
                    GateForward(mode, h, G + row * Gw + size_t(d) * nG * h, R + size_t(j) * nG * h,
                                Y + row * Hb + size_t(d) * h, E + row * Hb + size_t(d) * h,
                                HP + size_t(j) * h, CP + size_t(j) * h);
                }
            }
            // final states
            for(int j = 0; j < a.b.user_batch; ++j)
            {
                const int len = a.b.len[j];
                if(len == 0)
                {
                    StoreState(a, li, j, hinit + size_t(j) * h, hy);
                    if(nG == 4)
                        StoreState(a, li, j, cinit + size_t(j) * h, cy);
                    continue;
                }
                const int t     = d == 0 ? len - 1 : 0;
                const size_t row = a.b.off[t] + j;
                StoreState(a, li, j, Y + row * Hb + size_t(d) * h, hy);
                if(nG == 4)
                    StoreState(a, li, j, E + row * Hb + size_t(d) * h, cy);
            }
        }
    }
    Scatter(a, store + sp.Y(s.layers - 1), int(Hb), y, a.pad_marker);
}

template <class T>
void RnnBackwardData(const RnnArgs& a, const T* dy, const T* dhy, const T* dcy, const T* hx,
                     const T* cx, const T* w, T* dx, T* dhx, T* dcx, void* workspace,
                     const void* reserve)
{
    const RnnShape& s  = a.s;
    const RnnSpace& sp = a.sp;
    std::vector<float> wtmp;
    const float* W     = WeightsF(a, w, wtmp);
    float* ws          = static_cast<float*>(workspace);
    const float* store = static_cast<const float*>(reserve);
    const size_t N     = a.b.rows;
    const int h = s.h, nG = s.n_gate, T_ = a.b.steps, B0 = a.b.user_batch; // buffers for every slot
    const size_t Hb = sp.Hb(), Gw = s.GateWidth();
    float* dYcur = ws + sp.DYa();
    float* dYnext = ws + sp.DYb();
    Gather(a, dy, int(Hb), dYcur);
    float* R     = ws + sp.StepR();
    float* DH    = ws + sp.StepH();
    float* DC    = DH + size_t(B0) * h;
    float* HP    = DC + size_t(B0) * h;
    float* CP    = HP + size_t(B0) * h;
    float* hinit = CP + size_t(B0) * h;
    float* cinit = hinit + size_t(B0) * h;

    for(int l = s.layers - 1; l >= 0; --l)
    {
        float* dG        = ws + sp.DG(l);
        float* dRc       = ws + sp.DRc(l);
        const float* Y   = store + sp.Y(l);
        const float* Gs  = store + sp.Gates(l);
        const float* E   = store + sp.Extra(l);
        for(int d = 0; d < s.bi; ++d)
        {
            const int li      = l * s.bi + d;
            const float* Whid = W + s.WhidOffset(l, d);
            StepB SB; // W_hid (nG h x h) as the step products' B
            StepBPrepare(h, nG * h, Whid, h, SB);
            LoadInit(a, hx, li, hinit);
            if(nG == 4)
                LoadInit(a, cx, li, cinit);
            // slots of length 0: the state passes through
            for(int j = 0; j < a.b.user_batch; ++j)
                if(a.b.len[j] == 0)
                {
                    std::vector<float> z(h, 0.0f);
                    const T* src = dhy ? dhy + (size_t(li) * a.b.user_batch + a.b.perm[j]) * h : nullptr;
                    for(int k = 0; k < h; ++k)
                        z[k] = src ? ToFloat(src[k]) : 0.0f;
                    StoreState(a, li, j, z.data(), dhx);
                    if(nG == 4)
                    {
                        const T* c = dcy ? dcy + (size_t(li) * a.b.user_batch + a.b.perm[j]) * h : nullptr;
                        for(int k = 0; k < h; ++k)
                            z[k] = c ? ToFloat(c[k]) : 0.0f;
                        StoreState(a, li, j, z.data(), dcx);
                    }
                }
            auto start = [&](int j) {
                for(int k = 0; k < h; ++k)
                {
                    const size_t o = (size_t(li) * a.b.user_batch + a.b.perm[j]) * h + k;
                    DH[size_t(j) * h + k] = dhy ? ToFloat(dhy[o]) : 0.0f;
                    DC[size_t(j) * h + k] = dcy ? ToFloat(dcy[o]) : 0.0f;
                }
            };
            for(int st = 0; st < T_; ++st)
            {
                const int t     = d == 0 ? T_ - 1 - st : st;
                const int Bt    = a.b.bt[t];
                const size_t r0 = a.b.off[t];
                // slots whose last step (in this direction) is t start from dhy / dcy
                if(d == 0)
                {
                    const int from = t + 1 < T_ ? a.b.bt[t + 1] : 0;
                    for(int j = from; j < Bt; ++j)
                        start(j);
                }
                else if(st == 0)
                    for(int j = 0; j < Bt; ++j)
                        start(j);
                GatherPrev(a, d, t, Bt, Y, E, Hb, hinit, cinit, nG == 4, HP, CP);
                const int mode = s.mode;
#pragma omp parallel for schedule(static) if(size_t(Bt) * h * nG >= kParallelGates)
                for(int j = 0; j < Bt; ++j)
                {
                    const size_t row = r0 + j;
                    GateBackward(mode, h, Gs + row * Gw + size_t(d) * nG * h,
                                 Y + row * Hb + size_t(d) * h, E + row * Hb + size_t(d) * h,
                                 dYcur + row * Hb + size_t(d) * h, DH + size_t(j) * h,
                                 DC + size_t(j) * h, HP + size_t(j) * h, CP + size_t(j) * h,
                                 dG + row * Gw + size_t(d) * nG * h,
                                 dRc + row * Hb + size_t(d) * h, R + size_t(j) * nG * h);
                }
                // dh_prev = dR @ W_hid
                if(nG == 3)
                    StepGemm(Bt, SB, R, nG * h, true, DH, h);
                else
                    StepGemm(Bt, SB, dG + r0 * Gw + size_t(d) * nG * h, int(Gw), false, DH, h);
                // slots whose first step (in this direction) is t hand their gradient to dhx / dcx
                int from = 0;
                if(d == 0)
                    from = t == 0 ? 0 : Bt;
                else
                    from = t + 1 < T_ ? a.b.bt[t + 1] : 0;
                for(int j = from; j < Bt; ++j)
                {
                    StoreState(a, li, j, DH + size_t(j) * h, dhx);
                    if(nG == 4)
                        StoreState(a, li, j, DC + size_t(j) * h, dcx);
                }
            }
        }
        // the gradient of the layer's input
        if(l > 0)
        {
            Gemm(false, false, N, Hb, Gw, dG, Gw, W + s.WinOffset(l), Hb, 0.0f, dYnext, Hb);
            if(sp.dropout)
            {
                const auto* mask =
                    reinterpret_cast<const uint8_t*>(reserve) + sp.MaskByte(l);
                const float scale = a.dropout == 1.0f ? 0.0f : 1.0f / (1.0f - a.dropout);
#pragma omp parallel for schedule(static) if(N * Hb >= 65536)
                for(size_t i = 0; i < N * Hb; ++i)
                    dYnext[i] = mask[i] ? dYnext[i] * scale : 0.0f;
            }
            std::swap(dYcur, dYnext);
        }
        else
        {
            float* DX = ws + sp.Xin();
            if(s.skip)
            {
#pragma omp parallel for schedule(static) if(N * Gw >= 65536)
                for(size_t r = 0; r < N; ++r)
                    for(int k = 0; k < h; ++k)
                    {
                        float acc = 0.0f;
                        for(size_t g = 0; g < size_t(s.bi) * nG; ++g)
                            acc += dG[r * Gw + g * h + k];
                        DX[r * s.in + k] = acc;
                    }
            }
            else
                Gemm(false, false, N, s.in, Gw, dG, Gw, W + s.WinOffset(0), s.in, 0.0f, DX, s.in);
            Scatter(a, DX, s.in, dx, a.pad_marker_x);
        }
    }
}

template <class T>
void RnnBackwardWeights(const RnnArgs& a, const T* x, const T* hx, T* dw, void* workspace,
                        const void* reserve)
{
    const RnnShape& s  = a.s;
    const RnnSpace& sp = a.sp;
    float* ws          = static_cast<float*>(workspace);
    const float* store = static_cast<const float*>(reserve);
    const size_t N     = a.b.rows;
    const int h = s.h, nG = s.n_gate, T_ = a.b.steps;
    const size_t Hb = sp.Hb(), Gw = s.GateWidth();
    std::vector<float> dW(s.ParamCount(), 0.0f);
    float* X = ws + sp.Xin();
    Gather(a, x, s.in, X);
    float* HPall = ws + sp.Hprev();
    float* hinit = ws + sp.StepH();
    for(int l = 0; l < s.layers; ++l)
    {
        const float* Lin = l == 0 ? X : store + (sp.dropout ? sp.DropIn(l) : sp.Y(l - 1));
        const float* dG  = ws + sp.DG(l);
        const float* dRc = ws + sp.DRc(l);
        const float* Y   = store + sp.Y(l);
        if(!(l == 0 && s.skip))
            Gemm(true, false, Gw, s.InLen(l), N, dG, Gw, Lin, s.InWidth(l), 0.0f,
                 dW.data() + s.WinOffset(l), s.InLen(l));
        if(s.bias)
        {
            float* db = dW.data() + s.BinOffset(l);
            for(size_t r = 0; r < N; ++r)
                for(size_t c = 0; c < Gw; ++c)
                    db[c] += dG[r * Gw + c];
        }
        for(int d = 0; d < s.bi; ++d)
        {
            const int li = l * s.bi + d;
            LoadInit(a, hx, li, hinit);
            for(int t = 0; t < T_; ++t)
                for(int j = 0; j < a.b.bt[t]; ++j)
                    std::memcpy(HPall + (a.b.off[t] + j) * h,
                                PrevRow(a, d, t, j, Y, Hb, size_t(d) * h, hinit), sizeof(float) * h);
            float* dWh = dW.data() + s.WhidOffset(l, d);
            const float* dgd = dG + size_t(d) * nG * h;
            if(nG == 3)
            {
                Gemm(true, false, 2 * size_t(h), h, N, dgd, Gw, HPall, h, 0.0f, dWh, h);
                Gemm(true, false, h, h, N, dRc + size_t(d) * h, Hb, HPall, h, 0.0f,
                     dWh + 2 * size_t(h) * h, h);
            }
            else
                Gemm(true, false, size_t(nG) * h, h, N, dgd, Gw, HPall, h, 0.0f, dWh, h);
            if(s.bias)
            {
                float* db = dW.data() + s.BhidOffset(l, d);
                for(size_t r = 0; r < N; ++r)
                {
                    const float* src = dgd + r * Gw;
                    const int plain  = nG == 3 ? 2 * h : nG * h;
                    for(int c = 0; c < plain; ++c)
                        db[c] += src[c];
                    if(nG == 3)
                        for(int k = 0; k < h; ++k)
                            db[2 * h + k] += dRc[r * Hb + size_t(d) * h + k];
                }
            }
        }
    }
    for(size_t i = 0; i < dW.size(); ++i)
        dw[i] = FloatTo<T>(dW[i]);
}

#define MIOPEN_CY_RNN_INSTANTIATE(T)                                                          \
    template void RnnForward<T>(const RnnArgs&, const T*, const T*, const T*, const T*, T*,  \
                                T*, T*, void*, void*);                                        \
    template void RnnBackwardData<T>(const RnnArgs&, const T*, const T*, const T*, const T*, \
                                     const T*, const T*, T*, T*, T*, void*, const void*);     \
    template void RnnBackwardWeights<T>(const RnnArgs&, const T*, const T*, T*, void*,        \
                                        const void*);
MIOPEN_CY_RNN_INSTANTIATE(float)
MIOPEN_CY_RNN_INSTANTIATE(Half)
MIOPEN_CY_RNN_INSTANTIATE(BFloat16)

} // namespace miopen::cpu
