"""The storage types of the compute calls in tests: NumPy dtypes for miopenFloat, miopenHalf and
miopenBFloat16 (ml_dtypes.bfloat16, an optional dependency: bf16 cases skip without it), inputs
rounded to the type, the float64 value of what is stored, and the tolerances.

The references compute in float64 from the stored (already rounded) inputs, so the only error
of a correct kernel is fp32 arithmetic plus one rounding to the storage type at the end:
`check_close` allows `ulps` units in the last place of the storage type, relative to the larger
of |reference| and `floor` (for results that cancel towards zero).

    for dt in FLOAT_TYPES: ...
    x = random_stored((2, 3, 4, 5), dt, rng)        # NumPy array of the storage dtype
    ref = reference(as64(x))                        # float64
    check_close(y, ref, dt, ulps=2)
"""
import numpy as np
import pytest

import miopen_cy as mi

try:
    import ml_dtypes
    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - ml_dtypes is in the test extra
    ml_dtypes = None
    BFLOAT16 = None

#: The types of MIOpen's floating-point compute calls, as pytest params with readable ids.
FLOAT_TYPES = [
    pytest.param(mi.miopenFloat, id="fp32"),
    pytest.param(mi.miopenHalf, id="fp16"),
    pytest.param(mi.miopenBFloat16, id="bf16",
                 marks=pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes not installed")),
]

#: The 16-bit types alone.
HALF_TYPES = FLOAT_TYPES[1:]

#: Machine epsilon (one unit in the last place at 1.0) of each storage type.
EPS = {mi.miopenFloat: 2.0 ** -23, mi.miopenHalf: 2.0 ** -10, mi.miopenBFloat16: 2.0 ** -7}

#: MIOpenDriver's tolerances on its rms_range error metric, per type (fp32 / fp16-bf16), as its
#: drivers set them (activ/softmax/pool/lrn/tensorop/bn drivers).
RMS_TOL = {mi.miopenFloat: 1.5e-6, mi.miopenHalf: 8.2e-3, mi.miopenBFloat16: 8.2e-3 * 8}


def np_dtype(dt):
    """The NumPy dtype that stores MIOpen data type `dt`."""
    dt = int(dt)
    if dt == int(mi.miopenFloat):
        return np.dtype(np.float32)
    if dt == int(mi.miopenHalf):
        return np.dtype(np.float16)
    if dt == int(mi.miopenBFloat16):
        if BFLOAT16 is None:
            pytest.skip("ml_dtypes not installed")
        return BFLOAT16
    if dt == int(mi.miopenInt8):
        return np.dtype(np.int8)
    if dt == int(mi.miopenInt32):
        return np.dtype(np.int32)
    if dt == int(mi.miopenDouble):
        return np.dtype(np.float64)
    raise ValueError(f"no NumPy dtype for {dt}")


def round_to(values, dt):
    """float64 (or any) values rounded once, to nearest even, to the storage type of `dt`."""
    return np.asarray(values, dtype=np.float64).astype(np.float32).astype(np_dtype(dt)) \
        if int(dt) != int(mi.miopenFloat) else np.asarray(values, dtype=np.float32)


def random_stored(shape, dt, rng, lo=-2.0, hi=2.0):
    """Uniform random values in [lo, hi) rounded to the storage type (never all zeros)."""
    return round_to(rng.uniform(lo, hi, size=shape), dt)


def as64(a):
    """The float64 values of a stored array (exact for every storage type)."""
    return np.asarray(a).astype(np.float32).astype(np.float64) \
        if np.asarray(a).dtype == BFLOAT16 and BFLOAT16 is not None \
        else np.asarray(a).astype(np.float64)


def poison(shape, dt):
    """An output buffer full of NaN in the storage type, so unwritten elements fail."""
    return np.full(shape, np.nan, dtype=np_dtype(dt))


def rms_range(actual, expected):
    """MIOpenDriver's error metric: ||a - e||_2 / (sqrt(n) * max(max|a|, max|e|))."""
    a, e = as64(actual).ravel(), np.asarray(expected, np.float64).ravel()
    mag = max(np.max(np.abs(a)), np.max(np.abs(e)), np.finfo(np.float64).tiny)
    return float(np.linalg.norm(a - e) / (np.sqrt(a.size) * mag))


def check_close(actual, expected, dt, ulps=2.0, floor=None, err_msg=""):
    """Every element of `actual` (stored) within `ulps` units of the storage type of the float64
    `expected`, relative to max(|expected|, floor); floor defaults to 1 (absolute near zero)."""
    a = as64(actual)
    e = np.asarray(expected, dtype=np.float64)
    assert a.shape == e.shape, (a.shape, e.shape)
    floor = 1.0 if floor is None else floor
    scale = np.maximum(np.abs(e), floor)
    both_nan = np.isnan(a) & np.isnan(e)
    same_inf = np.isinf(a) & (a == e)
    err = np.where(both_nan | same_inf, 0.0, np.abs(a - e) / scale)
    worst = float(np.max(err)) if err.size else 0.0
    limit = ulps * EPS[int(dt)]
    if not worst <= limit:
        i = np.unravel_index(int(np.nanargmax(np.where(np.isnan(err), np.inf, err))), err.shape)
        raise AssertionError(f"{err_msg} worst error {worst:.3g} > {limit:.3g} "
                             f"({ulps} ulp of {mi.DataType(int(dt)).name}) at {i}: "
                             f"got {a[i]!r}, expected {e[i]!r}")
