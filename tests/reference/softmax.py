"""Float64 softmax oracle: PyTorch's softmax / log_softmax in float64, autograd for gradients.

MIOpen's modes on an N, C, H, W tensor: CHANNEL = over C for each (n, h, w) (dim=1), INSTANCE =
over C*H*W for each n (flattened). FAST and ACCURATE are the same function (FAST only skips the
max subtraction); LOG is log_softmax.
"""
import numpy as np
import torch

FAST, ACCURATE, LOG = 0, 1, 2          # miopenSoftmaxAlgorithm_t
INSTANCE, CHANNEL = 0, 1               # miopenSoftmaxMode_t


def _apply(xt, algorithm, mode):
    f = torch.log_softmax if algorithm == LOG else torch.softmax
    if mode == CHANNEL:
        return f(xt, 1)
    return f(xt.reshape(xt.shape[0], -1), 1).reshape(xt.shape)


def forward(x, algorithm, mode):
    """y as a float64 NumPy array."""
    return _apply(torch.from_numpy(np.asarray(x, dtype=np.float64)), algorithm, mode).numpy()


def backward(x, dy, algorithm, mode):
    """(y, dx): the forward output at x and the gradient for the upstream gradient dy."""
    xt = torch.from_numpy(np.asarray(x, dtype=np.float64)).requires_grad_(True)
    y = _apply(xt, algorithm, mode)
    y.backward(torch.from_numpy(np.asarray(dy, dtype=np.float64)))
    return y.detach().numpy(), xt.grad.numpy()
