"""float64 NumPy reference of the tensor operations: SetTensor, ScaleTensor and OpTensor
(add, mul, min, max with alpha1, alpha2, beta; B broadcasts to A)."""
import numpy as np

ADD, MUL, MIN, MAX = 0, 1, 2, 3        # miopenTensorOp_t

_OPS = {ADD: np.add, MUL: np.multiply, MIN: np.minimum, MAX: np.maximum}


def set_tensor(shape, value):
    return np.full(shape, float(value))


def scale_tensor(a, alpha):
    return np.asarray(a, np.float64) * alpha


def op_tensor(op, alpha1, a, alpha2, b, beta=0.0, c=None):
    """op(alpha1 * A, alpha2 * B) + beta * C (C unused when beta is 0)."""
    r = _OPS[op](alpha1 * np.asarray(a, np.float64), alpha2 * np.asarray(b, np.float64))
    return r if beta == 0 else r + beta * np.asarray(c, np.float64)
