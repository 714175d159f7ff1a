"""float64 NumPy softmax reference.

MIOpen's modes on an N, C, ... tensor: CHANNEL = over C for each (n, spatial position), INSTANCE =
over all of C and the spatial dims for each n. FAST and ACCURATE are the same function (FAST only
skips the max subtraction, which the reference always does); LOG is log_softmax.
"""
import numpy as np

FAST, ACCURATE, LOG = 0, 1, 2          # miopenSoftmaxAlgorithm_t
INSTANCE, CHANNEL = 0, 1               # miopenSoftmaxMode_t


def _axes(mode, ndim):
    return (1,) if mode == CHANNEL else tuple(range(1, ndim))


def forward(x, algorithm, mode):
    """y as a float64 array."""
    x = np.ascontiguousarray(x, np.float64)
    axes = _axes(mode, x.ndim)
    with np.errstate(invalid="ignore", over="ignore"):
        z = x - x.max(axis=axes, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=axes, keepdims=True)
        return z - np.log(s) if algorithm == LOG else e / s


def backward_from_output(y, dy, algorithm, mode):
    """dx from the forward output y and the upstream gradient dy."""
    y = np.ascontiguousarray(y, np.float64)
    dy = np.ascontiguousarray(dy, np.float64)
    axes = _axes(mode, y.ndim)
    if algorithm == LOG:
        return dy - np.exp(y) * dy.sum(axis=axes, keepdims=True)
    return y * (dy - (y * dy).sum(axis=axes, keepdims=True))


def backward(x, dy, algorithm, mode):
    """(y, dx): the forward output at x and the gradient for the upstream gradient dy."""
    y = forward(x, algorithm, mode)
    return y, backward_from_output(y, dy, algorithm, mode)
