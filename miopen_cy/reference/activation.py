"""float64 NumPy reference of the activation modes, forward and derivative, with MIOpen's
conventions where PyTorch's differ or say nothing: the derivative at the kinks (RELU'(0) = 0,
LEAKYRELU'(0) = alpha, CLIPPEDRELU' = 1 only inside (0, alpha), ABS'(0) = 1, ELU'(0) = 1) and
POWER with a zero base (value 0; derivative beta for gamma == 1, else 0).

Parameters: a = activAlpha, b = activBeta, g = activGamma. Modes are the miopenActivationMode_t
values (0 PASTHRU ... 9 ELU)."""
import numpy as np

PASTHRU, LOGISTIC, TANH, RELU, SOFTRELU, ABS, POWER, CLIPPEDRELU, LEAKYRELU, ELU = range(10)
NAMES = ["PASTHRU", "LOGISTIC", "TANH", "RELU", "SOFTRELU", "ABS", "POWER", "CLIPPEDRELU", "LEAKYRELU", "ELU"]


def _sigmoid(x):
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def forward(mode, a, b, g, x):
    """f(x) in float64."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        if mode == PASTHRU:
            return x.copy()
        if mode == LOGISTIC:
            return _sigmoid(x)
        if mode == TANH:
            return b * np.tanh(a * x)
        if mode == RELU:
            return np.where(x > 0, x, np.where(np.isnan(x), x, 0.0))
        if mode == SOFTRELU:
            return np.logaddexp(0.0, x)
        if mode == ABS:
            return np.abs(x)
        if mode == POWER:
            base = a + b * x
            return np.where(base == 0, 0.0, np.power(base, g))
        if mode == CLIPPEDRELU:
            return np.minimum(a, np.maximum(0.0, x))
        if mode == LEAKYRELU:
            return np.where(x > 0, x, a * x)
        if mode == ELU:
            return np.where(x > 0, x, a * np.expm1(x))
    raise ValueError(f"mode {mode}")


def derivative(mode, a, b, g, x):
    """f'(x) in float64, MIOpen's choice at the kinks."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        if mode == PASTHRU:
            return np.ones_like(x)
        if mode == LOGISTIC:
            e = np.exp(-np.abs(x))      # s(1 - s) without the cancellation of 1 - s
            return e / (1.0 + e) ** 2
        if mode == SOFTRELU:
            return _sigmoid(x)
        if mode == TANH:
            return a * b / np.cosh(a * x) ** 2
        if mode == RELU:
            return np.where(x > 0, 1.0, 0.0)
        if mode == ABS:
            return np.where(x >= 0, 1.0, -1.0)
        if mode == POWER:
            base = a + b * x
            at_zero = b if g == 1 else 0.0
            return np.where(base == 0, at_zero, b * g * np.power(base, g - 1))
        if mode == CLIPPEDRELU:
            return np.where((x > 0) & (x < a), 1.0, 0.0)
        if mode == LEAKYRELU:
            return np.where(x > 0, 1.0, a)
        if mode == ELU:
            return np.where(x >= 0, 1.0, a * np.exp(x))
    raise ValueError(f"mode {mode}")


def backward(mode, a, b, g, x, dy):
    """f'(x) * dy in float64."""
    return derivative(mode, a, b, g, x) * np.asarray(dy, dtype=np.float64)
