"""Dropout: the mask generator (Philox-4x32-10 as hip/src/dropout/dropout_args.hpp documents it)
and forward / backward in float64, written from the definitions in NumPy."""
import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LO = np.uint64(0xFFFFFFFF)


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Philox-4x32-10 of counters (arrays of uint32 words) under the key (k0, k1): four uint32
    arrays (Salmon et al., SC'11; Random123's constants)."""
    c = [np.asarray(v, np.uint64) & _LO for v in (c0, c1, c2, c3)]
    k0, k1 = int(k0) & 0xFFFFFFFF, int(k1) & 0xFFFFFFFF
    for r in range(10):
        if r:
            k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
        p0 = _M0 * c[0]
        p1 = _M1 * c[2]
        hi0, lo0 = p0 >> np.uint64(32), p0 & _LO
        hi1, lo1 = p1 >> np.uint64(32), p1 & _LO
        c = [hi1 ^ c[1] ^ np.uint64(k0), lo1, hi0 ^ c[3] ^ np.uint64(k1), lo0]
    return [v.astype(np.uint32) for v in c]


def words(seed, offset, numel):
    """The generator word of each of numel elements of the call at `offset` (uint32 array)."""
    g = np.arange((numel + 3) // 4, dtype=np.uint64)
    out = philox4x32_10(g & _LO, g >> np.uint64(32), np.full_like(g, offset & 0xFFFFFFFF),
                        np.full_like(g, (offset >> 32) & 0xFFFFFFFF), seed & 0xFFFFFFFF,
                        (seed >> 32) & 0xFFFFFFFF)
    return np.stack(out, axis=1).reshape(-1)[:numel]


def mask(seed, offset, numel, rate):
    """The keep mask (uint8, 1 kept) of numel elements: ((word >> 8) + 1) * 2^-24 > rate, with the
    rate rounded to fp32 as the C API takes it."""
    u = ((words(seed, offset, numel) >> np.uint32(8)).astype(np.float64) + 1.0) * 2.0 ** -24
    return (u > float(np.float32(rate))).astype(np.uint8)


def apply(x, keep, rate):
    """y = keep ? x / (1 - rate) : 0 in float64 (scale from the fp32 rate, as the library's);
    x any shape, keep flat in x's logical order."""
    r = np.float32(rate)
    scale = 0.0 if r == np.float32(1) else float(np.float32(1) / (np.float32(1) - r))
    x = np.asarray(x, np.float64)
    return np.where(keep.reshape(x.shape) != 0, x * scale, 0.0)
