"""Test helpers: descriptors from shapes, strided buffers, poisoning, error norms (relative L2,
ulps)."""
import numpy as np

import miopen_cy as mi


def rel_l2(actual, expected, scale=None):
    """Relative L2 error, computed in float64: relative to `expected`, or to `scale` where given
    (e.g. support.conv.magnitudes: the sizes of the terms each output sums). NaN anywhere gives inf."""
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        return np.inf
    denom = np.linalg.norm(np.asarray(e if scale is None else scale, dtype=np.float64).ravel())
    num = np.linalg.norm((a - e).ravel())
    return num / denom if denom > 0 else num


def max_ulp(a, b):
    """The largest distance in float32 units in the last place between a and b (NaN-free)."""
    a = np.ascontiguousarray(a, np.float32).view(np.int32).astype(np.int64)
    b = np.ascontiguousarray(b, np.float32).view(np.int32).astype(np.int64)
    a = np.where(a < 0, -(a & 0x7FFFFFFF), a)
    b = np.where(b < 0, -(b & 0x7FFFFFFF), b)
    return int(np.max(np.abs(a - b))) if a.size else 0


def desc(shape, strides=None, dtype=mi.miopenFloat):
    """A TensorDescriptor of `shape` (and element `strides`, packed when None)."""
    d = mi.TensorDescriptor()
    shape = [int(s) for s in shape]
    if strides is None:
        mi.setTensorDescriptor(d, dtype, len(shape), shape, None)
    else:
        mi.setTensorDescriptor(d, dtype, len(shape), shape, [int(s) for s in strides])
    return d


class Strided:
    """A tensor living inside a larger NaN-filled buffer with gaps between rows: `buf` is what the
    op gets, `view` the logical array, `strides` its element strides for the descriptor.
    After a run, `gaps_untouched()` says whether anything outside the tensor was written."""

    def __init__(self, shape, rng=None, pad=(0, 1, 0, 3), fill=None, dtype=np.float32):
        shape = tuple(int(s) for s in shape)
        padded = tuple(s + (pad[i] if i < len(pad) else 0) for i, s in enumerate(shape))
        self.buf = np.full(int(np.prod(padded)), np.nan, dtype=dtype)
        full = self.buf.reshape(padded)
        self.view = full[tuple(slice(0, s) for s in shape)]
        itemsize = np.dtype(dtype).itemsize
        self.strides = tuple(s // itemsize for s in self.view.strides)
        self.shape = shape
        if fill is not None:
            self.view[...] = fill
        elif rng is not None:
            self.view[...] = rng.standard_normal(shape).astype(dtype)
        self._mask = np.ones(self.buf.shape, dtype=bool)
        self._mask.reshape(padded)[tuple(slice(0, s) for s in shape)] = False

    def desc(self, dtype=mi.miopenFloat):
        return desc(self.shape, self.strides, dtype)

    def gaps_untouched(self):
        return bool(np.all(np.isnan(self.buf[self._mask])))


def poisoned(shape, dtype=np.float32):
    """An output array filled with NaN, so elements the op does not write fail the check."""
    return np.full(shape, np.nan, dtype=dtype)
