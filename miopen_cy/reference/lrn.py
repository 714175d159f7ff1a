"""float64 NumPy reference of LRN (MIOpen's semantics), sharing no code with the C++ kernels.

Window of c (and of h, w within-channel): [c - (N-1)//2, c + N-1-(N-1)//2], clipped to the
tensor (within-channel: zero padding). Scale = K + alpha/N * sum x^2 (cross-channel) or
K + alpha/(N*N) * sum x^2 (within-channel); y = x * scale^-beta. The backward is the exact
derivative, written out (PyTorch's local_response_norm only matches MIOpen's cross-channel mode for
odd N and has no within-channel mode).
"""
import numpy as np

CROSS, WITHIN = 1, 0   # miopenLRNCrossChannel, miopenLRNWithinChannel


def _window_sum(v, axis, lo, hi):
    """out[i] = sum of v[i - lo .. i + hi] along `axis`, zero outside."""
    size = v.shape[axis]
    pad = [(0, 0)] * v.ndim
    pad[axis] = (lo, hi)
    vp = np.pad(v, pad)
    out = np.zeros_like(v)
    for o in range(lo + hi + 1):
        out += np.take(vp, range(o, o + size), axis=axis)
    return out


def _terms(x, mode, n, alpha, k):
    """(scale, the alpha factor of the sum, window lengths before and after)."""
    pre = (n - 1) // 2
    post = n - 1 - pre
    sq = x * x
    if mode == CROSS:
        s = _window_sum(sq, 1, pre, post)
        a = alpha / n
    else:                                           # within-channel: an n x n box
        s = _window_sum(_window_sum(sq, 2, pre, post), 3, pre, post)
        a = alpha / (n * n)
    return k + a * s, a, pre, post


def forward(x, mode, n, alpha, beta, k):
    """(y, scale) as float64 arrays."""
    x = np.ascontiguousarray(x, np.float64)
    scale, *_ = _terms(x, mode, n, alpha, k)
    return x * scale ** (-beta), scale


def backward(x, dy, mode, n, alpha, beta, k):
    """dL/dx for the upstream gradient dy."""
    x = np.ascontiguousarray(x, np.float64)
    dy = np.ascontiguousarray(dy, np.float64)
    scale, a, pre, post = _terms(x, mode, n, alpha, k)
    t = dy * x * scale ** (-beta - 1.0)
    if mode == CROSS:
        back = _window_sum(t, 1, post, pre)
    else:
        back = _window_sum(_window_sum(t, 2, post, pre), 3, post, pre)
    return dy * scale ** (-beta) - 2.0 * a * beta * x * back
