"""float64 NumPy reference of batch normalization, written from the formulas (no code shared with
the C++ kernels). Spatial mode: one statistic per channel over N and the spatial dims; per
activation: one per (C, [D,] H, W) element over N. Parameter arrays have the derived shape
(1xCx1x1 / 1xCxHxW, 5-d likewise)."""
import numpy as np

SPATIAL = 1
PER_ACTIVATION = 0


def axes(mode, ndim):
    """The reduction axes of x for `mode`."""
    return (0,) + tuple(range(2, ndim)) if mode == SPATIAL else (0,)


def param_shape(mode, shape):
    if mode == SPATIAL:
        return (1, shape[1]) + (1,) * (len(shape) - 2)
    return (1,) + tuple(shape[1:])


def batch_stats(x, mode):
    """(mean, biased variance, element count per statistic), float64, in the parameter shape."""
    x = np.asarray(x, np.float64)
    ax = axes(mode, x.ndim)
    mean = x.mean(axis=ax, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=ax, keepdims=True)
    m = x.size // mean.size
    return mean, var, m


def forward(x, scale, bias, mean, var, eps):
    """scale * (x - mean) / sqrt(var + eps) + bias, all float64."""
    x = np.asarray(x, np.float64)
    return (np.asarray(scale, np.float64) * (x - mean) / np.sqrt(np.asarray(var, np.float64) + eps)
            + np.asarray(bias, np.float64))


def forward_training(x, mode, scale, bias, eps, running_mean=None, running_var=None, factor=0.0):
    """(y, saved mean, saved inverse std, new running mean, new running variance). The running
    variance takes the unbiased batch variance (the biased one when a statistic has 1 element)."""
    mean, var, m = batch_stats(x, mode)
    y = forward(x, scale, bias, mean, var, eps)
    inv_std = 1.0 / np.sqrt(var + eps)
    new_rm = new_rv = None
    if running_mean is not None:
        unbiased = var * (m / (m - 1.0)) if m > 1 else var
        new_rm = (1.0 - factor) * np.asarray(running_mean, np.float64) + factor * mean
        new_rv = (1.0 - factor) * np.asarray(running_var, np.float64) + factor * unbiased
    return y, mean, inv_std, new_rm, new_rv


def backward(x, dy, mode, scale, mean, inv_std):
    """(dx, dscale, dbias) of y = scale * (x - mean) * inv_std + bias, where mean and inv_std are
    the batch statistics (or the saved ones) treated as functions of x as in training."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    ax = axes(mode, x.ndim)
    m = x.size // np.asarray(mean).size
    xhat = (x - mean) * inv_std
    dbias = dy.sum(axis=ax, keepdims=True)
    dscale = (dy * xhat).sum(axis=ax, keepdims=True)
    dx = np.asarray(scale, np.float64) * inv_std / m * (m * dy - dbias - xhat * dscale)
    return dx, dscale, dbias
