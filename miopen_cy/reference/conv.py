"""float64 NumPy reference of convolution in its three directions, for 1 to 3 spatial dims, with
pads, strides, dilations and groups; a transposed convolution is the adjoint of an ordinary one.

x is (N, C, spatial...), w (K, C/groups, filter...) (transposed: (C, K/groups, filter...)), y
(N, K, out...). Computed by im2col and matmul over batch chunks, so that a large layer needs a
bounded amount of float64 memory."""
import numpy as np

CHUNK_BYTES = 256 << 20      # bound on the float64 column matrix of one batch chunk


def _window_slices(offsets, dils, out, strides):
    return tuple(slice(o * dl, o * dl + (ot - 1) * st + 1, st)
                 for o, dl, ot, st in zip(offsets, dils, out, strides))


def _im2col(xp, filt, out, strides, dils):
    """(N, C, padded...) -> (N, C, prod(filt), prod(out)): every filter tap's strided window."""
    n, c = xp.shape[:2]
    cols = np.empty((n, c, int(np.prod(filt))) + tuple(out), dtype=np.float64)
    for fi, offs in enumerate(np.ndindex(*filt)):
        cols[:, :, fi] = xp[(slice(None), slice(None)) + _window_slices(offs, dils, out, strides)]
    return cols.reshape(n, c, cols.shape[2], -1)


def _pad(x, pads):
    return np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pads])


def _batch_chunks(n, per_item):
    """Batch slices whose column matrices stay under CHUNK_BYTES."""
    step = max(1, int(CHUNK_BYTES // max(per_item * 8, 1)))
    return [slice(i, min(i + step, n)) for i in range(0, n, step)]


def output_spatial(spatial, filt, pads, strides, dils, transpose=False, adj=None):
    """The output's spatial lengths (transposed: with the output padding `adj`)."""
    if transpose:
        adj = adj or (0,) * len(spatial)
        return tuple((i - 1) * s - 2 * p + d * (f - 1) + a + 1
                     for i, f, p, s, d, a in zip(spatial, filt, pads, strides, dils, adj))
    return tuple((i + 2 * p - d * (f - 1) - 1) // s + 1
                 for i, f, p, s, d in zip(spatial, filt, pads, strides, dils))


def forward(x, w, pads, strides, dils, groups=1, out=None):
    """y = conv(x, w), float64; `out`: the first output lengths alone (the dx of a transposed
    convolution whose output padding reaches past the stride)."""
    x = np.asarray(x, np.float64)
    w = np.asarray(w, np.float64)
    n, c = x.shape[:2]
    k, filt = w.shape[0], w.shape[2:]
    out = output_spatial(x.shape[2:], filt, pads, strides, dils) if out is None else tuple(out)
    g = groups
    wm = w.reshape(g, k // g, -1)[None]
    y = np.empty((n, k) + tuple(out))
    for b in _batch_chunks(n, c * int(np.prod(filt)) * int(np.prod(out))):
        cols = _im2col(_pad(x[b], pads), filt, out, strides, dils)           # (n, C, F, O)
        cols = cols.reshape(cols.shape[0], g, (c // g) * cols.shape[2], -1)
        y[b] = np.matmul(wm, cols).reshape((cols.shape[0], k) + tuple(out))   # (n, G, K/G, O)
    return y


def backward_data(dy, w, in_spatial, pads, strides, dils, groups=1):
    """dx of y = conv(x, w), for x of spatial lengths `in_spatial` (the adjoint of forward)."""
    dy = np.asarray(dy, np.float64)
    w = np.asarray(w, np.float64)
    n, k = dy.shape[:2]
    out = dy.shape[2:]
    cg, filt = w.shape[1], w.shape[2:]
    g = groups
    nf = int(np.prod(filt))
    wt = w.reshape(g, k // g, cg * nf).transpose(0, 2, 1)[None]
    dx = np.empty((n, g * cg) + tuple(in_spatial))
    for b in _batch_chunks(n, g * cg * nf * int(np.prod(out))):
        m = dy[b].shape[0]
        cols = np.matmul(wt, dy[b].reshape(m, g, k // g, -1))                # (n, G, Cg*F, O)
        cols = cols.reshape((m, g * cg, nf) + tuple(out))
        dxp = np.zeros((m, g * cg) + tuple(i + 2 * p for i, p in zip(in_spatial, pads)))
        for fi, offs in enumerate(np.ndindex(*filt)):
            dxp[(slice(None), slice(None)) + _window_slices(offs, dils, out, strides)] += cols[:, :, fi]
        dx[b] = dxp[(slice(None), slice(None)) + tuple(slice(p, p + i) for p, i in zip(pads, in_spatial))]
    return dx


def backward_weights(x, dy, filt, pads, strides, dils, groups=1):
    """dw of y = conv(x, w), w of filter lengths `filt`."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    n, c = x.shape[:2]
    k, out = dy.shape[1], dy.shape[2:]
    g = groups
    dw = np.zeros((g, k // g, (c // g) * int(np.prod(filt))))
    for b in _batch_chunks(n, c * int(np.prod(filt)) * int(np.prod(out))):
        cols = _im2col(_pad(x[b], pads), filt, out, strides, dils)
        m = cols.shape[0]
        cols = cols.reshape(m, g, (c // g) * cols.shape[2], -1)              # (n, G, Cg*F, O)
        dw += np.matmul(dy[b].reshape(m, g, k // g, -1), cols.transpose(0, 1, 3, 2)).sum(axis=0)
    return dw.reshape((k, c // g) + tuple(filt))


def directions(x, w, dy, pads, strides, dils, groups=1, transpose=False, adj=None):
    """The three directions of one layer as the library's API names them: (y, dx, dw) for the
    user's x, w and dy (dy of the output's shape, or None: then y alone is computed and dx, dw are
    None). A transposed layer (w of (C, K/groups, filter...)) is the adjoint of an ordinary one."""
    filt = np.shape(w)[2:]
    spatial = np.shape(x)[2:]
    args = (pads, strides, dils, groups)
    if transpose:
        out = output_spatial(spatial, filt, pads, strides, dils, True, adj)
        y = backward_data(x, w, out, *args)
        if dy is None:
            return y, None, None
        return y, forward(dy, w, *args, out=spatial), backward_weights(dy, x, filt, *args)
    y = forward(x, w, *args)
    if dy is None:
        return y, None, None
    return y, backward_data(dy, w, spatial, *args), backward_weights(x, dy, filt, *args)


def reference(case, rng):
    """Random x, w, dy (standard normal, float32) for a test case and the float64 y, dx, dw.
    `case` has xshape, wshape, pad, stride, dil, groups, transpose and adj."""
    x = rng.standard_normal(case.xshape).astype(np.float32)
    w = rng.standard_normal(case.wshape).astype(np.float32)
    k = w.shape[1] * case.groups if case.transpose else w.shape[0]
    out = output_spatial(x.shape[2:], w.shape[2:], case.pad, case.stride, case.dil, case.transpose, case.adj)
    dy = rng.standard_normal((x.shape[0], k) + out).astype(np.float32)
    y, dx, dw = directions(x, w, dy, case.pad, case.stride, case.dil, case.groups, case.transpose, case.adj)
    return x, w, dy, y, dx, dw
