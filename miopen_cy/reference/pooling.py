"""float64 NumPy reference of pooling (max, average excluding padding, average over the full
window), with what PyTorch cannot check: pads above half the window (PyTorch refuses them), the
index of a NaN maximum, and the mask index encoding.

Windows are scanned in (d, h, w) order over their in-bounds positions; the max is the first
largest value, NaN counting as larger than every number. Shapes are (N, C, *spatial) with 2 or 3
spatial dims."""
import itertools

import numpy as np

MAX, AVERAGE, AVERAGE_INCLUSIVE = 0, 1, 2


def output_shape(shape, window, pad, stride):
    n, c, *spatial = shape
    return (n, c) + tuple((i + 2 * p - k) // s + 1
                          for i, k, p, s in zip(spatial, window, pad, stride))


def _windows(spatial, out, window, pad, stride):
    """Each output position with the in-bounds input positions of its window, in scan order, and
    the unclipped window start."""
    for o in itertools.product(*(range(x) for x in out)):
        start = [oi * s - p for oi, s, p in zip(o, stride, pad)]
        ranges = [range(max(st, 0), min(st + k, n)) for st, k, n in zip(start, window, spatial)]
        yield o, start, list(itertools.product(*ranges))


def forward(x, mode, window, pad, stride, out=None):
    """(y, image_index, mask_index) in float64 / int64; indices only meaningful in max mode.
    `out`: the output's spatial lengths where they are not output_shape's."""
    x = np.asarray(x, dtype=np.float64)
    spatial = x.shape[2:]
    out = output_shape(x.shape, window, pad, stride) if out is None else x.shape[:2] + tuple(out)
    y = np.zeros(out)
    image = np.zeros(out, dtype=np.int64)
    mask = np.zeros(out, dtype=np.int64)
    for o, start, positions in _windows(spatial, out[2:], window, pad, stride):
        vals = np.stack([x[(slice(None), slice(None)) + p] for p in positions], axis=-1)
        sel = (slice(None), slice(None)) + o
        if mode == MAX:
            # NaN is the largest: rank NaN above +inf, then take the first of the largest.
            key = np.where(np.isnan(vals), np.inf, vals)
            is_nan = np.isnan(vals)
            best = np.where(is_nan.any(axis=-1), np.argmax(is_nan, axis=-1),
                            np.argmax(key, axis=-1))
            y[sel] = np.take_along_axis(vals, best[..., None], axis=-1)[..., 0]
            chosen = np.array(positions)[best]                  # (N, C, nsp)
            img = np.zeros(best.shape, dtype=np.int64)
            msk = np.zeros(best.shape, dtype=np.int64)
            for d in range(len(spatial)):
                img = img * spatial[d] + chosen[..., d]
                msk = msk * window[d] + (chosen[..., d] - start[d])
            image[sel] = img
            mask[sel] = msk
        else:
            divisor = len(positions) if mode == AVERAGE else int(np.prod(window))
            y[sel] = vals.sum(axis=-1) / divisor
    return y, image, mask


def backward(x, dy, mode, window, pad, stride):
    """dx in float64: dy to the first maximum (max), or dy / divisor to each position (averages)."""
    x = np.asarray(x, dtype=np.float64)
    dy = np.asarray(dy, dtype=np.float64)
    spatial = x.shape[2:]
    dx = np.zeros(x.shape)
    if mode == MAX:
        _, image, _ = forward(x, mode, window, pad, stride, dy.shape[2:])
        n, c = x.shape[:2]
        rows = np.arange(n * c)[:, None]
        np.add.at(dx.reshape(n * c, -1), (rows, image.reshape(n * c, -1)), dy.reshape(n * c, -1))
        return dx
    for o, start, positions in _windows(spatial, dy.shape[2:], window, pad, stride):
        sel = (slice(None), slice(None)) + o
        divisor = len(positions) if mode == AVERAGE else int(np.prod(window))
        for p in positions:
            dx[(slice(None), slice(None)) + p] += dy[sel] / divisor
    return dx
