// RNN: the weight layout (MIOpen's), the layout of miopen_cy's reserve space and workspace, and
// the argument struct of one call, shared by the front door (rnn/rnn.cpp) and the CPU kernels
// (cpu/rnn.cpp). Everything here is arithmetic: no descriptor, no handle.
//
// Weights (element offsets into w), MIOpen's layout restated by physical layer l and direction d
// (bi = 2 for bidirectional, else 1; nG gate matrices per direction: 1 vanilla, 4 LSTM in the
// order i, f, o, c~, 3 GRU in the order z, r, c~; in_l = the input vector length for l = 0 (0 in
// skip-input mode), bi * h above):
//   layer l starts at WL(l) = sum over k < l of bi * nG * h * (in_k + h);
//   input matrices:  W_in(l, d, g)  (h x in_l, row-major) at WL(l) + (d * nG + g) * h * in_l
//   hidden matrices: W_hid(l, d, g) (h x h)               at WL(l) + bi * nG * h * in_l
//                                                             + (d * nG + g) * h * h
//   so the input matrices of every direction of a layer form one (bi * nG * h) x in_l matrix.
// Biases (with miopenRNNwithBias) follow all weights: per layer, 2 * bi * nG * h values,
//   b_in(l, d, g) at W + l * 2 * bi * nG * h + (d * nG + g) * h, b_hid after the bi * nG * h
//   input biases. Skip-input mode keeps the input biases of layer 0 (x is added to every gate).
// MIOpen's layer index of the per-layer calls is l * bi + d; its paramID / biasID is g for an
// input matrix and nG + g for a hidden one.
//
// The math (fp32; sigma the logistic function; pre-activations a = W_in x + b_in + W_hid h + b_hid):
//   vanilla: h' = act(a);  LSTM: c' = f * c + i * c~, h' = o * tanh(c');
//   GRU: z = sigma(a_z), r = sigma(a_r), c~ = tanh(W_in,c x + b_in,c + r * (W_hid,c h + b_hid,c)),
//        h' = (1 - z) * c~ + z * h   (PyTorch's and cuDNN's variant, which MIOpen computes).
// A null hx / cx is a zero initial state; every bias is always added (MIOpen's older path leaves
// the hidden bias out of a sequence's first step when hx is null; miopen_cy follows the math).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace miopen {

/// The shape of an RNN stack.
struct RnnShape
{
    int mode   = 1;     // miopenRNNMode_t
    int n_gate = 1;     // nG: 1, 4 (LSTM) or 3 (GRU)
    int h      = 0;     // hidden size
    int layers = 1;     // physical layers
    int bi     = 1;     // directions
    int in     = 0;     // input vector length of layer 0 (the x descriptor's)
    bool skip  = false; // skip-input mode (in == h, no input matrices for layer 0)
    bool bias  = false;

    int InLen(int l) const { return l == 0 ? (skip ? 0 : in) : bi * h; }
    /// The width of layer l's input rows (x for l = 0, even in skip mode).
    int InWidth(int l) const { return l == 0 ? in : bi * h; }
    size_t GateWidth() const { return size_t(bi) * n_gate * h; } // pre-activations per row
    size_t LayerStart(int l) const
    {
        size_t s = 0;
        for(int k = 0; k < l; ++k)
            s += GateWidth() * (size_t(InLen(k)) + h);
        return s;
    }
    size_t WeightCount() const { return LayerStart(layers); }
    size_t WinOffset(int l) const { return LayerStart(l); }
    size_t WhidOffset(int l, int d) const
    {
        return LayerStart(l) + GateWidth() * InLen(l) + size_t(d) * n_gate * h * h;
    }
    size_t BiasCount() const { return bias ? size_t(layers) * 2 * GateWidth() : 0; }
    size_t ParamCount() const { return WeightCount() + BiasCount(); }
    size_t BinOffset(int l) const { return WeightCount() + size_t(l) * 2 * GateWidth(); }
    size_t BhidOffset(int l, int d) const
    {
        return BinOffset(l) + GateWidth() + size_t(d) * n_gate * h;
    }
    /// The pieces of MIOpen's per-layer calls: layer index li = l * bi + d, id = paramID.
    size_t ParamOffset(int li, int id) const
    {
        const int l = li / bi, d = li % bi;
        if(id < n_gate)
            return WinOffset(l) + (size_t(d) * n_gate + id) * h * InLen(l);
        return WhidOffset(l, d) + size_t(id - n_gate) * h * h;
    }
    size_t BiasOffset(int li, int id) const
    {
        const int l = li / bi, d = li % bi;
        if(id < n_gate)
            return BinOffset(l) + (size_t(d) * n_gate + id) * h;
        return BhidOffset(l, d) + size_t(id - n_gate) * h;
    }
    /// Values that a layer stores per row besides its output: c (LSTM), W_hid,c h + b (GRU).
    int ExtraWidth() const { return (n_gate == 1) ? 0 : bi * h; }
};

/// The batch structure of one call, in miopen_cy's internal packed order: step t holds the first
/// bt[t] slots (non-increasing), its rows start at off[t]; slot j is user batch entry perm[j].
struct RnnBatches
{
    int steps = 0;             // T, the longest sequence
    int user_batch = 0;        // the batch of hx / hy (and of padded x / y)
    std::vector<int> bt;       // slots per step
    std::vector<size_t> off;   // first packed row of each step
    std::vector<int> perm;     // slot -> user batch entry
    std::vector<int> len;      // slot -> sequence length
    size_t rows = 0;           // N = sum of bt

    int B0() const { return steps > 0 ? bt[0] : 0; }
};

/// How a step-slot pair maps to a row of the user's x / y / dx / dy.
enum class RnnIoLayout
{
    Packed,        // the packed rows themselves (per-step batches, MIOpen's not-padded layout)
    SeqMajorPadded,   // row t * user_batch + perm[j]
    BatchMajorPadded, // row perm[j] * steps + t
};

/// Offsets (in floats, from the buffer start) of miopen_cy's reserve space and workspace.
/// Reserve: per layer Y (N x bi h), gates (N x bi nG h, activated), extra (N x ExtraWidth) and,
/// with 16-bit operands, Y's 16-bit copy; then per layer above 0 with dropout the dropped input
/// (N x bi h), its 16-bit copies, and the masks (bytes) last.
/// Workspace: the gate gradients of every layer (N x bi nG h; GRU adds the hidden c~ gradients
/// N x bi h) from BackwardData for BackwardWeights (with 16-bit operands, their 16-bit copies
/// after them), or, in forward inference, the reserve's per-layer blocks; then the scratch.
/// 16-bit operands (ops16, fp16 / bf16 storage): the GPU's tensor-core products read 16-bit
/// copies of their fp32 operands (Y, the dropped input, the gate gradients, the gathered x and
/// previous states), written beside the fp32 values by the kernels that produce them; each copy
/// starts on 16 bytes. The CPU leaves them unused.
struct RnnSpace
{
    size_t rows = 0, b0 = 0; // packed rows; slots (the user's batch)
    RnnShape s;
    bool dropout = false;
    bool ops16   = false; // room for 16-bit copies of the products' operands
    size_t wf    = 0; // fp32 parameters kept in the workspace (fp16 / bf16 storage on the GPU)

    /// Floats holding n 16-bit values, a multiple of 16 bytes (0 without ops16).
    size_t H16(size_t n) const { return ops16 ? (n + 7) / 8 * 4 : 0; }
    /// o rounded up to 16 bytes where the 16-bit copies need it.
    size_t Al(size_t o) const { return ops16 ? (o + 3) / 4 * 4 : o; }
    size_t Hb() const { return size_t(s.bi) * s.h; }
    size_t LayerStore() const
    {
        return Al(rows * (Hb() + s.GateWidth() + s.ExtraWidth())) + H16(rows * Hb());
    }
    size_t Y(int l) const { return l * LayerStore(); }
    size_t Gates(int l) const { return Y(l) + rows * Hb(); }
    size_t Extra(int l) const { return Gates(l) + rows * s.GateWidth(); }
    /// Y's 16-bit copy (N x bi h, as Y).
    size_t YH(int l) const { return Y(l) + Al(rows * (Hb() + s.GateWidth() + s.ExtraWidth())); }
    size_t DropIn(int l) const { return s.layers * LayerStore() + size_t(l - 1) * rows * Hb(); }
    /// The dropped input's 16-bit copy of layer l > 0.
    size_t DropInH(int l) const
    {
        return Al(s.layers * LayerStore() + size_t(s.layers - 1) * rows * Hb()) +
               size_t(l - 1) * H16(rows * Hb());
    }
    size_t StoreFloats(bool with_dropout) const
    {
        if(!with_dropout || s.layers < 2)
            return s.layers * LayerStore();
        return ops16 ? DropInH(s.layers) : s.layers * LayerStore() + size_t(s.layers - 1) * rows * Hb();
    }
    size_t MaskByte(int l) const
    {
        return StoreFloats(true) * 4 + size_t(l - 1) * rows * Hb();
    }
    size_t ReserveBytes() const
    {
        return StoreFloats(dropout) * 4 + (dropout ? size_t(s.layers - 1) * rows * Hb() : 0);
    }
    // workspace
    size_t GradWidth() const { return s.GateWidth() + (s.n_gate == 3 ? Hb() : 0); }
    size_t DG(int l) const { return size_t(l) * rows * GradWidth(); }
    size_t DRc(int l) const { return DG(l) + rows * s.GateWidth(); } // GRU: hidden c~ gradient
    /// The gate gradients' 16-bit copy of layer l (as DG(l): dG, then GRU's c~ gradient).
    size_t DGH(int l) const { return Al(s.layers * rows * GradWidth()) + size_t(l) * H16(rows * GradWidth()); }
    size_t ScratchStart() const
    {
        const size_t a = DGH(s.layers);
        const size_t b = StoreFloats(false);
        return (a > b ? a : b);
    }
    size_t XWidth() const { return size_t(s.in) > Hb() ? size_t(s.in) : Hb(); }
    size_t Xin() const { return ScratchStart(); }              // N x XWidth
    size_t DYa() const { return Xin() + rows * XWidth(); }       // N x Hb
    size_t DYb() const { return DYa() + rows * Hb(); }           // N x Hb
    size_t Hprev() const { return DYb() + rows * Hb(); }         // N x h
    size_t StepR() const { return Hprev() + rows * s.h; }        // B0 x nG h
    size_t StepH() const { return StepR() + b0 * s.n_gate * s.h; } // 7 x b0 x h
    // GPU, 16-bit operands: the gathered x (N x XWidth), the previous states of every row (N x
    // h), the initial state (b0 x h) and GRU's step hidden-side gradient (b0 x nG h), 16-bit.
    size_t XH() const { return Al(StepH() + 7 * b0 * s.h); }
    size_t HPH() const { return XH() + H16(rows * XWidth()); }
    size_t HinitH() const { return HPH() + H16(rows * s.h); }
    size_t RH() const { return HinitH() + H16(b0 * s.h); }
    // GPU: the fp32 parameters (or dW) of fp16 / bf16 storage, then the index arrays the kernels
    // read (rows of the user's tensors, previous rows per direction, slots, the batch order, the
    // final rows per direction) and the per-layer dropout states. The CPU uses none of them.
    size_t Wf() const { return RH() + H16(b0 * s.n_gate * s.h); }
    size_t Index() const { return (Wf() + wf + 3) / 4 * 4; } // 16-byte aligned
    size_t IndexFloats() const
    {
        return 2 * rows + 3 * rows + 3 * b0 + 8 * size_t(s.layers) + 8;
    }
    /// GPU: the partial products of a per-step GEMM split over k (LaunchSgemmSplitK), room for
    /// kSplitParts parts of the largest step product (b0 x nG h forward; backward's b0 x h gets
    /// nG times as many parts), 16-byte aligned.
    static constexpr size_t kSplitParts = 16;
    size_t Split() const { return (Index() + IndexFloats() + 3) / 4 * 4; }
    size_t SplitFloats() const { return kSplitParts * b0 * s.n_gate * s.h; }
    size_t WorkspaceFloats() const { return Split() + SplitFloats(); }
    size_t WorkspaceBytes() const { return WorkspaceFloats() * 4; }
};

/// One call's arguments for the CPU kernels (data pointers apart).
struct RnnArgs
{
    RnnShape s;
    RnnBatches b;
    RnnSpace sp;
    RnnIoLayout io = RnnIoLayout::Packed;
    const void* pad_marker = nullptr; // one element of the data type, written to padded rows of y
    const void* pad_marker_x = nullptr; // the same for dx (the x descriptor's marker)
    float dropout          = 0.0f;    // rate between layers (training forward / backward only)
    uint64_t seed          = 0;
    uint64_t offset        = 0;       // the dropout generator's offset of layer 1 (layer l: + l - 1)
    bool training          = true;
    int io_seq             = 0;       // rows per batch entry of a batch-major padded tensor


    /// The row of the user's x / y for step t, slot j.
    size_t IoRow(int t, int j) const
    {
        switch(io)
        {
        case RnnIoLayout::Packed: return b.off[t] + j;
        case RnnIoLayout::SeqMajorPadded: return size_t(t) * b.user_batch + b.perm[j];
        case RnnIoLayout::BatchMajorPadded: return size_t(b.perm[j]) * io_seq + t;
        }
        return 0;
    }
    /// Rows of the user's x / y in all.
    size_t IoRows() const
    {
        return io == RnnIoLayout::Packed ? b.rows : size_t(io_seq) * b.user_batch;
    }
};

namespace cpu {
/// Forward (training: store in reserve; inference: in the workspace). hx, cx may be null
/// (zero state); hy, cy may be null (not written).
template <class T>
void RnnForward(const RnnArgs& a, const T* x, const T* hx, const T* cx, const T* w, T* y, T* hy,
                T* cy, void* workspace, void* reserve);
/// Backward data: dx, dhx, dcx (dhy, dcy, dhx, dcx, hx, cx may be null); leaves the gate
/// gradients in the workspace for RnnBackwardWeights.
template <class T>
void RnnBackwardData(const RnnArgs& a, const T* dy, const T* dhy, const T* dcy, const T* hx,
                     const T* cx, const T* w, T* dx, T* dhx, T* dcx, void* workspace,
                     const void* reserve);
/// Backward weights: dw (overwritten) from x, hx, the reserve and the workspace's gate gradients.
template <class T>
void RnnBackwardWeights(const RnnArgs& a, const T* x, const T* hx, T* dw, void* workspace,
                        const void* reserve);
} // namespace cpu

class Handle;
namespace gpu {
/// The same three on the handle's GPU (kernels/rnn/rnn_launch.cpp): GEMMs through LaunchSgemm,
/// the per-step products split over k (LaunchSgemmSplitK, the workspace's Split() room) with the
/// parts added by the one gate kernel per step. The dropout of a training forward: the masks drawn at a.seed,
/// the training forward applies dropout (its masks drawn at a.seed, a.offset + l - 1).
template <class T>
void RnnForward(Handle& h, const RnnArgs& a, const T* x, const T* hx, const T* cx, const T* w,
                T* y, T* hy, T* cy, void* workspace, void* reserve);
template <class T>
void RnnBackwardData(Handle& h, const RnnArgs& a, const T* dy, const T* dhy, const T* dcy,
                     const T* hx, const T* cx, const T* w, T* dx, T* dhx, T* dcx,
                     void* workspace, const void* reserve);
template <class T>
void RnnBackwardWeights(Handle& h, const RnnArgs& a, const T* x, const T* hx, T* dw,
                        void* workspace, const void* reserve);
} // namespace gpu

} // namespace miopen
