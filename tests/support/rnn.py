"""RNN test helpers: a torch nn.RNN / nn.LSTM / nn.GRU whose weights are copied into MIOpen's
parameter buffer through setRNNLayerParam / setRNNLayerBias, the packed (per-step) data of
variable-length batches, and the float64 torch reference (forward, and gradients by autograd)."""
import numpy as np
import torch

import miopen_cy as mi
from support.dtypes import as64, np_dtype, round_to

MODES = {"relu": mi.miopenRNNRELU, "tanh": mi.miopenRNNTANH, "lstm": mi.miopenLSTM,
         "gru": mi.miopenGRU}
GATES = {"relu": 1, "tanh": 1, "lstm": 4, "gru": 3}
# MIOpen's gate g -> torch's chunk: LSTM i, f, o, c~ vs torch i, f, g, o; GRU z, r, c~ vs r, z, n
TORCH_CHUNK = {"relu": [0], "tanh": [0], "lstm": [0, 1, 3, 2], "gru": [1, 0, 2]}


def tensor_desc(dt, *lens):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dt, len(lens), list(lens), None)
    return d


def torch_module(mode, in_size, h, layers, bi, bias, rng):
    """The float64 torch module with random weights (uniform in +-1/sqrt(h))."""
    kw = dict(input_size=in_size, hidden_size=h, num_layers=layers, bias=bias,
              bidirectional=bi == 2, dtype=torch.float64)
    if mode in ("relu", "tanh"):
        m = torch.nn.RNN(nonlinearity=mode, **kw)
    elif mode == "lstm":
        m = torch.nn.LSTM(**kw)
    else:
        m = torch.nn.GRU(**kw)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.from_numpy(rng.uniform(-1, 1, size=tuple(p.shape)) / np.sqrt(h)))
    return m


def round_module(m, dt):
    """Rounds the module's weights to the storage type (so both sides use the same values)."""
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.from_numpy(as64(round_to(p.numpy(), dt))))


def set_skip_identity(m, h, n_gate):
    """Skip-input mode as torch computes it: layer 0's input matrices are identities."""
    with torch.no_grad():
        for name, p in m.named_parameters():
            if name.startswith("weight_ih_l0"):
                p.copy_(torch.cat([torch.eye(h, dtype=torch.float64)] * n_gate, 0))


class Stack:
    """An RNN descriptor, its step descriptors and a parameter buffer filled from a torch module
    through the per-layer calls."""

    def __init__(self, handle, mode, in_size, h, layers, bi, bias, skip, dt, batches,
                 dropout_desc=None, algo=mi.miopenRNNdefault):
        self.handle, self.mode, self.in_size, self.h = handle, mode, in_size, h
        self.layers, self.bi, self.bias, self.skip, self.dt = layers, bi, bias, skip, dt
        self.batches = list(batches)
        self.seq = len(self.batches)
        self.rnn = mi.RNNDescriptor()
        args = (h, layers)
        rest = (mi.miopenRNNskip if skip else mi.miopenRNNlinear,
                mi.miopenRNNbidirection if bi == 2 else mi.miopenRNNunidirection, MODES[mode],
                mi.miopenRNNwithBias if bias else mi.miopenRNNNoBias, algo, dt)
        if dropout_desc is None:
            mi.setRNNDescriptor(self.rnn, *args, *rest)
        else:
            mi.setRNNDescriptor_V2(self.rnn, *args, dropout_desc, *rest)
        self.xd = [tensor_desc(dt, b, in_size) for b in self.batches]
        self.yd = [tensor_desc(dt, b, bi * h) for b in self.batches]
        self.hd = tensor_desc(dt, layers * bi, self.batches[0], h)
        self.wd = mi.TensorDescriptor()
        mi.getRNNParamsDescriptor(handle, self.rnn, self.xd[0], self.wd, dt)
        self.wbytes = mi.getRNNParamsSize(handle, self.rnn, self.xd[0], dt)
        self.nw = self.wbytes // np.dtype(np_dtype(dt)).itemsize
        self.ws = mi.getRNNWorkspaceSize(handle, self.rnn, self.seq, self.xd)
        self.rs = mi.getRNNTrainingReserveSize(handle, self.rnn, self.seq, self.xd)
        self.rows = sum(self.batches)

    def pieces(self):
        """(layer index, id, torch parameter name, chunk, is bias) of every weight and bias."""
        ng = GATES[self.mode]
        out = []
        for l in range(self.layers):
            for d in range(self.bi):
                sfx = f"_l{l}" + ("_reverse" if d else "")
                li = l * self.bi + d
                for g in range(ng):
                    c = TORCH_CHUNK[self.mode][g]
                    if not (self.skip and l == 0):
                        out.append((li, g, "weight_ih" + sfx, c, False))
                    out.append((li, ng + g, "weight_hh" + sfx, c, False))
                    if self.bias:
                        out.append((li, g, "bias_ih" + sfx, c, True))
                        out.append((li, ng + g, "bias_hh" + sfx, c, True))
        return out

    def load(self, module):
        """The parameter buffer (storage type) holding the module's weights."""
        w = np.full(self.nw, np.nan, np_dtype(self.dt))
        params = dict(module.named_parameters())
        for li, pid, name, c, is_bias in self.pieces():
            p = params[name].detach().numpy()
            rows = p.shape[0] // GATES[self.mode]
            piece = np.ascontiguousarray(round_to(p[c * rows:(c + 1) * rows], self.dt))
            pd = mi.TensorDescriptor()
            if is_bias:
                mi.getRNNLayerBias(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd, None)
                mi.setRNNLayerBias(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd, piece)
            else:
                mi.getRNNLayerParam(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd,
                                    None)
                mi.setRNNLayerParam(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd,
                                    piece)
        return w

    def unload(self, w):
        """{torch parameter name: float64 array} read back from a parameter-shaped buffer."""
        out = {}
        ng = GATES[self.mode]
        for li, pid, name, c, is_bias in self.pieces():
            pd = mi.TensorDescriptor()
            if is_bias:
                mi.getRNNLayerBias(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd, None)
                piece = np.empty(pd.shape, np_dtype(self.dt))
                mi.getRNNLayerBias(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd, piece)
            else:
                mi.getRNNLayerParam(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd,
                                    None)
                piece = np.empty(pd.shape, np_dtype(self.dt))
                mi.getRNNLayerParam(self.handle, self.rnn, li, self.xd[0], self.wd, w, pid, pd,
                                    piece)
            rows = piece.shape[0]
            full = out.setdefault(name, np.zeros((rows * ng,) + piece.shape[1:]))
            full[c * rows:(c + 1) * rows] = as64(piece)
        return out


def lengths_of(batches):
    """Per-sequence lengths (sorted descending) of per-step batch sizes."""
    return [sum(1 for b in batches if b > j) for j in range(batches[0])]


def pack(padded, batches):
    """(T, B, n) -> packed rows, step by step."""
    return np.concatenate([padded[t, :b] for t, b in enumerate(batches) if b > 0], 0)


def unpack(rows, batches, n):
    out = np.zeros((len(batches), batches[0], n))
    o = 0
    for t, b in enumerate(batches):
        out[t, :b] = rows[o:o + b]
        o += b
    return out


def torch_forward(module, mode, x_pad, lens, hx=None, cx=None):
    """float64 torch forward of a padded (T, B, in) batch of the given lengths: (y padded,
    hy, cy, autograd inputs)."""
    x = torch.from_numpy(x_pad).requires_grad_(True)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lens, enforce_sorted=True)
    h0 = torch.from_numpy(hx).requires_grad_(True) if hx is not None else None
    c0 = torch.from_numpy(cx).requires_grad_(True) if cx is not None else None
    if mode == "lstm":
        state = None
        if h0 is not None or c0 is not None:
            shape = (module.num_layers * (2 if module.bidirectional else 1), x_pad.shape[1],
                     module.hidden_size)
            h0 = h0 if h0 is not None else torch.zeros(shape, dtype=torch.float64, requires_grad=True)
            c0 = c0 if c0 is not None else torch.zeros(shape, dtype=torch.float64, requires_grad=True)
            state = (h0, c0)
        out, (hy, cy) = module(packed, state)
    else:
        out, hy = module(packed, h0)
        cy = None
    y, _ = torch.nn.utils.rnn.pad_packed_sequence(out, total_length=x_pad.shape[0])
    return y, hy, cy, (x, h0, c0)
