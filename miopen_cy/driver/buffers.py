"""The data a layer runs on: host tensors of any storage type (fp32, fp16, bf16), layout or
strides, the device (the handle and its buffers), the random or file-loaded inputs."""
import numpy as np

import miopen_cy as mi
from .dtypes import FP32
from .flags import UsageError


def layout_strides(lens, layout):
    """Packed strides of logical (N, C, spatial...) lengths stored in `layout` order."""
    logical = "NC" + {1: "W", 2: "HW", 3: "DHW"}[len(lens) - 2]
    if sorted(layout) != sorted(logical):
        raise UsageError(f"layout {layout} does not fit a {len(lens)}-d tensor ({logical})")
    order = [logical.index(ch) for ch in layout]     # memory order, outermost first
    strides = [0] * len(lens)
    s = 1
    for axis in reversed(order):
        strides[axis] = s
        s *= lens[axis]
    return strides


class HostTensor:
    """A tensor of logical (N, C, spatial...) lengths with element strides, stored in `dtype` (a
    dtypes.DType, fp32 by default): `buf` is the whole buffer the library gets, `view` the logical
    array over it."""

    def __init__(self, lens, strides=None, layout=None, fill=np.nan, dtype=FP32):
        self.lens = tuple(int(v) for v in lens)
        self.dtype = dtype
        if strides is None:
            strides = layout_strides(self.lens, layout) if layout else _packed(self.lens)
        self.strides = tuple(int(s) for s in strides)
        span = 0 if 0 in self.lens else 1 + sum((l - 1) * s for l, s in zip(self.lens, self.strides))
        self.buf = np.full(max(span, 1), fill, dtype=np.float32).astype(dtype.np)
        size = self.buf.itemsize
        self.view = np.lib.stride_tricks.as_strided(self.buf, self.lens, [s * size for s in self.strides])

    @property
    def packed(self):
        return self.strides == tuple(_packed(self.lens))

    def desc(self):
        d = mi.TensorDescriptor()
        mi.setTensorDescriptor(d, self.dtype.mi, len(self.lens), list(self.lens),
                               None if self.packed else list(self.strides))
        return d

    def set(self, values):
        """Stores `values` (already of the storage type, or rounded to it here)."""
        self.view[...] = self.dtype.store(values) if np.asarray(values).dtype != self.buf.dtype else values

    def get(self):
        """The logical values as stored (fp32 data as float32, 16-bit data in its type)."""
        return np.array(self.view, dtype=self.buf.dtype)


def _packed(lens):
    strides, s = [], 1
    for l in reversed(lens):
        strides.append(s)
        s *= max(int(l), 1)
    return list(reversed(strides))


class Device:
    """The handle and the data the calls get: NumPy arrays on the CPU (used in place), device
    buffers on a GPU."""

    def __init__(self, name):
        self.handle = mi.Handle(device=name)
        self.gpu = self.handle.device != "cpu"
        self.arch = "cpu" if not self.gpu else "gpu"
        mi.enableProfiling(self.handle, True)

    def put(self, t):
        """What to pass for HostTensor `t` (its buffer goes to the device on a GPU)."""
        if not self.gpu:
            return t.buf
        return mi.DeviceBuffer.from_numpy(self.handle, t.buf)

    def get(self, t, dev):
        """Copies the device data `dev` of `t` back into t.buf (no-op on the CPU)."""
        if self.gpu:
            t.buf[...] = dev.to_numpy(t.buf.shape, t.buf.dtype)
        return t.get()

    def refill(self, t, dev, values):
        """Sets the values of HostTensor `t` and, on a GPU, copies them to its device data `dev`."""
        t.set(values)
        if self.gpu:
            dev.copy_from(t.buf)

    def workspace(self, nbytes):
        if nbytes == 0:
            return None
        if not self.gpu:
            return np.empty(nbytes, np.uint8)
        return mi.DeviceBuffer(self.handle, nbytes)


def data_rng(seed=0):
    return np.random.default_rng(seed)


def library_call(name):
    """The mirror function `name`, or a clear error when this build lacks it."""
    fn = getattr(mi, name, None)
    if fn is None:
        raise LibraryMissing(f"this build of miopen_cy has no {name} (the operation is not implemented yet)")
    return fn


class LibraryMissing(Exception):
    pass


def load_or(path, lens, make):
    n = int(np.prod(lens))
    if path:
        try:
            data = np.fromfile(path, dtype=np.float32, count=n)
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}") from None
        if data.size == n:
            return data.reshape(lens)
        raise UsageError(f"{path} holds {data.size} floats; {n} are needed")
    return make(tuple(lens)).astype(np.float32)
