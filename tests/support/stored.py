"""Operands of a storage type in a memory layout on either device, for the typed op tests.

A logical N, C, (D,) H, W array is placed in a buffer as NCHW (packed), NHWC / NDHWC (channels
last: C stride 1) or strided (NCHW with gaps after every C and W run), the gaps filled with NaN;
`desc` is the tensor descriptor with those element strides and the storage type. The buffer is a
DeviceBuffer of the handle, so every storage type (bf16 included) reaches either device the same
way, and `result()` reads the logical array back.

    x = Placed(handle, random_stored(shape, dt, rng), dt, "nhwc")
    y = Placed(handle, poison(out_shape, dt), dt, "nhwc")
    op(..., x.desc, x.buf, ..., y.desc, y.buf)
    check_close(y.result(), expected, dt); assert y.gaps_untouched()
"""
import numpy as np

import miopen_cy as mi
from support.buffers import desc
from support.dtypes import as64

#: The layouts every typed op test runs through.
LAYOUTS = ["nchw", "nhwc", "strided"]


class Placed:
    """Array `a` (logical order, stored dtype) placed in `layout`, copied to the handle's device."""

    def __init__(self, handle, a, dt, layout):
        a = np.asarray(a)
        nd = a.ndim
        if layout == "nchw":
            perm, pad = list(range(nd)), [0] * nd
        elif layout == "nhwc":
            perm, pad = [0] + list(range(2, nd)) + [1], [0] * nd
        elif layout == "strided":
            perm, pad = list(range(nd)), [0, 1] + [0] * (nd - 3) + [3]
        else:
            raise ValueError(layout)
        self.shape, self.dtype = a.shape, a.dtype
        self._perm = perm
        self._phys = tuple(a.shape[p] + pad[p] for p in perm)
        if a.dtype.kind in "iu":                               # integer types: no NaN
            host = np.zeros(self._phys, dtype=a.dtype)
        else:
            host = np.full(self._phys, np.nan, dtype=a.dtype)
        view = self._logical(host)
        view[...] = a
        self.strides = tuple(s // a.dtype.itemsize for s in view.strides)
        self._mask = np.ones(self._phys, dtype=bool)
        self._logical(self._mask)[...] = False
        self.buf = mi.DeviceBuffer.from_numpy(handle, host)
        self.desc = desc(a.shape, self.strides, dt)
        self.layout = layout

    def _logical(self, phys):
        inner = phys[tuple(slice(0, self.shape[p]) for p in self._perm)]
        return inner.transpose(np.argsort(self._perm))

    def _host(self):
        return self.buf.to_numpy(self._phys, self.dtype)

    def result(self):
        """The logical array as the device holds it now."""
        return np.ascontiguousarray(self._logical(self._host()))

    def gaps_untouched(self):
        """Whether every element outside the tensor is still NaN."""
        return bool(np.all(np.isnan(as64(self._host()[self._mask]))))
