// The GPU RNN: the CPU kernel's algorithm (cpu/rnn.cpp) on the handle's stream. A layer's input
// GEMM over all steps and both directions is one LaunchSgemm; each step is one recurrent
// product reading the previous step's rows of the output in place (two where a reverse step
// adds sequences, whose state is the initial one), split over k through the workspace
// (LaunchSgemmSplitK: a 64 x 4096 output is too few tiles for the GPU) with the parts added in
// order by the gate kernel (rnn.hip; the split's reduction fused into the gate pass); backward
// the same in reverse (the carried gradient's parts added by the next step's gate pass), dW one
// GEMM per matrix over all steps. Every intermediate is fp32 in the workspace / reserve space (rnn_args.hpp's
// layouts, the CPU's); fp16 / bf16 parameters are staged through fp32 in the workspace (Wf) and
// their dW computed there and rounded once. The index arrays the kernels read (rows of the user's
// tensors, previous rows, slots, the batch order, final rows) are built on the host and copied
// into the workspace at the start of each call.
#include "dropout/dropout_args.hpp"
#include "gemm/sgemm_args.hpp"
#include "kernels/common/launch_common.hpp"
#include "kernels/rnn/rnn_kernels.hpp"
#include "rnn/rnn_args.hpp"

#include <cstring>
#include <utility>
#include <type_traits>
#include <vector>

namespace miopen::gpu {
namespace {

/// Device pointers of the index arrays in the workspace (RnnSpace::Index()).
struct RnnIndex
{
    const int64_t* io_row = nullptr; // N: the user's row of each packed row
    const int32_t* prev[2] = {};     // N per direction: the previous row, -1 for the initial state
    const int32_t* slot = nullptr;   // N: the slot of each row
    const int32_t* perm = nullptr;   // ub: slot -> user batch entry
    const int32_t* fin[2] = {};      // ub per direction: the final row, -1 for length 0
    DropoutState* drop = nullptr;    // per layer above 0
};

/// Builds the index arrays on the host and copies them into the workspace (synchronously).
RnnIndex UploadIndex(Handle& h, const RnnArgs& a, float* ws)
{
    const auto& b  = a.b;
    const size_t N = b.rows, ub = size_t(b.user_batch);
    std::vector<int64_t> io_row(N);
    std::vector<int32_t> ints(3 * N + 3 * ub);
    int32_t* prev0 = ints.data();
    int32_t* prev1 = prev0 + N;
    int32_t* slot  = prev1 + N;
    int32_t* perm  = slot + N;
    int32_t* fin0  = perm + ub;
    int32_t* fin1  = fin0 + ub;
    for(int t = 0; t < b.steps; ++t)
        for(int j = 0; j < b.bt[t]; ++j)
        {
            const size_t r = b.off[t] + j;
            io_row[r]      = static_cast<int64_t>(a.IoRow(t, j));
            prev0[r]       = t > 0 ? int32_t(b.off[t - 1] + j) : -1;
            prev1[r]       = (t + 1 < b.steps && j < b.bt[t + 1]) ? int32_t(b.off[t + 1] + j) : -1;
            slot[r]        = j;
        }
    for(size_t j = 0; j < ub; ++j)
    {
        perm[j]       = b.perm[j];
        const int len = b.len[j];
        fin0[j]       = len > 0 ? int32_t(b.off[len - 1] + j) : -1;
        fin1[j]       = len > 0 ? int32_t(j) : -1;
    }
    char* base = reinterpret_cast<char*>(ws + a.sp.Index());
    DeviceScope scope(h.Ordinal());
    Copy(base, io_row.data(), N * sizeof(int64_t), h.Stream());
    Copy(base + N * sizeof(int64_t), ints.data(), ints.size() * sizeof(int32_t), h.Stream());
    RnnIndex x;
    x.io_row  = reinterpret_cast<const int64_t*>(base);
    const auto* i32 = reinterpret_cast<const int32_t*>(base + N * sizeof(int64_t));
    x.prev[0] = i32;
    x.prev[1] = i32 + N;
    x.slot    = i32 + 2 * N;
    x.perm    = i32 + 3 * N;
    x.fin[0]  = x.perm + ub;
    x.fin[1]  = x.fin[0] + ub;
    const size_t used = N * sizeof(int64_t) + ints.size() * sizeof(int32_t);
    x.drop = reinterpret_cast<DropoutState*>(base + (used + 31) / 32 * 32);
    return x;
}

Launch ColumnSumGrid(const Handle& h, int64_t n)
{
    return On(h, D1(CeilDiv(n > 0 ? n : 1, 32)), D2(32, kRnnColLanes));
}

/// The value a padded row of y or dx is filled with: the descriptor's padding marker (one
/// element of T), else 0.
template <class T>
float PadValue(const void* marker)
{
    if(marker == nullptr)
        return 0.0f;
    T v;
    std::memcpy(&v, marker, sizeof v);
    return ToFloat(v);
}

Launch Grid(const Handle& h, int64_t work)
{
    return On(h, D1(GridStrideBlocks(h, work > 0 ? work : 1, kRnnThreads)), D1(kRnnThreads));
}

/// The SGEMM's arguments of one row-major product C = op(A) op(B).
SgemmArgs ProductArgs(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* A,
                      int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc)
{
    SgemmArgs g;
    g.trans_a = ta;
    g.trans_b = tb;
    g.m       = static_cast<int>(m);
    g.n       = static_cast<int>(n);
    g.k       = static_cast<int>(k);
    g.a       = A;
    g.lda     = lda;
    g.b       = B;
    g.ldb     = ldb;
    g.c       = C;
    g.ldc     = ldc;
    return g;
}

void Gemm(Handle& h, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* A,
          int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc)
{
    if(m <= 0 || n <= 0)
        return;
    LaunchSgemm(ProductArgs(ta, tb, m, n, k, A, lda, B, ldb, C, ldc), h.Stream());
}

/// The split region of the workspace (RnnSpace::Split()): the step products' partial sums.
struct SplitRoom
{
    float* p      = nullptr;
    size_t floats = 0;
};

/// A per-step product (a small m x n output over a long k) split over k through the workspace's
/// split region (LaunchSgemmSplitK): reduce: the parts added into C by the split's reduction;
/// else left in the region for the gate kernel to add (C untouched). Returns the parts (1: C
/// written directly).
int StepGemm(Handle& h, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* A,
             int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc, const SplitRoom& room,
             bool reduce)
{
    if(m <= 0 || n <= 0)
        return 1;
    return LaunchSgemmSplitK(ProductArgs(ta, tb, m, n, k, A, lda, B, ldb, C, ldc), room.p,
                             room.floats, reduce, h.Stream());
}

/// The parameters as fp32: w itself for fp32, else converted into the workspace's Wf.
template <class T>
const float* WeightsF(Handle& h, const RnnArgs& a, const T* w, float* ws)
{
    if constexpr(std::is_same_v<T, float>)
        return w;
    else
    {
        float* wf     = ws + a.sp.Wf();
        const auto n  = static_cast<int64_t>(a.s.ParamCount());
        LaunchRnnToFloat<T>(Grid(h, n), w, n, wf);
        CheckLaunch("miopenRNN (parameters to fp32)");
        return wf;
    }
}

} // namespace

template <class T>
void RnnForward(Handle& h, const RnnArgs& a, const T* x, const T* hx, const T* cx, const T* w,
                T* y, T* hy, T* cy, void* workspace, void* reserve)
{
    DeviceScope scope(h.Ordinal());
    const RnnShape& s  = a.s;
    const RnnSpace& sp = a.sp;
    float* ws          = static_cast<float*>(workspace);
    float* store       = a.training ? static_cast<float*>(reserve) : ws;
    const RnnIndex ix  = UploadIndex(h, a, ws);
    const float* W     = WeightsF(h, a, w, ws);
    const int64_t N    = static_cast<int64_t>(a.b.rows);
    const int h_ = s.h, nG = s.n_gate, T_ = a.b.steps, ub = a.b.user_batch;
    const int64_t Hb = static_cast<int64_t>(sp.Hb()), Gw = static_cast<int64_t>(s.GateWidth());
    float* X     = ws + sp.Xin();
    float* R     = ws + sp.StepR();
    float* hinit = ws + sp.StepH();
    float* cinit = hinit + size_t(ub) * h_;
    const SplitRoom room{ws + sp.Split(), sp.SplitFloats()};
    LaunchRnnGather<T>(Grid(h, N * s.in), x, s.in, ix.io_row, N, X);
    const bool drop = a.training && sp.dropout && s.layers > 1;
    if(drop)
    {
        // a generator state per layer above 0 (the kernels read seed and offset on the device)
        std::vector<DropoutState> per(size_t(s.layers - 1));
        for(int l = 1; l < s.layers; ++l)
        {
            per[l - 1].magic   = kDropoutStateMagic;
            per[l - 1].version = kDropoutStateVersion;
            per[l - 1].seed    = a.seed;
            per[l - 1].offset  = a.offset + uint64_t(l - 1);
        }
        Copy(ix.drop, per.data(), per.size() * sizeof(DropoutState), h.Stream());
    }
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
                da.ndim          = 1;
                da.numel         = N * Hb;
                da.lens[0]       = da.numel;
                da.in_strides[0] = da.out_strides[0] = 1;
                da.packed        = true;
                da.rate          = a.dropout;
                da.scale         = a.dropout == 1.0f ? 0.0f : 1.0f / (1.0f - a.dropout);
                da.write_mask    = true;
                auto* mask = reinterpret_cast<uint8_t*>(reserve) + sp.MaskByte(l);
                Dropout<float>(h, da, Lin, store + sp.DropIn(l), mask, ix.drop + (l - 1), false,
                               false);
                Lin = store + sp.DropIn(l);
            }
        }
        float* G = store + sp.Gates(l);
        float* Y = store + sp.Y(l);
        float* E = store + sp.Extra(l);
        if(l == 0 && s.skip)
            LaunchRnnSkipInput(Grid(h, N * Gw), X, N, h_, s.bi * nG, G, Gw);
        else
            Gemm(h, false, true, N, Gw, s.InLen(l), Lin, in_w, W + s.WinOffset(l), s.InLen(l), G,
                 Gw);
        if(s.bias)
            LaunchRnnAddBias(Grid(h, N * Gw), G, N, Gw, W + s.BinOffset(l), static_cast<int>(Gw));
        CheckLaunch("miopenRNNForward (input)");
        for(int d = 0; d < s.bi; ++d)
        {
            const int li      = l * s.bi + d;
            const float* Whid = W + s.WhidOffset(l, d);
            const float* bhid = s.bias ? W + s.BhidOffset(l, d) : nullptr;
            LaunchRnnLoadInit<T>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, hinit);
            if(nG == 4)
                LaunchRnnLoadInit<T>(Grid(h, int64_t(ub) * h_), cx, li, ub, ix.perm, h_, cinit);
            for(int step = 0; step < T_; ++step)
            {
                const int t     = d == 0 ? step : T_ - 1 - step;
                const int bt    = a.b.bt[t];
                const int64_t r0 = static_cast<int64_t>(a.b.off[t]);
                // R = h_prev @ W_hid^T, h_prev read in place: the rows of the step before (in
                // this direction) in Y, then, for the slots that start here, the initial state
                const int64_t ng_h = int64_t(nG) * h_;
                int cont           = 0; // slots whose previous state is a row of Y
                const float* prevY = nullptr;
                if(d == 0 && t > 0)
                {
                    cont  = bt;
                    prevY = Y + static_cast<int64_t>(a.b.off[t - 1]) * Hb + d * h_;
                }
                else if(d == 1 && t + 1 < T_)
                {
                    cont  = a.b.bt[t + 1];
                    prevY = Y + static_cast<int64_t>(a.b.off[t + 1]) * Hb + d * h_;
                }
                // One product (every slot continues, or none does): split over k with its parts
                // left for the gate kernel to add (the reduction fused into the gate pass). Two
                // (a reverse step where sequences start): each split and reduced into R.
                int parts         = 1;
                const float* Rsum = R;
                if(cont == bt || cont == 0)
                {
                    const float* A    = cont > 0 ? prevY : hinit;
                    const int64_t lda = cont > 0 ? Hb : h_;
                    parts = StepGemm(h, false, true, bt, ng_h, h_, A, lda, Whid, h_, R, ng_h, room,
                                     false);
                    if(parts > 1)
                        Rsum = room.p;
                }
                else
                {
                    StepGemm(h, false, true, cont, ng_h, h_, prevY, Hb, Whid, h_, R, ng_h, room,
                             true);
                    StepGemm(h, false, true, bt - cont, ng_h, h_, hinit + int64_t(cont) * h_, h_,
                             Whid, h_, R + cont * ng_h, ng_h, room, true);
                }
                LaunchRnnGateForward(Grid(h, int64_t(bt) * h_), s.mode, h_, bt, r0, G, Gw,
                                     d * nG * h_, Rsum, parts, int64_t(bt) * ng_h, bhid, Y, E, Hb,
                                     d * h_, ix.prev[d], hinit, cinit);
            }
            CheckLaunch("miopenRNNForward (steps)");
            if(hy != nullptr)
                LaunchRnnStoreState<T>(Grid(h, int64_t(ub) * h_), Y, Hb, d * h_, ix.fin[d], hinit,
                                       li, ub, ix.perm, h_, hy);
            if(nG == 4 && cy != nullptr)
                LaunchRnnStoreState<T>(Grid(h, int64_t(ub) * h_), E, Hb, d * h_, ix.fin[d], cinit,
                                       li, ub, ix.perm, h_, cy);
        }
    }
    if(a.io != RnnIoLayout::Packed)
    {
        const auto n = static_cast<int64_t>(a.IoRows()) * Hb;
        LaunchRnnFill<T>(Grid(h, n), y, n, PadValue<T>(a.pad_marker));
    }
    LaunchRnnScatter<T>(Grid(h, N * Hb), store + sp.Y(s.layers - 1), static_cast<int>(Hb),
                        ix.io_row, N, y);
    CheckLaunch("miopenRNNForward (output)");
}

template <class T>
void RnnBackwardData(Handle& h, const RnnArgs& a, const T* dy, const T* dhy, const T* dcy,
                     const T* hx, const T* cx, const T* w, T* dx, T* dhx, T* dcx,
                     void* workspace, const void* reserve)
{
    DeviceScope scope(h.Ordinal());
    const RnnShape& s  = a.s;
    const RnnSpace& sp = a.sp;
    float* ws          = static_cast<float*>(workspace);
    const float* store = static_cast<const float*>(reserve);
    const RnnIndex ix  = UploadIndex(h, a, ws);
    const float* W     = WeightsF(h, a, w, ws);
    const int64_t N    = static_cast<int64_t>(a.b.rows);
    const int h_ = s.h, nG = s.n_gate, T_ = a.b.steps, ub = a.b.user_batch, B0 = a.b.B0();
    const int64_t Hb = static_cast<int64_t>(sp.Hb()), Gw = static_cast<int64_t>(s.GateWidth());
    float* dYcur  = ws + sp.DYa();
    float* dYnext = ws + sp.DYb();
    LaunchRnnGather<T>(Grid(h, N * Hb), dy, static_cast<int>(Hb), ix.io_row, N, dYcur);
    float* R     = ws + sp.StepR();
    float* DH    = ws + sp.StepH();
    float* DC    = DH + size_t(ub) * h_;
    float* hinit = DC + size_t(ub) * h_;
    float* cinit = hinit + size_t(ub) * h_;
    float* DHD   = cinit + size_t(ub) * h_; // the direct (z) part of GRU's carried gradient
    const SplitRoom room{ws + sp.Split(), sp.SplitFloats()};
    for(int l = s.layers - 1; l >= 0; --l)
    {
        float* dG       = ws + sp.DG(l);
        float* dRc      = ws + sp.DRc(l);
        const float* Y  = store + sp.Y(l);
        const float* Gs = store + sp.Gates(l);
        const float* E  = store + sp.Extra(l);
        for(int d = 0; d < s.bi; ++d)
        {
            const int li      = l * s.bi + d;
            const float* Whid = W + s.WhidOffset(l, d);
            LaunchRnnLoadInit<T>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, hinit);
            if(nG == 4)
                LaunchRnnLoadInit<T>(Grid(h, int64_t(ub) * h_), cx, li, ub, ix.perm, h_, cinit);
            // slots of length 0 (after the B0 that run): the gradient passes through
            if(ub > B0)
            {
                LaunchRnnStartSlots<T>(Grid(h, int64_t(ub - B0) * h_), dhy, dcy, li, ub, ix.perm,
                                       B0, ub, h_, DH, DHD, DC);
                LaunchRnnRouteSlots<T>(Grid(h, int64_t(ub - B0) * h_), DH, DHD, DC, li, ub,
                                       ix.perm, B0, ub, h_, dhx, nG == 4 ? dcx : nullptr);
            }
            // The carried gradient's slots [0, dh_rows) as the previous step's split parts (the
            // split's reduction fused into this step's gate pass); 0 parts: DH holds it.
            int dh_parts = 0, dh_rows = 0;
            for(int step = 0; step < T_; ++step)
            {
                const int t      = d == 0 ? T_ - 1 - step : step;
                const int bt     = a.b.bt[t];
                const int64_t r0 = static_cast<int64_t>(a.b.off[t]);
                int from = 0, to = 0;
                if(d == 0)
                {
                    from = t + 1 < T_ ? a.b.bt[t + 1] : 0;
                    to   = bt;
                }
                else if(step == 0)
                    to = bt;
                if(to > from)
                    LaunchRnnStartSlots<T>(Grid(h, int64_t(to - from) * h_), dhy, dcy, li, ub,
                                           ix.perm, from, to, h_, DH, DHD, DC);
                LaunchRnnGateBackward(Grid(h, int64_t(bt) * h_), s.mode, h_, bt, r0, Gs, Gw,
                                      d * nG * h_, Y, E, Hb, d * h_, dYcur, DH, room.p, dh_parts,
                                      dh_rows, DHD, DC, ix.prev[d], hinit, cinit, dG, dRc, R);
                int rfrom = 0;
                if(d == 0)
                    rfrom = t == 0 ? 0 : bt;
                else
                    rfrom = t + 1 < T_ ? a.b.bt[t + 1] : 0;
                // DH = dR @ W_hid (GRU: its hidden-side gradients, the z path in DHD), split over
                // k; its parts are left for the next step's gate pass unless slots end here (their
                // dhx is read from DH) or this is the last step
                const bool fuse = bt <= rfrom && step + 1 < T_;
                const float* dA = nG == 3 ? R : dG + r0 * Gw + d * nG * h_;
                const int64_t lda = nG == 3 ? int64_t(nG) * h_ : Gw;
                const int parts = StepGemm(h, false, false, bt, h_, int64_t(nG) * h_, dA, lda, Whid,
                                           h_, DH, h_, room, !fuse);
                dh_parts = fuse && parts > 1 ? parts : 0;
                dh_rows  = dh_parts > 0 ? bt : 0;
                if(bt > rfrom)
                    LaunchRnnRouteSlots<T>(Grid(h, int64_t(bt - rfrom) * h_), DH, DHD, DC, li, ub,
                                           ix.perm, rfrom, bt, h_, dhx, nG == 4 ? dcx : nullptr);
            }
            CheckLaunch("miopenRNNBackwardData (steps)");
        }
        if(l > 0)
        {
            Gemm(h, false, false, N, Hb, Gw, dG, Gw, W + s.WinOffset(l), Hb, dYnext, Hb);
            if(sp.dropout)
            {
                const auto* mask = reinterpret_cast<const uint8_t*>(reserve) + sp.MaskByte(l);
                const float scale = a.dropout == 1.0f ? 0.0f : 1.0f / (1.0f - a.dropout);
                LaunchRnnApplyMask(Grid(h, N * Hb), dYnext, mask, N * Hb, scale);
            }
            std::swap(dYcur, dYnext);
        }
        else
        {
            float* DX = ws + sp.Xin();
            if(s.skip)
                LaunchRnnSumGates(Grid(h, N * h_), dG, N, h_, s.bi * nG, Gw, DX);
            else
                Gemm(h, false, false, N, s.in, Gw, dG, Gw, W + s.WinOffset(0), s.in, DX, s.in);
            if(a.io != RnnIoLayout::Packed)
            {
                const auto n = static_cast<int64_t>(a.IoRows()) * s.in;
                LaunchRnnFill<T>(Grid(h, n), dx, n, PadValue<T>(a.pad_marker_x));
            }
            LaunchRnnScatter<T>(Grid(h, N * s.in), DX, s.in, ix.io_row, N, dx);
        }
        CheckLaunch("miopenRNNBackwardData (input)");
    }
}

template <class T>
void RnnBackwardWeights(Handle& h, const RnnArgs& a, const T* x, const T* hx, T* dw,
                        void* workspace, const void* reserve)
{
    DeviceScope scope(h.Ordinal());
    const RnnShape& s  = a.s;
    const RnnSpace& sp = a.sp;
    float* ws          = static_cast<float*>(workspace);
    const float* store = static_cast<const float*>(reserve);
    const RnnIndex ix  = UploadIndex(h, a, ws);
    const int64_t N    = static_cast<int64_t>(a.b.rows);
    const int h_ = s.h, nG = s.n_gate, ub = a.b.user_batch;
    const int64_t Hb = static_cast<int64_t>(sp.Hb()), Gw = static_cast<int64_t>(s.GateWidth());
    float* dW = nullptr;
    if constexpr(std::is_same_v<T, float>)
        dW = dw;
    else
        dW = ws + sp.Wf();
    float* X     = ws + sp.Xin();
    float* HPall = ws + sp.Hprev();
    float* hinit = ws + sp.StepH();
    LaunchRnnGather<T>(Grid(h, N * s.in), x, s.in, ix.io_row, N, X);
    for(int l = 0; l < s.layers; ++l)
    {
        const float* Lin = l == 0 ? X : store + (sp.dropout ? sp.DropIn(l) : sp.Y(l - 1));
        const float* dG  = ws + sp.DG(l);
        const float* dRc = ws + sp.DRc(l);
        const float* Y   = store + sp.Y(l);
        if(!(l == 0 && s.skip))
            Gemm(h, true, false, Gw, s.InLen(l), N, dG, Gw, Lin, s.InWidth(l),
                 dW + s.WinOffset(l), s.InLen(l));
        if(s.bias)
            LaunchRnnColumnSum(ColumnSumGrid(h, Gw), dG, N, Gw, static_cast<int>(Gw),
                               dW + s.BinOffset(l));
        for(int d = 0; d < s.bi; ++d)
        {
            const int li = l * s.bi + d;
            LaunchRnnLoadInit<T>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, hinit);
            LaunchRnnGatherPrev(Grid(h, N * h_), Y, Hb, d * h_, ix.prev[d], ix.slot, hinit, h_, 0,
                                N, HPall);
            float* dWh       = dW + s.WhidOffset(l, d);
            const float* dgd = dG + d * nG * h_;
            float* dbh       = s.bias ? dW + s.BhidOffset(l, d) : nullptr;
            if(nG == 3)
            {
                Gemm(h, true, false, 2 * h_, h_, N, dgd, Gw, HPall, h_, dWh, h_);
                Gemm(h, true, false, h_, h_, N, dRc + d * h_, Hb, HPall, h_,
                     dWh + 2 * size_t(h_) * h_, h_);
                if(dbh != nullptr)
                {
                    LaunchRnnColumnSum(ColumnSumGrid(h, 2 * h_), dgd, N, Gw, 2 * h_, dbh);
                    LaunchRnnColumnSum(ColumnSumGrid(h, h_), dRc + d * h_, N, Hb, h_,
                                       dbh + 2 * h_);
                }
            }
            else
            {
                Gemm(h, true, false, int64_t(nG) * h_, h_, N, dgd, Gw, HPall, h_, dWh, h_);
                if(dbh != nullptr)
                    LaunchRnnColumnSum(ColumnSumGrid(h, int64_t(nG) * h_), dgd, N, Gw, nG * h_,
                                       dbh);
            }
        }
        CheckLaunch("miopenRNNBackwardWeights");
    }
    if constexpr(!std::is_same_v<T, float>)
    {
        const auto n = static_cast<int64_t>(s.ParamCount());
        LaunchRnnFromFloat<T>(Grid(h, n), dW, n, dw);
        CheckLaunch("miopenRNNBackwardWeights (dw)");
    }
}

#define MIOPEN_CY_RNN_LAUNCH(T)                                                                  \
    template void RnnForward<T>(Handle&, const RnnArgs&, const T*, const T*, const T*, const T*, \
                                T*, T*, T*, void*, void*);                                       \
    template void RnnBackwardData<T>(Handle&, const RnnArgs&, const T*, const T*, const T*,      \
                                     const T*, const T*, const T*, T*, T*, T*, void*,            \
                                     const void*);                                               \
    template void RnnBackwardWeights<T>(Handle&, const RnnArgs&, const T*, const T*, T*, void*,  \
                                        const void*);
MIOPEN_CY_RNN_LAUNCH(float)
MIOPEN_CY_RNN_LAUNCH(Half)
MIOPEN_CY_RNN_LAUNCH(BFloat16)
#undef MIOPEN_CY_RNN_LAUNCH

} // namespace miopen::gpu
