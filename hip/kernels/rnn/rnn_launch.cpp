// The GPU RNN: the CPU kernel's algorithm (cpu/rnn.cpp) on the handle's stream. A layer's input
// GEMM over all steps and both directions is one LaunchSgemm; each step is one recurrent
// product reading the previous step's rows of the output in place (two where a reverse step
// adds sequences, whose state is the initial one), split over k through the workspace
// (LaunchSgemmSplitK: a 64 x 4096 output is too few tiles for the GPU) with the parts added in
// order by the gate kernel (rnn.hip; the split's reduction fused into the gate pass); backward
// the same in reverse (the carried gradient's parts added by the next step's gate pass), dW one
// GEMM per matrix over all steps. Every intermediate is fp32 in the workspace / reserve space
// (rnn_args.hpp's layouts, the CPU's), and so is every product's result.
// fp16 / bf16 storage on a GPU with the matrix instructions: the products run on tensor cores
// (LaunchGemmMma, split over k the same way), reading the user's 16-bit parameters in place and
// 16-bit copies of their other operands, which the kernels that produce the fp32 values write
// beside them (Y and the gate gradients by the gate passes, the gathered x, the initial and
// previous states, the dropped input): each operand is rounded once, the sums are fp32, as
// cuDNN's and MIOpen's 16-bit RNNs. dW is summed in fp32 in the workspace (Wf) and rounded once.
// Elsewhere (an older GPU, or MIOPEN_CY_DEBUG_RNN_FP32_PRODUCTS=1) fp16 / bf16 parameters are
// staged through fp32 in Wf and the products run on the fp32 SGEMM. The index arrays the kernels
// read (rows of the user's tensors, previous rows, slots, the batch order, final rows) are built
// on the host and copied into the workspace at the start of each call.
#include "core/env.hpp"
#include "dropout/dropout_args.hpp"
#include "gemm/sgemm_args.hpp"
#include "gpu/runtime.hpp"
#include "kernels/common/launch_common.hpp"
#include "kernels/gemm/gemm_mma.hpp"
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

/// The split region of the workspace (RnnSpace::Split()): the step products' partial sums.
struct SplitRoom
{
    float* p      = nullptr;
    size_t floats = 0;
};

/// A product's operand, row-major with rows ld apart: fp32 (f) for the SGEMM, or its 16-bit
/// copy (t, the storage type's bits) for the tensor cores.
struct Mat
{
    const float* f = nullptr;
    const void* t  = nullptr;
    int64_t ld     = 0;
};

/// The fields LaunchSgemm's and LaunchGemmMma's arguments share, of one row-major product
/// C = op(A) op(B).
template <class G, class P>
G Args(bool ta, bool tb, int64_t m, int64_t n, int64_t k, P A, int64_t lda, P B, int64_t ldb,
       float* C, int64_t ldc)
{
    G g;
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

/// How this call runs its products: mma, on the tensor cores from the operands' 16-bit copies
/// (bf16 or fp16); else on the fp32 SGEMM.
struct Products
{
    bool mma  = false;
    bool bf16 = false;

    /// C = op(A) op(B) (C fp32, m x n, row stride ldc). With a room: split over k through it
    /// (LaunchSgemmSplitK / LaunchGemmMma), the parts added into C (reduce) or left in the room
    /// for the gate kernel; returns the parts (1: C written directly).
    int Run(Handle& h, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const Mat& A, const Mat& B,
            float* C, int64_t ldc, const SplitRoom* room = nullptr, bool reduce = true) const
    {
        if(m <= 0 || n <= 0)
            return 1;
        float* const ws     = room != nullptr ? room->p : nullptr;
        const size_t floats = room != nullptr ? room->floats : 0;
        if(mma)
        {
            auto g = Args<GemmMmaArgs>(ta, tb, m, n, k, A.t, A.ld, B.t, B.ld, C, ldc);
            g.bf16 = bf16;
            return LaunchGemmMma(g, ws, floats, reduce, h.Stream());
        }
        const auto g = Args<SgemmArgs>(ta, tb, m, n, k, A.f, A.ld, B.f, B.ld, C, ldc);
        if(room == nullptr)
        {
            LaunchSgemm(g, h.Stream());
            return 1;
        }
        return LaunchSgemmSplitK(g, ws, floats, reduce, h.Stream());
    }
};

/// fp16 / bf16 storage on a GPU whose architecture has the matrix instructions runs the products
/// on tensor cores, unless the test hook MIOPEN_CY_DEBUG_RNN_FP32_PRODUCTS=1 asks for the fp32
/// staging (the path of GPUs without them).
template <class T>
Products ProductsFor(const Handle& h)
{
    Products p;
    if constexpr(!std::is_same_v<T, float>)
    {
        p.bf16 = std::is_same_v<T, BFloat16>;
        p.mma  = !env::IsSet("MIOPEN_CY_DEBUG_RNN_FP32_PRODUCTS") &&
                MmaArchWhyNot(ArchName(h.Ordinal())).empty();
    }
    return p;
}

/// The parameters as fp32: w itself for fp32, else converted into the workspace's Wf (only the
/// biases when the products read the 16-bit weights in place).
template <class T>
const float* WeightsF(Handle& h, const RnnArgs& a, const T* w, float* ws, const Products& pr)
{
    if constexpr(std::is_same_v<T, float>)
        return w;
    else
    {
        float* wf     = ws + a.sp.Wf();
        const auto n0 = pr.mma ? static_cast<int64_t>(a.s.WeightCount()) : int64_t{0};
        const auto n  = static_cast<int64_t>(a.s.ParamCount()) - n0;
        if(n > 0)
        {
            LaunchRnnToFloat<T>(Grid(h, n), w + n0, n, wf + n0);
            CheckLaunch("miopenRNN (parameters to fp32)");
        }
        return wf;
    }
}

/// A 16-bit copy at `floats` floats into a buffer (null without tensor-core products).
template <class T>
T* Copy16(const Products& pr, float* base, size_t floats)
{
    return pr.mma ? reinterpret_cast<T*>(base + floats) : nullptr;
}
template <class T>
const T* Copy16(const Products& pr, const float* base, size_t floats)
{
    return pr.mma ? reinterpret_cast<const T*>(base + floats) : nullptr;
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
    const Products pr  = ProductsFor<T>(h);
    const float* W     = WeightsF(h, a, w, ws, pr);
    const int64_t N    = static_cast<int64_t>(a.b.rows);
    const int h_ = s.h, nG = s.n_gate, T_ = a.b.steps, ub = a.b.user_batch;
    const int64_t Hb = static_cast<int64_t>(sp.Hb()), Gw = static_cast<int64_t>(s.GateWidth());
    float* X     = ws + sp.Xin();
    float* R     = ws + sp.StepR();
    float* hinit = ws + sp.StepH();
    float* cinit = hinit + size_t(ub) * h_;
    const SplitRoom room{ws + sp.Split(), sp.SplitFloats()};
    // the 16-bit copies (tensor-core products only; null otherwise)
    T* XH     = Copy16<T>(pr, ws, sp.XH());
    T* HinitH = Copy16<T>(pr, ws, sp.HinitH());
    if(!pr.mma || s.skip)
        LaunchRnnGather<T, float>(Grid(h, N * s.in), x, s.in, ix.io_row, N, X);
    if(pr.mma)
        LaunchRnnGather<T, T>(Grid(h, N * s.in), x, s.in, ix.io_row, N, XH);
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
        const T* LinH    = XH;
        const int in_w   = s.InWidth(l);
        if(l > 0)
        {
            Lin  = store + sp.Y(l - 1);
            LinH = Copy16<T>(pr, store, sp.YH(l - 1));
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
                Lin         = store + sp.DropIn(l);
                T* const dh = Copy16<T>(pr, store, sp.DropInH(l));
                if(dh != nullptr)
                    LaunchRnnFromFloat<T>(Grid(h, N * Hb), Lin, N * Hb, dh);
                LinH = dh;
            }
        }
        float* G = store + sp.Gates(l);
        float* Y = store + sp.Y(l);
        float* E = store + sp.Extra(l);
        T* YH    = Copy16<T>(pr, store, sp.YH(l));
        if(l == 0 && s.skip)
            LaunchRnnSkipInput(Grid(h, N * Gw), X, N, h_, s.bi * nG, G, Gw);
        else
            pr.Run(h, false, true, N, Gw, s.InLen(l), Mat{Lin, LinH, in_w},
                   Mat{W + s.WinOffset(l), w + s.WinOffset(l), s.InLen(l)}, G, Gw);
        CheckLaunch("miopenRNNForward (input)");
        for(int d = 0; d < s.bi; ++d)
        {
            const int li      = l * s.bi + d;
            const Mat Whid{W + s.WhidOffset(l, d), w + s.WhidOffset(l, d), h_};
            // the biases, added by the gate passes (the input's too: no pass of its own over G)
            const float* bin  = s.bias ? W + s.BinOffset(l) + size_t(d) * nG * h_ : nullptr;
            const float* bhid = s.bias ? W + s.BhidOffset(l, d) : nullptr;
            LaunchRnnLoadInit<T, float>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, hinit);
            if(pr.mma)
                LaunchRnnLoadInit<T, T>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, HinitH);
            if(nG == 4)
                LaunchRnnLoadInit<T, float>(Grid(h, int64_t(ub) * h_), cx, li, ub, ix.perm, h_, cinit);
            for(int step = 0; step < T_; ++step)
            {
                const int t     = d == 0 ? step : T_ - 1 - step;
                const int bt    = a.b.bt[t];
                const int64_t r0 = static_cast<int64_t>(a.b.off[t]);
                // R = h_prev @ W_hid^T, h_prev read in place: the rows of the step before (in
                // this direction) in Y, then, for the slots that start here, the initial state
                const int64_t ng_h = int64_t(nG) * h_;
                int cont           = 0; // slots whose previous state is a row of Y
                int64_t prev_off   = 0; // its first element in Y
                if(d == 0 && t > 0)
                {
                    cont     = bt;
                    prev_off = static_cast<int64_t>(a.b.off[t - 1]) * Hb + d * h_;
                }
                else if(d == 1 && t + 1 < T_)
                {
                    cont     = a.b.bt[t + 1];
                    prev_off = static_cast<int64_t>(a.b.off[t + 1]) * Hb + d * h_;
                }
                const Mat prevY{Y + prev_off, YH != nullptr ? YH + prev_off : nullptr, Hb};
                auto initial = [&](int from) {
                    return Mat{hinit + int64_t(from) * h_,
                               HinitH != nullptr ? HinitH + int64_t(from) * h_ : nullptr, h_};
                };
                // One product (every slot continues, or none does): split over k with its parts
                // left for the gate kernel to add (the reduction fused into the gate pass). Two
                // (a reverse step where sequences start): each split and reduced into R.
                int parts         = 1;
                const float* Rsum = R;
                if(cont == bt || cont == 0)
                {
                    parts = pr.Run(h, false, true, bt, ng_h, h_, cont > 0 ? prevY : initial(0),
                                   Whid, R, ng_h, &room, false);
                    if(parts > 1)
                        Rsum = room.p;
                }
                else
                {
                    pr.Run(h, false, true, cont, ng_h, h_, prevY, Whid, R, ng_h, &room, true);
                    pr.Run(h, false, true, bt - cont, ng_h, h_, initial(cont), Whid,
                           R + cont * ng_h, ng_h, &room, true);
                }
                LaunchRnnGateForward<T>(Grid(h, int64_t(bt) * h_), s.mode, h_, bt, r0, G, Gw,
                                        d * nG * h_, Rsum, parts, int64_t(bt) * ng_h, bin, bhid,
                                        Y, E, Hb, d * h_, ix.prev[d], hinit, cinit, YH);
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
    const Products pr  = ProductsFor<T>(h);
    const float* W     = WeightsF(h, a, w, ws, pr);
    const int64_t N    = static_cast<int64_t>(a.b.rows);
    const int h_ = s.h, nG = s.n_gate, T_ = a.b.steps, ub = a.b.user_batch, B0 = a.b.B0();
    const int64_t Hb = static_cast<int64_t>(sp.Hb()), Gw = static_cast<int64_t>(s.GateWidth());
    float* dYcur  = ws + sp.DYa();
    float* dYnext = ws + sp.DYb();
    LaunchRnnGather<T, float>(Grid(h, N * Hb), dy, static_cast<int>(Hb), ix.io_row, N, dYcur);
    float* R     = ws + sp.StepR();
    float* DH    = ws + sp.StepH();
    float* DC    = DH + size_t(ub) * h_;
    float* hinit = DC + size_t(ub) * h_;
    float* cinit = hinit + size_t(ub) * h_;
    float* DHD   = cinit + size_t(ub) * h_; // the direct (z) part of GRU's carried gradient
    const SplitRoom room{ws + sp.Split(), sp.SplitFloats()};
    T* RH = Copy16<T>(pr, ws, sp.RH()); // GRU's step dR, 16-bit
    for(int l = s.layers - 1; l >= 0; --l)
    {
        float* dG       = ws + sp.DG(l);
        float* dRc      = ws + sp.DRc(l);
        T* dGH          = Copy16<T>(pr, ws, sp.DGH(l)); // dG's 16-bit copy, then dRc's
        T* dRcH         = dGH != nullptr ? dGH + N * Gw : nullptr;
        const float* Y  = store + sp.Y(l);
        const float* Gs = store + sp.Gates(l);
        const float* E  = store + sp.Extra(l);
        for(int d = 0; d < s.bi; ++d)
        {
            const int li      = l * s.bi + d;
            const Mat Whid{W + s.WhidOffset(l, d), w + s.WhidOffset(l, d), h_};
            LaunchRnnLoadInit<T, float>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, hinit);
            if(nG == 4)
                LaunchRnnLoadInit<T, float>(Grid(h, int64_t(ub) * h_), cx, li, ub, ix.perm, h_, cinit);
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
                LaunchRnnGateBackward<T>(Grid(h, int64_t(bt) * h_), s.mode, h_, bt, r0, Gs, Gw,
                                         d * nG * h_, Y, E, Hb, d * h_, dYcur, DH, room.p,
                                         dh_parts, dh_rows, DHD, DC, ix.prev[d], hinit, cinit, dG,
                                         dRc, R, dGH, nG == 3 ? dRcH : nullptr,
                                         nG == 3 ? RH : nullptr);
                int rfrom = 0;
                if(d == 0)
                    rfrom = t == 0 ? 0 : bt;
                else
                    rfrom = t + 1 < T_ ? a.b.bt[t + 1] : 0;
                // DH = dR @ W_hid (GRU: its hidden-side gradients, the z path in DHD), split over
                // k; its parts are left for the next step's gate pass unless slots end here (their
                // dhx is read from DH) or this is the last step
                const bool fuse = bt <= rfrom && step + 1 < T_;
                const int64_t gofs = r0 * Gw + d * nG * h_;
                const Mat dA = nG == 3 ? Mat{R, RH, int64_t(nG) * h_}
                                       : Mat{dG + gofs, dGH != nullptr ? dGH + gofs : nullptr, Gw};
                const int parts = pr.Run(h, false, false, bt, h_, int64_t(nG) * h_, dA, Whid, DH,
                                         h_, &room, !fuse);
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
            pr.Run(h, false, false, N, Hb, Gw, Mat{dG, dGH, Gw},
                   Mat{W + s.WinOffset(l), w + s.WinOffset(l), Hb}, dYnext, Hb);
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
                pr.Run(h, false, false, N, s.in, Gw, Mat{dG, dGH, Gw},
                       Mat{W + s.WinOffset(0), w + s.WinOffset(0), s.in}, DX, s.in);
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
    const Products pr  = ProductsFor<T>(h);
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
    // the 16-bit copies (tensor-core products only; null otherwise)
    T* XH     = Copy16<T>(pr, ws, sp.XH());
    T* HPH    = Copy16<T>(pr, ws, sp.HPH());
    T* HinitH = Copy16<T>(pr, ws, sp.HinitH());
    if(pr.mma)
        LaunchRnnGather<T, T>(Grid(h, N * s.in), x, s.in, ix.io_row, N, XH);
    else
        LaunchRnnGather<T, float>(Grid(h, N * s.in), x, s.in, ix.io_row, N, X);
    for(int l = 0; l < s.layers; ++l)
    {
        const float* Lin = l == 0 ? X : store + (sp.dropout ? sp.DropIn(l) : sp.Y(l - 1));
        const T* LinH =
            l == 0 ? XH : Copy16<T>(pr, store, sp.dropout ? sp.DropInH(l) : sp.YH(l - 1));
        const float* dG  = ws + sp.DG(l);
        const float* dRc = ws + sp.DRc(l);
        const T* dGH     = Copy16<T>(pr, ws, sp.DGH(l));
        const T* dRcH    = dGH != nullptr ? dGH + N * Gw : nullptr;
        const float* Y   = store + sp.Y(l);
        const T* YH      = Copy16<T>(pr, store, sp.YH(l));
        if(!(l == 0 && s.skip))
            pr.Run(h, true, false, Gw, s.InLen(l), N, Mat{dG, dGH, Gw}, Mat{Lin, LinH, s.InWidth(l)},
                   dW + s.WinOffset(l), s.InLen(l));
        if(s.bias)
            LaunchRnnColumnSum(ColumnSumGrid(h, Gw), dG, N, Gw, static_cast<int>(Gw),
                               dW + s.BinOffset(l));
        for(int d = 0; d < s.bi; ++d)
        {
            const int li = l * s.bi + d;
            // the previous state of every row (h_prev of the recurrent product), fp32 or 16-bit
            if(pr.mma)
            {
                LaunchRnnLoadInit<T, T>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, HinitH);
                LaunchRnnGatherPrev<T>(Grid(h, N * h_), YH, Hb, d * h_, ix.prev[d], ix.slot, HinitH,
                                       h_, 0, N, HPH);
            }
            else
            {
                LaunchRnnLoadInit<T, float>(Grid(h, int64_t(ub) * h_), hx, li, ub, ix.perm, h_, hinit);
                LaunchRnnGatherPrev<float>(Grid(h, N * h_), Y, Hb, d * h_, ix.prev[d], ix.slot, hinit,
                                           h_, 0, N, HPall);
            }
            const Mat hp{HPall, HPH, h_};
            float* dWh       = dW + s.WhidOffset(l, d);
            const float* dgd = dG + d * nG * h_;
            const Mat dg{dgd, dGH != nullptr ? dGH + d * nG * h_ : nullptr, Gw};
            float* dbh       = s.bias ? dW + s.BhidOffset(l, d) : nullptr;
            if(nG == 3)
            {
                pr.Run(h, true, false, 2 * h_, h_, N, dg, hp, dWh, h_);
                pr.Run(h, true, false, h_, h_, N,
                       Mat{dRc + d * h_, dRcH != nullptr ? dRcH + d * h_ : nullptr, Hb}, hp,
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
                pr.Run(h, true, false, int64_t(nG) * h_, h_, N, dg, hp, dWh, h_);
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
