"""float64 NumPy reference of miopenReduceTensor (MIOpen's semantics, its driver's reference
driver/miopen_Reduction.hpp), sharing no code with the C++ kernels.

C = alpha * op(A over the dims where C has length 1) + beta * C (beta == 0: C not read).
ADD sum, MUL product, AVG mean, NORM1 sum |a|, NORM2 sqrt(sum a^2); MIN, MAX, AMAX (max |a|)
pick the first element that wins and skip NaNs, or with NaN propagation give NaN (the index of
the last NaN, as MIOpen's sequential reference overwrites with each NaN). An all-NaN MIN / MAX /
AMAX without propagation gives the identity (+inf, -inf, 0; MIOpen's MIN / MAX give the type's
largest / lowest finite value) at index 0. Indices are row-major within the reduced dims.
"""
import numpy as np

ADD, MUL, MIN, MAX, AMAX, AVG, NORM1, NORM2 = range(8)
EXTREME = (MIN, MAX, AMAX)


def reduced_dims(in_shape, out_shape):
    """The dims reduced: those where the output has length 1 (every other length must match)."""
    if len(in_shape) != len(out_shape):
        raise ValueError("input and output must have the same number of dimensions")
    dims = []
    for d, (i, o) in enumerate(zip(in_shape, out_shape)):
        if o == 1:
            dims.append(d)
        elif o != i:
            raise ValueError(f"output length {o} of dim {d} is neither 1 nor {i}")
    return dims


def _rows(a, dims):
    """A as (outputs, K): the kept dims in order, then the reduced dims in order."""
    keep = [d for d in range(a.ndim) if d not in dims]
    t = np.transpose(a, keep + list(dims))
    k = int(np.prod([a.shape[d] for d in dims])) if dims else 1
    return t.reshape(-1, k)


def reduce(a, out_shape, op, nan_propagate=False, alpha=1.0, beta=0.0, c=None):
    """(values, indices): float64 values of out_shape and int64 indices (0 where the op has
    none), from the float64 input `a`."""
    a = np.asarray(a, np.float64)
    dims = reduced_dims(a.shape, out_shape)
    r = _rows(a, dims)
    k = r.shape[1]
    idx = np.zeros(r.shape[0], np.int64)
    with np.errstate(all="ignore"):
        if op == ADD:
            v = r.sum(axis=1)
        elif op == MUL:
            v = r.prod(axis=1)
        elif op == AVG:
            v = r.sum(axis=1) / k
        elif op == NORM1:
            v = np.abs(r).sum(axis=1)
        elif op == NORM2:
            v = np.sqrt((r * r).sum(axis=1))
        elif op in EXTREME:
            x = np.abs(r) if op == AMAX else r
            nan = np.isnan(x)
            init = {MIN: np.inf, MAX: -np.inf, AMAX: 0.0}[op]
            if op == MIN:
                best = np.where(nan, np.inf, x).min(axis=1)
            else:
                best = np.where(nan, -np.inf, x).max(axis=1)
            some = (~nan).any(axis=1)
            hit = (~nan) & (x == best[:, None])
            if op == AMAX:
                best = np.maximum(best, 0.0)  # the identity 0 wins over nothing
                hit = (~nan) & (x == best[:, None])
            v = np.where(some, best, init)
            first = np.argmax(hit, axis=1)
            idx = np.where(hit.any(axis=1), first, 0)
            if nan_propagate:
                any_nan = nan.any(axis=1)
                last_nan = k - 1 - np.argmax(nan[:, ::-1], axis=1)
                v = np.where(any_nan, np.nan, v)
                idx = np.where(any_nan, last_nan, idx)
        else:
            raise ValueError(f"op {op} is not a miopenReduceTensorOp_t value")
        out = alpha * v
        if beta != 0.0:
            out = out + beta * np.asarray(c, np.float64).reshape(-1)
    return out.reshape(out_shape), idx.reshape(out_shape)


def round_int(values, dtype):
    """float64 results stored into an integer type as miopen_cy does: NaN to 0, saturated,
    rounded to nearest even."""
    info = np.iinfo(dtype)
    v = np.nan_to_num(np.asarray(values, np.float64), nan=0.0, posinf=info.max, neginf=info.min)
    return np.rint(np.clip(v, info.min, info.max)).astype(dtype)
