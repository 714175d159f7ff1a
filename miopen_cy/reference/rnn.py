"""float64 NumPy reference of MIOpen's RNN (vanilla ReLU / tanh, LSTM, GRU) on packed per-step
batches: the parameter layout (MIOpen's, restated), forward, and backward (data and weights) by
hand-written adjoints. Used by the driver's rnn sub-command and the tests.

Packed rows: step t holds the first batches[t] sequences (non-increasing). Gates per direction:
vanilla 1, LSTM i, f, o, c~ (c = f c_prev + i c~, h = o tanh c), GRU z, r, c~
(c~ = tanh(W_c x + b_Wc + r (R_c h + b_Rc)), h = (1 - z) c~ + z h_prev)."""
import numpy as np

NGATES = {0: 1, 1: 1, 2: 4, 3: 3}           # miopenRNNMode_t -> gate matrices per direction


class Layout:
    """Offsets of MIOpen's parameter buffer (elements)."""

    def __init__(self, mode, in_size, h, layers, bi, bias, skip):
        self.mode, self.in_size, self.h, self.layers = mode, in_size, h, layers
        self.bi, self.bias, self.skip = bi, bias, skip
        self.ng = NGATES[mode]

    def in_len(self, l):
        return (0 if self.skip else self.in_size) if l == 0 else self.bi * self.h

    def gw(self):
        return self.bi * self.ng * self.h

    def layer_start(self, l):
        return sum(self.gw() * (self.in_len(k) + self.h) for k in range(l))

    def weight_count(self):
        return self.layer_start(self.layers)

    def count(self):
        return self.weight_count() + (self.layers * 2 * self.gw() if self.bias else 0)

    def w_in(self, w, l):
        """(bi * ng * h, in_l): the input matrices of every direction of layer l."""
        s = self.layer_start(l)
        return w[s:s + self.gw() * self.in_len(l)].reshape(self.gw(), self.in_len(l))

    def w_hid(self, w, l, d):
        """(ng * h, h)."""
        s = self.layer_start(l) + self.gw() * self.in_len(l) + d * self.ng * self.h * self.h
        return w[s:s + self.ng * self.h * self.h].reshape(self.ng * self.h, self.h)

    def b_in(self, w, l):
        s = self.weight_count() + l * 2 * self.gw()
        return w[s:s + self.gw()]

    def b_hid(self, w, l, d):
        s = self.weight_count() + l * 2 * self.gw() + self.gw() + d * self.ng * self.h
        return w[s:s + self.ng * self.h]


def _sig(v):
    return 1.0 / (1.0 + np.exp(-v))


def _offsets(batches):
    return np.concatenate([[0], np.cumsum(batches)]).astype(int)


def forward(lay, w, x, batches, hx=None, cx=None, drop_keep=None, rate=0.0):
    """(y, hy, cy, cache). x: packed rows (N, in); hx / cx: (layers * bi, B0, h) or None;
    drop_keep: per layer above 0, a 0/1 array (N, bi * h) of the dropout mask, or None."""
    w = np.asarray(w, np.float64)
    h, ng, bi, T = lay.h, lay.ng, lay.bi, len(batches)
    off = _offsets(batches)
    B0 = batches[0]
    shape = (lay.layers * bi, B0, h)
    hx = np.zeros(shape) if hx is None else np.asarray(hx, np.float64)
    cx = np.zeros(shape) if cx is None else np.asarray(cx, np.float64)
    hy, cy = np.zeros(shape), np.zeros(shape)
    inp = np.asarray(x, np.float64)
    cache = {"x": inp, "hx": hx, "cx": cx, "batches": list(batches), "layers": []}
    for l in range(lay.layers):
        if l > 0 and drop_keep is not None:
            scale = 0.0 if rate == 1.0 else 1.0 / (1.0 - rate)
            inp = inp * drop_keep[l - 1] * scale
        if l == 0 and lay.skip:
            G = np.tile(inp, (1, bi * ng))
        else:
            G = inp @ lay.w_in(w, l).T
        if lay.bias:
            G = G + lay.b_in(w, l)
        Y = np.zeros((off[-1], bi * h))
        gates = np.zeros_like(G)
        extra = np.zeros((off[-1], bi * h))
        prev_h = np.zeros((off[-1], bi * h))
        prev_c = np.zeros((off[-1], bi * h))
        for d in range(bi):
            li = l * bi + d
            R_w = lay.w_hid(w, l, d)
            hs, cs = hx[li].copy(), cx[li].copy()
            order = range(T) if d == 0 else range(T - 1, -1, -1)
            for t in order:
                b = batches[t]
                rows = slice(off[t], off[t] + b)
                hp, cp = hs[:b], cs[:b]
                R = hp @ R_w.T
                if lay.bias:
                    R = R + lay.b_hid(w, l, d)
                g = G[rows, d * ng * h:(d + 1) * ng * h]
                cols = slice(d * h, (d + 1) * h)
                prev_h[rows, cols], prev_c[rows, cols] = hp, cp
                if lay.mode in (0, 1):
                    a = g + R
                    hn = np.maximum(a, 0.0) if lay.mode == 0 else np.tanh(a)
                    gt = hn
                    cn = cp
                elif lay.mode == 2:
                    a = g + R
                    i, f, o = _sig(a[:, :h]), _sig(a[:, h:2 * h]), _sig(a[:, 2 * h:3 * h])
                    gg = np.tanh(a[:, 3 * h:])
                    cn = f * cp + i * gg
                    hn = o * np.tanh(cn)
                    gt = np.concatenate([i, f, o, gg], 1)
                    extra[rows, cols] = cn
                else:
                    z = _sig(g[:, :h] + R[:, :h])
                    r = _sig(g[:, h:2 * h] + R[:, h:2 * h])
                    n = np.tanh(g[:, 2 * h:] + r * R[:, 2 * h:])
                    hn = (1 - z) * n + z * hp
                    gt = np.concatenate([z, r, n], 1)
                    extra[rows, cols] = R[:, 2 * h:]
                    cn = cp
                gates[rows, d * ng * h:(d + 1) * ng * h] = gt
                Y[rows, cols] = hn
                hs = hs.copy()
                cs = cs.copy()
                hs[:b], cs[:b] = hn, cn
            hy[li], cy[li] = hs, cs
        cache["layers"].append({"inp": inp, "Y": Y, "gates": gates, "extra": extra,
                                "prev_h": prev_h, "prev_c": prev_c})
        inp = Y
    cache["drop_keep"], cache["rate"] = drop_keep, rate
    return inp, hy, cy, cache


def backward(lay, w, cache, dy, dhy=None, dcy=None):
    """(dx, dhx, dcx, dw) of sum(y dy) + sum(hy dhy) + sum(cy dcy)."""
    w = np.asarray(w, np.float64)
    h, ng, bi = lay.h, lay.ng, lay.bi
    batches = cache["batches"]
    T, off = len(batches), _offsets(batches)
    shape = cache["hx"].shape
    dhy = np.zeros(shape) if dhy is None else np.asarray(dhy, np.float64)
    dcy = np.zeros(shape) if dcy is None else np.asarray(dcy, np.float64)
    dhx, dcx = np.zeros(shape), np.zeros(shape)
    dw = np.zeros(lay.count())
    dY = np.asarray(dy, np.float64)
    for l in range(lay.layers - 1, -1, -1):
        c = cache["layers"][l]
        dG = np.zeros_like(c["gates"])
        dR_all = np.zeros_like(c["gates"])
        for d in range(bi):
            li = l * bi + d
            R_w = lay.w_hid(w, l, d)
            dh = dhy[li].copy()
            dc = dcy[li].copy()
            order = range(T - 1, -1, -1) if d == 0 else range(T)
            for t in order:
                b = batches[t]
                rows = slice(off[t], off[t] + b)
                cols = slice(d * h, (d + 1) * h)
                gs = c["gates"][rows, d * ng * h:(d + 1) * ng * h]
                yv = c["Y"][rows, cols]
                g_h = dY[rows, cols] + dh[:b]
                hp, cp = c["prev_h"][rows, cols], c["prev_c"][rows, cols]
                if lay.mode in (0, 1):
                    da = g_h * (yv > 0) if lay.mode == 0 else g_h * (1 - yv * yv)
                    dR = da
                    dcp = dc[:b]
                elif lay.mode == 2:
                    i, f, o, gg = (gs[:, k * h:(k + 1) * h] for k in range(4))
                    cn = c["extra"][rows, cols]
                    tc = np.tanh(cn)
                    dct = dc[:b] + g_h * o * (1 - tc * tc)
                    da = np.concatenate([dct * gg * i * (1 - i), dct * cp * f * (1 - f),
                                         g_h * tc * o * (1 - o), dct * i * (1 - gg * gg)], 1)
                    dR = da
                    dcp = dct * f
                else:
                    z, r, n = (gs[:, k * h:(k + 1) * h] for k in range(3))
                    Rc = c["extra"][rows, cols]
                    dn = g_h * (1 - z) * (1 - n * n)
                    dz = g_h * (hp - n) * z * (1 - z)
                    dr = dn * Rc * r * (1 - r)
                    da = np.concatenate([dz, dr, dn], 1)
                    dR = np.concatenate([dz, dr, dn * r], 1)
                    dcp = dc[:b]
                dG[rows, d * ng * h:(d + 1) * ng * h] = da
                dR_all[rows, d * ng * h:(d + 1) * ng * h] = dR
                dhp = dR @ R_w + (g_h * gs[:, :h] if lay.mode == 3 else 0.0)
                # the previous state: the step before (in this direction) or hx
                dh = dh.copy()
                dc = dc.copy()
                dh[:b], dc[:b] = dhp, dcp
                nxt = (t - 1) if d == 0 else (t + 1)
                nb = batches[nxt] if 0 <= nxt < T else 0
                if d == 0:
                    # slots [batches[t-1]..) cannot exist (non-increasing); at t = 0 all go out
                    if t == 0:
                        dhx[li][:b], dcx[li][:b] = dhp, dcp
                else:
                    dhx[li][nb:b], dcx[li][nb:b] = dhp[nb:], dcp[nb:]
                # d == 0 going back: slots that start at t - 1 (end there) pick dhy up
                if d == 0 and t > 0:
                    pb = batches[t - 1]
                    dh[b:pb], dc[b:pb] = dhy[li][b:pb], dcy[li][b:pb]
        # weights
        inp = c["inp"]
        if not (l == 0 and lay.skip):
            s = lay.layer_start(l)
            dw[s:s + lay.gw() * lay.in_len(l)] = (dG.T @ inp).ravel()
        if lay.bias:
            s = lay.weight_count() + l * 2 * lay.gw()
            dw[s:s + lay.gw()] = dG.sum(0)
        for d in range(bi):
            dRd = dR_all[:, d * ng * h:(d + 1) * ng * h]
            hp = c["prev_h"][:, d * h:(d + 1) * h]
            s = lay.layer_start(l) + lay.gw() * lay.in_len(l) + d * ng * h * h
            dw[s:s + ng * h * h] = (dRd.T @ hp).ravel()
            if lay.bias:
                s = lay.weight_count() + l * 2 * lay.gw() + lay.gw() + d * ng * h
                dw[s:s + ng * h] = dRd.sum(0)
        # the gradient of the layer's input
        if l == 0 and lay.skip:
            dinp = dG.reshape(dG.shape[0], bi * ng, h).sum(1)
        else:
            dinp = dG @ lay.w_in(w, l)
        if l > 0 and cache["drop_keep"] is not None:
            rate = cache["rate"]
            scale = 0.0 if rate == 1.0 else 1.0 / (1.0 - rate)
            dinp = dinp * cache["drop_keep"][l - 1] * scale
        dY = dinp
    return dY, dhx, dcx, dw
