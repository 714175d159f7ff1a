"""Float64 reference of LRN (MIOpen's semantics), sharing no code with the C++ kernels.

The forward is written with PyTorch tensor ops in float64 so that autograd gives the exact
gradient for the backward reference; PyTorch's own local_response_norm only matches MIOpen's
cross-channel mode for odd N and has no within-channel mode.

Window of c (and of h, w within-channel): [c - (N-1)//2, c + N-1-(N-1)//2], clipped to the
tensor (within-channel: zero padding). Scale = K + alpha/N * sum x^2 (cross-channel) or
K + alpha/(N*N) * sum x^2 (within-channel); y = x * scale^-beta.
"""
import numpy as np
import torch

CROSS, WITHIN = 1, 0   # miopenLRNCrossChannel, miopenLRNWithinChannel


def _scale(x, mode, n, alpha, k):
    lo = (n - 1) // 2
    hi = n - 1 - lo
    sq = x * x
    if mode == CROSS:
        C = x.shape[1]
        padded = torch.nn.functional.pad(sq, (0, 0, 0, 0, lo, hi))        # pad channels
        total = sum(padded[:, j:j + C] for j in range(n))
        return k + alpha / n * total
    H, W = x.shape[2], x.shape[3]
    padded = torch.nn.functional.pad(sq, (lo, hi, lo, hi))                 # pad w, then h
    total = sum(padded[:, :, i:i + H, j:j + W] for i in range(n) for j in range(n))
    return k + alpha / (n * n) * total


def forward(x, mode, n, alpha, beta, k):
    """(y, scale) as float64 NumPy arrays."""
    xt = torch.from_numpy(np.asarray(x, dtype=np.float64))
    s = _scale(xt, mode, n, alpha, k)
    return (xt * s.pow(-beta)).numpy(), s.numpy()


def backward(x, dy, mode, n, alpha, beta, k):
    """dL/dx for the upstream gradient dy, by autograd through the float64 forward."""
    xt = torch.from_numpy(np.asarray(x, dtype=np.float64)).requires_grad_(True)
    y = xt * _scale(xt, mode, n, alpha, k).pow(-beta)
    y.backward(torch.from_numpy(np.asarray(dy, dtype=np.float64)))
    return xt.grad.numpy()
